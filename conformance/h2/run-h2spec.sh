#!/usr/bin/env bash
# Runs h2spec (all 146 cases: generic, RFC 7540/9113 "http2", RFC 7541 "hpack") against a running HTTP/2 server.
#
# Usage: conformance/h2/run-h2spec.sh PORT_OR_URL [--tls] [h2spec options or sections...]
#   conformance/h2/run-h2spec.sh 19100                  h2c with prior knowledge on 127.0.0.1:19100
#   conformance/h2/run-h2spec.sh 19100 --tls            TLS (ALPN h2), the certificate not verified
#   conformance/h2/run-h2spec.sh https://127.0.0.1:19100/hello
#   conformance/h2/run-h2spec.sh 19100 http2/6.5        one section (anything after the target goes to h2spec)
#
# Writes conformance/h2/results/h2spec.xml (JUnit) and h2spec.log (the whole output), prints the failed cases and
# a summary line, and exits 0 only when no case failed. Builds h2spec first when bin/h2spec is missing.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
RESULTS="$HERE/results"
H2SPEC="$HERE/bin/h2spec"

if (($# < 1)); then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
target="$1"
shift
host=127.0.0.1
path=/
tls=()
if [[ "$target" =~ ^[0-9]+$ ]]; then
    port="$target"
elif [[ "$target" =~ ^(https?)://([^/:]+|\[[^]]+\])(:([0-9]+))?(/.*)?$ ]]; then
    host="${BASH_REMATCH[2]}"
    host="${host#[}"
    host="${host%]}"
    path="${BASH_REMATCH[5]:-/}"
    if [[ "${BASH_REMATCH[1]}" == https ]]; then
        tls=(-t -k)
        port="${BASH_REMATCH[4]:-443}"
    else
        port="${BASH_REMATCH[4]:-80}"
    fi
else
    echo "not a port or an http(s) URL: $target" >&2
    exit 2
fi
extra=()
for arg in "$@"; do
    if [[ "$arg" == --tls ]]; then tls=(-t -k); else extra+=("$arg"); fi
done

if [[ ! -x "$H2SPEC" ]]; then
    "$HERE/build-h2spec.sh"
fi
mkdir -p "$RESULTS"
scheme=http
((${#tls[@]})) && scheme=https
echo "h2spec $("$H2SPEC" --version | sed 's/^Version: //') against $scheme://$host:$port$path"
started=$(date +%s)
set +e
"$H2SPEC" -h "$host" -p "$port" -P "$path" "${tls[@]}" -o 3 -j "$RESULTS/h2spec.xml" "${extra[@]}" \
    > "$RESULTS/h2spec.log" 2>&1
status=$?
set -e

# h2spec ends with a "Failures:" list (when any) and "N tests, N passed, N skipped, N failed".
if grep -q '^Failures:' "$RESULTS/h2spec.log"; then
    sed -n '/^Failures:/,$p' "$RESULTS/h2spec.log" | grep -v -E '^[0-9]+ tests, ' | sed '/^$/N;/^\n$/D'
fi
summary="$(grep -E '^[0-9]+ tests, [0-9]+ passed, [0-9]+ skipped, [0-9]+ failed' "$RESULTS/h2spec.log" | tail -1 || true)"
if [[ -z "$summary" ]]; then
    echo "h2spec gave no summary (exit $status); the end of its output:" >&2
    tail -20 "$RESULTS/h2spec.log" >&2
    exit $((status == 0 ? 1 : status))
fi
echo "h2spec: $summary in $(( $(date +%s) - started )) s; JUnit report: $RESULTS/h2spec.xml, log: $RESULTS/h2spec.log"
failed="$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$summary")"
if ((failed > 0 || status != 0)); then
    exit 1
fi
