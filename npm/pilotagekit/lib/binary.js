'use strict';
// Finding the pilotage-lint binary of this machine. The binaries live in one
// optional dependency per platform (@pilotagekit/cli-<os>-<arch>), which the
// package manager installs only where os and cpu match, so nothing here
// downloads or builds anything, and no install script runs.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { version } = require('../package.json');

/** The Go module, for the `go install` escape. */
const MODULE = 'github.com/pilotagekit/pilotagekit';

/** The platforms a package exists for, by `${process.platform} ${process.arch}`. */
const PLATFORMS = {
  'linux x64': '@pilotagekit/cli-linux-x64',
  'linux arm64': '@pilotagekit/cli-linux-arm64',
  'darwin x64': '@pilotagekit/cli-darwin-x64',
  'darwin arm64': '@pilotagekit/cli-darwin-arm64',
  'win32 x64': '@pilotagekit/cli-win32-x64',
  'win32 arm64': '@pilotagekit/cli-win32-arm64',
};

/** The variable that names a binary to run instead of the packaged one. */
const OVERRIDE = 'PILOTAGE_LINT_BINARY';

/** A failure to find or trust the binary; `message` says why and what to do. */
class BinaryError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BinaryError';
  }
}

/** The Go version naming this package's release: "v" + the npm version. */
function goVersion() {
  return `v${version}`;
}

/** How to get the binaries without npm, and use them through this package. */
function escape() {
  // A release, or a release candidate, is a module version too; the
  // 0.0.0-* builds of a checkout and of CI are not.
  const v = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version) && !version.startsWith('0.0.0-') ? goVersion() : 'latest';
  return (
    `Without the package, install the binaries with Go (1.26 or later) and point ${OVERRIDE} at pilotage-lint:\n` +
    `  go install ${MODULE}/cmd/...@${v}\n` +
    `  export ${OVERRIDE}="$(go env GOPATH)/bin/pilotage-lint"`
  );
}

/**
 * The packages of other platforms found where Node would look for this
 * platform's: the sign of a node_modules or lockfile made elsewhere.
 */
function otherPlatforms(want, lookupPaths) {
  const found = new Set();
  for (const dir of lookupPaths) {
    for (const pkg of Object.values(PLATFORMS)) {
      if (pkg !== want && fs.existsSync(path.join(dir, pkg, 'package.json'))) {
        found.add(pkg);
      }
    }
  }
  return [...found];
}

/**
 * locate returns the path of the named binary (pilotage-lint or
 * pilotage-lint-snapshot) for this machine, and whether it came from the
 * override. It throws a BinaryError that says why when there is none.
 *
 * The options exist for tests: the platform, the environment and the
 * resolver of another machine or installation.
 */
function locate(name = 'pilotage-lint', opts = {}) {
  const env = opts.env || process.env;
  const platform = opts.platform || process.platform;
  const arch = opts.arch || process.arch;
  const resolver = opts.resolve || require.resolve;
  const exe = platform === 'win32' ? `${name}.exe` : name;

  const override = env[OVERRIDE];
  if (override) {
    let bin = override;
    // The override names pilotage-lint; its sibling is the snapshotter,
    // as `go install ./cmd/...` puts them.
    if (name !== 'pilotage-lint') bin = path.join(path.dirname(override), exe);
    if (!fs.existsSync(bin)) {
      throw new BinaryError(`pilotage-lint: ${OVERRIDE} is set to ${override}, but ${bin} does not exist; unset it to use the binary of the pilotagekit package, or point it at a pilotage-lint binary`);
    }
    return { path: bin, override: true };
  }

  const key = `${platform} ${arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    throw new BinaryError(
      `pilotage-lint: pilotagekit ships binaries for linux, darwin (macOS) and win32 (Windows) on x64 and arm64; this machine is ${key}.\n` +
        escape(),
    );
  }

  let manifest;
  try {
    manifest = resolver(`${pkg}/package.json`);
  } catch {
    const lookup = (resolver.paths && resolver.paths(pkg)) || [];
    const others = otherPlatforms(pkg, lookup);
    const elsewhere = others.length
      ? `  - node_modules was installed on another machine and copied here (this one holds ${others.join(', ')}, for another platform), as into a Docker image: install on this machine instead (npm ci, pnpm install, yarn install) and do not copy node_modules;\n`
      : `  - node_modules or the lockfile came from another platform and the package manager did not add this one's package: install again on this machine (delete node_modules; with npm, also package-lock.json if it predates npm 7);\n`;
    throw new BinaryError(
      `pilotage-lint: the package ${pkg}, which holds the pilotage-lint binary for ${key}, is not installed.\n` +
        `pilotagekit lists it as an optional dependency, so it is missing when:\n` +
        `  - optional dependencies were left out (npm install --omit=optional or --no-optional, pnpm install --no-optional, yarn --ignore-optional): install again without that flag;\n` +
        elsewhere +
        escape(),
    );
  }

  const bin = path.join(path.dirname(manifest), 'bin', exe);
  if (!fs.existsSync(bin)) {
    throw new BinaryError(
      `pilotage-lint: the package ${pkg} is installed at ${path.dirname(manifest)} but holds no bin/${exe}; the installation is damaged: install pilotagekit again.\n` +
        escape(),
    );
  }
  return { path: bin, override: false };
}

/**
 * checkVersion runs `BIN --version` and throws a BinaryError unless the
 * binary is the release of this package: the launcher and the binary come
 * from one release, stamped with one version.
 */
function checkVersion(bin) {
  const want = `pilotage-lint ${goVersion()}`;
  let got;
  try {
    got = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }).trim();
  } catch (err) {
    const why = err.code === 'EACCES' ? 'it is not executable' : err.message.split('\n')[0];
    throw new BinaryError(`pilotage-lint: cannot run ${bin} (${why}); install pilotagekit again.\n${escape()}`);
  }
  if (got !== want) {
    throw new BinaryError(
      `pilotage-lint: ${bin} is "${got}", but the pilotagekit package is ${goVersion()}; the two come from different releases.\n` +
        `Install pilotagekit again so that its platform package is the same version (npm ls pilotagekit @pilotagekit/cli-* shows them), or set ${OVERRIDE} to run another binary on purpose.`,
    );
  }
}

/**
 * binaryPath returns the path of pilotage-lint for this machine, checked to
 * be this release unless PILOTAGE_LINT_BINARY chose it. (`pilotage-lint
 * snapshot` runs pilotage-lint-snapshot, found beside it.)
 */
function binaryPath() {
  const found = locate('pilotage-lint');
  if (!found.override) checkVersion(found.path);
  return found.path;
}

module.exports = { BinaryError, PLATFORMS, OVERRIDE, MODULE, version, locate, checkVersion, binaryPath };
