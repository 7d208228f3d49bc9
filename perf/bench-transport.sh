#!/usr/bin/env bash
# Transport benchmark: Fleche's own transport against the transport-ceiling peers (raw Netty, microhttp, Vert.x),
# in one run, alternating targets, medians of N rounds. See perf/README.md and shared BENCHMARKS.md.
#
#   perf/bench-transport.sh                                   # full run: 3 rounds x (15 s warm-up + 30 s) x 2 modes
#   perf/bench-transport.sh --targets microhttp,netty,vertx --warmup 2 --duration 3 --rounds 1   # smoke
#   perf/bench-transport.sh --modes idle --idle 10000         # heap / RSS per idle keep-alive connection
#
# Run perf/bench-transport.sh --help for every flag. Plain bash + awk; needs curl (body check), jcmd (idle mode),
# wrk (installed with apt-get when missing), Maven and a JDK 17+.

set -uo pipefail

PERF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$PERF_DIR/.." && pwd)
ORIG_ARGS="$*"

# ---------------------------------------------------------------- defaults (each can also be set in the environment)
WARMUP=${WARMUP:-15}                 # s of wrk load before each measured hello run
DURATION=${DURATION:-30}             # s of each measured wrk run
PIPE_WARMUP=${PIPE_WARMUP:-5}        # s of pipelined load before the measured pipelined run (JIT is warm already)
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-2}                # wrk -t
CONNECTIONS=${CONNECTIONS:-100}      # wrk -c
DEPTH=${DEPTH:-16}                   # pipelining depth
MODES=${MODES:-hello,pipeline}       # any of hello,pipeline,idle
TARGETS=${TARGETS:-fleche,microhttp,netty,vertx}
IDLE_CONNS=${IDLE_CONNS:-10000}      # connections opened in idle mode
IDLE_SETTLE=${IDLE_SETTLE:-2}        # s to wait after the idle connections are open, before the GC + sampling
JAVA=${JAVA:-java}                   # java binary or JDK home; selects the JDK of every target (and of the loadgen)
FLAGS=${FLAGS:--Xms512m -Xmx512m}    # JVM flags, identical for all targets
BASE_PORT=${BASE_PORT:-18080}        # every server start gets a fresh port from here upwards
BUILD=${BUILD:-1}
SELF=${SELF:-fleche}                 # the target compared against the best of the others ("peers")
READY_TIMEOUT=${READY_TIMEOUT:-60}   # s to wait for "READY <port>"
PIN=${PIN:-}                         # SERVER_CPUS:WRK_CPUS for taskset, e.g. 0:1 (default: no pinning)
OUT=${OUT:-}                         # results file (default perf/results/transport-<date>.md)

declare -A CMD=(
  [fleche]='java $FLAGS -cp transport-nio/target/classes:examples/transport-hello/target/classes dev.fleche.examples.transporthello.TransportHelloServer PORT'
  [microhttp]='java $FLAGS -jar perf/peers/microhttp/target/microhttp-peer.jar PORT'
  [netty]='java $FLAGS -jar perf/peers/netty/target/netty-peer.jar PORT'
  [vertx]='java $FLAGS -jar perf/peers/vertx/target/vertx-peer.jar PORT'
)

usage() {
  cat <<EOF
usage: perf/bench-transport.sh [options]

  --targets LIST        comma-separated target names (default: $TARGETS); known: ${!CMD[*]}
  --target NAME=CMD     define (or redefine) a target and add it to the list; CMD contains PORT and may use
                        \$FLAGS; a leading 'java' is replaced by \$JAVA. Runs in $ROOT. Repeatable.
  --modes LIST          any of hello,pipeline,idle (default: $MODES)
  --idle N              idle mode with N connections (adds 'idle' to the modes; default N: $IDLE_CONNS)
  --warmup S            warm-up before each measured hello run (default: $WARMUP)
  --duration S          length of each measured run (default: $DURATION)
  --pipeline-warmup S   warm-up before each measured pipelined run (default: $PIPE_WARMUP)
  --rounds N            rounds; targets alternate within a round, order rotates per round (default: $ROUNDS)
  --connections C       wrk connections (default: $CONNECTIONS)
  --threads T           wrk threads (default: $THREADS)
  --depth D             pipelining depth (default: $DEPTH)
  --java PATH           java binary or JDK home (default: \$JAVA or 'java')
  --flags "..."         JVM flags for every target (default: "$FLAGS")
  --self NAME           the target whose ratios are taken against the best other one (default: $SELF)
  --pin S:W             taskset: server on CPUs S, wrk/loadgen on CPUs W (e.g. 0:1)
  --port P              first port to use (default: $BASE_PORT)
  --out FILE            results file (default: perf/results/transport-<date>.md)
  --no-build            do not run Maven
  -h, --help            this help

Environment variables of the same names (WARMUP, DURATION, PIPE_WARMUP, ROUNDS, CONNECTIONS, THREADS, DEPTH,
MODES, TARGETS, IDLE_CONNS, JAVA, FLAGS, SELF, PIN, BASE_PORT, OUT, BUILD=0) set the defaults.
EOF
}

