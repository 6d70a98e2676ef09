package pilotagetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/excerpt"
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

// maxShown caps the request and response bytes a message shows, in a
// window centred on the member the finding points at; the snapshot
// (WriteSnapshot) holds them whole.
const maxShown = 2000

// describe says what a finding found, on which probe or call and
// Language, which spec sentence decides it, and the exchange behind it.
func describe(f lint.Finding, r *lint.Rule, call *recordedCall) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", f.Severity, f.Rule, f.Message)
	quote := ""
	if r != nil {
		quote = r.Quote
	}
	var p *probe.Probe
	if call != nil {
		p = probe.ByName(call.probeName())
	}
	// The probe's sentence is the one that decides its answer; the rule's
	// own is the general one behind every probe.
	if p != nil && (quote == "" || f.Rule == "probe-expectation") {
		fmt.Fprintf(&b, "    spec: %s: %q\n", p.Spec, p.Quote)
	} else if quote != "" {
		fmt.Fprintf(&b, "    spec: %s: %q\n", f.Spec, quote)
	} else if f.Spec != "" {
		fmt.Fprintf(&b, "    spec: %s\n", f.Spec)
	}
	if call != nil {
		switch {
		case p != nil:
			line := p.Label()
			if call.Probe.Language != "" {
				line += ", Language " + call.Probe.Language
			}
			if p.Uses == probe.ExecutesProgram && !call.testRun() {
				line += ", run for real (RunImmediate)"
			}
			fmt.Fprintf(&b, "    probe: %s (%s)\n", line, p.Spec)
		case call.user > 0:
			fmt.Fprintf(&b, "    call: %d of Calls\n", call.user)
		}
		answer, kind, member := call.answer()
		fmt.Fprintf(&b, "    request: tools/call %s %s\n", call.Tool, excerpt.Compact(call.Arguments, inside(f.Pointer, call.pointer+"/arguments"), maxShown))
		if kind == "none" {
			fmt.Fprintf(&b, "    response: none: %s\n", call.noAnswer())
		} else {
			fmt.Fprintf(&b, "    response (%s): %s\n", kind, excerpt.Compact(answer, inside(f.Pointer, call.pointer+"/"+member), maxShown))
		}
	}
	fmt.Fprintf(&b, "    at: %s:%d:%d %s", f.File, f.Line, f.Column, f.Pointer)
	return b.String()
}

// inside returns pointer relative to the value at base, or "" when it is
// not inside it.
func inside(pointer, base string) string {
	if pointer == base {
		return ""
	}
	rest, ok := strings.CutPrefix(pointer, base+"/")
	if !ok {
		return ""
	}
	return "/" + rest
}

// compact is raw JSON on one line.
func compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
