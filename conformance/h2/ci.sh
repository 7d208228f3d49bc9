#!/usr/bin/env bash
# CI's HTTP/2 conformance stage: h2spec (all 146 cases) against the raw transport (perf's FlecheRawPeer, HTTP/2 on
# by default) over TLS with ALPN h2, and over clear text with prior knowledge.
#
#   TLS:        every case must pass.
#   clear text: every case but one must pass. The exception, http2/3.5/2 ("Sends invalid connection preface"), sends
#               "INVALID CONNECTION PREFACE" to a port that serves HTTP/1.1 too: that is a malformed HTTP/1.1 request,
#               answered 400 as RFC 9112 asks, not an HTTP/2 connection to answer with GOAWAY (see the transport
#               README, "HTTP/2"). The stage fails if any other case fails, or if that one starts passing unnoticed.
#
# Usage: conformance/h2/ci.sh [JAVA]   (needs perf/target/fleche-perf.jar: mvn -B -DskipTests install -pl perf -am)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
JAVA="${1:-java}"
JAR="$ROOT/perf/target/fleche-perf.jar"
[[ -f "$JAR" ]] || { echo "no $JAR: build it first (mvn -B -DskipTests install -pl perf -am)" >&2; exit 2; }
WORK="$(mktemp -d)"
# The servers' pids go to a file: start() runs in a command substitution, a subshell whose variables this shell
# never sees (an array here stayed empty, and every run left both servers running).
cleanup() {
    local pids=()
    [[ -f "$WORK/pids" ]] && mapfile -t pids < "$WORK/pids"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

"$HERE/build-h2spec.sh"

keytool=$(dirname "$(readlink -f "$(command -v "$JAVA")")")/keytool
"$keytool" -genkeypair -alias fleche -keyalg EC -groupname secp256r1 -dname CN=localhost \
    -ext san=dns:localhost,ip:127.0.0.1 -validity 2 -storetype PKCS12 -keystore "$WORK/keys.p12" \
    -storepass changeit -keypass changeit >/dev/null 2>&1

# Starts FlecheRawPeer with "$@" and echoes the port it printed in READY <port>.
start() {
    "$JAVA" -Xmx256m -cp "$JAR" dev.fleche.perf.fleche.FlecheRawPeer 0 "$@" > "$WORK/peer-$#.log" 2>&1 &
    local pid=$!
    echo "$pid" >> "$WORK/pids"
    for _ in $(seq 1 300); do
        if grep -q '^READY ' "$WORK/peer-$#.log"; then
            sed -n 's/^READY \([0-9]*\).*/\1/p' "$WORK/peer-$#.log" | head -1
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "FlecheRawPeer $* did not start:" >&2
    cat "$WORK/peer-$#.log" >&2
    return 1
}

plain=$(start)
tls=$(start --tls "$WORK/keys.p12" changeit)

echo "== h2spec over TLS (ALPN h2), port $tls: every case must pass"
"$HERE/run-h2spec.sh" "https://127.0.0.1:$tls/hello"
cp "$HERE/results/h2spec.xml" "$HERE/results/h2spec-tls.xml"

echo "== h2spec over clear text (prior knowledge), port $plain: every case but http2/3.5/2 must pass"
set +e
"$HERE/run-h2spec.sh" "http://127.0.0.1:$plain/hello"
set -e
cp "$HERE/results/h2spec.xml" "$HERE/results/h2spec-h2c.xml"
log="$HERE/results/h2spec.log"
summary="$(grep -E '^[0-9]+ tests, [0-9]+ passed, [0-9]+ skipped, [0-9]+ failed' "$log" | tail -1)"
if [[ "$summary" != "146 tests, 145 passed, 0 skipped, 1 failed" ]] \
        || ! sed -n '/^Failures:/,$p' "$log" | grep -q '× 2: Sends invalid connection preface'; then
    echo "h2spec over clear text: expected exactly http2/3.5/2 to fail, got: $summary" >&2
    exit 1
fi
echo "h2spec over clear text: 145/146, the one failure the expected http2/3.5/2"
