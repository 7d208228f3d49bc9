#!/usr/bin/env bash
# Start-up to first 200, image size and idle RSS of the shipping variants (issue 14). Run on a quiet machine:
#
#   perf/startup.sh [--starts N] [--targets a,b,...] [--load S [--load-rate R]] [--out FILE]
#
# Each start: spawn -> the port probed every 10 ms (bash /dev/tcp, no process per probe) -> first "200" on the
# target's path; then RSS (VmRSS) 2 s later with no traffic; then SIGTERM. The median, min and max over N starts
# (default 10) go into a Markdown table on stdout (and --out). With --load S (issue 14 asks for 60), the first start
# of each target also gets S seconds of closed-loop load (the project's LoadGen, 50 connections) on its path, and
# its RSS is read right after ("RSS after load"), with the load's req/s and the server's CPU per response; with
# --load-rate R the load is open loop at R requests/s instead (the same work for every target, so that CPU per
# response compares even when other work on the machine takes CPU). Targets run in rounds, the order rotated each
# round; the first round's start of each target gets the load. Idle RSS
# is also split: "anon" (RssAnon: the process's own memory) and what is left, file pages mapped from the JDK, the
# jars and the CDS/AOT archive (RssFile + RssShmem: clean, shared between processes of the same image, and dropped
# first under memory pressure). Archives are made first by one training start each
# (the same requests, 20 rounds), in perf/results/tmp/startup/.
#
# Targets (hello: GET /hello of the perf module's BenchApplication; service: GET /todos of examples/service):
#   fleche-jersey-jar     hello  JDK 25, plain class path (perf/target/fleche-perf.jar)
#   fleche-jersey-cds     hello  JDK 17, AppCDS archive (-XX:ArchiveClassesAtExit from a training start)
#   fleche-jersey-aot     hello  JDK 25, AOT cache (-XX:AOTCacheOutput from a training start)
#   fleche-jersey-aot-fast hello JDK 25, the same with FlecheProperties.FAST_START (FlecheJerseyPeer --fast-start;
#                                its own AOT cache)
#   fleche-raw            hello  JDK 25, the raw Fleche transport: examples/transport-hello on its two jars (the
#                                perf jar's FlecheRawPeer is not used: its 15 MB jar and Jackson would be timed too)
#   jersey-grizzly        hello  JDK 25, perf/peers/jersey-grizzly (built by perf/bench.sh)
#   spring                hello  JDK 25, perf/peers/spring (built by perf/bench.sh)
#   service-jar           service JDK 25, plain class path (the image's app/ jars on the full JDK)
#   service-image         service the image: examples/service/target/image/bin/todo-service (jlink + AOT cache)
#   service-image-pod     service the image as in its pod: JAVA_OPTS=-XX:MaxRAM=256m, the memory limit of
#                         deploy/k8s/todo-service.yaml (the JVM sizes its heap from it as from a cgroup limit)
#   service-image-g1      service the same, with G1 instead of the launcher's Serial GC (is SerialGC worth it?)
#   service-image-c1      service the pod's, with -XX:TieredStopAtLevel=1 (C1 only: less compiler and code memory)
#   service-image-no-coh  service the pod's, without -XX:+UseCompactObjectHeaders (is it worth it?): the image built
#                         again with COMPACT_HEADERS=off, with its own AOT cache (a cache made with compact headers
#                         is refused by a JVM without them)
#   hello-example         hello  JDK 25, examples/hello itself on the JVM (its classes on the perf jar's dependencies)
#   hello-native          hello  examples/hello as a native executable (examples/hello/target/hello; native/README.md)
#   service-native        service examples/service as a native executable (examples/service/target/todo-service)
# The native targets are built with GRAALVM_HOME=$(native/builder/make-builder.sh) mvn -B -Pnative package -pl
# examples/hello,examples/service -am -DskipTests; their size (executable + lib/) is in the size table.
# NAME@base: NAME from a copy of an earlier build in $BASE (default perf/results/tmp/startup/base: image/ and
# fleche-perf.jar), with its own archives, to time a change side by side with the build before it.
# NAME~X~Y: NAME with more settings, each X a JVM flag ("-...") or an environment variable (VAR=value).
# Columns besides the times: CPU ms to first 200 (the server's CPU time by then, all threads: less sensitive than the
# wall clock to other work on the machine) and other load % (the share of both CPUs that neither the server nor the
# probe took during the start: the machine's other work; BENCHMARKS.md asks for < 5 %).
# perf/startup.sh --command NAME prints NAME's path and command (perf/startup-profile.sh uses it).
# Needs: perf/target/fleche-perf.jar and the transport-hello jars (mvn -B -DskipTests package -pl
# perf,examples/transport-hello -am) and the image
# (mvn -B -Pimage -DskipTests package -pl examples/service -am); missing peers are skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

