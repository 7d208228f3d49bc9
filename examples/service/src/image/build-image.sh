#!/usr/bin/env bash
# Builds the service's runtime image directory (called by the Maven profile "image"; see examples/service/README.md):
#
#   build-image.sh NAME APP_JAR DEPS_DIR OUT_DIR        (JAVA_HOME: the JDK to build with, 17 or 25+)
#
#   OUT_DIR/runtime/   a jlink runtime of only the JDK modules jdeps finds in the jars (+ EXTRA_MODULES below)
#   OUT_DIR/app/       the service's jar and its runtime dependencies
#   OUT_DIR/lib/       app.aot (JDK 25+: AOT cache, -XX:AOTCacheOutput) or app.jsa (JDK 17-24: AppCDS,
#                      -XX:ArchiveClassesAtExit), written by a training run that exercises every endpoint
#   OUT_DIR/bin/NAME   the launcher: the image's own java, the tuned flags, whichever archive lib/ holds
#
# COMPACT_HEADERS=off builds it without -XX:+UseCompactObjectHeaders, its archive trained so (perf/startup.sh's
# image to compare the flag against; default on, JDK 25+ only).
# Installs what it needs: on Debian's JDK 17 the jmods come from the openjdk-17-jmods package (apt-get, as root);
# a JDK 24+ built with JEP 493 (Temurin 25 is) links from its own run-time image without jmods.
set -euo pipefail

NAME=$1 APP_JAR=$2 DEPS=$3 OUT=$4
: "${JAVA_HOME:?JAVA_HOME must name the JDK to build the image with}"
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=dev.fleche.examples.service.TodoService
# jdeps lists every module some class of some jar refers to. Two lists adjust it, each entry checked by running
# (the training run below exercises every endpoint; the image tests run it again):
#   EXTRA_MODULES   needed but invisible to jdeps (reflection, ServiceLoader)
#     jdk.unsupported  sun.misc.Signal (the drain on SIGTERM); jdeps finds it too, listed to be explicit
#     java.naming      H2 and Jersey look JNDI up reflectively
#   DROPPED_MODULES referred to only by code the service never runs
#     jdk.jdi, jdk.attach, java.instrument  javassist's HotSwapper and H2's agent hooks (debugger/agent tools)
#     java.compiler    H2's in-database Java source functions (CREATE ALIAS ... AS source): not used
#     java.scripting   H2 triggers in script languages, Hibernate Validator's @ScriptAssert: not used
#     java.desktop     (with java.datatransfer, java.prefs: 14 MB of the runtime) java.beans for bean introspection
#                      in EL, HK2 configuration beans and Jackson's optional annotations, AWT for H2's GUI console,
#                      image I/O for Jersey's RenderedImage provider (switched off in TodoService): none of it runs
#                      for this service — the training run and the image tests (constraint messages, JSON, H2,
#                      long-poll, drain) exercise every endpoint without it
EXTRA_MODULES=jdk.unsupported,java.naming
DROPPED_MODULES=jdk.jdi,jdk.attach,java.instrument,java.compiler,java.scripting,java.desktop

log() { printf '[image] %s\n' "$*"; }

feature=$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
log "JDK $feature at $JAVA_HOME"

if [ ! -f "$JAVA_HOME/jmods/java.base.jmod" ] && "$JAVA_HOME/bin/jlink" --help 2>&1 | grep -q 'Linking from run-time image enabled'; then
  log "no jmods: this JDK links from its own run-time image (JEP 493)"
