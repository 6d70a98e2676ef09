// How a finding reads in a failed test: the lines Go's pilotagetest writes
// (rule and message; the spec sentence; the probe, its vector and
// Language; the request; the response around the offending value; where
// in the snapshot), built from pilotage-lint's --format json finding and
// the recorded call it points into. Nothing here judges: every verdict is
// the binary's.

import * as JsonPointer from '@hyperjump/json-pointer';

/** The most JSON a request or response line shows; the snapshot holds it whole. */
export const MAX_SHOWN = 2000;

/**
 * excerpt returns value as compact JSON on one line, at most max
 * characters of it (plus the elision marks), centred on the value the
 * segments lead to, shown with its member name; the start when segments
 * are absent or lead nowhere. It cuts as lint/excerpt.Compact does for
 * pilotagetest, so a long answer still shows the member that decided.
 *
 * @param {unknown} value
 * @param {string[] | undefined} segments
 * @param {number} [max]
 */
export function excerpt(value, segments, max = MAX_SHOWN) {
  let text = '';
  let at = 0;
  let end = 0;
  /** @param {unknown} v @param {string[]} path @param {number} keyStart */
  const write = (v, path, keyStart) => {
    if (Array.isArray(v)) {
      text += '[';
      v.forEach((item, i) => {
        if (i > 0) text += ',';
        write(item, [...path, String(i)], text.length);
      });
      text += ']';
    } else if (v !== null && typeof v === 'object') {
      text += '{';
      Object.entries(v).forEach(([k, item], i) => {
        if (i > 0) text += ',';
        const key = text.length;
        text += `${JSON.stringify(k)}:`;
        write(item, [...path, k], key);
      });
      text += '}';
    } else {
      text += JSON.stringify(v) ?? 'null';
    }
    if (segments && path.length === segments.length && path.every((s, i) => s === segments[i])) {
      at = keyStart;
      end = text.length;
    }
  };
  write(value, [], 0);
  if (max <= 0 || text.length <= max) return text;
  let lo = end - at < max ? at - Math.floor((max - (end - at)) / 2) : at;
  lo = Math.max(lo, 0);
  let hi = lo + max;
  if (hi > text.length) {
    hi = text.length;
    lo = Math.max(hi - max, 0);
  }
  let out = '';
  if (lo > 0) out += `… (${Buffer.byteLength(text.slice(0, lo))} bytes before) `;
  out += text.slice(lo, hi);
  if (hi < text.length) {
    out += ` … (${Buffer.byteLength(text.slice(hi))} bytes after, ${Buffer.byteLength(text)} in all)`;
  }
  return out;
}

/**
 * The recorded call a finding lies in, and the pointer segments of the
 * finding below the call's arguments or answer.
 *
 * @param {Record<string, any>} snapshot
 * @param {{pointer: string, probe?: {call: string}}} finding
 */
export function callOf(snapshot, finding) {
  if (!finding.probe) return undefined;
  const call = /** @type {Record<string, any> | undefined} */ (JsonPointer.get(finding.probe.call, snapshot));
  if (!call || typeof call !== 'object') return undefined;
  const inCall = [...JsonPointer.pointerSegments(finding.pointer)].slice([...JsonPointer.pointerSegments(finding.probe.call)].length);
  return { call, part: inCall[0], below: inCall.slice(1) };
}

/**
 * describeFinding writes one finding as a failed test shows it.
 *
 * @param {import('./index.js').Finding} f the finding of pilotage-lint --format json
 * @param {{quote?: string, probe?: import('./index.js').PlannedCase, snapshot?: Record<string, any>}} [context]
 *   the rule's spec sentence (from pilotage-lint rules --format json), the
 *   probe the finding lies in, and the recorded snapshot
 */
export function describeFinding(f, { quote, probe, snapshot } = {}) {
  const lines = [`${f.severity} ${f.rule}: ${f.message}`];
  // The probe's sentence decides its answer; the rule's is the general
  // one behind every probe.
  if (probe && (!quote || f.rule === 'probe-expectation')) {
    lines.push(`    spec: ${probe.spec}: ${JSON.stringify(probe.quote)}`);
  } else if (quote) {
    lines.push(`    spec: ${f.spec}: ${JSON.stringify(quote)}`);
  } else if (f.spec) {
    lines.push(`    spec: ${f.spec}`);
  }
  const found = snapshot && f.probe ? callOf(snapshot, f) : undefined;
  if (f.probe) {
    let line = f.probe.vector ? `${f.probe.name} (${f.probe.vector})` : f.probe.name;
    if (f.probe.language) line += `, Language ${f.probe.language}`;
    if (probe) line += ` (${probe.spec})`;
    lines.push(`    probe: ${line}`);
  }
  if (found) {
    const { call, part, below } = found;
    lines.push(`    request: tools/call ${call.name} ${excerpt(call.arguments ?? {}, part === 'arguments' ? below : undefined)}`);
    const kind = 'error' in call ? 'error' : 'result' in call ? 'result' : 'timeout';
    if (kind === 'timeout') {
      lines.push('    response: none before the call timeout');
    } else {
      lines.push(`    response (${kind}): ${excerpt(call[kind], part === kind ? below : undefined)}`);
    }
  }
  lines.push(`    at: ${f.file}:${f.line}:${f.column} ${f.pointer}`);
  return lines.join('\n');
}
