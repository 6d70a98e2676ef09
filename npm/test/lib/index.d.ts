/** What runs the server: a program (command) or your server in this process (server). */
export interface CheckOptions {
  /** The server as a program speaking MCP on stdio, as `pilotage-lint snapshot -- CMD` runs it, such as `['node', 'dist/index.js']`. */
  command?: string[];
  /**
   * A function returning your server (an `McpServer` of `@modelcontextprotocol/sdk`, or anything with
   * `connect(transport)` and `close()`), called once per check. It is served in this process, on the
   * standard streams of `pilotage-lint snapshot --peer-stdio`, with the SDK's `StdioServerTransport`.
   */
  server?: () => ServerLike | Promise<ServerLike>;
  /** The least severity that fails a case: "error" (the default), "warning" or "info". Lower findings are notes. */
  failOn?: 'error' | 'warning' | 'info';
  /** Rule IDs to turn off, as `--disable`. */
  disable?: string[];
  /** Rule severities to change, as `--severity ID=LEVEL`. */
  severity?: Record<string, 'error' | 'warning' | 'info'>;
  /**
   * A valid program to test-run (the JSON value of `--probe-run`), sent with `test_run: true` to each
   * Language that declares `execute.test_run`.
   */
  probeRun?: unknown;
  /** Write the recording to this path (folders are created), so that findings point at lines of a file you can keep, diff and lint. */
  writeSnapshot?: string;
  /** Bound of the whole session in milliseconds (default 30000). */
  timeout?: number;
  /** Bound of each probe call in milliseconds (default: the binary's, 5000). */
  callTimeout?: number;
  /** Working directory of command. */
  cwd?: string;
  /** Environment of the binary and of command (default: this process's). */
  env?: Record<string, string | undefined>;
  /** A pilotage-lint binary to run instead of the pilotagekit package's (see also PILOTAGE_LINT_BINARY). */
  binary?: string;
}

export interface ServerLike {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface PilotageOptions extends CheckOptions {
  /**
   * Cases known to fail: a vector ID (all its probes), "VECTOR/probe", a probe name, or "surfaces".
   * A listed case that fails passes with a note; one that passes, or did not run, fails as a stale
   * entry; an entry that names no case fails the suite.
   */
  expectedFailures?: string[];
}

/** A finding of `pilotage-lint --format json`. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  pointer: string;
  message: string;
  spec: string;
  probe?: { name: string; vector?: string; language?: string; call: string };
}

/** A case known before the check runs, from the package's vectors.json. */
export interface PlannedCase {
  /** "VECTOR/probe", the probe's name when no vector covers it, or "surfaces". */
  name: string;
  probe?: string;
  vector?: string;
  /** The section and sentence that decide the probe's answer. */
  spec: string;
  quote: string;
}

/** One case of a check. */
export interface Case {
  name: string;
  vector?: string;
  probe?: string;
  /** Why the probe sent nothing, as the recording gives it per Language ("not sent: calc/1: needs --probe-run"). */
  skipped?: string;
  /** The findings at or above failOn, each as a failed test shows it. */
  failures: string[];
  /** The findings below failOn. */
  logs: string[];
}

export interface Report {
  /** What the recording warned about, such as a probe-run program that never ran; they fail nothing. */
  notes: string[];
  /** What fails the server as a whole (no Pilotage signal, a session that ran out of time). */
  failures: string[];
  cases: Case[];
  /** The writeSnapshot path, as findings name it. */
  snapshot?: string;
  /** The probe coverage of `pilotage-lint --format json`. */
  coverage?: unknown;
}

/** Probes and lints the server; throws when it could not be recorded or linted at all. */
export function checkServer(options: CheckOptions): Promise<Report>;

/** The default session bound, in milliseconds. */
export const DEFAULT_TIMEOUT: number;

/** A finding as a failed case shows it. */
export function describeFinding(
  finding: Finding,
  context?: { quote?: string; probe?: PlannedCase; snapshot?: Record<string, unknown> },
): string;

/** Compact JSON of value, cut to max characters around the value at the pointer segments. */
export function excerpt(value: unknown, segments?: string[], max?: number): string;

/** The cases every check reports, in order. */
export function plannedCases(): PlannedCase[];
