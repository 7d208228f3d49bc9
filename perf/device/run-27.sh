#!/usr/bin/env bash
# Issue 27 (dispatch at scale): Fleche + Jersey builds and dispatch options vs Jersey on Grizzly, on a 16-core Linux
# box with no network. Cells: see CELL_LIST (v0 = main 754a30b, v1 = + reactor wake-ups only when asleep,
# v2 = v1 + striped request permits; -nb = @NonBlocking, -par4 = 4 virtual-thread carriers, -pool = platform threads).
#
#   OUT=/some/dir bash .device/run.sh          (from the repository root; OUT defaults to /tmp/fleche-device-<time>)
#
# Each cell: a FRESH server JVM pinned to cores 0..N-1 (taskset), the generator pinned to cores 8-15,
# wait for "READY <port>", one checked request (GET /hello, or POST /echo with its JSON body), warm-up 15 s, measured 10 s at 256 connections (8 generator threads),
# server CPU (utime+stime of /proc/PID/stat) over the measured window, SIGTERM (SIGKILL after 5 s).
# One JSON line per cell is appended to $OUT/cells.jsonl as soon as the cell is measured.
#
# Environment knobs (all optional):
#   DRY=1                2 s warm-up + 2 s measure, everything on cores 0-1 (for a 2-core test box)
#   USE_SYSTEM_JAVA=1    use the system java (>= 21) instead of the bundled Temurin 25 (.device/jdk, the default)
#   FORCE_LOADGEN=1      use Fleche's LoadGen even when wrk works
#   CELLS="1 3 5"        run only these cell numbers (1-based)
#   WARMUP_S / MEASURE_S override the warm-up / measured seconds
#   TIME_BUDGET_S        skip a cell that could not finish within this many seconds of the start (default 575)
set -u
export LC_ALL=C

D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T0=$SECONDS
TS=$(date -u +%Y%m%d-%H%M%S)
OUT=${OUT:-/tmp/fleche-device-$TS}
mkdir -p "$OUT" || { echo "cannot create OUT=$OUT" >&2; exit 2; }
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fleche-device.XXXXXX")
CELLS_FILE=$OUT/cells.jsonl
SUMMARY=$OUT/summary.txt
LOGF=$OUT/log.txt
SERVER_LOGS=$OUT/server-logs.txt
: >>"$CELLS_FILE"

log() { echo "[$(date -u +%H:%M:%S) +$((SECONDS - T0))s] $*" | tee -a "$LOGF"; }

