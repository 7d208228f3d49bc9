#!/usr/bin/env bash
# Assembles Fleche's native-image builder: GraalVM's builder from Maven Central on a plain JDK 25 (Temurin), with
# the C pieces a GraalVM distribution ships and Maven Central does not, written for Fleche (native/builder/c).
#
#   native/builder/make-builder.sh              prints the builder's home (a GRAALVM_HOME: bin/native-image)
#
#   GRAALVM_HOME=$(native/builder/make-builder.sh) mvn -Pnative package -pl examples/hello -am
#
# The home is made once per set of inputs (this directory's files, the JDK's build) and reused: under
# ${FLECHE_NATIVE_HOME:-~/.cache/fleche}/native-image-<graal>-<hash of the inputs>. Everything but the path goes to
# standard error. Needs: a JDK 25 (FLECHE_NATIVE_JDK, else JAVA_HOME if it is one, else /usr/lib/jvm/temurin-25-jdk-amd64), Maven (for the
# jars; MAVEN_OPTS is honoured), gcc, binutils and zlib's headers and linker file (installed with apt-get when
# missing and run as root). What the home holds, and every way it differs from a GraalVM distribution:
# native/README.md.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# The JDK: FLECHE_NATIVE_JDK, else JAVA_HOME when it is a JDK 25 (the build base's /opt/jdk), else Temurin 25's place.
if [ -n "${FLECHE_NATIVE_JDK:-}" ]; then
  JDK=$FLECHE_NATIVE_JDK
