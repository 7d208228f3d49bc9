#!/usr/bin/env bash
# The soak with faults (dev.fleche.perf.soak.Soak): a Fleche + Jersey server process (SoakServer) under a fixed-rate
# mix of hello, echo (bodies up to 1 MiB, some chunked), async, long-poll, SSE, uploads and pipelined bursts, with
# injected faults (resets mid-request, mid-body and mid-response, half-closes, slowloris heads, readers that stop
# reading). Fails on any response to the wrong request, malformed or extra response, failed checked exchange, on
# fds/threads/armed timers/heap-after-GC not back within 5 % of their baseline, or a slow server afterwards.
#
# Usage: perf/soak.sh SECONDS [--rate N] [--clients N]     (exit status 0 when the soak passes)
# Builds perf/target/fleche-perf.jar first when it is missing or older than the sources (offline, never install).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: perf/soak.sh SECONDS [--rate N] [--clients N]}
shift
jar=perf/target/fleche-perf.jar
if [ ! -f "$jar" ] || [ -n "$(find perf/src/main transport-nio/src/main jaxrs-bridge/src/main -newer "$jar" -name '*.java' -print -quit)" ]; then
  echo "== building $jar"
  mvn -B -q -o package -pl perf -am -DskipTests
fi
mkdir -p perf/results/tmp
exec java -Xmx512m -cp "$jar" dev.fleche.perf.soak.Soak --seconds "$seconds" \
  --server-log perf/results/tmp/soak-server.log "$@"