SERVER_PID=""
stop_server() { # SIGTERM, SIGKILL after 5 s
  local pid=$1 i
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    log "  server $pid still alive 5 s after SIGTERM: SIGKILL"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  SERVER_PID=""
}
cleanup() { [ -n "$SERVER_PID" ] && stop_server "$SERVER_PID"; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

# ------------------------------------------------------------------------------------------- settings
DRY=${DRY:-0}
if [ "$DRY" = 1 ]; then
  WARMUP_S=${WARMUP_S:-2}; MEASURE_S=${MEASURE_S:-2}
else
  WARMUP_S=${WARMUP_S:-15}; MEASURE_S=${MEASURE_S:-10}
fi
CONNS=256
GEN_THREADS=8
TIME_BUDGET_S=${TIME_BUDGET_S:-575}
STARTUP_TIMEOUT_S=30
JVM_OPTS="-Xms1g -Xmx1g -XX:+UseParallelGC"
GEN_JVM_OPTS="-Xms512m -Xmx512m -XX:+UseParallelGC"
BASE_PORT=18100
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
NPROC=$(nproc 2>/dev/null || grep -c ^processor /proc/cpuinfo)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true

# executables may lose their x bit in transit: restore it, or run from a copy in $WORK
chmod +x "$D/jdk/bin/"* "$D/jdk/lib/jspawnhelper" "$D/jdk/lib/jexec" "$D/bin/wrk" 2>/dev/null || true
JDK_DIR=$D/jdk
if [ -d "$D/jdk" ] && { [ ! -x "$D/jdk/bin/java" ] || [ -f "$D/jdk/lib/server/libjvm.so.gz" ]; }; then
  # libjvm.so travels gzipped (the bundle's size limit): unpack into a copy of the JDK
  cp -r "$D/jdk" "$WORK/jdk" && chmod +x "$WORK/jdk/bin/"* "$WORK/jdk/lib/jspawnhelper" && JDK_DIR=$WORK/jdk
  if [ -f "$WORK/jdk/lib/server/libjvm.so.gz" ]; then
    gzip -dc "$WORK/jdk/lib/server/libjvm.so.gz" >"$WORK/jdk/lib/server/libjvm.so" && rm "$WORK/jdk/lib/server/libjvm.so.gz"
  fi
fi

{
  echo "==== date";            date -u
  echo "==== uname -a";        uname -a
  echo "==== nproc";           nproc; echo "nproc --all: $(nproc --all 2>/dev/null)"
  echo "==== lscpu";           lscpu 2>&1 || grep -E 'model name|processor|physical id|core id|siblings' /proc/cpuinfo
  echo "==== lscpu -e";        lscpu -e=CPU,CORE,SOCKET,NODE,ONLINE,MAXMHZ 2>&1 || lscpu -e 2>&1
  echo "==== /etc/os-release"; cat /etc/os-release 2>&1
  echo "==== ldd --version";   ldd --version 2>&1 | head -3
  echo "==== free -g";         free -g 2>&1 || head -3 /proc/meminfo
  echo "==== loadavg";         cat /proc/loadavg
  echo "==== cpufreq governor"; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>&1
  echo "==== THP";             cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1
  echo "==== somaxconn / tcp_max_syn_backlog / ip_local_port_range / ulimit -n"
  cat /proc/sys/net/core/somaxconn /proc/sys/net/ipv4/tcp_max_syn_backlog /proc/sys/net/ipv4/ip_local_port_range 2>&1
  ulimit -n
  echo "==== tools"
  for t in taskset timeout gzip awk lscpu getconf; do printf '%s: %s\n' "$t" "$(command -v $t || echo MISSING)"; done
  echo "==== cgroup cpu limit (cpu.max / cfs quota) and cpuset"
  cat /sys/fs/cgroup/cpu.max /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null; grep Cpus_allowed_list /proc/self/status
  echo "==== system java";      (command -v java && java -version) 2>&1 | head -4
  echo "==== bundle integrity (sha256sum -c .device/SHA256SUMS)"
  if command -v sha256sum >/dev/null 2>&1 && [ -f "$D/SHA256SUMS" ]; then
    (cd "$D" && sha256sum -c --quiet SHA256SUMS 2>&1 && echo "all files OK")
  else echo "not checked"; fi
} 2>&1 | tee "$OUT/machine.txt"

# ----------------------------------------------------------------------------------------------- java
java_major() { # java binary -> major version (0 if it does not run)
  local v
  v=$("$1" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -1)
  case $v in 1.*) v=${v#1.} ;; esac
  v=${v%%[.+-]*}
  case $v in ''|*[!0-9]*) echo 0 ;; *) echo "$v" ;; esac
}
SYS_JAVA=$(command -v java 2>/dev/null || true)
SYS_MAJOR=0; [ -n "$SYS_JAVA" ] && SYS_MAJOR=$(java_major "$SYS_JAVA")
if [ "${USE_SYSTEM_JAVA:-0}" = 1 ] && [ "$SYS_MAJOR" -ge 21 ]; then
  JAVA=$SYS_JAVA; JAVA_WHY="system java (major $SYS_MAJOR >= 21, USE_SYSTEM_JAVA=1)"
else
  JAVA=$JDK_DIR/bin/java
  JAVA_WHY="bundled .device/jdk (jlinked Temurin 25)"
fi
if [ "$(java_major "$JAVA")" -lt 17 ] && [ "$SYS_MAJOR" -ge 17 ]; then   # bundled JDK does not run here (musl?)
  JAVA_WHY="system java (major $SYS_MAJOR): the bundled JDK does not run: $("$JAVA" -version 2>&1 | head -1)"
  JAVA=$SYS_JAVA
