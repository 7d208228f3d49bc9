#!/usr/bin/env bash
# Fleche's benchmark harness, one command: builds what it needs, then runs dev.fleche.perf.harness.Bench, which
# starts every target with the same JVM flags, checks its bodies, warms up, measures (wrk when installed, the
# project's NIO generator otherwise and for open-loop/long-poll/SSE/idle), samples server CPU/RSS/threads/GC and
# writes perf/results/bench-<date>.{json,md,html}. See perf/README.md and shared BENCHMARKS.md.
#
#   perf/bench.sh                                         # everything: all targets and scenarios, 3 rounds (hours)
#   perf/bench.sh --targets fleche-jersey,jersey-grizzly,riposte --scenarios hello,json,echo --rounds 3
#   perf/bench.sh --suite transport                       # transport only: hello, pipelined, idle, start-up
#   perf/bench.sh --help                                  # every harness option (--list: targets and scenarios)
#
# Options of this script (the others go to the harness):
#   --no-build        use what is built (perf/target/fleche-perf.jar, perf/peers/*/target/*-peer.jar)
#   --jersey 3|4      the Jersey line of the Fleche targets: 4 (default; -Pjersey4, as the Jersey peers' 4.0.2)
#                     or 3 (the build's default, 3.1)
#   --offline         Maven offline only (-o); by default offline is tried first, then online
# Environment: JAVA_HOME picks the JDK (of Maven, the harness and every target unless --java is given).
set -euo pipefail

PERF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$PERF_DIR/.." && pwd)
BUILD=${BUILD:-1}
JERSEY=${JERSEY:-4}
OFFLINE_ONLY=0
SMOKE=0
GENERATOR=auto
ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; shift ;;
    --jersey) JERSEY=$2; shift 2 ;;
    --offline) OFFLINE_ONLY=1; shift ;;
    --smoke) SMOKE=1; ARGS+=("$1"); shift ;;
    --generator) GENERATOR=$2; ARGS+=("$1" "$2"); shift 2 ;;
    -h|--help|--list) ARGS+=("$1"); BUILD=${BUILD_FOR_HELP:-0}; shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "bench: $*"; exit 1; }

if [[ -n ${JAVA_HOME:-} ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=$(command -v java); fi
[[ -x $JAVA ]] || die "java not found"

# mvn_build LOG ARGS...: offline first (a first online build caches everything), online when that fails.
mvn_build() {
  local logf=$1; shift
  if (cd "$ROOT" && mvn -q -B -o "$@") >"$logf" 2>&1; then return 0; fi
  if [[ $OFFLINE_ONLY == 1 ]]; then tail -30 "$logf" >&2; return 1; fi
  log "offline build failed, trying online (log: $logf)"
  (cd "$ROOT" && mvn -q -B "$@") >"$logf" 2>&1 || { tail -30 "$logf" >&2; return 1; }
}

# stale JAR DIRS...: whether JAR is missing or older than any source or pom under DIRS.
stale() {
  local jar=$1; shift
  [[ -f $jar ]] || return 0
  [[ -n $(find "$@" -type f \( -name '*.java' -o -name 'pom.xml' -o -name '*.properties' \) -not -path '*/target/*' \
           -newer "$jar" -print -quit 2>/dev/null) ]]
}

if [[ $BUILD == 1 ]]; then
  mkdir -p "$PERF_DIR/results/tmp"
  # A peer is stale when its jar is missing, or any source is newer than the last successful peer build (a
  # marker file: the jars' own times cannot be trusted, the Spring plugin stamps its jar with a fixed date).
  PEERS_MARK=$PERF_DIR/results/tmp/.peers-built
  PEERS_STALE=0
  for pom in "$PERF_DIR"/peers/*/pom.xml; do
    m=$(basename "$(dirname "$pom")")
    [[ $m == app ]] && continue
    [[ -f $PERF_DIR/peers/$m/target/$m-peer.jar ]] || PEERS_STALE=1
  done
  stale "$PEERS_MARK" "$PERF_DIR/peers" "$PERF_DIR/src/main/java/dev/fleche/perf/app" && PEERS_STALE=1
  if [[ $PEERS_STALE == 1 ]]; then
    log "building the peers: mvn -q -B -f perf/peers/pom.xml package -DskipTests"
    mvn_build "$PERF_DIR/results/tmp/build-peers.log" -f perf/peers/pom.xml package -DskipTests \
      || die "peer build failed (log: $PERF_DIR/results/tmp/build-peers.log)"
    touch "$PEERS_MARK"
  else
    log "peers up to date"
  fi
  PROFILE=()
  [[ $JERSEY == 4 ]] && PROFILE=(-Pjersey4)
  JAR=$PERF_DIR/target/fleche-perf.jar
  MARK=$PERF_DIR/target/.built-with-jersey$JERSEY
  # up to date: built by this script for this Jersey line (a jar rebuilt since, by hand, may be the other line)
  if [[ $SMOKE == 1 && -f $MARK && ! $JAR -nt $MARK ]] \
     && ! stale "$JAR" "$ROOT/transport-nio" "$ROOT/jaxrs-bridge" "$PERF_DIR/src" "$PERF_DIR/pom.xml" \
       "$ROOT/examples/transport-hello" "$ROOT/pom.xml"; then
    log "Fleche targets up to date"
  else
    log "building Fleche and the perf module: mvn -q -B ${PROFILE[*]} -DskipTests package -pl perf,examples/transport-hello -am"
    mvn_build "$PERF_DIR/results/tmp/build-fleche.log" "${PROFILE[@]}" -DskipTests package \
      -pl perf,examples/transport-hello -am || die "Fleche build failed (log: $PERF_DIR/results/tmp/build-fleche.log)"
    rm -f "$PERF_DIR"/target/.built-with-jersey*
    touch "$MARK"
  fi
fi
[[ -f $PERF_DIR/target/fleche-perf.jar ]] || die "missing perf/target/fleche-perf.jar (run without --no-build)"

# wrk for closed-loop throughput, when this machine allows installing it (root + apt-get); not needed for smoke.
if [[ $SMOKE == 0 && $GENERATOR != loadgen ]] && ! command -v wrk >/dev/null 2>&1 && [[ $(id -u) == 0 ]] \
   && command -v apt-get >/dev/null 2>&1; then
  log "wrk not found: apt-get install -y wrk"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null 2>&1 || log "could not install wrk: using the project's generator"
  fi
fi

cd "$ROOT"
exec "$JAVA" -Xms256m -Xmx1g -XX:+UseParallelGC -cp "$PERF_DIR/target/fleche-perf.jar" dev.fleche.perf.harness.Bench \
  --root "$ROOT" --java "$JAVA" "${ARGS[@]}"