STARTS=10
LOAD=0
LOAD_RATE=
TARGETS=fleche-jersey-jar,fleche-jersey-cds,fleche-jersey-aot,fleche-raw,jersey-grizzly,spring,service-jar,service-image,service-image-pod,service-image-g1,service-image-c1,service-image-no-coh,hello-example,hello-native,service-native
OUT=
JAVA25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JAVA17=${JAVA17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
while [ $# -gt 0 ]; do
  case $1 in
    --starts) STARTS=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --load) LOAD=$2; shift 2 ;;
    --command) COMMAND_OF=$2; shift 2 ;;
    --load-rate) LOAD_RATE=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 1 ;;
  esac
done
TMP=$ROOT/perf/results/tmp/startup
# A copy of an earlier build to time side by side with this one: BASE/image (the service image),
# BASE/fleche-perf.jar and the native executables BASE/todo-service (its lib/ in BASE/lib) and BASE/hello/hello (its
# lib/ in BASE/hello/lib); a target named NAME@base runs NAME from there (with its own archives).
BASE=${BASE:-$TMP/base}
IMAGE=$ROOT/examples/service/target/image
PERF_JAR=$ROOT/perf/target/fleche-perf.jar
SUFFIX=
# Points IMAGE, PERF_JAR and the archives' SUFFIX at this build or, for NAME@base, at BASE.
use_build() {
  if [[ $1 == *@base ]]; then
    IMAGE=$BASE/image PERF_JAR=$BASE/fleche-perf.jar SUFFIX=-base
    HELLO_NATIVE=$BASE/hello/hello SERVICE_NATIVE=$BASE/todo-service
  else
    IMAGE=$ROOT/examples/service/target/image PERF_JAR=$ROOT/perf/target/fleche-perf.jar SUFFIX=
    HELLO_NATIVE=$ROOT/examples/hello/target/hello SERVICE_NATIVE=$ROOT/examples/service/target/todo-service
  fi
}
HELLO_NATIVE=$ROOT/examples/hello/target/hello
SERVICE_NATIVE=$ROOT/examples/service/target/todo-service
RAW_CP=$ROOT/examples/transport-hello/target/fleche-example-transport-hello-0.1.0-SNAPSHOT.jar:$ROOT/transport-nio/target/fleche-transport-nio-0.1.0-SNAPSHOT.jar
mkdir -p "$TMP"
FLAGS="-Xms64m -Xmx512m"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# status code of GET PATH on 127.0.0.1:PORT, or 000
probe() {
  local port=$1 path=$2 line
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || { echo 000; return; }
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
  IFS= read -r -t 2 line <&3 || line=
  exec 3>&-
  line=${line#HTTP/1.1 }
  echo "${line:0:3}"
}

free_port() {
  local port=$(( 29000 + RANDOM % 1000 ))
  while [ "$(probe "$port" /)" != 000 ]; do port=$(( port + 1 )); done
  echo "$port"
}

service_cp() { (cd "$IMAGE" && ls app/*.jar | LC_ALL=C sort | sed "s|^|$IMAGE/|" | paste -sd: -); }

# NAME -> "PATH<TAB>command with PORT" ; empty when the target cannot run here. NAME~X~Y... is NAME with more
# settings: each X that starts with "-" is a JVM flag (into JAVA_OPTS for the image, after java otherwise), each
# other X (VAR=value) an environment variable; e.g. service-image-pod~-XX:-UsePerfData~MALLOC_ARENA_MAX=2.
command_of() {
  local base=${1%%~*} extra entry cmd envs= flags= x
  entry=$(plain_command_of "$base") || return 1
  [ -n "$entry" ] || return 0
  [ "$base" != "$1" ] || { echo "$entry"; return 0; }
  IFS='~' read -ra extra <<< "${1#*~}"
  for x in "${extra[@]}"; do
    if [[ $x == -* ]]; then flags="$flags $x"; else envs="$envs $x"; fi
  done
  cmd=${entry#*	}
  if [[ $cmd == JAVA_OPTS=* ]]; then
    cmd="${cmd%% *}${flags// /,} ${cmd#* }"
  elif [[ $cmd == */bin/todo-service* ]]; then
    cmd="JAVA_OPTS=${flags# } $cmd" cmd=${cmd// -/,-} cmd=${cmd/JAVA_OPTS=,/JAVA_OPTS=}
  else
    cmd="${cmd%% *}$flags ${cmd#* }"
  fi
  echo "${entry%%	*}	$cmd${envs:+ ENV:${envs# }}"
}

plain_command_of() {
  use_build "$1"
  case ${1%@base} in
    fleche-jersey-jar) echo "/hello	$JAVA25 $FLAGS -cp $PERF_JAR dev.fleche.perf.fleche.FlecheJerseyPeer PORT" ;;
    fleche-jersey-cds) echo "/hello	$JAVA17 $FLAGS -XX:SharedArchiveFile=$TMP/hello$SUFFIX.jsa -cp $PERF_JAR dev.fleche.perf.fleche.FlecheJerseyPeer PORT" ;;
    fleche-jersey-aot) echo "/hello	$JAVA25 $FLAGS -XX:AOTCache=$TMP/hello$SUFFIX.aot -cp $PERF_JAR dev.fleche.perf.fleche.FlecheJerseyPeer PORT" ;;
    fleche-jersey-aot-fast) echo "/hello	$JAVA25 $FLAGS -XX:AOTCache=$TMP/hello-fast$SUFFIX.aot -cp $PERF_JAR dev.fleche.perf.fleche.FlecheJerseyPeer PORT --fast-start" ;;
    fleche-raw) echo "/hello	$JAVA25 $FLAGS -cp $RAW_CP dev.fleche.examples.transporthello.TransportHelloServer PORT" ;;
    jersey-grizzly|spring)
      local jar=$ROOT/perf/peers/$1/target/$1-peer.jar
      [ -f "$jar" ] && echo "/hello	$JAVA25 $FLAGS -jar $jar PORT" ;;
    service-jar) echo "/todos	$JAVA25 $FLAGS -cp $(service_cp) dev.fleche.examples.service.TodoService PORT" ;;
    service-image) echo "/todos	$IMAGE/bin/todo-service PORT" ;;
    service-image-pod) echo "/todos	JAVA_OPTS=-XX:MaxRAM=256m $IMAGE/bin/todo-service PORT" ;;
    service-image-g1) echo "/todos	JAVA_OPTS=-XX:MaxRAM=256m,-XX:-UseSerialGC,-XX:+UseG1GC $IMAGE/bin/todo-service PORT" ;;
    service-image-c1) echo "/todos	JAVA_OPTS=-XX:MaxRAM=256m,-XX:TieredStopAtLevel=1 $IMAGE/bin/todo-service PORT" ;;
    service-image-no-coh) echo "/todos	JAVA_OPTS=-XX:MaxRAM=256m $TMP/image-no-coh/bin/todo-service PORT" ;;
    hello-example) [ -d "$ROOT/examples/hello/target/classes" ] \
      && echo "/hello	$JAVA25 $FLAGS -cp $ROOT/examples/hello/target/classes:$PERF_JAR dev.fleche.examples.hello.HelloServer PORT" ;;
    hello-native) [ -x "$HELLO_NATIVE" ] && echo "/hello	$HELLO_NATIVE PORT" ;;
    service-native) [ -x "$SERVICE_NATIVE" ] && echo "/todos	$SERVICE_NATIVE PORT" ;;
    *) echo "unknown target: $1" >&2; exit 1 ;;
  esac
}