fi
JAVA_VERSION=$("$JAVA" -version 2>&1 | tr '\n' ' ' | sed 's/  */ /g')
if [ "$(java_major "$JAVA")" -lt 17 ]; then
  log "FATAL: $JAVA does not run (need 17+): $JAVA_VERSION"; exit 3
fi

# ------------------------------------------------------------------------- unpack the gzipped files
# bench-peers.jar (stored entries, so gzip compresses it as a whole) and wrk's libs travel gzipped: unpack to $WORK
DEVTOOL_CP=$D/jars/devtool.jar:$D/jars/fleche-v2.jar:$D/jars/deps.jar
gunz() { # SRC.gz DST
  if command -v gzip >/dev/null 2>&1; then gzip -dc "$1" >"$2"; else "$JAVA" -cp "$DEVTOOL_CP" DevTool gunzip "$1" "$2"; fi
}
DEPS=$D/jars/deps.jar
GRIZZLY=$D/jars/jersey-grizzly-peer.jar
LIBDIR=$D/lib
if ls "$D/lib/"*.gz >/dev/null 2>&1; then
  LIBDIR=$WORK/lib; mkdir -p "$LIBDIR"
  for f in "$D/lib/"*; do
    case $f in *.gz) b=$(basename "$f" .gz); gunz "$f" "$LIBDIR/$b" ;; *) cp "$f" "$LIBDIR/" ;; esac
  done
fi

# -------------------------------------------------------------------------------------------- generator
WRK=$D/bin/wrk
if [ ! -x "$WRK" ] && [ -f "$WRK" ]; then cp "$WRK" "$WORK/wrk" && chmod +x "$WORK/wrk" && WRK=$WORK/wrk; fi
WRK_VERSION=$(LD_LIBRARY_PATH=$LIBDIR "$WRK" --version 2>&1 | head -2 | tr '\n' ' ')
if [ "${FORCE_LOADGEN:-0}" != 1 ] && printf '%s' "$WRK_VERSION" | grep -q '^wrk [^ ]'; then   # e.g. "wrk debian/4.1.0-3+b2 [epoll] ..."
  GEN=wrk; GEN_WHY="wrk runs: $WRK_VERSION"
else
  GEN=loadgen
  GEN_WHY="Fleche LoadGen ($( [ "${FORCE_LOADGEN:-0}" = 1 ] && echo FORCE_LOADGEN=1 || echo "wrk does not run: $WRK_VERSION"))"
fi

# ------------------------------------------------------------------------------------------------ cpus
HAVE_TASKSET=0; command -v taskset >/dev/null 2>&1 && HAVE_TASKSET=1
if [ "$DRY" = 1 ]; then
  GEN_CPUS="0-1"
elif [ "$NPROC" -ge 16 ]; then
  GEN_CPUS="8-15"
else
  GEN_CPUS="$((NPROC / 2))-$((NPROC - 1))"
fi
server_cpus() { # N -> cpu list
  local n=$1
  if [ "$DRY" = 1 ]; then echo "0-1"; return; fi
  [ "$NPROC" -lt 16 ] && [ "$n" -gt $((NPROC / 2)) ] && n=$((NPROC / 2))
  echo "0-$((n - 1))"
}
HAVE_TIMEOUT=0; command -v timeout >/dev/null 2>&1 && HAVE_TIMEOUT=1
gen() { # seconds cmd... : runs cmd on the generator cpus; killed after `seconds` (if coreutils timeout exists)
  local s=$1; shift
  local a=()
  [ "$HAVE_TIMEOUT" = 1 ] && a+=(timeout -k 5 "$s")
  [ "$HAVE_TASKSET" = 1 ] && a+=(taskset -c "$GEN_CPUS")
  ${a[@]+"${a[@]}"} "$@"
}