elif [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  JDK=$JAVA_HOME
else
  JDK=/usr/lib/jvm/temurin-25-jdk-amd64
fi
GRAAL=$(sed -n 's:.*<graal.version>\(.*\)</graal.version>.*:\1:p' "$HERE/pom.xml")
log() { printf '[native-builder] %s\n' "$*" >&2; }
die() { printf '[native-builder] FAILED: %s\n' "$*" >&2; exit 1; }

[ -x "$JDK/bin/java" ] || die "no JDK at $JDK (set FLECHE_NATIVE_JDK to a JDK 25)"
"$JDK/bin/java" -version 2>&1 | grep -q 'version "25' || die "$JDK is not a JDK 25 (the builder $GRAAL needs one)"
[ -f "$JDK/lib/server/libjvm.so" ] || die "$JDK has no lib/server/libjvm.so"

# Tools: a C compiler and linker, readelf, and zlib (the image links -lz, as a GraalVM-built one does).
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v readelf >/dev/null || missing+=(binutils)
command -v mvn >/dev/null || missing+=(maven)
printf '#include <zlib.h>\nint main(void){return 0;}\n' | gcc -x c - -lz -o /dev/null 2>/dev/null || missing+=(zlib1g-dev)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "missing: ${missing[*]} (apt-get install them)"
  log "installing ${missing[*]} (apt-get)"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi

key=$( { cat "$HERE/make-builder.sh" "$HERE/pom.xml" "$HERE"/*.java "$HERE"/c/*; cat "$JDK/release"; } | sha256sum | cut -c1-12)
ROOT=${FLECHE_NATIVE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/fleche}
DEST=$ROOT/native-image-$GRAAL-$key
if [ -f "$DEST/.complete" ]; then
  log "reusing $DEST"
  echo "$DEST"
  exit 0
fi
started=$(date +%s)
WORK=$DEST.tmp-$$
rm -rf "$WORK"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# 1. A JDK-shaped home: the JDK's files by symbolic link, except the launcher and libjvm.so, which are copied so
#    that java.home (the JVM derives it from their real paths) is this directory, where the builder looks for its
#    helper library (lib/svm/builder/lib).
log "home $DEST: linking $JDK"
for entry in "$JDK"/*; do
  name=$(basename "$entry")
  case $name in bin|lib) mkdir -p "$WORK/$name" ;; *) ln -s "$entry" "$WORK/$name" ;; esac
done
for entry in "$JDK"/bin/*; do ln -s "$entry" "$WORK/bin/"; done
rm "$WORK/bin/java" && cp "$JDK/bin/java" "$WORK/bin/java"
for entry in "$JDK"/lib/*; do
  [ "$(basename "$entry")" = server ] || ln -s "$entry" "$WORK/lib/"
done
mkdir -p "$WORK/lib/server"
for entry in "$JDK"/lib/server/*; do ln -s "$entry" "$WORK/lib/server/"; done
rm "$WORK/lib/server/libjvm.so" && cp "$JDK/lib/server/libjvm.so" "$WORK/lib/server/libjvm.so"

# 2. The builder's jars (pom.xml: each pinned).
log "builder jars: GraalVM $GRAAL from Maven Central"
mkdir -p "$WORK/lib/svm/builder/lib"
mvn -B -q -f "$HERE/pom.xml" dependency:copy-dependencies -DexcludeTransitive=true \
  -DoutputDirectory="$WORK/lib/svm/builder" >&2 || die "could not get the builder's jars (pom.xml)"
[ "$(ls "$WORK"/lib/svm/builder/*.jar | wc -l)" = "$(grep -c '<artifactId>' "$HERE/pom.xml" | awk '{print $1 - 2}')" ] \
  || die "expected every jar of pom.xml in lib/svm/builder"
jars=$(ls "$WORK"/lib/svm/builder/*.jar | paste -sd: -)

# 3. C: headers generated from the builder's annotations, our helper libraries, the builder's progress helper.
CLIB=$WORK/lib/svm/clibraries/linux-amd64/glibc
RUNTIME=$WORK/lib/svm/runtime
OBJ=$WORK/obj
mkdir -p "$CLIB/include" "$RUNTIME" "$OBJ"
log "headers from the builder's @CStruct/@CConstant declarations"
"$JDK/bin/java" -cp "$jars" "$HERE/GenerateHeaders.java" "$CLIB/include" >&2
CFLAGS=(-O2 -fPIC -Wall -Wextra -Werror -fno-strict-aliasing -I"$CLIB/include" -I"$JDK/include" -I"$JDK/include/linux")
compile() { gcc "${CFLAGS[@]}" -c "$HERE/c/$1.c" -o "$OBJ/$1.o"; }
log "compiling liblibchelper.a, libsvm_container.a, libjvm.a, libreporterchelper.so"
for unit in svm_helpers cpu_amd64 svm_container jvm_shim jni_onload; do compile $unit; done
ar rcs "$CLIB/liblibchelper.a" "$OBJ/svm_helpers.o" "$OBJ/cpu_amd64.o"
ar rcs "$CLIB/libsvm_container.a" "$OBJ/svm_container.o"
ar rcs "$CLIB/libjvm.a" "$OBJ/jvm_shim.o" "$OBJ/jni_onload.o"
gcc "${CFLAGS[@]}" -shared -o "$WORK/lib/svm/builder/lib/libreporterchelper.so" "$HERE/c/reporterchelper.c"

# 4. The image's run-time libraries: the JDK's own shared libraries (copies: an image must run with the build's),
#    and, in the linker's library path, a linker script named like the static library the builder asks for
#    (lib<name>.a) that links the shared one instead.
JDK_LIBS=(java nio net zip extnet prefs management management_ext attach jaas j2pkcs11 sctp)
for name in "${JDK_LIBS[@]}"; do
  [ -f "$JDK/lib/lib$name.so" ] || continue
  cp "$JDK/lib/lib$name.so" "$RUNTIME/"
  # (found through the -L of lib/svm/runtime that the driver passes; the image's NEEDED is the library's SONAME)
  printf '/* Fleche: links the JDK'"'"'s shared lib%s.so in place of the static library (native/README.md). */\nINPUT(lib%s.so)\n' \
    "$name" "$name" > "$CLIB/lib$name.a"
done

# 5. The stub libjvm.so: the JDK libraries name libjvm.so (NEEDED) and bind every JVM_* symbol they use when
#    loaded. It holds our JVM_* functions (jvm_shim.c, also in the image through libjvm.a) and, for every other
#    JVM_* symbol those libraries name, a stub that ends the process naming it. Version node as HotSpot's.
log "stub libjvm.so for the JDK libraries"
nm -D --defined-only "$JDK/lib/server/libjvm.so" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$OBJ/hotspot.txt"
nm --defined-only "$OBJ/jvm_shim.o" | awk '$2 == "T" {print $3}' | sort -u > "$OBJ/ours.txt"
for so in "$RUNTIME"/*.so; do nm -D --undefined-only "$so" | awk '{print $2}' | sed 's/@.*//'; done | sort -u \
  | comm -12 - "$OBJ/hotspot.txt" > "$OBJ/needed.txt"
comm -23 "$OBJ/needed.txt" "$OBJ/ours.txt" > "$OBJ/stubbed.txt"
{
  echo '/* Generated by native/builder/make-builder.sh: HotSpot functions the JDK libraries name, not in an image. */'
  echo 'void fleche_hotspot_only(const char *name);'
  while read -r symbol; do echo "void $symbol(void) { fleche_hotspot_only(\"$symbol\"); }"; done < "$OBJ/stubbed.txt"
} > "$OBJ/stubs.c"
{ echo 'SUNWprivate_1.1 {'; echo '  global:'; sed 's/.*/    &;/' "$OBJ/needed.txt"; echo '  local: *;'; echo '};'; } > "$OBJ/libjvm.map"
gcc "${CFLAGS[@]}" -Wno-builtin-declaration-mismatch -shared -o "$RUNTIME/libjvm.so" -Wl,-soname,libjvm.so \
  -Wl,--version-script="$OBJ/libjvm.map" "$HERE/c/jvm_shim.c" "$OBJ/stubs.c" -ldl -lpthread
log "stub libjvm.so: $(wc -l < "$OBJ/ours.txt") functions of ours, $(wc -l < "$OBJ/stubbed.txt") stubs"

# 6. The driver: bin/native-image.
log "driver"
mkdir -p "$WORK/lib/svm/driver"
"$JDK/bin/javac" -d "$WORK/lib/svm/driver" "$HERE/NativeImageDriver.java"
cat > "$WORK/bin/native-image" <<EOF
#!/bin/sh
# Fleche's native-image driver (native/builder/NativeImageDriver.java), made by native/builder/make-builder.sh.
home=\$(cd "\$(dirname "\$0")/.." && pwd)
exec "\$home/bin/java" -Dfleche.native.home="\$home" -Dfleche.graal.version=$GRAAL -cp "\$home/lib/svm/driver" NativeImageDriver "\$@"
EOF
chmod +x "$WORK/bin/native-image"

rm -rf "$OBJ"
touch "$WORK/.complete"
rm -rf "$DEST"
mv "$WORK" "$DEST"
trap - EXIT
log "done in $(( $(date +%s) - started )) s: $DEST"
echo "$DEST"