die() { echo "bench-transport: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --targets) TARGETS=$2; shift 2 ;;
    --target)
      [[ $2 == *=* ]] || die "--target wants NAME=COMMAND"
      CMD[${2%%=*}]=${2#*=}
      EXTRA_TARGETS="${EXTRA_TARGETS:-}${EXTRA_TARGETS:+,}${2%%=*}"; shift 2 ;;
    --modes) MODES=$2; shift 2 ;;
    --idle) IDLE_CONNS=$2; IDLE_REQUESTED=1; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --pipeline-warmup) PIPE_WARMUP=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --depth) DEPTH=$2; shift 2 ;;
    --java) JAVA=$2; shift 2 ;;
    --flags) FLAGS=$2; shift 2 ;;
    --self) SELF=$2; shift 2 ;;
    --pin) PIN=$2; shift 2 ;;
    --port) BASE_PORT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

# ---------------------------------------------------------------- targets and modes
IFS=',' read -r -a SEL <<< "$TARGETS"
if [[ -n ${EXTRA_TARGETS:-} ]]; then
  IFS=',' read -r -a EXTRA <<< "$EXTRA_TARGETS"
  for t in "${EXTRA[@]}"; do [[ ",$TARGETS," == *",$t,"* ]] || SEL+=("$t"); done
fi
for t in "${SEL[@]}"; do
  [[ -n ${CMD[$t]:-} ]] || die "unknown target '$t' (known: ${!CMD[*]}; define one with --target NAME=CMD)"
  [[ ${CMD[$t]} == *PORT* ]] || die "command of target '$t' has no PORT"
done
NT=${#SEL[@]}
[[ $NT -gt 0 ]] || die "no targets"

[[ -n ${IDLE_REQUESTED:-} && ",$MODES," != *",idle,"* ]] && MODES="$MODES,idle"
DO_HELLO=0; DO_PIPE=0; DO_IDLE=0
IFS=',' read -r -a MODE_LIST <<< "$MODES"
for m in "${MODE_LIST[@]}"; do
  case "$m" in
    hello) DO_HELLO=1 ;; pipeline) DO_PIPE=1 ;; idle) DO_IDLE=1 ;;
    '') ;;
    *) die "unknown mode '$m' (hello, pipeline, idle)" ;;
  esac
done
[[ $((DO_HELLO + DO_PIPE + DO_IDLE)) -gt 0 ]] || die "no modes"
for v in WARMUP DURATION PIPE_WARMUP ROUNDS CONNECTIONS THREADS DEPTH IDLE_CONNS BASE_PORT; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a non-negative integer (got '${!v}')"
done
[[ $ROUNDS -ge 1 && $DURATION -ge 1 ]] || die "--rounds and --duration must be >= 1"

SERVER_PIN=(); WRK_PIN=()
if [[ -n $PIN ]]; then
  [[ $PIN == *:* ]] || die "--pin wants SERVER_CPUS:WRK_CPUS, e.g. 0:1"
  command -v taskset >/dev/null || die "taskset not found"
  SERVER_PIN=(taskset -c "${PIN%%:*}"); WRK_PIN=(taskset -c "${PIN#*:}")
fi