{
  echo "==== selected"
  echo "java:      $JAVA  [$JAVA_WHY]"
  echo "version:   $JAVA_VERSION"
  echo "generator: $GEN  [$GEN_WHY]"
  echo "wrk libs:  $LIBDIR"
  echo "jars:      $(cd "$D/jars" && wc -c *.jar | tr '\n' ' ')"
  echo "pinning:   taskset=$HAVE_TASKSET  generator cpus=$GEN_CPUS  nproc=$NPROC  DRY=$DRY"
  echo "load:      warm-up ${WARMUP_S}s, measure ${MEASURE_S}s, $CONNS connections, $GEN_THREADS generator threads"
  echo "server jvm: $JVM_OPTS"
} 2>&1 | tee -a "$OUT/machine.txt"

# ------------------------------------------------------------------------------------------------ cells
J=$D/jars
FJ=dev.fleche.perf.fleche.FlecheJerseyPeer
declare -A MAIN=( [v0]=$FJ [v1]=$FJ [v2]=$FJ [v2-nb]=$FJ [v2-par4]=$FJ [v2-pool]=$FJ [grizzly]=dev.fleche.perf.peers.jersey.JerseyGrizzlyPeer )
declare -A CP=(
  [v0]=$J/fleche-v0.jar:$DEPS [v1]=$J/fleche-v1.jar:$DEPS [v2]=$J/fleche-v2.jar:$DEPS [v2-nb]=$J/fleche-v2.jar:$DEPS
  [v2-par4]=$J/fleche-v2.jar:$DEPS [v2-pool]=$J/fleche-v2.jar:$DEPS [grizzly]=$GRIZZLY
)
declare -A XOPTS=( [v2-par4]="-Djdk.virtualThreadScheduler.parallelism=4" )
declare -A ARGS=( [v2-nb]="--nonblocking" [v2-pool]="--platform-threads" )
#      name    scenario N   (the key cells twice, rotated; v0 = main 754a30b, v1 = + reactor wake-ups, v2 = + striped permits)
CELL_LIST=(
  "v0 hello 8" "v2 hello 8" "v2-nb hello 8" "grizzly hello 8"
  "v2 json 8" "grizzly json 8" "v1 hello 8" "v2-par4 hello 8" "v2-pool hello 8"
  "v2-nb hello 8" "v2 hello 8" "v0 hello 8"
  "v2 hello 2" "v2-nb hello 2" "v0 hello 2" "v2 hello 4"
  "v2 json 8" "grizzly json 8"
)
ECHO_BODY='{"name":"wrk","amount":12.34}'
expected_body() { case $1 in hello) printf 'Hello, World!' ;; json) printf '{"message":"Hello, World!"}' ;; echo) printf '%s' "$ECHO_BODY" ;; esac; }
request_body() { case $1 in echo) printf '%s' "$ECHO_BODY" ;; esac; }   # empty: GET

cat >"$WORK/done.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d,"lat_mean_us":%.1f,"lat_max_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9)))
end
LUA
{
  echo 'wrk.method = "POST"'
  echo "wrk.body = '$ECHO_BODY'"
  echo 'wrk.headers["Content-Type"] = "application/json"'
  cat "$WORK/done.lua"
} >"$WORK/post.lua"
{
  echo 'wrk.method = "POST"'
  echo "wrk.body = '$ECHO_BODY'"
  echo 'wrk.headers["Content-Type"] = "application/json"'
} >"$WORK/post-warm.lua"

