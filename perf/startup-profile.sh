#!/usr/bin/env bash
# Where a start-up goes (issue 26): one start of a target of perf/startup.sh with the JVM's class-load log
# (-Xlog:class+load and class+init with uptime) and start-up phase log (-Xlog:startuptime), and optionally a JFR recording:
#
#   perf/startup-profile.sh [--jfr] [--out DIR] TARGET [TARGET...]     (targets: perf/startup.sh --help)
#
# For each target, DIR/TARGET/ gets class-load.log, startuptime.log, out.log (the target's output) and
# summary.txt, also printed:
#   - wall clock from spawn to the "READY" line and to the first 200 (the probe of startup.sh);
#   - the classes loaded: in all, from the CDS/AOT archive ("shared objects file"), and those made or read at run
#     time split by kind: dynamic proxies ($Proxy), lambda forms / method-handle classes (LambdaForm$,
#     $$Lambda, BoundMethodHandle$Species), and plain classes read from jars or the runtime image;
#   - milestones: the JVM uptime at which the first class of each part is initialised (-Xlog:class+init=debug;
#     the class-load log cannot say it: JDK 25's AOT cache loads and links its classes at VM start) (the application's main, H2, Hibernate
#     Validator, Jackson, Micrometer, Jersey's ResourceConfig and ApplicationHandler, HK2, the resource model's
#     validation, WADL, the Fleche container and transport), and the last class loaded before READY;
#   - per 50 ms of uptime: classes loaded, and how many of them did not come from the archive.
# With --jfr (targets on the full JDK only: the image's runtime has no jdk.jfr): a recording with 1 ms execution
# samples, summarised as inclusive sample counts of the methods that make up Jersey's start-up. JFR adds the jdk.jfr
# module, and JDK 25 then refuses an AOT cache trained without it ("Mismatched values for property
# jdk.module.addmods"): a -aot target's profile with --jfr is a profile WITHOUT the cache (the summary's count of
# classes from the archive says so); for one with it, train with --add-modules jdk.jfr (perf/RESULTS.md, issue 26).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=$ROOT/perf/results/tmp/startup-profile
JFR=0
TARGETS=()
while [ $# -gt 0 ]; do
  case $1 in
    --jfr) JFR=1; shift ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
JAVA25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
JFR_TOOL=${JAVA25%/java}/jfr