# ---------------------------------------------------------------- JDK
if [[ -d $JAVA ]]; then JAVA_BIN=$JAVA/bin/java; else JAVA_BIN=$(command -v "$JAVA" || true); fi
[[ -n $JAVA_BIN && -x $JAVA_BIN ]] || die "java not found: $JAVA"
JAVA_BIN=$(readlink -f "$JAVA_BIN")
JCMD=$(dirname "$JAVA_BIN")/jcmd
JAVA_VERSION=$("$JAVA_BIN" -version 2>&1 | sed -n 2p)
if [[ $DO_IDLE == 1 && ! -x $JCMD ]]; then die "idle mode needs jcmd next to $JAVA_BIN"; fi

CLK_TCK=$(getconf CLK_TCK)
STAMP=$(date +%Y-%m-%d-%H%M%S)
OUT=${OUT:-$PERF_DIR/results/transport-$STAMP.md}
WORK=$PERF_DIR/results/tmp/transport-$STAMP      # logs; perf/results/tmp/ is git-ignored
mkdir -p "$WORK" "$(dirname "$OUT")"
RAW=$WORK/raw.tsv
: > "$RAW"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ---------------------------------------------------------------- wrk
if ! command -v wrk >/dev/null 2>&1; then
  log "wrk not found: installing it with apt-get"
  SUDO=(); [[ $(id -u) -ne 0 ]] && SUDO=(sudo)
  if ! DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q wrk >"$WORK/apt.log" 2>&1; then
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get update -q >>"$WORK/apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q wrk >>"$WORK/apt.log" 2>&1 \
      || die "apt-get install wrk failed, see $WORK/apt.log"
  fi
fi
command -v wrk >/dev/null || die "wrk still missing"
command -v curl >/dev/null || log "curl not found: the body check uses bash /dev/tcp"

# ---------------------------------------------------------------- build
if [[ $BUILD == 1 ]]; then
  log "building peers and loadgen: mvn -q -B -f perf/peers/pom.xml package -DskipTests"
  (cd "$ROOT" && mvn -q -B -f perf/peers/pom.xml package -DskipTests) >"$WORK/build-peers.log" 2>&1 \
    || { tail -40 "$WORK/build-peers.log" >&2; die "peer build failed (log: $WORK/build-peers.log)"; }
  if [[ " ${SEL[*]} " == *" fleche "* ]]; then
    log "building Fleche: mvn -q -B -DskipTests install (in $ROOT)"
    (cd "$ROOT" && mvn -q -B -DskipTests install) >"$WORK/build-fleche.log" 2>&1 \
      || { tail -40 "$WORK/build-fleche.log" >&2; die "Fleche build failed (log: $WORK/build-fleche.log)"; }
  fi
fi
LOADGEN_JAR=$PERF_DIR/loadgen/target/loadgen.jar
if [[ $DO_IDLE == 1 && ! -f $LOADGEN_JAR ]]; then die "missing $LOADGEN_JAR (build perf/peers first)"; fi

