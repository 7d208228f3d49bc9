#!/usr/bin/env bash
# Jersey's own end-to-end suites (tests/e2e-server, tests/e2e-entity, tests/e2e, tests/e2e-client of Jersey's 3.1
# branch) run by JerseyTest on Grizzly's test container and on Fleche's, as a user moving from Grizzly would:
# the released Jersey from Maven Central, the freshly built Fleche, the container chosen with
# -Djersey.config.test.container.factory. Prints the per-module table and every test that passes on Grizzly and
# fails on Fleche. Long (about an hour per container on a quiet 2-core machine): run it under nice, never in CI
# (CI cannot reach Jersey's repository). See conformance/README.md, "Jersey's own end-to-end suites".
#
#   conformance/jersey-e2e/run.sh <jersey-3.1-checkout> [options]
#     --containers grizzly,fleche   which containers, in this order for each module (default both; one run at a
#                                   time, never two at once)
#     --modules "e2e-server e2e"    which of the four modules (default all four)
#     --work DIR                    logs, copied reports and the summary (default: <checkout>/../fleche-e2e-work)
#     --repo DIR                    the Maven local repository (default: DIR/m2 under --work); Fleche is installed
#                                   there, never in ~/.m2
#     --jersey-version V            the released Jersey the suites run against (default 3.1.11)
#     --port P                      jersey.config.test.container.port, the port every JerseyTest binds (default
#                                   9998, Jersey's; a fixed one: some tests read it to start servers of their own)
#     --fork-timeout S              a test JVM (one per test class) still running after S seconds is killed and its
#                                   class counted as failed; Surefire goes on with the next (default 900)
#     --summary-only                only print the summary of reports already under --work
#
# Get a checkout of Jersey's 3.1 branch OUTSIDE this repository, e.g.
#   git clone -b 3.1 https://github.com/eclipse-ee4j/jersey.git /tmp/jersey
# The script edits three kinds of pom in that checkout (kept as <pom>.fleche-orig and restored before each run;
# conformance/README.md lists the edits) and builds nothing of Jersey but the four test modules.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/conformance/jersey-e2e
ALL_MODULES="e2e-server e2e-entity e2e e2e-client"

usage() {
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

[ $# -ge 1 ] || usage
JERSEY=$(cd "$1" 2>/dev/null && pwd) || { echo "no such directory: $1" >&2; exit 2; }
shift
CONTAINERS=grizzly,fleche
MODULES=$ALL_MODULES
WORK=$(dirname "$JERSEY")/fleche-e2e-work
REPO=
JERSEY_VERSION=3.1.11
PORT=9998
FORK_TIMEOUT=900
SUMMARY_ONLY=false
while [ $# -gt 0 ]; do
  case "$1" in
    --containers) CONTAINERS=$2; shift 2 ;;
    --modules) MODULES=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --repo) REPO=$2; shift 2 ;;
    --jersey-version) JERSEY_VERSION=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --fork-timeout) FORK_TIMEOUT=$2; shift 2 ;;
    --summary-only) SUMMARY_ONLY=true; shift ;;
    *) usage ;;
  esac
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
REPO=${REPO:-$WORK/m2}
mkdir -p "$REPO" "$WORK/logs" "$WORK/reports"

