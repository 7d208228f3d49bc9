#!/usr/bin/env bash
# perf/h2bench.sh — HTTP/2 benchmark (issue 25), one command: builds what is missing or stale, then runs
# perf/h2bench.py, which starts each target in turn (same JVM flags), checks its body with curl, warms up, measures
# every cell with h2load and the server's CPU from /proc/PID/stat, and writes results/h2bench-<UTC>.{md,json}.
# See perf/README.md, "HTTP/2: perf/h2bench.sh".
#
#   perf/h2bench.sh [--no-build] [--java JAVA_OR_JDK_HOME] [--maven-repo DIR] [--targets a,b] [--cells spec]
#                   [--duration S] [--warmup S] [--cell-warmup S] [--rounds N] [--h2load-threads N]
#                   [--idle-connections N] [--ready-timeout S] [--no-latency-log] [--out DIR]
#
# Targets (default all): fleche-raw netty-h2 vertx-h2 jetty-h2 helidon-h2 fleche-jersey jersey-jetty-h2
# jersey-netty-h2.
# Cells (--cells, comma-separated; default all): all | load | idle | h2c | h2 | h1 | a prefix (h2c-c16) | an id
# (h2-c256-m100, idle-h2c). Java: --java, else JAVA_HOME, else Temurin 25 (Helidon needs 21+).
set -euo pipefail

PERF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$PERF_DIR")"
BUILD=1
JAVA_ARG=""
MVN_REPO=()
PASS=()
ORIG_ARGS="$*"
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; shift ;;
    --java) JAVA_ARG="$2"; shift 2 ;;
    --maven-repo) MVN_REPO=("-Dmaven.repo.local=$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --no-latency-log) PASS+=("$1"); shift ;;
    --targets|--cells|--duration|--warmup|--cell-warmup|--rounds|--h2load-threads|--idle-connections \
      |--ready-timeout|--out)
      PASS+=("$1" "$2"); shift 2 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

log() { echo "[h2bench $(date -u +%H:%M:%S)] $*"; }

# The JVM: --java (a java binary or a JDK home), else JAVA_HOME, else Temurin 25.
JDK="${JAVA_ARG:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}}"
if [[ -x "$JDK/bin/java" ]]; then
  JAVA="$JDK/bin/java"; JDK_HOME="$JDK"
else
  JAVA="$JDK"; JDK_HOME="$(dirname "$(dirname "$JAVA")")"
fi
[[ -x "$JAVA" ]] || { echo "no java at $JAVA" >&2; exit 2; }
FEATURE="$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
[[ "${FEATURE%%.*}" -ge 21 ]] || log "warning: Java $FEATURE: helidon-h2 needs 21+ (it will fail to start)"

# h2load (Debian nghttp2-client), curl and python3.
if ! command -v h2load >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "h2load not found: apt-get install -y nghttp2-client"
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -q nghttp2-client >/dev/null 2>&1 || true
  fi
  command -v h2load >/dev/null 2>&1 || { echo "h2load is missing (apt-get install nghttp2-client)" >&2; exit 2; }
fi
for tool in curl python3; do command -v $tool >/dev/null 2>&1 || { echo "$tool is missing" >&2; exit 2; }; done

mkdir -p "$PERF_DIR/results/tmp"
# mvn_build LOG ARGS...: offline first, online when that fails; with the JDK chosen above (Helidon's module is
# built only on 21+).
mvn_build() {
  local logf="$1"; shift
  if (cd "$ROOT" && JAVA_HOME="$JDK_HOME" timeout 1800 mvn -q -B -o "${MVN_REPO[@]}" "$@") >"$logf" 2>&1; then
    return 0
  fi
  log "offline build failed, trying online (log: $logf)"
  (cd "$ROOT" && JAVA_HOME="$JDK_HOME" timeout 1800 mvn -q -B "${MVN_REPO[@]}" "$@") >"$logf" 2>&1 \
    || { tail -30 "$logf" >&2; return 1; }
}
# stale JAR DIRS...: whether JAR is missing or older than any source or pom under DIRS.
stale() {
  local jar="$1"; shift
  [[ ! -f "$jar" ]] || [[ -n $(find "$@" \( -name '*.java' -o -name 'pom.xml' \) -not -path '*/target/*' \
                                    -newer "$jar" -print -quit 2>/dev/null) ]]
}

if [[ $BUILD -eq 1 ]]; then
  P="$PERF_DIR/peers"
  if stale "$P/netty-h2/target/netty-h2-peer.jar" "$P/netty-h2" "$P/pom.xml" \
     || stale "$P/jetty-h2/target/jetty-h2-peer.jar" "$P/jetty-h2" "$P/pom.xml" \
     || stale "$P/helidon-h2/target/helidon-h2-peer.jar" "$P/helidon-h2" "$P/pom.xml" \
     || stale "$P/vertx/target/vertx-peer.jar" "$P/vertx" "$P/app" "$PERF_DIR/src/main/java/dev/fleche/perf/app" \
     || stale "$P/jersey-netty/target/jersey-netty-peer.jar" "$P/jersey-netty" "$P/app" \
              "$PERF_DIR/src/main/java/dev/fleche/perf/app" \
     || stale "$P/jersey-jetty/target/jersey-jetty-peer.jar" "$P/jersey-jetty" "$P/app" \
              "$PERF_DIR/src/main/java/dev/fleche/perf/app"; then
    log "building the HTTP/2 peers: mvn -f perf/peers/pom.xml package -pl app,netty-h2,jetty-h2,helidon-h2,vertx,..."
    mvn_build "$PERF_DIR/results/tmp/build-h2-peers.log" -f perf/peers/pom.xml -DskipTests package \
      -pl app,netty-h2,jetty-h2,helidon-h2,vertx,jersey-netty,jersey-jetty
  fi
  if stale "$PERF_DIR/target/fleche-perf.jar" "$ROOT/transport-nio" "$ROOT/jaxrs-bridge" "$PERF_DIR/src" \
           "$PERF_DIR/pom.xml"; then
    log "building Fleche and the perf module: mvn -Pjersey4 -DskipTests package -pl perf -am"
    mvn_build "$PERF_DIR/results/tmp/build-h2-fleche.log" -Pjersey4 -DskipTests package -pl perf -am
  fi
fi

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec python3 "$PERF_DIR/h2bench.py" --java "$JAVA" --command "perf/h2bench.sh $ORIG_ARGS" "${PASS[@]}"
