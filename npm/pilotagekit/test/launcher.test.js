'use strict';
// The launcher, run as an installed package runs it: a fake installation
// (node_modules/pilotagekit and the platform package of this machine, with a
// shell script standing in for the Go binary) in a temporary folder. No
// network, no package manager.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const { PLATFORMS, locate } = require('../lib/binary.js');

const here = path.join(__dirname, '..');
const platformPkg = PLATFORMS[`${process.platform} ${process.arch}`];
const unix = process.platform !== 'win32';

const fakeBinary = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "pilotage-lint \${FAKE_VERSION:-v1.2.3}"; exit 0; fi
case "$FAKE_MODE" in
  trap) trap 'echo "got TERM" > "$FAKE_MARK"; exit 143' TERM; echo ready; while :; do sleep 0.05; done ;;
  die) echo ready; exec sleep 30 ;;
esac
printf 'arg:%s\\n' "$@"
cat
echo "on stderr" >&2
exit "\${FAKE_EXIT:-0}"
`;

/** install lays out node_modules/pilotagekit at version 1.2.3, and the
 * platform package unless the options leave it out. */
function install(t, { platform = true, binary = true, other = null, version = '1.2.3' } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pilotagekit-launcher-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const nm = path.join(root, 'node_modules');
  const pkgDir = path.join(nm, 'pilotagekit');
  fs.cpSync(path.join(here, 'bin'), path.join(pkgDir, 'bin'), { recursive: true });
  fs.cpSync(path.join(here, 'lib'), path.join(pkgDir, 'lib'), { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
  manifest.version = version;
  fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(manifest));
  const addPlatform = (name, withBinary) => {
    const dir = path.join(nm, name);
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.2.3' }));
    if (withBinary) fs.writeFileSync(path.join(dir, 'bin', 'pilotage-lint'), fakeBinary, { mode: 0o755 });
  };
  if (platform) addPlatform(platformPkg, binary);
  if (other) addPlatform(other, true);
  return { root, launcher: path.join(pkgDir, 'bin', 'pilotage-lint') };
}

function run(launcher, args, { env = {}, input = '' } = {}) {
  const r = spawnSync(process.execPath, [launcher, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, PILOTAGE_LINT_BINARY: '', ...env },
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

test('forwards arguments, standard streams and the exit code', { skip: !unix && 'the fake binary is a shell script' }, (t) => {
  const { launcher } = install(t);
  const r = run(launcher, ['--format', 'json', 'a b.json'], { input: 'from stdin\n', env: { FAKE_EXIT: '3' } });
  assert.equal(r.code, 3, r.stderr);
  assert.equal(r.stdout, 'arg:--format\narg:json\narg:a b.json\nfrom stdin\n');
  assert.equal(r.stderr, 'on stderr\n');
});

test('exit 0 stays 0', { skip: !unix }, (t) => {
  const { launcher } = install(t);
  const r = run(launcher, []);
  assert.equal(r.code, 0, r.stderr);
});

test('a binary of another release is refused, naming both versions', { skip: !unix }, (t) => {
  const { launcher } = install(t);
  const r = run(launcher, ['x.json'], { env: { FAKE_VERSION: 'v1.2.2' } });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /is "pilotage-lint v1\.2\.2", but the pilotagekit package is v1\.2\.3; the two come from different releases/);
});

test('a missing platform package says why and names go install of this release', (t) => {
  const { launcher } = install(t, { platform: false });
  const r = run(launcher, ['x.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`the package ${platformPkg.replace('/', '\\/')}, which holds the pilotage-lint binary for ${process.platform} ${process.arch}, is not installed`));
  assert.match(r.stderr, /--omit=optional/);
  assert.match(r.stderr, /go install github\.com\/pilotagekit\/pilotagekit\/cmd\/\.\.\.@v1\.2\.3\n/);
  assert.match(r.stderr, /PILOTAGE_LINT_BINARY/);
});

test('the escape names a release candidate as it is, and a build of a checkout as latest', (t) => {
  for (const [version, want] of [['0.2.0-rc.1', '@v0.2.0-rc.1\n'], ['0.0.0-ci.g0123456789ab', '@latest\n'], ['0.0.0-dev', '@latest\n']]) {
    const { launcher } = install(t, { platform: false, version });
    assert.ok(run(launcher, []).stderr.includes(`go install github.com/pilotagekit/pilotagekit/cmd/...${want}`), version);
  }
});

test('the package of another platform, copied in, is named', (t) => {
  const other = Object.values(PLATFORMS).find((p) => p !== platformPkg);
  const { launcher } = install(t, { platform: false, other });
  const r = run(launcher, ['x.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`this one holds ${other.replace('/', '\\/')}, for another platform`));
});

test('a platform package without its binary is called damaged', (t) => {
  const { launcher } = install(t, { binary: false });
  const r = run(launcher, ['x.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /holds no bin\/pilotage-lint(\.exe)?; the installation is damaged/);
});

test('PILOTAGE_LINT_BINARY runs that binary, whatever its version', { skip: !unix }, (t) => {
  const { root, launcher } = install(t, { platform: false });
  const bin = path.join(root, 'go', 'bin', 'pilotage-lint');
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.writeFileSync(bin, fakeBinary, { mode: 0o755 });
  const r = run(launcher, ['one'], { env: { PILOTAGE_LINT_BINARY: bin, FAKE_VERSION: 'devel+0123456789ab' } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'arg:one\n');
  const bad = run(launcher, ['one'], { env: { PILOTAGE_LINT_BINARY: path.join(root, 'nowhere') } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /PILOTAGE_LINT_BINARY is set to .*nowhere, but .* does not exist/);
});

/** started runs the launcher and resolves once the fake binary says ready. */
function started(launcher, env) {
  const child = spawn(process.execPath, [launcher], { env: { ...process.env, PILOTAGE_LINT_BINARY: '', ...env } });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve) => child.stdout.once('data', resolve));
  return { child, exited, ready };
}

test('a signal to the launcher reaches the binary, which may stop cleanly', { skip: !unix, timeout: 20000 }, async (t) => {
  const { root, launcher } = install(t);
  const mark = path.join(root, 'mark');
  const { child, exited, ready } = started(launcher, { FAKE_MODE: 'trap', FAKE_MARK: mark });
  await ready;
  child.kill('SIGTERM');
  const { code } = await exited;
  assert.equal(code, 143);
  assert.equal(fs.readFileSync(mark, 'utf8'), 'got TERM\n');
});

test('a binary killed by a signal kills the launcher with that signal', { skip: !unix, timeout: 20000 }, async (t) => {
  const { launcher } = install(t);
  const { child, exited, ready } = started(launcher, { FAKE_MODE: 'die' });
  await ready;
  child.kill('SIGINT');
  assert.deepEqual(await exited, { code: null, signal: 'SIGINT' });
});

test('an unsupported platform names the platforms shipped and the go install escape', () => {
  assert.throws(() => locate('pilotage-lint', { platform: 'freebsd', arch: 'x64', env: {} }), (err) => {
    assert.equal(err.name, 'BinaryError');
    assert.match(err.message, /ships binaries for linux, darwin \(macOS\) and win32 \(Windows\) on x64 and arm64; this machine is freebsd x64/);
    assert.match(err.message, /go install github\.com\/pilotagekit\/pilotagekit\/cmd\/\.\.\.@/);
    return true;
  });
});

test('Windows binaries carry .exe', (t) => {
  const { root } = install(t, { platform: false });
  const dir = path.join(root, 'node_modules', '@pilotagekit', 'cli-win32-arm64');
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{}');
  fs.writeFileSync(path.join(dir, 'bin', 'pilotage-lint-snapshot.exe'), '');
  const resolve = (id) => require.resolve(id, { paths: [root] });
  const got = locate('pilotage-lint-snapshot', { platform: 'win32', arch: 'arm64', env: {}, resolve });
  assert.deepEqual(got, { path: path.join(dir, 'bin', 'pilotage-lint-snapshot.exe'), override: false });
});