elif [ ! -f "$JAVA_HOME/jmods/java.base.jmod" ]; then
  if [ "$feature" = 17 ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    log "no jmods in $JAVA_HOME: installing openjdk-17-jmods"
    apt-get update -qq && apt-get install -y -qq openjdk-17-jmods >/dev/null
  fi
  [ -f "$JAVA_HOME/jmods/java.base.jmod" ] || { echo "no $JAVA_HOME/jmods: jlink needs the JDK's jmods" >&2; exit 1; }
fi

rm -rf "$OUT"
mkdir -p "$OUT/app" "$OUT/lib" "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
cp "$APP_JAR" "$OUT/app/"
cp "$DEPS"/*.jar "$OUT/app/"

# Fleche's own named modules go into the runtime when jlink can take them: a jar with a module descriptor whose
# every requires is a JDK module or one of these (dev.fleche.transport, JDK only). jlink cannot link an automatic
# module nor anything that requires one, so dev.fleche.jersey, dev.fleche.async and dev.fleche.validation (they
# require Jersey 3.1, automatic modules named from file names) stay in app/ on the class path with Jersey. A
# linked module leaves app/ (it would otherwise sit on both); code on the class path reads it, because every
# module of the runtime that exports a package is a root module of the unnamed module.
LINKED_DIR=$(mktemp -d)
trap 'rm -rf "$LINKED_DIR"' EXIT
LINKED=
progress=1
while [ "$progress" = 1 ]; do
  progress=0
  for jar in "$OUT"/app/fleche-*.jar; do
    desc=$("$JAVA_HOME/bin/jar" --describe-module --file "$jar" 2>/dev/null) || continue
    case "$desc" in "No module descriptor found"*) continue ;; esac
    name=$(printf '%s\n' "$desc" | head -1 | sed 's/[@ ].*//')
    linkable=1
    for required in $(printf '%s\n' "$desc" | sed -n 's/^requires \([^ ]*\).*/\1/p'); do
      case "$required" in
        java.*|jdk.*) ;;
        *) printf '%s\n' "$LINKED" | tr ',' '\n' | grep -qxF "$required" || linkable=0 ;;
      esac
    done
    if [ "$linkable" = 1 ]; then
      mv "$jar" "$LINKED_DIR/"
      LINKED=${LINKED:+$LINKED,}$name
      progress=1
    fi
  done
done
log "Fleche modules linked into the runtime: ${LINKED:-none}"
# A fixed class path order (the launcher's and the training run's must be the same for the archive to apply).
CP=$(cd "$OUT" && ls app/*.jar | LC_ALL=C sort | paste -sd: -)

log "jdeps"
# jdeps reads a jar with a module descriptor as that module and resolves its requires, which fails for Fleche's
# Jersey-facing modules (Jersey 3.1's jars, given as plain jars, are no modules to jdeps). Their classes are what
# matters here, so jdeps reads the Fleche jars as class directories without their descriptors.
JDEPS_DIR="$LINKED_DIR/jdeps"
inputs=()
for jar in "$OUT"/app/*.jar "$LINKED_DIR"/*.jar; do
  [ -f "$jar" ] || continue
  case "${jar##*/}" in
    fleche-*)
      dir="$JDEPS_DIR/${jar##*/}"
      mkdir -p "$dir"
      (cd "$dir" && "$JAVA_HOME/bin/jar" xf "$jar" && rm -f module-info.class)
      inputs+=("$dir") ;;
    *) inputs+=("$jar") ;;
  esac
done
found=$("$JAVA_HOME/bin/jdeps" --multi-release "$feature" --ignore-missing-deps --print-module-deps \
  "${inputs[@]}" 2>/dev/null | tail -1)
MODULES=$(printf '%s,%s,%s' "$found" "$EXTRA_MODULES" "$LINKED" | tr ',' '\n' | grep -v '^$' | LC_ALL=C sort -u \
  | grep -vxF -f <(printf '%s\n' "$DROPPED_MODULES" | tr ',' '\n') | paste -sd, -)
log "jdeps found: $found"
log "modules: $MODULES (added $EXTRA_MODULES; dropped $DROPPED_MODULES)"

# JDK 25: the AOT cache holds the JDK's classes too, so the runtime needs no default CDS archive (2 x 14 MB).
# JDK 17: the AppCDS archive is a dynamic layer on top of the default one, which jlink must generate.
if [ "$feature" -ge 25 ]; then compress=zip-6 cds=; elif [ "$feature" -ge 21 ]; then compress=zip-6 cds=--generate-cds-archive; else compress=2 cds=--generate-cds-archive; fi
"$JAVA_HOME/bin/jlink" --module-path "$LINKED_DIR" --add-modules "$MODULES" --output "$OUT/runtime" \
  --strip-debug --no-header-files --no-man-pages --compress="$compress" $cds