case "$JERSEY/" in
  "$ROOT"/*) echo "the Jersey checkout must be outside this repository: $JERSEY" >&2; exit 2 ;;
esac
for module in $MODULES; do
  [ -f "$JERSEY/tests/$module/pom.xml" ] || { echo "not a Jersey checkout with tests/$module: $JERSEY" >&2; exit 2; }
done

# Tools: Maven and python3 (the summary); the JDK is the one Maven runs on.
need=()
command -v mvn >/dev/null || need+=(maven)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi

summary() {
  python3 "$HERE/summary.py" "$WORK/reports" $MODULES | tee "$WORK/summary.md"
}
if $SUMMARY_ONLY; then
  summary
  exit 0
fi

# Only this repository's Maven runs see this local repository (the script's own, or --repo).
export MAVEN_OPTS="-Dmaven.repo.local=$REPO ${E2E_MAVEN_OPTS:-}"
FLECHE_VERSION=$(sed -n '/<artifactId>fleche-parent<\/artifactId>/,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' \
  "$ROOT/pom.xml" | head -n 1)

# ---- Jersey's poms: restore what a previous run changed, then edit (listed in conformance/README.md).
poms=("$JERSEY/pom.xml" "$JERSEY/tests/pom.xml")
for module in $MODULES; do
  poms+=("$JERSEY/tests/$module/pom.xml")
done
for pom in "${poms[@]}"; do
  if [ -f "$pom.fleche-orig" ]; then
    cp "$pom.fleche-orig" "$pom"
  else
    cp "$pom" "$pom.fleche-orig"
  fi
done
# The checkout's own version: the first <version> after </parent> in its root pom (3.1.99-SNAPSHOT).
SNAPSHOT=$(sed -n '/<\/parent>/,$s:.*<version>\(.*\)</version>.*:\1:p' "$JERSEY/pom.xml.fleche-orig" | head -n 1)
echo "Jersey checkout $JERSEY ($SNAPSHOT, $(git -C "$JERSEY" rev-parse --short HEAD 2>/dev/null || echo 'not git'))"
echo "  suites against released Jersey $JERSEY_VERSION; Fleche $FLECHE_VERSION from $ROOT; local repository $REPO"
python3 "$HERE/edit_poms.py" "$SNAPSHOT" "$JERSEY_VERSION" "${poms[@]}"

# ---- Fleche, built from this working tree and installed into the private local repository.
if [[ ",$CONTAINERS," == *",fleche,"* ]]; then
  echo "building Fleche (jaxrs-bridge and what it needs) into $REPO"
  (cd "$ROOT" && nice -n 10 mvn -B -q install -pl jaxrs-bridge -am -DskipTests) > "$WORK/logs/fleche-build.log" 2>&1 \
    || { tail -n 40 "$WORK/logs/fleche-build.log"; echo "Fleche build failed" >&2; exit 1; }
fi

# watchdog PID: kills the Surefire test JVMs under PID (Maven) that have run for more than FORK_TIMEOUT seconds
# (Surefire's own forkedProcessTimeoutInSeconds did not fire for a hung fork here), noting each in the log.
watchdog() {
  local maven=$1 log=$2
  while kill -0 "$maven" 2>/dev/null; do
    for fork in $(pgrep -f surefirebooter 2>/dev/null); do
      if [ "$(ps -o ppid= -p "$fork" 2>/dev/null | tr -d ' ')" != "" ] && is_descendant "$fork" "$maven" \
          && [ "$(ps -o etimes= -p "$fork" 2>/dev/null | tr -d ' ')" -gt "$FORK_TIMEOUT" ] 2>/dev/null; then
        # Surefire starts each fork as "sh -c ... java -jar surefirebooter...": kill the JVMs below the match too,
        # else killing the shell leaves its JVM running (re-parented, still hung) and Maven waiting on it.
        echo "[run.sh watchdog] killed test JVM $fork (and its children) after $FORK_TIMEOUT s" >> "$log"
        pkill -P "$fork" 2>/dev/null || true
        kill "$fork" 2>/dev/null || true
      fi
    done
    sleep 30
  done
}

is_descendant() {
  local pid=$1 ancestor=$2
  while [ -n "$pid" ] && [ "$pid" -gt 1 ] 2>/dev/null; do
    [ "$pid" = "$ancestor" ] && return 0
    pid=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
  done
  return 1
}

factory() {
  case "$1" in
    grizzly) echo org.glassfish.jersey.test.grizzly.GrizzlyTestContainerFactory ;;
    fleche) echo dev.fleche.jersey.test.FlecheTestContainerFactory ;;
    *) echo "unknown container $1" >&2; exit 2 ;;
  esac
}

# ---- The suites: module by module, each on one container after the other (never two runs at once).
IFS=, read -r -a legs <<< "$CONTAINERS"
for module in $MODULES; do
  for container in "${legs[@]}"; do
    extra=()
    if [ "$container" = fleche ]; then
      extra=(-Pfleche-container "-Dfleche.version=$FLECHE_VERSION")
    fi
    pom=$JERSEY/tests/$module/pom.xml
    # Modules with a "WithHK2" Surefire execution run their tests twice with plain "test" (once more with
    # Jersey's injection-less client on the class path, a client matter): only that execution, the HK2 server
    # users run.
    if grep -q '<id>WithHK2</id>' "$pom"; then
      goals=(test-compile surefire:test@WithHK2)
    else
      goals=(test)
    fi
    rm -rf "$JERSEY/tests/$module/target/surefire-reports"
    log=$WORK/logs/$container-$module.log
    start=$SECONDS
    echo "$(date +%H:%M:%S) $container: $module ..."
    set +e
    (cd "$JERSEY" && exec nice -n 10 mvn -B -f "$pom" "${goals[@]}" "${extra[@]}" \
        -Djersey.config.test.container.factory="$(factory "$container")" \
        -Djersey.config.test.container.port="$PORT" \
        -Dmaven.test.failure.ignore=true \
        -Dcheckstyle.skip=true -Denforcer.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
        -Dfindbugs.skip=true -Dspotbugs.skip=true) > "$log" 2>&1 &
    maven=$!
    watchdog "$maven" "$log" &
    dog=$!
    wait "$maven"
    rc=$?
    kill "$dog" 2>/dev/null || true
    wait "$dog" 2>/dev/null
    set -e
    out=$WORK/reports/$container/$module
    rm -rf "$out"
    mkdir -p "$out"
    cp "$JERSEY/tests/$module/target/surefire-reports/"TEST-*.xml "$out/" 2>/dev/null || true
    echo "$(date +%H:%M:%S) $container: $module done in $((SECONDS - start)) s (maven exit status $rc;" \
      "$(ls "$out" | wc -l) report files; log $log)"
    if [ "$(ls "$out" | wc -l)" = 0 ]; then
      tail -n 30 "$log"
    fi
  done
done

summary
