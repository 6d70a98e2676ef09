#!/usr/bin/env bash
# Peer benchmark: pilotage-lint doing every check on the bundled example
# against ajv-cli validating only its manifest against the generated
# manifest schema. Needs Node.js and npm (the npm registry); CI does not run
# it. Run bench/run.sh first, or let this script build what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out/bin" "$out/ajv"
go build -o "$out/bin/pilotage-lint" ./cmd/pilotage-lint
go build -o "$out/bin/compare" ./bench/compare
if [ ! -x "$out/ajv/node_modules/.bin/ajv" ]; then
  (cd "$out/ajv" && npm init -y >/dev/null && npm install --no-audit --no-fund ajv-cli@5 ajv-formats@3 >/dev/null)
fi
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["manifest"], open(sys.argv[2], "w"))' \
  fixtures/examples/good-server.snapshot.json "$out/ajv/manifest.json"
"$out/bin/compare" -pairs "${PAIRS:-10}" -label "pilotage-lint (all rules) vs ajv (manifest schema only)" -- \
  "$out/bin/pilotage-lint" -q --no-config fixtures/examples/good-server.snapshot.json -- \
  "$out/ajv/node_modules/.bin/ajv" validate --spec=draft2020 -c ajv-formats --strict=false \
  -s schemas/manifest.schema.json -d "$out/ajv/manifest.json"