# ---------------------------------------------------------------- process helpers
SERVER_PID=""; LOADGEN_PID=""; WRK_PID=""; NEXT_PORT=$BASE_PORT
cleanup() {
  [[ -n $WRK_PID ]] && kill "$WRK_PID" 2>/dev/null
  [[ -n $LOADGEN_PID ]] && kill "$LOADGEN_PID" 2>/dev/null
  [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null
  [[ -n $LOADGEN_PID ]] && wait "$LOADGEN_PID" 2>/dev/null
  [[ -n $SERVER_PID ]] && wait "$SERVER_PID" 2>/dev/null
  LOADGEN_PID=""; SERVER_PID=""; WRK_PID=""
}

# run_wrk SECONDS OUTFILE ARGS...: wrk in the background (so INT/TERM reach the trap at once), bounded in time.
run_wrk() {
  local secs=$1 outf=$2; shift 2
  timeout $((secs + 30)) "${WRK_PIN[@]}" wrk "$@" > "$outf" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID"
  WRK_PID=""
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_server NAME LOGFILE: sets SERVER_PID and PORT; returns 1 when it did not print READY in time.
start_server() {
  local name=$1 logf=$2 cmd
  PORT=$NEXT_PORT
  while port_busy "$PORT"; do PORT=$((PORT + 1)); done
  NEXT_PORT=$((PORT + 1))
  cmd=${CMD[$name]//PORT/$PORT}
  [[ $cmd == java\ * ]] && cmd="\"\$JAVA\" ${cmd#java }"
  echo "\$ $cmd   (JAVA=$JAVA_BIN FLAGS=$FLAGS)" > "$logf"
  (cd "$ROOT" && JAVA=$JAVA_BIN FLAGS=$FLAGS exec "${SERVER_PIN[@]}" bash -c "exec $cmd") >>"$logf" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + READY_TIMEOUT))
  while (( SECONDS < deadline )); do
    if grep -q '^READY' "$logf"; then return 0; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  log "  $name did not print READY (log: $logf):"; tail -15 "$logf" | sed 's/^/    /' >&2
  stop_server
  return 1
}

stop_server() {
  [[ -n $SERVER_PID ]] || return 0
  kill "$SERVER_PID" 2>/dev/null
  local i
  for i in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$SERVER_PID" 2>/dev/null && kill -9 "$SERVER_PID" 2>/dev/null
  wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
}

# utime+stime in clock ticks (fields 14, 15 of /proc/PID/stat; parsed after the ")" of the command name).
cpu_ticks() {
  local s rest f
  s=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }
  rest=${s##*) }
  read -r -a f <<< "$rest"
  echo $(( f[11] + f[12] ))
}
# Busy clock ticks of the whole box (all of /proc/stat's "cpu" line but idle and iowait).
box_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
# CPU of this shell's waited-for children (cutime+cstime): grows by wrk's CPU once run_wrk has reaped it.
children_ticks() {
  local s rest f
  s=$(cat "/proc/$$/stat"); rest=${s##*) }
  read -r -a f <<< "$rest"
  echo $(( f[13] + f[14] ))
}
NCPU=$(nproc)
rss_kb() { awk '/^VmRSS:/ {print $2; exit}' "/proc/$1/status" 2>/dev/null || echo 0; }
threads_of() { awk '/^Threads:/ {print $2; exit}' "/proc/$1/status" 2>/dev/null || echo 0; }

# Heap used after a full GC, in KB (G1, Parallel, Serial: "total NK, used NK" lines; ZGC: "ZHeap used NM").
heap_used_kb() {
  "$JCMD" "$1" GC.run >/dev/null 2>&1 || { echo -1; return; }
  sleep 0.5
  "$JCMD" "$1" GC.heap_info 2>/dev/null | awk '
    function kb(v,   n) { n = v + 0; if (v ~ /M/) n *= 1024; else if (v ~ /G/) n *= 1048576; return n }
    / total [0-9]+[KMG], used [0-9]+[KMG]/ { for (i = 1; i < NF; i++) if ($i == "used") { s += kb($(i+1)); found = 1 } }
    /ZHeap/ { for (i = 1; i < NF; i++) if ($i == "used") { s += kb($(i+1)); found = 1 } }
    END { print (found ? s : -1) }'
}

# Checks GET /hello -> 200 text/plain "Hello, World!" and GET /no-such-path -> 404.
check_body() {
  local port=$1 code ctype body code404
  if command -v curl >/dev/null 2>&1; then
    body=$(curl -s -m 5 -D "$WORK/headers.tmp" "http://127.0.0.1:$port/hello")
    code=$(awk 'NR==1 {print $2}' "$WORK/headers.tmp")
    ctype=$(awk -F': *' 'tolower($1)=="content-type" {print $2}' "$WORK/headers.tmp" | tr -d '\r')
    code404=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/no-such-path")
  else
    local resp
    resp=$(exec 3<>"/dev/tcp/127.0.0.1/$port"
      printf 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3; timeout 5 cat <&3)
    code=$(printf '%s' "$resp" | awk 'NR==1 {print $2}')
    ctype=$(printf '%s' "$resp" | tr -d '\r' | awk -F': *' 'tolower($1)=="content-type" {print $2}')
    body=${resp#*$'\r\n\r\n'}
    code404=$(exec 3<>"/dev/tcp/127.0.0.1/$port"
      printf 'GET /no-such-path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
      timeout 5 cat <&3 | awk 'NR==1 {print $2}')
  fi
  if [[ $code == 200 && $body == 'Hello, World!' && $ctype == text/plain* && $code404 == 404 ]]; then
    echo "ok"
  else
    echo "FAIL(status=$code type=$ctype body='${body:0:40}' 404=$code404)"
  fi
}

# Parses a wrk --latency report: prints "rps p99_ms requests errors".
parse_wrk() {
  awk '
    function ms(v,   n) { n = v + 0
      if (v ~ /us$/) return n / 1000; if (v ~ /ms$/) return n; if (v ~ /m$/) return n * 60000
      if (v ~ /h$/) return n * 3600000; if (v ~ /s$/) return n * 1000; return n }
    /^ +99%/ { p99 = ms($2) }
    / requests in / { req = $1 }
    /^Requests\/sec:/ { rps = $2 }
    /Socket errors:/ { gsub(/,/, ""); err += $4 + $6 + $8 + $10 }
    /Non-2xx or 3xx responses:/ { err += $5 }
    END { printf "%s %s %s %d\n", (rps == "" ? 0 : rps), (p99 + 0 > 0 ? p99 : "NA"), (req == "" ? 0 : req), err }' "$1"
}

# ---------------------------------------------------------------- time estimate
STEP_COST=$(( 3 + DO_HELLO * (WARMUP + DURATION) + DO_PIPE * (PIPE_WARMUP + DURATION) + DO_IDLE * (IDLE_SETTLE + 25) ))
TOTAL_STEPS=$(( ROUNDS * NT ))
STEPS_DONE=0; STEP_START=$SECONDS
fmt_s() { printf '%dm%02ds' $(( $1 / 60 )) $(( $1 % 60 )); }
left() {
  local l=$(( (TOTAL_STEPS - STEPS_DONE) * STEP_COST - (SECONDS - STEP_START) ))
  (( l < 0 )) && l=0
  fmt_s "$l"
}
progress() { log "round $ROUND/$ROUNDS · $NAME ($TIDX/$NT) · $* · ~$(left) left"; }

# ---------------------------------------------------------------- measured runs
declare -A BODY_OK=()
URL_PATH=/hello

# measure MODE: warm-up + measured wrk run against $PORT, then samples the server; appends to $RAW.
measure() {
  local mode=$1 warm script=() tag out c0 c1 rps p99 req err cpu_us
  if [[ $mode == pipeline ]]; then
    warm=$PIPE_WARMUP; script=(-s "$PERF_DIR/pipeline.lua")
  else
    warm=$WARMUP
  fi
  local url="http://127.0.0.1:$PORT$URL_PATH" extra=()
  [[ $mode == pipeline ]] && extra=(-- "$DEPTH")
  tag="$NAME-r$ROUND-$mode"
  if (( warm > 0 )); then
    progress "$mode: warm-up ${warm} s"
    run_wrk "$warm" "$WORK/$tag-warmup.txt" -t"$THREADS" -c"$CONNECTIONS" -d"${warm}s" "${script[@]}" "$url" "${extra[@]}"
  fi
  progress "$mode: measuring ${DURATION} s"
  local b0 b1 w0 w1 t0 t1 other
  w0=$(children_ticks); b0=$(box_ticks); t0=$(date +%s%N)
  c0=$(cpu_ticks "$SERVER_PID")
  run_wrk "$DURATION" "$WORK/$tag.txt" -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "${script[@]}" "$url" "${extra[@]}"
  c1=$(cpu_ticks "$SERVER_PID")
  t1=$(date +%s%N); b1=$(box_ticks); w1=$(children_ticks)
  # Share of the box's CPU capacity that neither the server nor wrk used during the window: other work (noise).
  other=$(awk -v b=$((b1 - b0)) -v s=$((c1 - c0)) -v w=$((w1 - w0)) -v hz="$CLK_TCK" -v ns=$((t1 - t0)) -v n="$NCPU" \
    'BEGIN { o = (b - s - w) / hz / (ns / 1e9) / n * 100; if (o < 0) o = 0; printf "%.0f", o }')
  if [[ $c0 -lt 0 || $c1 -lt 0 ]]; then
    log "  $NAME died during $mode (log: $WORK/$NAME-r$ROUND.log)"; return 1
  fi
  read -r rps p99 req err < <(parse_wrk "$WORK/$tag.txt")
  cpu_us=$(awk -v d=$((c1 - c0)) -v hz="$CLK_TCK" -v n="$req" 'BEGIN { printf "%.2f", (n > 0 ? d / hz * 1e6 / n : 0) }')
  local rss thr
  rss=$(rss_kb "$SERVER_PID"); thr=$(threads_of "$SERVER_PID")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$ROUND" "$NAME" "$mode" "$rps" "$p99" "$cpu_us" "$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')" \
    "$thr" "$err" "$req" "$other" >> "$RAW"
  [[ $p99 == NA ]] && log "  wrk printed no usable p99 (known wrk 4.1 histogram glitch): p99 left out of the median"
  log "  $NAME $mode: $(printf '%.0f' "$rps") req/s, p99 ${p99} ms, ${cpu_us} µs/req, RSS $((rss / 1024)) MB, $thr threads, $err errors, other load ${other} %"
}

# idle: fresh server; baseline heap/RSS; IDLE_CONNS connections opened and left idle; heap/RSS again.
measure_idle() {
  local logf="$WORK/$NAME-r$ROUND-idle.log" h0 r0 h1 r1 thr opened still fifo
  progress "idle: starting a fresh server"
  start_server "$NAME" "$logf" || return 1
  sleep 1
  h0=$(heap_used_kb "$SERVER_PID"); r0=$(rss_kb "$SERVER_PID")
  fifo=$WORK/idle.fifo; rm -f "$fifo"; mkfifo "$fifo"
  exec 9<>"$fifo"
  progress "idle: opening $IDLE_CONNS connections"
  "${WRK_PIN[@]}" "$JAVA_BIN" -Xms64m -Xmx256m -XX:+UseSerialGC -cp "$LOADGEN_JAR" dev.fleche.perf.loadgen.IdleConnections \
    127.0.0.1 "$PORT" "$IDLE_CONNS" --expect-body 'Hello, World!' --open-timeout 120 --max-hold 600 \
    < "$fifo" > "$WORK/$NAME-r$ROUND-loadgen.out" 2> "$WORK/$NAME-r$ROUND-loadgen.err" &
  LOADGEN_PID=$!
  local deadline=$((SECONDS + 180))
  while (( SECONDS < deadline )); do
    grep -q '^OPEN' "$WORK/$NAME-r$ROUND-loadgen.out" && break
    kill -0 "$LOADGEN_PID" 2>/dev/null || break
    sleep 0.2
  done
  opened=$(awk '/^OPEN/ {print $2}' "$WORK/$NAME-r$ROUND-loadgen.out")
  opened=${opened:-0}
  sed 's/^/    loadgen: /' "$WORK/$NAME-r$ROUND-loadgen.err" | grep -v ' open, ' >&2
  sleep "$IDLE_SETTLE"
  h1=$(heap_used_kb "$SERVER_PID"); r1=$(rss_kb "$SERVER_PID"); thr=$(threads_of "$SERVER_PID")
  echo >&9; exec 9>&-
  wait "$LOADGEN_PID" 2>/dev/null; LOADGEN_PID=""
  still=$(awk '/^STILL_OPEN/ {print $2}' "$WORK/$NAME-r$ROUND-loadgen.out")
  stop_server
  if (( opened == 0 || h0 < 0 || h1 < 0 )); then
    log "  $NAME idle: failed (opened=$opened heap0=$h0 heap1=$h1)"; return 1
  fi
  local hpc rpc
  hpc=$(awk -v a="$h0" -v b="$h1" -v n="$opened" 'BEGIN { printf "%.2f", (b - a) / n }')
  rpc=$(awk -v a="$r0" -v b="$r1" -v n="$opened" 'BEGIN { printf "%.2f", (b - a) / n }')
  # columns: round target mode opened heapKB/conn rssKB/conn heap0MB rss1MB threads still_open
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$NAME" idle "$opened" "$hpc" "$rpc" \
    "$(awk -v k="$h0" 'BEGIN{printf "%.1f", k/1024}')" "$(awk -v k="$r1" 'BEGIN{printf "%.1f", k/1024}')" \
    "$thr" "${still:-?}" >> "$RAW"
  log "  $NAME idle: $opened open, heap $hpc KB/conn, RSS $rpc KB/conn, $thr threads, ${still:-?} still open at the end"
}

# ---------------------------------------------------------------- main loop
if [[ $DO_IDLE == 1 ]]; then
  need=$((IDLE_CONNS + 500))
  [[ $(ulimit -n) == unlimited || $(ulimit -n) -ge $need ]] || log "warning: ulimit -n $(ulimit -n) < $need"
fi
log "targets: ${SEL[*]} · modes: $MODES · rounds: $ROUNDS · JDK: $JAVA_VERSION · flags: $FLAGS"
log "estimated time: $(fmt_s $((TOTAL_STEPS * STEP_COST))) · logs: $WORK"
START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

for ROUND in $(seq 1 "$ROUNDS"); do
  for ((k = 0; k < NT; k++)); do
    TIDX=$(( (k + ROUND - 1) % NT ))          # rotate the order each round: A B C, B C A, C A B, ...
    NAME=${SEL[$TIDX]}; TIDX=$((TIDX + 1))
    STEP_START=$SECONDS
    if (( DO_HELLO + DO_PIPE > 0 )); then
      progress "starting"
      if start_server "$NAME" "$WORK/$NAME-r$ROUND.log"; then
        if [[ -z ${BODY_OK[$NAME]:-} ]]; then
          BODY_OK[$NAME]=$(check_body "$PORT")
          log "  $NAME body check: ${BODY_OK[$NAME]}"
        fi
        (( DO_HELLO )) && measure hello
        (( DO_PIPE )) && measure pipeline
        stop_server
      fi
    fi
    (( DO_IDLE )) && measure_idle
    STEPS_DONE=$((STEPS_DONE + 1))
  done
done

# ---------------------------------------------------------------- report
# median of a column per target and mode; ratios to the best target other than $SELF.
median_table() {  # mode
  awk -F'\t' -v mode="$1" -v self="$SELF" -v order="${SEL[*]}" -v body="$(for t in "${SEL[@]}"; do printf '%s=%s;' "$t" "${BODY_OK[$t]:-not checked}"; done)" '
    function med(key, c,   n, m, i, j, t, a) {
      m = cnt[key]; n = 0
      for (i = 1; i <= m; i++) if (val[key, c, i] != "NA") a[++n] = val[key, c, i] + 0
      if (n == 0) return "NA"
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $3 == mode { k = $2; cnt[k]++; for (c = 4; c <= NF; c++) val[k, c, cnt[k]] = ($c == "NA" ? "NA" : $c + 0); errs[k] += $9 }
    END {
      nb = split(body, bl, ";"); for (i = 1; i <= nb; i++) { e = index(bl[i], "="); if (e) bodyok[substr(bl[i], 1, e - 1)] = substr(bl[i], e + 1) }
      nt = split(order, names, " ")
      for (i = 1; i <= nt; i++) { t = names[i]; if (cnt[t] == 0) continue
        rps[t] = med(t, 4); p99[t] = med(t, 5); cpu[t] = med(t, 6); rss[t] = med(t, 7); thr[t] = med(t, 8); oth[t] = med(t, 11)
        peers += (t != self) }
      for (i = 1; i <= nt; i++) { t = names[i]; if (cnt[t] == 0 || (peers > 0 && t == self)) continue
        if (bestr == "" || rps[t] > rps[bestr]) bestr = t
        if (bestc == "" || cpu[t] < cpu[bestc]) bestc = t }
      print "| target | req/s | p99 ms | CPU µs/req | RSS MB | threads | errors | req/s ÷ best | µs/req ÷ best | rounds | other load % | body |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
      for (i = 1; i <= nt; i++) { t = names[i]
        if (cnt[t] == 0) { printf "| %s | failed | | | | | | | | 0 | | %s |\n", t, bodyok[t]; continue }
        printf "| %s | %.0f | %s | %.2f | %.0f | %.0f | %d | %.2f | %.2f | %d | %s | %s |\n", t, rps[t], (p99[t] == "NA" ? "n/a" : sprintf("%.2f", p99[t])), cpu[t], rss[t], thr[t], errs[t],
          (rps[bestr] > 0 ? rps[t] / rps[bestr] : 0), (cpu[bestc] > 0 ? cpu[t] / cpu[bestc] : 0), cnt[t], (oth[t] == "NA" ? "?" : oth[t]), bodyok[t] }
      if (bestr != "") printf "\nBest %s: %s (req/s), %s (CPU µs/req).\n", (peers > 0 ? "peer" : "target"), bestr, bestc
    }' "$RAW"
}

idle_table() {
  awk -F'\t' -v self="$SELF" -v order="${SEL[*]}" '
    function med(key, c,   n, m, i, j, t, a) {
      m = cnt[key]; n = 0
      for (i = 1; i <= m; i++) if (val[key, c, i] != "NA") a[++n] = val[key, c, i] + 0
      if (n == 0) return "NA"
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $3 == "idle" { k = $2; cnt[k]++; for (c = 4; c <= NF; c++) val[k, c, cnt[k]] = $c + 0 }
    END {
      nt = split(order, names, " ")
      for (i = 1; i <= nt; i++) { t = names[i]; if (cnt[t] == 0) continue
        op[t] = med(t, 4); h[t] = med(t, 5); r[t] = med(t, 6); h0[t] = med(t, 7); r1[t] = med(t, 8); th[t] = med(t, 9); st[t] = med(t, 10)
        peers += (t != self) }
      for (i = 1; i <= nt; i++) { t = names[i]; if (cnt[t] == 0 || (peers > 0 && t == self)) continue
        if (besth == "" || h[t] < h[besth]) besth = t
        if (bestr == "" || r[t] < r[bestr]) bestr = t }
      print "| target | open | heap KB/conn | RSS KB/conn | heap before MB | RSS after MB | threads | still open at end | heap ÷ best | RSS ÷ best | rounds |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      for (i = 1; i <= nt; i++) { t = names[i]
        if (cnt[t] == 0) { printf "| %s | failed | | | | | | | | | 0 |\n", t; continue }
        printf "| %s | %.0f | %.2f | %.2f | %.1f | %.1f | %.0f | %.0f | %.2f | %.2f | %d |\n", t, op[t], h[t], r[t], h0[t], r1[t], th[t], st[t],
          (h[besth] > 0 ? h[t] / h[besth] : 0), (r[bestr] > 0 ? r[t] / r[bestr] : 0), cnt[t] }
    }' "$RAW"
}

COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "none")
DIRTY=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
{
  echo "# Transport benchmark $STAMP"
  echo
  echo "- command: \`perf/bench-transport.sh $ORIG_ARGS\`"
  echo "- JDK: $JAVA_VERSION ($JAVA_BIN); flags: \`$FLAGS\`"
  echo "- commit: $COMMIT ($DIRTY uncommitted paths); wrk: $(wrk -v 2>&1 | awk 'NR==1 {print $2}'); $(nproc) CPUs; $(uname -sr); load average at start: $START_LOAD, at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- rounds: $ROUNDS, targets alternating (order rotated every round); pinning: ${PIN:-none}"
  echo "- CPU µs/req = server utime+stime (/proc/PID/stat) during the measured run ÷ requests; RSS and threads at its end; medians over rounds; errors = socket errors + non-2xx, summed over rounds; ratios to the best target other than \`$SELF\`; other load % = share of the box's CPU used by neither the server nor wrk during the measured run (other work on the machine: high values mean noisy figures)"
  if (( DO_HELLO )); then
    echo
    echo "## hello: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency\` GET /hello after ${WARMUP} s warm-up"
    echo
    median_table hello
  fi
  if (( DO_PIPE )); then
    echo
    echo "## pipelined: $DEPTH requests per write (\`-s perf/pipeline.lua -- $DEPTH\`), ${DURATION} s after ${PIPE_WARMUP} s warm-up"
    echo
    median_table pipeline
  fi
  if (( DO_IDLE )); then
    echo
    echo "## idle: $IDLE_CONNS keep-alive connections, one GET /hello each, then idle; heap after a full GC (jcmd GC.run) and RSS, minus a baseline taken before they opened"
    echo
    idle_table
  fi
  echo
  echo "<details><summary>raw rounds</summary>"
  echo
  echo '```'
  if (( DO_HELLO + DO_PIPE )); then
    printf 'round\ttarget\tmode\treq/s\tp99_ms\tcpu_us/req\trss_MB\tthreads\terrors\trequests\tother_load_%%\n'
    awk -F'\t' '$3 != "idle"' "$RAW"
  fi
  if (( DO_IDLE )); then
    printf 'round\ttarget\tmode\topen\theap_KB/conn\trss_KB/conn\theap_before_MB\trss_after_MB\tthreads\tstill_open\n'
    awk -F'\t' '$3 == "idle"' "$RAW"
  fi
  echo '```'
  echo
  echo "</details>"
} > "$OUT"

echo
cat "$OUT"
log "results: $OUT (logs: $WORK)"
