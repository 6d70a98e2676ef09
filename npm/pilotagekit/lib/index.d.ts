/** A failure to find or trust the pilotage-lint binary; the message says why and what to do. */
export class BinaryError extends Error {}

/** The environment variable that names a pilotage-lint binary to run instead of the packaged one. */
export const OVERRIDE: 'PILOTAGE_LINT_BINARY';

/** This package's version; its binary reports "pilotage-lint v" + version. */
export const version: string;

/**
 * The path of pilotage-lint for this machine: $PILOTAGE_LINT_BINARY when set,
 * else the binary of the installed @pilotagekit/cli-<os>-<arch> package, checked
 * to be the same release. Throws a BinaryError when there is none.
 */
export function binaryPath(): string;

/** Where the named binary is, without running it; throws a BinaryError when there is none. */
export function locate(
  name?: 'pilotage-lint' | 'pilotage-lint-snapshot',
  opts?: {
    env?: Record<string, string | undefined>;
    platform?: string;
    arch?: string;
    resolve?: ((id: string) => string) & { paths?: (id: string) => string[] | null };
  },
): { path: string; override: boolean };

/** Throws a BinaryError unless `bin --version` is this package's release. */
export function checkVersion(bin: string): void;
