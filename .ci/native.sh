#!/usr/bin/env bash
# CI stage 12 (issue 37): the native images, run by .ci/run and on its own (bash .ci/native.sh, as root: podman).
#   12a. Fleche's native-image builder (native/builder/make-builder.sh: GraalVM's builder from Maven Central on
#        Temurin 25, our C stand-ins; seconds when cached, ~1 min the first time)
#   12b. examples/hello native at -Ob, then NativeHelloIT against it: every endpoint, bad input, h2c, TLS + ALPN.
#        -Ob (a quicker, less optimised build) changes no registration: the test checks the metadata, not the speed
#   12c. examples/service's native OCI image (Dockerfile.native, built at the default -O2 inside podman: the image
#        that ships) through podman-check.sh --native: read-only, uid 10001, no capabilities, write and read, podman
#        stop -> drain -> exit 0, two containers on one PostgreSQL (LISTEN/NOTIFY), first 200 x5, size by layer
#   12d. the image tests (ImageEnvIT: env -i start; DrainUnderLoadIT: SIGTERM under load) on the executable taken
#        out of that image
#
# Exit status: 0 passed; 1 a real failure (the builder cannot be assembled, a build fails, a check fails); 3 NOT
# RUN because this machine cannot build native images at all (not x86-64, or under 9 GB of available memory: the
# builder's heap is 7 GB) or FLECHE_CI_NATIVE=off. .ci/run reports 3 in its last line, never as a pass.
# FLECHE_CI_NATIVE=off is also the switch for a failure that is not the change's: the builder runs GraalVM 25.0.4
# on Temurin 25.0.3 with JVMCI's version check off (native/README.md), so a Temurin update on the CI machine can
# break it for every branch at once.
#
# Duration on the 2-core development machine, shared with other builds (2026-11-29, load average 3-4; builder,
# bases and Maven repository already there): 12a 0 s, 12b 235 s (the -Ob build 3 m 39 s), 12c 359 s (an earlier
# run: 490 s), 12d 21 s: 615 s in all. On a fresh machine 12a adds ~1 min (the builder's jars from Maven Central).
# The timeouts below are several times that, for a loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TEMURIN=${TEMURIN:-/usr/lib/jvm/temurin-25-jdk-amd64}

fail() {
  echo "NATIVE STAGE FAILED: $*" >&2
  exit 1
}
not_run() {
  echo "== Native images: NOT RUN ($*)"
  exit 3
}

mem_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
[ "${FLECHE_CI_NATIVE:-on}" != off ] || not_run "FLECHE_CI_NATIVE=off"
[ "$(uname -m)" = x86_64 ] || not_run "this is $(uname -m): Fleche's native-image builder (its C stand-ins) is x86-64 only"
[ "${mem_kb:-0}" -ge $(( 9 * 1024 * 1024 )) ] \
  || not_run "$(( ${mem_kb:-0} / 1024 )) MB of memory available; a native build needs 9 GB (builder heap 7 GB)"
[ -x "$TEMURIN/bin/java" ] || fail "no Temurin 25 at $TEMURIN"
export JAVA_HOME=$TEMURIN PATH="$TEMURIN/bin:$PATH"

stage_started=$(date +%s)
echo "== 12a. Fleche's native-image builder (GraalVM $(sed -n 's:.*<graal.version>\(.*\)</graal.version>.*:\1:p' native/builder/pom.xml) from Maven Central on Temurin 25)"
GRAALVM_HOME=$(timeout 900 bash native/builder/make-builder.sh) \
  || fail "the native-image builder could not be assembled (native/builder/make-builder.sh)"
export GRAALVM_HOME
echo "   builder: $GRAALVM_HOME ($(( $(date +%s) - stage_started )) s)"

echo "== 12b. examples/hello native (-Ob), then NativeHelloIT against it (endpoints, bad input, h2c, TLS)"
step_started=$(date +%s)
NATIVE_IMAGE_OPTIONS=-Ob timeout 1800 mvn -B -Pnative verify -pl examples/hello -am -DskipTests \
  || fail "examples/hello native build or NativeHelloIT failed (examples/hello/target/surefire-reports)"
echo "   12b: $(( $(date +%s) - step_started )) s"

echo "== 12c. examples/service native OCI image with podman (Dockerfile.native; the checks of the JVM image's stage)"
step_started=$(date +%s)
EXTRACT_TO="$ROOT/examples/service/target/native-image" timeout 2700 \
  bash examples/service/src/image/podman-check.sh --native 5 \
  || fail "the native OCI image stage failed (examples/service/src/image/podman-check.sh --native)"
echo "   12c: $(( $(date +%s) - step_started )) s"

echo "== 12d. the image tests (env -i start, SIGTERM drain under load) on the native image's executable"
step_started=$(date +%s)
timeout 900 mvn -B -Pnative verify -pl examples/service -am -DskipTests -DskipNativeBuild \
  -Dnative.launcher="$ROOT/examples/service/target/native-image/todo-service" \
  || fail "the image tests failed against the native executable (examples/service/target/surefire-reports)"
echo "   12d: $(( $(date +%s) - step_started )) s; stage 12 in all: $(( $(date +%s) - stage_started )) s"