# NAME -> "PATH<TAB>command" from startup.sh itself (its --command mode), so both time the same thing.
entry_of() { "$ROOT/perf/startup.sh" --command "$1"; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

status_of() {
  local port=$1 path=$2 line
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || { echo 000; return; }
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
  IFS= read -r -t 2 line <&3 || line=
  exec 3>&-
  line=${line#HTTP/1.1 }
  echo "${line:0:3}"
}

# Adds FLAGS to a startup.sh command: into JAVA_OPTS for the image's launcher, after the java path otherwise.
with_flags() {
  local cmd=$1 flags=$2
  if [[ $cmd == JAVA_OPTS=* ]]; then
    echo "${cmd%% *},${flags// /,} ${cmd#* }"
  elif [[ $cmd == */bin/todo-service* ]]; then
    echo "JAVA_OPTS=${flags// /,} $cmd"
  else
    echo "${cmd%% *} $flags ${cmd#* }"
  fi
}

per_50ms() {
  awk '/ is initializing / { t = $1; gsub(/[\[\]s]/, "", t); n[int(t / 0.05)]++ }
    END { for (i = 0; i <= 200; i++) if (i in n) printf "  %.2f-%.2f: %5d\n", i * 0.05, (i + 1) * 0.05, n[i] }' "$1"
}

summarise() {
  local log=$1
  awk '
    function up(s) { gsub(/[\[\]s]/, "", s); return s + 0 }
    { t = up($1); name = $2 }
    / source: shared objects file/ { shared++; b = int(t / 0.05); loaded[b]++; next }
    {
      b = int(t / 0.05); loaded[b]++; fresh[b]++
      if (name ~ /\$Proxy|^jdk\.proxy/) proxies++
      else if (name ~ /LambdaForm\$|\$\$Lambda|Species_|LambdaProxy|\$\$InjectedInvoker/) forms++
      else { plain++; if (plain <= 400) plainlist = plainlist sprintf("    %.3f %s\n", t, name) }
      if (name ~ /\$Proxy|^jdk\.proxy/ || name ~ /LambdaForm\$|\$\$Lambda|Species_/) dyn = dyn sprintf("    %.3f %s\n", t, name)
    }
    END {
      printf "classes loaded: %d; from the archive: %d; at run time: %d (proxies %d, lambda forms/method-handle classes %d, other %d)\n", NR, shared, NR - shared, proxies, forms, plain
      printf "per 50 ms of uptime (from .. to s: loaded, of them not from the archive):\n"
      for (i = 0; i <= 200; i++) if (i in loaded) printf "  %.2f-%.2f: %5d %5d\n", i * 0.05, (i + 1) * 0.05, loaded[i], fresh[i] + 0
      printf "dynamic classes (uptime, name):\n%s", dyn
      printf "other classes not from the archive (first 400):\n%s", plainlist
    }' "$log"
}

milestones() {
  local log=$1
  local -a marks=(
    "the main class|dev\\.fleche\\.(examples|perf)\\.[a-z.]*\\.[A-Z][A-Za-z]*(Service|Peer|Server)( |$)"
    "H2|^org\\.h2\\."
    "Hibernate Validator|^org\\.hibernate\\.validator"
    "Jackson|^com\\.fasterxml\\.jackson"
    "Micrometer|^io\\.micrometer"
    "Jersey ResourceConfig|org\\.glassfish\\.jersey\\.server\\.ResourceConfig "
    "Jersey ApplicationHandler|org\\.glassfish\\.jersey\\.server\\.ApplicationHandler "
    "HK2 (jersey-hk2)|^org\\.glassfish\\.jersey\\.inject\\.hk2\\."
    "HK2 ServiceLocator|^org\\.jvnet\\.hk2\\.internal\\.ServiceLocatorImpl "
    "META-INF/services lookup (ServiceFinder)|org\\.glassfish\\.jersey\\.internal\\.ServiceFinder "
    "providers (ProviderBinder)|org\\.glassfish\\.jersey\\.internal\\.inject\\.ProviderBinder "
    "resource model built (ResourceBag)|org\\.glassfish\\.jersey\\.server\\.ResourceBag "
    "resource model validation|org\\.glassfish\\.jersey\\.server\\.model\\.ComponentModelValidator "
    "WADL|^org\\.glassfish\\.jersey\\.server\\.wadl\\."
    "routing built (RuntimeModelBuilder)|org\\.glassfish\\.jersey\\.server\\.internal\\.routing\\.RuntimeModelBuilder "
    "Hibernate Validator factory|^org\\.hibernate\\.validator\\.internal\\.engine\\.ValidatorFactoryImpl "
    "Jackson ObjectMapper|^com\\.fasterxml\\.jackson\\.databind\\.ObjectMapper "
    "Fleche container|^dev\\.fleche\\.jersey\\.FlecheContainer "
    "Fleche transport (Reactor)|^dev\\.fleche\\.transport\\.internal\\.Reactor "
    "listening (Acceptor)|^dev\\.fleche\\.transport\\.internal\\.Acceptor "
    "first request (Connection)|^dev\\.fleche\\.transport\\.internal\\.Connection "
    "first request into Jersey (ContainerRequest)|^org\\.glassfish\\.jersey\\.server\\.ContainerRequest "
    "first response (ResponseWriter)|^dev\\.fleche\\.jersey\\.internal\\.ResponseWriter "
  )
  local mark label pattern
  for mark in "${marks[@]}"; do
    label=${mark%%|*} pattern=${mark#*|}
    awk -v label="$label" -v p="$pattern" '
      / is initializing / { t = $1; gsub(/[\[\]s]/, "", t); if ($NF " " ~ p) { printf "  %-45s %.3f s\n", label, t; found = 1; exit } }
      END { if (!found) printf "  %-45s -\n", label }' "$log"
  done
}

profile() {
  local name=$1 entry path cmd dir t0 pid port ready=- first=- flags words
  entry=$(entry_of "$name") || return 1
  path=${entry%%	*} cmd=${entry#*	}
  dir=$OUT/$name
  rm -rf "$dir"; mkdir -p "$dir"
  flags="-Xlog:class+load:file=$dir/class-load.log:uptime -Xlog:class+init=debug:file=$dir/class-init.log:uptime"
  flags="$flags -Xlog:startuptime:file=$dir/startuptime.log:uptime"
  if [ "$JFR" = 1 ]; then
    flags="$flags -XX:StartFlightRecording:filename=$dir/start.jfr,settings=$dir/settings.jfc"
    sed -e 's|<setting name="period" control="method-sampling-java-interval">[^<]*<|<setting name="period">1 ms<|' \
        -e 's|<setting name="stackdepth">[^<]*<|<setting name="stackdepth">512<|' \
        "${JAVA25%/bin/java}/lib/jfr/profile.jfc" > "$dir/settings.jfc"
  fi
  cmd=$(with_flags "$cmd" "$flags")
  port=$(( 29000 + RANDOM % 1000 ))
  read -ra words <<< "${cmd//PORT/$port}"
  [[ ${words[0]} == JAVA_OPTS=* ]] && words[0]=${words[0]//,/ }
  t0=$(now_ms)
  env DRAIN_DELAY_SECONDS=0 DRAIN_GRACE_SECONDS=1 "${words[@]}" > "$dir/out.log" 2>&1 &
  pid=$!
  while [ "$(status_of "$port" "$path")" != 200 ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$dir/out.log" >&2; return 1; }
    [ "$ready" != - ] || ! grep -q '^READY' "$dir/out.log" || ready=$(( $(now_ms) - t0 ))
    sleep 0.005
  done
  first=$(( $(now_ms) - t0 ))
  [ "$ready" != - ] || ready="<= $first"
  sleep 1
  kill -TERM "$pid"; wait "$pid" || true
  {
    echo "== $name: $cmd"
    echo "wall clock from spawn: READY seen at $ready ms, first 200 at $first ms (probed every ~5 ms)"
    echo "JVM phases (-Xlog:startuptime):"; grep -E 'Create VM|Genesis|Initialize module system' "$dir/startuptime.log" | sed 's/^/  /'
    echo "milestones (JVM uptime at which the first class of each part is initialised):"; milestones "$dir/class-init.log"
    echo "classes initialised per 50 ms of uptime:"; per_50ms "$dir/class-init.log"
    summarise "$dir/class-load.log"
    if [ "$JFR" = 1 ]; then jfr_summary "$dir/start.jfr"; fi
  } > "$dir/summary.txt"
  sed -n '1,/^dynamic classes/p' "$dir/summary.txt"
}

# Inclusive 1 ms execution samples per method of interest (a sample counts once per method on its stack).
jfr_summary() {
  local rec=$1
  echo "JFR execution samples (inclusive: samples with the method on the stack; 1 ms period):"
  "$JFR_TOOL" print --stack-depth 512 --events jdk.ExecutionSample "$rec" | awk '
    BEGIN {
      n = split("TodoService.main|FlecheHttpServerFactory.create|ApplicationHandler.<init>|ApplicationHandler.initialize|" \
        "ServiceFinder|InjectionManagerFactory|Hk2InjectionManager|ServiceLocatorImpl|" \
        "CommonConfig.configureAutoDiscoverableProviders|CommonConfig.configureMetaProviders|ProviderBinder|" \
        "ResourceBag|ResourceModelValidator|ComponentModelValidator|WadlFeature|WadlModelProcessor|" \
        "RuntimeModelBuilder|ResourceMethodInvoker|MessageBodyFactory|" \
        "ValidatorFactory|hibernate.validator|jackson.databind.ObjectMapper|org.h2.|TodoStore|io.micrometer|" \
        "dev.fleche.transport|java.lang.reflect.Proxy|InvokerBytecodeGenerator|LambdaForm|ClassLoader.loadClass|" \
        "ClassLoader.defineClass|Class.forName|Interpreter|reflect.Method.invoke", keys, "|")
    }
    /^jdk.ExecutionSample/ { if (inside) flush(); inside = 1; delete seen; samples++ ; next }
    inside && /line:/ {
      m = $0; sub(/\(.*/, "", m) # the method, without its parameter types
      for (i = 1; i <= n; i++) if (!(i in seen) && index(m, keys[i])) { seen[i] = 1 }
    }
    function flush() { for (i in seen) count[i]++ }
    END {
      if (inside) flush()
      printf "  samples in all: %d\n", samples
      for (i = 1; i <= n; i++) printf "  %-50s %6d\n", keys[i], count[i]
    }'
}

for name in "${TARGETS[@]}"; do profile "$name"; done
