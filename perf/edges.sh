#!/usr/bin/env bash
# Issue 39's measurements on the raw transport's hello (dev.fleche.perf.edges.EdgesBench):
#   cost    server CPU per request and req/s by listener kind: tcp, tcp-proxy (a PROXY v2 header per connection),
#           unix, unix-proxy; keep-alive and one connection per request; rounds rotate the order; medians, vs tcp
#   reload  HTTPS keep-alive latency (p50..max) without rotations and with the PEM files' ..data link swapped every
#           few seconds while the server reloads them every second
# Usage: perf/edges.sh [cost|reload|all] [--rounds N] [--warmup S] [--duration S] [--connections C]
#                      [--reload-ms MS] [--rotate-seconds S]
# Defaults: all, 3 rounds, 10 s warm-up, 20 s measured, 32 connections. Writes perf/results/edges-<date>.md.
# A quiet machine only: the figures mean nothing while other work runs (the box's load is printed first).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
[ $# -gt 0 ] && shift
case "$what" in cost|reload|all) ;; *) echo "usage: perf/edges.sh [cost|reload|all] [options]" >&2; exit 2 ;; esac

jar=perf/target/fleche-perf.jar
if [ ! -f "$jar" ] || [ -n "$(find transport-nio/src perf/src -newer "$jar" -name '*.java' -print -quit)" ]; then
  echo "== building $jar"
  mvn -q -B -o -DskipTests package -pl perf -am 2>/dev/null || mvn -q -B -DskipTests package -pl perf -am
fi
mkdir -p perf/results
out=perf/results/edges-$(date +%Y-%m-%d-%H%M).md
{
  echo "# Issue 39: PROXY header, socket kind and certificate reloads on hello ($(date -u +%FT%TZ))"
  echo
  echo "Machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1)"
  echo "Command: perf/edges.sh $what $*"
  echo
} >"$out"
run() {
  echo "== $1"
  { echo "## $1"; echo; java -Xmx1g -cp "$jar" dev.fleche.perf.edges.EdgesBench "$1" "${@:2}"; } | tee -a "$out"
}
[ "$what" = reload ] || run cost "$@"
[ "$what" = cost ] || run reload "$@"
echo "written: $out"
