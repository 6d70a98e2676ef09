#!/bin/sh
# Stage the npm packages of one release into a folder, ready for npm pack
# or npm publish:
#
#   npm/build.sh [-p PLATFORMS] VERSION OUT
#
# VERSION is the release tag (v0.1.0) or its npm form (0.1.0). It is
# stamped into every package.json (the packages' own versions and their
# dependencies on one another) and into the binaries (internal/buildinfo,
# so pilotage-lint --version prints v0.1.0, which the launcher checks).
#
# OUT receives pilotagekit/, test/ (@pilotagekit/test) and one cli-OS-ARCH/
# per platform, each with bin/pilotage-lint and bin/pilotage-lint-snapshot
# cross-compiled with CGO_ENABLED=0 (static: one Linux binary runs on glibc
# and musl alike). -p limits the platforms built ("linux-x64 darwin-arm64");
# the default is all six. OUT is emptied first. Nothing in the repository
# is changed, so the committed package.json files keep 0.0.0-dev.
set -eu

usage() { echo "usage: npm/build.sh [-p 'linux-x64 ...'] VERSION OUT" >&2; exit 2; }

platforms="linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64"
while getopts p: opt; do
  case $opt in
    p) platforms=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
version=${1#v}
out=$2
# semver: MAJOR.MINOR.PATCH with an optional -prerelease.
if ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  echo "npm/build.sh: $1 is not a release version such as v0.1.0 or v0.1.0-rc.1" >&2
  exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out in "$root" | "$here" | /) echo "npm/build.sh: refusing to empty $out" >&2; exit 2 ;; esac
find "$out" -mindepth 1 -maxdepth 1 -exec rm -rf {} +

# The JavaScript packages, without their tests.
mkdir -p "$out/pilotagekit/examples" "$out/test"
cp -R "$here/pilotagekit/bin" "$here/pilotagekit/lib" "$here/pilotagekit/package.json" "$here/pilotagekit/README.md" "$out/pilotagekit/"
cp "$root/fixtures/examples/good-server.snapshot.json" "$root/fixtures/examples/bad-server.snapshot.json" "$out/pilotagekit/examples/"
cp -R "$here/test/lib" "$here/test/package.json" "$here/test/README.md" "$out/test/"
# The cases the helper names its tests after, from the probe set of the
# commit the binaries are built from, whatever the committed copy says.
(cd "$root" && go run ./npm/internal/vectors -o "$out/test/vectors.json")

ldflags="-s -w -X github.com/pilotagekit/pilotagekit/internal/buildinfo.stamped=v$version"
for p in $platforms; do
  os=${p%-*}
  arch=${p#*-}
  case $os in linux | darwin) goos=$os ;; win32) goos=windows ;; *) echo "npm/build.sh: unknown platform $p" >&2; exit 2 ;; esac
  case $arch in x64) goarch=amd64 ;; arm64) goarch=arm64 ;; *) echo "npm/build.sh: unknown platform $p" >&2; exit 2 ;; esac
  [ -d "$here/cli-$p" ] || { echo "npm/build.sh: no package folder npm/cli-$p" >&2; exit 2; }
  mkdir -p "$out/cli-$p/bin"
  cp "$here/cli-$p/package.json" "$here/cli-$p/README.md" "$out/cli-$p/"
  (cd "$root" && GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" \
    -o "$out/cli-$p/bin/" ./cmd/pilotage-lint ./cmd/pilotage-lint-snapshot)
done

# One version everywhere: each package's own, and each dependency of one
# of these packages on another.
node - "$version" "$out"/*/package.json <<'EOF'
const fs = require('node:fs');
const [version, ...files] = process.argv.slice(2);
const ours = (name) => name === 'pilotagekit' || name.startsWith('@pilotagekit/');
for (const file of files) {
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
  pkg.version = version;
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    for (const name of Object.keys(pkg[field] || {})) if (ours(name)) pkg[field][name] = version;
  }
  fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
EOF
echo "npm/build.sh: staged $version in $out: pilotagekit, test, $(echo "$platforms" | sed 's/\([^ ]*\)/cli-\1/g')"
