#!/usr/bin/env bash
# Runs one test class COUNT times in a row, each run in a fresh JVM, and stops at the first failure.
# For flakes: a test that must not fail by chance should pass hundreds of runs in a row.
#
#   .ci/repeat-test.sh [--in-jvm] MODULE TEST_CLASS COUNT [maven args, e.g. -Pjersey4]
#   .ci/repeat-test.sh jaxrs-bridge dev.fleche.jersey.EntityTest 200 -Pjersey4
#
# --in-jvm: all runs in one JVM, each with the test classes in a fresh class loader (static state anew; Jersey and
# the JIT warm), which is several times faster (RepeatInJvm.java beside this script).
#
# Builds the module and what it needs with the given Maven arguments, then runs the class with the JUnit console
# launcher on the module's test class path (sibling modules from their target/ jars, not from ~/.m2).
set -euo pipefail
in_jvm=0
if [ "${1:-}" = --in-jvm ]; then in_jvm=1; shift; fi
module=$1 test=$2 count=$3
shift 3
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mvn -B -q "$@" package dependency:build-classpath -DskipTests -pl "$module" -am \
    -Dmdep.outputFile="$work/cp" -Dmdep.includeScope=test
mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 \
    -DoutputDirectory="$work"
classpath="$module/target/test-classes:$module/target/classes:$(cat "$work/cp")"

if [ $in_jvm = 1 ]; then
    # test classes (this module's and the test-jars it uses) in the child loader; the rest on the class path
    tests="$module/target/test-classes"
    others=""
    for entry in $(tr ':' ' ' < "$work/cp"); do
        case $entry in *-tests.jar) tests="$tests:$entry" ;; *) others="$others:$entry" ;; esac
    done
    exec java -cp "$module/target/classes$others:$(ls "$work"/junit-platform-console-standalone-*.jar)" \
        .ci/RepeatInJvm.java "$test" "$count" "$tests"
fi

started=$(date +%s)
for ((run = 1; run <= count; run++)); do
    if ! java -jar "$work"/junit-platform-console-standalone-*.jar execute --disable-banner --details=none \
            --fail-if-no-tests -cp "$classpath" --select-class "$test" > "$work/run.log" 2>&1; then
        cat "$work/run.log"
        echo "FAILED at run $run of $count ($test, maven args: $*)"
        exit 1
    fi
    echo "run $run/$count passed ($(( $(date +%s) - started )) s)"
done
echo "$count passed, 0 failed: $test, $count runs in a row (maven args: ${*:-none})"