# Starts CMD (PORT replaced) with drain settings for the service; prints "pid port". A leading
# JAVA_OPTS=a,b,... word becomes the environment variable JAVA_OPTS="a b ..." (the image launcher's).
spawn() {
  local cmd=$1 port words
  port=$(free_port)
  local envs=()
  if [[ $cmd == *" ENV:"* ]]; then read -ra envs <<< "${cmd##* ENV:}"; cmd=${cmd% ENV:*}; fi
  read -ra words <<< "${cmd//PORT/$port}"
  if [[ ${words[0]} == JAVA_OPTS=* ]]; then
    words[0]=${words[0]//,/ }
  fi
  env DRAIN_DELAY_SECONDS=0 DRAIN_GRACE_SECONDS=1 "${envs[@]}" "${words[@]}" > "$TMP/last.log" 2>&1 &
  echo "$! $port"
}

stop() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# Jiffies the whole box was busy and in all (/proc/stat's cpu line): "busy total".
box_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit}' /proc/stat; }

# One start: prints "ms rss_kb loaded_rss_kb anon_kb rps cpu_us other_pct cpu_ms" (ms = spawn to first 200; cpu_ms:
# the CPU time the server had used by then, all its threads, which other load on the machine changes less; anon: the
# idle RssAnon; loaded, rps and cpu_us: RSS after the load, its req/s and the server's CPU µs per response — 0 and
# "-" unless LOAD_NOW=1; other_pct: the box's CPU, in % of both CPUs, that neither this server nor the probe took
# from spawn to the idle RSS reading — the other work on the machine)
one_start() {
  local name=$1 path=$2 cmd=$3 t0 pid port ms cpu_ms rss anon loaded=0 rps=- responses=0 cpu_us=- b0 a0 b1 a1 own other
  read -r b0 a0 < <(box_ticks)
  t0=$(now_ms)
  read -r pid port < <(spawn "$cmd")
  while [ "$(probe "$port" "$path")" != 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "the target died:" >&2; cat "$TMP/last.log" >&2; return 1; }
    [ $(( $(now_ms) - t0 )) -lt 60000 ] || { stop "$pid"; echo "no 200 within 60 s" >&2; return 1; }
    sleep 0.01
  done
  ms=$(( $(now_ms) - t0 ))
  cpu_ms=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat")
  sleep 2
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  anon=$(awk '/^RssAnon/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  own=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  read -r b1 a1 < <(box_ticks)
  other=$(( a1 > a0 ? (b1 - b0 - own) * 100 / (a1 - a0) : 0 ))
  [ "$other" -ge 0 ] || other=0
  if [ "${LOAD_NOW:-0}" = 1 ] && [ "$LOAD" != 0 ]; then
    local ticks0 ticks1 log=$TMP/load-$name.log
    ticks0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    # shellcheck disable=SC2046
    "$JAVA25" -cp "$PERF_JAR" dev.fleche.perf.loadgen.LoadGen -c 50 -t 1 -d "$LOAD" \
      $([ -z "$LOAD_RATE" ] || echo "--mode open -R $LOAD_RATE") \
      "http://127.0.0.1:$port$path" > "$log" 2>&1 || echo "load errors: see $log" >&2
    ticks1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    loaded=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    # LoadGen's summary: "  356671 responses in 60.00 s: 5944.4 req/s"
    read -r responses rps < <(awk '/ responses in / {print $1, $(NF - 1); exit}' "$log") || true
    [ "${responses:-0}" -gt 0 ] && cpu_us=$(( (ticks1 - ticks0) * 1000000 / $(getconf CLK_TCK) / responses ))
  fi
  stop "$pid"
  echo "$ms $rss $loaded $anon ${rps:--} $cpu_us $other $cpu_ms"
}

# The archives of the -cds and -aot targets: one training start each.
train() {
  local name=$1 record cmd pid port args=
  use_build "$name"
  case ${name%@base} in
    fleche-jersey-cds) [ "$TMP/hello$SUFFIX.jsa" -nt "$PERF_JAR" ] && return 0 # made from this jar
      record="$JAVA17 $FLAGS -XX:ArchiveClassesAtExit=$TMP/hello$SUFFIX.jsa" ;;
    fleche-jersey-aot) [ "$TMP/hello$SUFFIX.aot" -nt "$PERF_JAR" ] && return 0
      record="$JAVA25 $FLAGS -XX:AOTCacheOutput=$TMP/hello$SUFFIX.aot" ;;
    fleche-jersey-aot-fast) [ "$TMP/hello-fast$SUFFIX.aot" -nt "$PERF_JAR" ] && return 0
      record="$JAVA25 $FLAGS -XX:AOTCacheOutput=$TMP/hello-fast$SUFFIX.aot" args=--fast-start ;;
    service-image-no-coh) build_image_no_coh; return ;;
    *) return 0 ;;
  esac
  cmd="$record -cp $PERF_JAR dev.fleche.perf.fleche.FlecheJerseyPeer PORT $args"
  read -r pid port < <(spawn "$cmd")
  until [ "$(probe "$port" /hello)" = 200 ]; do kill -0 "$pid" || return 1; sleep 0.05; done
  for _ in $(seq 1 20); do probe "$port" /hello > /dev/null; probe "$port" /json > /dev/null; done
  stop "$pid"
  echo "trained $name" >&2
}

