#!/usr/bin/env bash
# perf/staticbench.sh — static files and uploads (issue 38), one command: installs what it needs (h2load from
# nghttp2-client, nginx, curl, openssl: Debian packages, with apt-get when missing and allowed), builds what is
# missing or stale (the peers grizzly-static, jetty-static, jersey-grizzly; Fleche's perf jar), then runs
# perf/staticbench.py: Fleche's StaticContent against Grizzly's StaticHttpHandler, Jetty 12's ResourceHandler and
# nginx for a 1 KiB, 1 MiB and 1 GiB file over HTTP/1.1, HTTP/1.1 over TLS and h2, and 1 GiB uploads to Fleche +
# Jersey against Jersey on Grizzly. Writes results/staticbench-<UTC>.{md,json}. See perf/README.md, "Static files
# and uploads: perf/staticbench.sh".
#
#   perf/staticbench.sh [--no-build] [--java JAVA_OR_JDK_HOME] [--maven-repo DIR] [--targets a,b]
#                       [--upload-targets a,b] [--upload-cells a,b] [--sizes 1k,1m,1g] [--modes h1,h1-tls,h2]
#                       [--rounds N] [--duration S] [--warmup S] [--connections N] [--streams N]
#                       [--big-connections N] [--h2load-threads N] [--big BYTES] [--big-warmup N] [--files DIR]
#                       [--pin S:W]
#                       [--port-first P] [--port-last P] [--out DIR]
#
# Targets (default all): fleche grizzly jetty nginx; upload targets: fleche-jersey jersey-grizzly (empty: none).
# Two more static targets, fleche-alt and fleche-alt2, run other builds' perf jars (FLECHE_ALT_JAR=PATH,
# FLECHE_ALT2_JAR=PATH) beside fleche: builds
# compared in one run, rotated (how issue 38's gathering writes were measured, perf/RESULTS.md).
# Java: --java, else JAVA_HOME, else the java on the PATH.
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
    --targets|--upload-targets|--upload-cells|--sizes|--modes|--rounds|--duration|--warmup|--connections \
      |--streams|--big-connections|--h2load-threads|--big|--big-warmup|--files|--pin|--port-first|--port-last|--out)
      PASS+=("$1" "$2"); shift 2 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

log() { echo "[staticbench $(date -u +%H:%M:%S)] $*"; }

JDK="${JAVA_ARG:-${JAVA_HOME:-}}"
if [[ -z "$JDK" ]]; then
  JAVA="$(command -v java)"; JDK_HOME="$(dirname "$(dirname "$(readlink -f "$JAVA")")")"
elif [[ -x "$JDK/bin/java" ]]; then
  JAVA="$JDK/bin/java"; JDK_HOME="$JDK"
else
  JAVA="$JDK"; JDK_HOME="$(dirname "$(dirname "$JAVA")")"
fi
[[ -x "$JAVA" ]] || { echo "no java at $JAVA" >&2; exit 2; }

# Debian packages: h2load (nghttp2-client), nginx, curl, openssl.
APT_UPDATED=0
need() { # command package
  command -v "$1" >/dev/null 2>&1 && return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "$1 not found: apt-get install -y $2"
    if [[ $APT_UPDATED -eq 0 ]]; then
      DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update -q >/dev/null 2>&1 || true
      APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q "$2" >/dev/null 2>&1 || true
  fi
  command -v "$1" >/dev/null 2>&1 || { echo "$1 is missing (apt-get install $2)" >&2; exit 2; }
}
need h2load nghttp2-client
need nginx nginx
need curl curl
need openssl openssl
need python3 python3

mkdir -p "$PERF_DIR/results/tmp"
# mvn_build LOG ARGS...: offline first, online when that fails.
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
  if stale "$P/grizzly-static/target/grizzly-static-peer.jar" "$P/grizzly-static" "$P/pom.xml" \
     || stale "$P/jetty-static/target/jetty-static-peer.jar" "$P/jetty-static" "$P/pom.xml" \
     || stale "$P/jersey-grizzly/target/jersey-grizzly-peer.jar" "$P/jersey-grizzly" "$P/app" \
              "$PERF_DIR/src/main/java/dev/fleche/perf/app"; then
    log "building the peers: mvn -f perf/peers/pom.xml package -pl app,grizzly-static,jetty-static,jersey-grizzly"
    mvn_build "$PERF_DIR/results/tmp/build-static-peers.log" -f perf/peers/pom.xml -DskipTests package \
      -pl app,grizzly-static,jetty-static,jersey-grizzly
  fi
  if stale "$PERF_DIR/target/fleche-perf.jar" "$ROOT/transport-nio" "$ROOT/jaxrs-bridge" "$PERF_DIR/src" \
           "$PERF_DIR/pom.xml"; then
    log "building Fleche and the perf module: mvn -Pjersey4 -DskipTests package -pl perf -am"
    mvn_build "$PERF_DIR/results/tmp/build-static-fleche.log" -Pjersey4 -DskipTests package -pl perf -am
  fi
fi

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec python3 "$PERF_DIR/staticbench.py" --java "$JAVA" --original-command "perf/staticbench.sh $ORIG_ARGS" \
  "${PASS[@]}"