# The native libraries' symbol tables (5 MB of libjvm.so alone; dynamic symbols stay), when strip is there.
if command -v strip >/dev/null; then
  find "$OUT/runtime/lib" -name '*.so' -exec strip --strip-unneeded {} +
fi

# JVM flags for a small pod (<= 2 CPUs, a few hundred MB): serial GC (no GC threads to feed), heap from the
# container's memory limit, compact object headers on 25+ (JEP 519). JAVA_OPTS adds or overrides at run time.
FLAGS="-XX:+UseSerialGC -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
if [ "$feature" -ge 25 ]; then
  [ "${COMPACT_HEADERS:-on}" = off ] || FLAGS="$FLAGS -XX:+UseCompactObjectHeaders"
  ARCHIVE=lib/app.aot RECORD="-XX:AOTCacheOutput=lib/app.aot" USE="-XX:AOTCache=lib/app.aot"
else
  ARCHIVE=lib/app.jsa RECORD="-XX:ArchiveClassesAtExit=lib/app.jsa" USE="-XX:SharedArchiveFile=lib/app.jsa"
fi

log "training run ($RECORD)"
train_log="$OUT/../image-training.log"
: > "$train_log" # now, not in the background child: the READY wait must not read a previous run's port
(
  cd "$OUT"
  # FLECHE_ACCESS_LOG=json: the access log's classes are trained too (the manifest turns it on).
  # shellcheck disable=SC2086
  env -i DRAIN_DELAY_SECONDS=0 DRAIN_GRACE_SECONDS=2 FLECHE_ACCESS_LOG=json runtime/bin/java $FLAGS $RECORD \
    -cp "$CP" "$MAIN" 0 > "$train_log" 2>&1 &
  pid=$!
  port=
  for _ in $(seq 1 300); do
    port=$(sed -n 's/^READY \([0-9]*\)$/\1/p' "$train_log")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$train_log" >&2; echo "training server died" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { kill "$pid"; echo "training server not ready in 30 s" >&2; exit 1; }
  "$JAVA_HOME/bin/java" "$HERE/Train.java" "$port" 20 \
    || { kill "$pid"; echo "training client failed; the server said:" >&2; cat "$train_log" >&2; exit 1; }
  kill -TERM "$pid"
  wait "$pid" || { cat "$train_log" >&2; echo "training server exit status $?" >&2; exit 1; }
)
[ -s "$OUT/$ARCHIVE" ] || { cat "$train_log" >&2; echo "no $ARCHIVE written" >&2; exit 1; }

# The launcher: no JAVA_HOME, PATH or external command needed (runs under env -i and in a slim container).
cat > "$OUT/bin/$NAME" <<LAUNCHER
#!/bin/sh
# $NAME: the service on the image's own runtime. Args and environment: see ServiceConfig (PORT, DATABASE_URL,
# DRAIN_DELAY_SECONDS, DRAIN_GRACE_SECONDS, BIND_HOST); JAVA_OPTS adds JVM flags (later ones win).
case "\$0" in */*) bin=\${0%/*} ;; *) bin=. ;; esac
cd "\$bin/.." || exit 1
archive=
[ -f $ARCHIVE ] && archive="$USE"
# shellcheck disable=SC2086
exec runtime/bin/java $FLAGS \$archive \${JAVA_OPTS:-} -cp "$CP" $MAIN "\$@"
LAUNCHER
chmod +x "$OUT/bin/$NAME"
log "done: $(du -sm "$OUT" | cut -f1) MB in $OUT (runtime $(du -sm "$OUT/runtime" | cut -f1) MB, app $(du -sm "$OUT/app" | cut -f1) MB, $ARCHIVE $(du -sm "$OUT/$ARCHIVE" | cut -f1) MB)"
