#!/usr/bin/env bash
# Validates examples/service/deploy/k8s/*.yaml against the Kubernetes OpenAPI schema (CI, in the image stage).
# The schema comes from npm (kubernetes-models, pinned in package.json); node and npm are installed with apt-get
# when missing. The packages go to a temporary directory, nothing is written here.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v npm >/dev/null; then
  echo "[k8s] installing nodejs and npm (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$HERE/package.json" "$HERE/validate.mjs" "$work/"
(cd "$work" && npm install --silent --no-audit --no-fund >/dev/null)
(cd "$HERE/.." && node "$work/validate.mjs" *.yaml) | sed 's/^/[k8s] /'