jstr() { # JSON string literal
  local s=$1
  s=${s//\\/\\\\}; s=${s//\"/\\\"}
  s=$(printf '%s' "$s" | tr '\000-\037' ' ')
  printf '"%s"' "$s"
}
cpu_ticks() { local s; s=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }; s=${s##*) }; set -- $s; echo $(( ${12} + ${13} )); }
proc_status() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status" 2>/dev/null; }
port_listening() { # port -> 0 if something listens on it (IPv4 or IPv6)
  local hex; hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" {f=1} END {exit !f}'
}
now_ms() { # milliseconds since the epoch (bash 5 EPOCHREALTIME, else date +%s%N)
  if [ -n "${EPOCHREALTIME:-}" ]; then local t=${EPOCHREALTIME/[.,]/}; echo $((10#$t / 1000)); else echo $(( $(date +%s%N) / 1000000 )); fi
}
fnum() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "" || x == "null") print "null"; else printf f, x }'; }

summarize() { # cells.jsonl -> summary.txt: one row per cell, then the mean of each (N, scenario, build)
  awk -v gen="$GEN" -v java="$JAVA_VERSION" -v wm="$WARMUP_S" -v ms="$MEASURE_S" '
    function f(k,   m) { if (match($0, "\"" k "\":[^,}]*")) { m = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3); gsub(/"/, "", m); return m } return "" }
    BEGIN { printf "Issue 27 dispatch cells (v0 = 754a30b, v1 = + reactor wake-ups, v2 = + striped permits); generator %s; warm-up %ss, measured %ss; %s\n\n", gen, wm, ms, java
            printf "%-4s %-6s %-5s %-3s %-8s %11s %10s %8s %8s %7s %6s %8s\n", "cell", "jar", "scen", "N", "status", "req/s", "cpu_us/req", "cpu%", "p50_ms", "p99_ms", "errors", "check" }
    {
      c = f("cell"); nm = f("name"); sc = f("scenario"); n = f("server_cores"); st = f("status")
      r = f("rps"); cu = f("cpu_us_per_req"); cp = f("server_cpu_pct"); p50 = f("p50_ms"); p99 = f("p99_ms"); e = f("errors")
      ck = ($0 ~ /"check":"OK/) ? "OK" : "FAIL"
      printf "%-4s %-6s %-5s %-3s %-8s %11s %10s %8s %8s %7s %6s %8s\n", c, nm, sc, n, st, r, cu, cp, p50, p99, e, ck
      if (st == "ok" && r != "null" && r != "") { k = n SUBSEP sc SUBSEP nm; sr[k] += r; nr[k]++; rr[k] = rr[k] " " r
        if (cu != "null" && cu != "") { sc2[k] += cu; nc[k]++; cc[k] = cc[k] " " cu } }
      keys[n SUBSEP sc] = 1
    }
    END {
      printf "\nper (N, scenario, build): mean of its rounds\n"
      printf "%-3s %-5s %-8s %12s %12s   %s\n", "N", "scen", "build", "req/s", "cpu us/req", "rounds (req/s | cpu us/req)"
      fflush()
      for (k in sr) {
        split(k, p, SUBSEP)
        printf "%-3s %-5s %-8s %12.1f %12.2f   %s |%s\n", p[1], p[2], p[3], sr[k] / nr[k], (nc[k] ? sc2[k] / nc[k] : 0), rr[k], cc[k] | "sort -k1,1n -k2,2 -k3,3"
      }
      close("sort -k1,1n -k2,2 -k3,3")
    }' "$CELLS_FILE" >"$SUMMARY" 2>&1
}

NCELLS=${#CELL_LIST[@]}
log "OUT=$OUT  java=$JAVA ($JAVA_WHY)  generator=$GEN  cells=$NCELLS  warm-up ${WARMUP_S}s measure ${MEASURE_S}s"
for idx in $(seq 1 "$NCELLS"); do
  read -r name scen n <<<"${CELL_LIST[$((idx - 1))]}"
  if [ -n "${CELLS:-}" ] && ! printf ' %s ' "$CELLS" | tr ',' ' ' | grep -q " $idx "; then continue; fi
  label="$idx/$NCELLS $name $scen N=$n"
  elapsed=$((SECONDS - T0))
  if [ $((elapsed + WARMUP_S + MEASURE_S + 10)) -gt "$TIME_BUDGET_S" ]; then
    log "SKIP $label: elapsed ${elapsed}s + ~$((WARMUP_S + MEASURE_S + 10))s > ${TIME_BUDGET_S}s"
    printf '{"cell":%d,"name":"%s","scenario":"%s","server_cores":%d,"status":"skipped","detail":"time budget: elapsed %ss, budget %ss"}\n' \
      "$idx" "$name" "$scen" "$n" "$elapsed" "$TIME_BUDGET_S" >>"$CELLS_FILE"
    continue
  fi
  c0=$SECONDS
  port=$((BASE_PORT + idx)); while port_listening "$port"; do port=$((port + 20)); done
  scpus=$(server_cpus "$n")
  url="http://127.0.0.1:$port/$scen"
  rbody=$(request_body "$scen")
  if [ -n "$rbody" ]; then WRK_WARM=(-s "$WORK/post-warm.lua"); WRK_MEAS=(-s "$WORK/post.lua"); LG_BODY=(--body "$rbody" --content-type application/json)
  else WRK_WARM=(); WRK_MEAS=(-s "$WORK/done.lua"); LG_BODY=(); fi
  slog="$WORK/server-$idx-$name.log"
  status=ok; detail=""; ready_ms=null; check_out=""; rps=null; req=null; p50=null; p90=null; p99=null; p999=null
  maxl=null; errs=null; err_detail=null; cpu_s=null; cpu_us=null; cpu_pct=null; rss_mb=null; nthr=null; dur_s=null

  # ---- start, wait for READY
  ts=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  t_start=$(now_ms)
  PFX=(); [ "$HAVE_TASKSET" = 1 ] && PFX=(taskset -c "$scpus")   # taskset execs java: $! is the JVM's pid
  ${PFX[@]+"${PFX[@]}"} "$JAVA" $JVM_OPTS ${XOPTS[$name]:-} -cp "${CP[$name]}" "${MAIN[$name]}" "$port" ${ARGS[$name]:-} >"$slog" 2>&1 </dev/null &
  SERVER_PID=$!
  while :; do
    if grep -q '^READY' "$slog" 2>/dev/null; then ready_ms=$(( $(now_ms) - t_start )); break; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then status=start_failed; detail="server exited before READY"; break; fi
    if [ $(( $(now_ms) - t_start )) -ge $((STARTUP_TIMEOUT_S * 1000)) ]; then
      status=start_failed; detail="no READY within ${STARTUP_TIMEOUT_S}s"; break
    fi
    sleep 0.05
  done

  # ---- one checked request
  if [ "$status" = ok ]; then
    check_out=$(gen 30 "$JAVA" -XX:+UseSerialGC -Xmx64m -XX:TieredStopAtLevel=1 -cp "$DEVTOOL_CP" DevTool check "$url" "$(expected_body "$scen")" ${rbody:+"$rbody"} ${rbody:+application/json} 2>&1)
    [ $? -eq 0 ] || { status=check_failed; detail="check: $check_out"; }
  fi

  # ---- warm-up + measured window
  if [ "$status" = ok ]; then
    if [ "$GEN" = wrk ]; then
      gen $((WARMUP_S + 20)) env LD_LIBRARY_PATH="$LIBDIR" "$WRK" -t"$GEN_THREADS" -c"$CONNS" -d"${WARMUP_S}s" --timeout 2s ${WRK_WARM[@]+"${WRK_WARM[@]}"} "$url" >"$WORK/warm-$idx.txt" 2>&1
      k0=$(cpu_ticks "$SERVER_PID")
      gen $((MEASURE_S + 20)) env LD_LIBRARY_PATH="$LIBDIR" "$WRK" -t"$GEN_THREADS" -c"$CONNS" -d"${MEASURE_S}s" --timeout 2s "${WRK_MEAS[@]}" "$url" >"$WORK/gen-$idx.txt" 2>&1
      k1=$(cpu_ticks "$SERVER_PID")
      wj=$(sed -n 's/^WRKJSON //p' "$WORK/gen-$idx.txt" | head -1)
      if [ -z "$wj" ]; then
        status=load_failed; detail="wrk: $(tail -c 600 "$WORK/gen-$idx.txt")"
      else
        # flat JSON of integers/floats -> shell variables w_<key>
        eval "$(printf '%s' "$wj" | tr -d '{}"' | tr ',' '\n' | awk -F: '{printf "w_%s=%s\n", $1, $2}')"
        req=$w_requests
        dur_s=$(awk -v d="$w_duration_us" 'BEGIN{printf "%.4f", d/1e6}')
        rps=$(awk -v r="$w_requests" -v d="$w_duration_us" 'BEGIN{printf "%.1f", r/(d/1e6)}')
        p50=$(awk -v x="$w_p50_us" 'BEGIN{printf "%.3f", x/1000}'); p90=$(awk -v x="$w_p90_us" 'BEGIN{printf "%.3f", x/1000}')
        p99=$(awk -v x="$w_p99_us" 'BEGIN{printf "%.3f", x/1000}'); p999=$(awk -v x="$w_p999_us" 'BEGIN{printf "%.3f", x/1000}')
        maxl=$(awk -v x="$w_lat_max_us" 'BEGIN{printf "%.3f", x/1000}')
        errs=$((w_err_connect + w_err_read + w_err_write + w_err_status + w_err_timeout))
        err_detail="{\"connect\":$w_err_connect,\"read\":$w_err_read,\"write\":$w_err_write,\"status\":$w_err_status,\"timeout\":$w_err_timeout}"
        if [ "$k0" -ge 0 ] && [ "$k1" -ge 0 ]; then
          cpu_s=$(awk -v a="$k0" -v b="$k1" -v t="$CLK_TCK" 'BEGIN{printf "%.2f", (b-a)/t}')
        fi
      fi
    else
      gout=$(gen $((WARMUP_S + MEASURE_S + 40)) "$JAVA" $GEN_JVM_OPTS -cp "$DEVTOOL_CP" DevTool load \
        --url "$url" -c "$CONNS" -t "$GEN_THREADS" -w "$WARMUP_S" -d "$MEASURE_S" --pid "$SERVER_PID" --clk-tck "$CLK_TCK" ${LG_BODY[@]+"${LG_BODY[@]}"} 2>"$WORK/gen-$idx.err")
      lj=$(printf '%s\n' "$gout" | sed -n 's/^RESULT //p' | head -1)
      if [ -z "$lj" ]; then
        status=load_failed; detail="loadgen: $(printf '%s' "$gout" | tail -c 300) $(tail -c 400 "$WORK/gen-$idx.err")"
      else
        g() { printf '%s' "$lj" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
        req=$(g requests); dur_s=$(g seconds); rps=$(fnum "$(g rps)" '%.1f')
        p50=$(fnum "$(g p50_ms)" '%.3f'); p90=$(fnum "$(g p90_ms)" '%.3f'); p99=$(fnum "$(g p99_ms)" '%.3f')
        p999=$(fnum "$(g p999_ms)" '%.3f'); maxl=$(fnum "$(g max_ms)" '%.3f'); errs=$(g errors)
        cpu_s=$(fnum "$(g server_cpu_s)" '%.2f')
        err_detail="{\"status\":$(g status_errors),\"body\":$(g body_errors),\"socket\":$(g socket_errors),\"timeout\":$(g timeouts),\"connect\":$(g connect_errors),\"reconnects\":$(g reconnects),\"first\":$(printf '%s' "$lj" | sed -n 's/.*"first_error":\(.*\)}$/\1/p')}"
      fi
    fi
    if [ "$cpu_s" != null ] && [ -n "$req" ] && [ "$req" != null ] && [ "$req" -gt 0 ] 2>/dev/null; then
      cpu_us=$(awk -v c="$cpu_s" -v r="$req" 'BEGIN{printf "%.2f", c*1e6/r}')
      cpu_pct=$(awk -v c="$cpu_s" -v d="$dur_s" 'BEGIN{ if (d > 0) printf "%.0f", 100*c/d; else print "null"}')
    fi
    rss_kb=$(proc_status "$SERVER_PID" VmRSS); [ -n "$rss_kb" ] && rss_mb=$((rss_kb / 1024))
    nthr=$(proc_status "$SERVER_PID" Threads); [ -n "$nthr" ] || nthr=null
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then status=server_died; detail="server gone after the load"; fi
  fi
  log_errors=$(grep -cE 'Exception|Error|FATAL|SEVERE' "$slog" 2>/dev/null); log_errors=${log_errors:-0}
  [ "$status" = ok ] && [ "$GEN" = wrk ] && [ "${errs:-0}" != null ] && [ "${errs:-0}" -gt 0 ] && detail="wrk errors: $err_detail"
  missing=$(grep -cE 'NoClassDefFoundError|ClassNotFoundException' "$slog" 2>/dev/null); missing=${missing:-0}
  cell_s=$((SECONDS - c0)); elapsed=$((SECONDS - T0))
  printf '{"cell":%d,"name":"%s","scenario":"%s","server_cores":%d,"server_cpus":"%s","gen_cpus":"%s","pinned":%s,"generator":"%s","conns":%d,"gen_threads":%d,"warmup_s":%s,"measure_s":%s,"status":"%s","detail":%s,"check":%s,"rps":%s,"requests":%s,"window_s":%s,"p50_ms":%s,"p90_ms":%s,"p99_ms":%s,"p999_ms":%s,"max_ms":%s,"errors":%s,"error_detail":%s,"server_cpu_s":%s,"server_cpu_pct":%s,"cpu_us_per_req":%s,"rss_mb":%s,"threads":%s,"ready_ms":%s,"log_error_lines":%s,"missing_class_lines":%s,"port":%d,"main":"%s","java":%s,"jvm_opts":"%s","dry":%s,"ts":"%s","cell_s":%d,"elapsed_s":%d}\n' \
    "$idx" "$name" "$scen" "$n" "$scpus" "$GEN_CPUS" "$([ "$HAVE_TASKSET" = 1 ] && echo true || echo false)" "$GEN" "$CONNS" "$GEN_THREADS" \
    "$WARMUP_S" "$MEASURE_S" "$status" "$(jstr "$detail")" "$(jstr "$check_out")" "$rps" "${req:-null}" "${dur_s:-null}" \
    "${p50:-null}" "${p90:-null}" "${p99:-null}" "${p999:-null}" "${maxl:-null}" "${errs:-null}" "$err_detail" "$cpu_s" "${cpu_pct:-null}" "$cpu_us" \
    "$rss_mb" "$nthr" "$ready_ms" "$log_errors" "$missing" "$port" "${MAIN[$name]}" "$(jstr "$JAVA_VERSION")" "$JVM_OPTS" "$([ "$DRY" = 1 ] && echo true || echo false)" \
    "$ts" "$cell_s" "$elapsed" >>"$CELLS_FILE"
  if [ "$status" = ok ]; then
    log "$(printf '%-34s ok  rps %9s  p50 %7s ms  p99 %7s ms  err %s  cpu %s%%  cpu/req %s us  ready %s ms  (cell %ss, elapsed %ss)' \
      "$label" "$rps" "$p50" "$p99" "$errs" "$cpu_pct" "$cpu_us" "$ready_ms" "$cell_s" "$elapsed")"
  else
    log "$(printf '%-34s %s: %s  (cell %ss, elapsed %ss)' "$label" "$status" "$(printf '%s' "$detail" | tr '\n' ' ' | cut -c1-300)" "$cell_s" "$elapsed")"
  fi
  stop_server "$SERVER_PID"   # after the line is written: a timeout during the stop loses nothing
  if [ "$status" != ok ] || [ "$log_errors" -gt 0 ]; then
    { echo "==== cell $label ($status)"; tail -c 8000 "$slog"; [ -f "$WORK/gen-$idx.txt" ] && { echo "---- generator"; tail -c 2000 "$WORK/gen-$idx.txt"; }; } >>"$SERVER_LOGS" 2>/dev/null
  fi
  summarize
done
summarize
log "done in $((SECONDS - T0))s: $(grep -c '"status":"ok"' "$CELLS_FILE") ok lines in $CELLS_FILE"
cat "$SUMMARY"