# The image without compact object headers: build-image.sh again, from the image's own jars, with
# COMPACT_HEADERS=off (so its AOT cache is trained without them too).
build_image_no_coh() {
  local dir=$TMP/image-no-coh log=$TMP/image-no-coh-build.log
  [ "$dir/lib/app.aot" -nt "$IMAGE/lib/app.aot" ] && return 0
  COMPACT_HEADERS=off JAVA_HOME=${JAVA25%/bin/java} "$ROOT/examples/service/src/image/build-image.sh" todo-service \
    "$(ls "$IMAGE"/app/fleche-example-service-*.jar)" "$IMAGE/app" "$dir" > "$log" 2>&1 \
    || { cat "$log" >&2; return 1; }
  echo "built service-image-no-coh" >&2
}

if [ -n "${COMMAND_OF:-}" ]; then command_of "$COMMAND_OF"; exit 0; fi

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }

table="| target | first 200, median ms | min | max | CPU ms to first 200, median | idle RSS median MB | of it anon / file MB | RSS after load MB | req/s under load | CPU µs/req under load | other load % (median; max) | starts |
|---|---|---|---|---|---|---|---|---|---|---|---|"
IFS=, read -ra listed <<< "$TARGETS"
names=() paths=() cmds=()
for name in "${listed[@]}"; do
  entry=$(command_of "$name" || true)
  if [ -z "$entry" ]; then echo "skipped $name: not built here" >&2; continue; fi
  train "${name%%~*}"
  names+=("$name") paths+=("${entry%%	*}") cmds+=("${entry#*	}")
  : > "$TMP/$name.txt"
done
# Rounds: every target once per round, the order rotated each round (A B C, B C A, C A B, ...), so that a change
# in the machine's other load falls on all of them alike; the first round also gets the load (--load).
n=${#names[@]}
for i in $(seq 1 "$STARTS"); do
  for k in $(seq 0 $(( n - 1 ))); do
    j=$(( (k + i - 1) % n ))
    name=${names[$j]}
    LOAD_NOW=$([ "$i" = 1 ] && echo 1 || echo 0) one_start "$name" "${paths[$j]}" "${cmds[$j]}" >> "$TMP/$name.txt"
    echo "$name start $i/$STARTS: $(tail -1 "$TMP/$name.txt")" >&2
  done
done
for name in "${names[@]}"; do
  ms=$(cut -d' ' -f1 "$TMP/$name.txt" | median)
  min=$(cut -d' ' -f1 "$TMP/$name.txt" | sort -n | head -1)
  max=$(cut -d' ' -f1 "$TMP/$name.txt" | sort -n | tail -1)
  rss=$(cut -d' ' -f2 "$TMP/$name.txt" | median)
  anon=$(cut -d' ' -f4 "$TMP/$name.txt" | median)
  loaded=$(head -1 "$TMP/$name.txt" | cut -d' ' -f3)
  rps=$(head -1 "$TMP/$name.txt" | cut -d' ' -f5)
  cpu_us=$(head -1 "$TMP/$name.txt" | cut -d' ' -f6)
  other=$(cut -d' ' -f7 "$TMP/$name.txt" | median)
  cpu_ms=$(cut -d' ' -f8 "$TMP/$name.txt" | median)
  other_max=$(cut -d' ' -f7 "$TMP/$name.txt" | sort -n | tail -1)
  [ "$LOAD" = 0 ] && loaded=- || loaded=$(( loaded / 1024 ))
  table="$table
| $name | $ms | $min | $max | $cpu_ms | $(( rss / 1024 )) | $(( anon / 1024 )) / $(( (rss - anon) / 1024 )) | $loaded | $rps | $cpu_us | $other; $other_max | $STARTS |"
done

for name in "${names[@]}" x; do [[ $name == *@base* ]] || break; done
use_build "$name" # the image directory and native executables below: this build's unless only @base targets ran
size="| image part | MB |
|---|---|"
if [ -d "$IMAGE" ]; then
  for part in runtime app lib bin; do
    size="$size
| $part | $(du -sm "$IMAGE/$part" | cut -f1) |"
  done
  size="$size
| **total** | **$(du -sm "$IMAGE" | cut -f1)** |"
fi
native_size="| native executable | executable MB | lib/ MB |
|---|---|---|"
for exe in "$HELLO_NATIVE" "$SERVICE_NATIVE"; do
  [ -x "$exe" ] || continue
  native_size="$native_size
| ${exe#"$ROOT"/} | $(awk -v b="$(stat -c %s "$exe")" 'BEGIN {printf "%.1f", b / 1048576}') | $(du -sk "$(dirname "$exe")/lib" 2>/dev/null | awk '{printf "%.1f", $1 / 1024}') |"
done
report="## Start-up (perf/startup.sh --starts $STARTS --load $LOAD, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)

$table

### Image directory ($IMAGE)

$size

JDK modules: $(sed -n 's/^MODULES=//p' "$IMAGE/runtime/release" 2>/dev/null || echo "(no image directory built)")

### Native executables

$native_size"
echo "$report"
[ -z "$OUT" ] || echo "$report" > "$OUT"
