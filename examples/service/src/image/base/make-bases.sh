#!/usr/bin/env bash
# Makes the two base images the Dockerfile builds on, here, from Debian packages (no registry needed):
#
#   make-bases.sh [runtime|build|all]          (default all; root, podman, apt-get; see examples/service/README.md)
#
#   localhost/fleche/base:bookworm-1        the runtime base, distroless-like: glibc, zlib, CA certificates, tzdata,
#                                           dash as /bin/sh (the launcher is a POSIX sh script), /etc/passwd with a
#                                           non-root user nonroot (10001), /tmp. No package manager, no coreutils.
#                                           Every package is pinned to a version (RUNTIME_PACKAGES below); the root
#                                           file system is tarred with sorted names, fixed owners and fixed times,
#                                           so the same pins give the same layer digest.
#   localhost/fleche/build-base:25-2        the build stage's base: Debian bookworm minbase (debootstrap) + binutils
#                                           (strip), gcc, libc6-dev and zlib1g-dev (the native image's link,
#                                           Dockerfile.native), the Temurin 25 JDK from $TEMURIN (Temurin is not packaged by
#                                           Debian and no registry is reachable: the CI's own JDK is copied in) and
#                                           Apache Maven 3.9.9 from Maven Central, checked against its SHA-512.
#
# Why two: the runtime stage must be slim and have no JDK, Maven or shell tools; the build stage needs bash and
# coreutils (build-image.sh), a JDK 25 (jlink, the AOT cache) and Maven. Both are imported with `podman import`
# from a root file system made here, the way a distroless image is assembled from .deb files.
#
# An image that already exists is kept (CI reruns skip ~45 s): its tag names its content — bump the suffix
# (bookworm-1 -> bookworm-2) when a pin, the Maven version or the JDK changes; REBUILD=1 makes both anyway.
#
# Environment: CONTAINERS_CONF (the CI sets one: runc, cgroupfs, no default ulimits), TEMURIN (default
# /usr/lib/jvm/temurin-25-jdk-amd64), DEBIAN_MIRROR (default http://deb.debian.org/debian), WORK (a scratch
# directory, default a new temporary one).
set -euo pipefail

WHAT=${1:-all}
TEMURIN=${TEMURIN:-/usr/lib/jvm/temurin-25-jdk-amd64}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
RUNTIME_IMAGE=localhost/fleche/base:bookworm-1
BUILD_IMAGE=localhost/fleche/build-base:25-2
# The runtime base's packages, each pinned (Debian 12 "bookworm", amd64). A pin the mirror no longer carries (a
# security update replaced it) fails the download: bump it here, which changes the base's digest on purpose.
RUNTIME_PACKAGES=(
  libc6=2.36-9+deb12u14
  zlib1g=1:1.2.13.dfsg-1
  ca-certificates=20250419~deb12u2
  tzdata=2026f-0+deb12u1
  dash=0.5.12-2
  base-files=12.4+deb12u15
)
MAVEN_VERSION=3.9.9
MAVEN_SHA512=a555254d6b53d267965a3404ecb14e53c3827c09c3b94b5678835887ab404556bfaf78dcfe03ba76fa2508649dca8531c74bca4d5846513522404d48e8c4ac8b
# Fixed file times in the runtime base's tar (2024-01-01T00:00:00Z).
SOURCE_DATE_EPOCH=1704067200

log() { printf '[base] %s\n' "$*"; }
die() { printf '[base] %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (file ownership in the root file systems, debootstrap)"
command -v podman >/dev/null || die "podman is missing (apt-get install podman runc)"

WORK=${WORK:-$(mktemp -d)}
trap 'rm -rf "$WORK"' EXIT

# A tar of directory $1 that depends only on its content: sorted names, owner root, fixed times, no atime/ctime.
reproducible_tar() {
  tar -C "$1" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$SOURCE_DATE_EPOCH \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf - .
}

runtime_base() {
  local root=$WORK/runtime-root debs=$WORK/debs
  mkdir -p "$root" "$debs"
  log "runtime base: downloading ${RUNTIME_PACKAGES[*]}"
  if ! command -v apt-get >/dev/null; then die "apt-get is needed to download the runtime base's packages"; fi
  (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${RUNTIME_PACKAGES[@]}" >/dev/null) || {
    apt-get update -q >/dev/null && (cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${RUNTIME_PACKAGES[@]}" >/dev/null)
  } || die "apt-get download failed: a pinned version may be gone from the mirror (bump RUNTIME_PACKAGES)"
  for deb in "$debs"/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
  # What the packages' maintainer scripts would have done, by hand (they need a shell and dpkg in the image):
  # the CA bundle (update-ca-certificates), the zone (tzdata's /etc/localtime), /bin/sh (dash's diversion).
  mkdir -p "$root/etc/ssl/certs" "$root/tmp" "$root/home/nonroot" "$root/bin"
  find "$root/usr/share/ca-certificates" -name '*.crt' | LC_ALL=C sort | xargs cat > "$root/etc/ssl/certs/ca-certificates.crt"
  ln -sfn /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"
  echo Etc/UTC > "$root/etc/timezone"
  ln -sfn dash "$root/bin/sh"
  # Debian 12 is merged-/usr: /lib64/ld-linux-x86-64.so.2 (every ELF's interpreter) must resolve.
  for dir in bin lib lib64 sbin; do
    if [ -d "$root/$dir" ] && [ ! -L "$root/$dir" ]; then
      mkdir -p "$root/usr/$dir"
      cp -a "$root/$dir/." "$root/usr/$dir/"
      rm -rf "${root:?}/$dir"
    fi
    ln -sfn "usr/$dir" "$root/$dir"
  done
  printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnonroot:x:10001:10001:nonroot:/home/nonroot:/usr/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnonroot:x:10001:\n' > "$root/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$root/etc/nsswitch.conf"
  chmod 1777 "$root/tmp"
  chown 10001:10001 "$root/home/nonroot"
  # Documentation, manuals and the packages' own copyright files are not needed at run time (dpkg keeps the
  # latter in /usr/share/doc; the license texts are in the packages, listed in /etc/fleche-base-packages).
  rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/lintian"
  printf '%s\n' "${RUNTIME_PACKAGES[@]}" > "$root/etc/fleche-base-packages"
  log "runtime base: importing $RUNTIME_IMAGE ($(du -sh "$root" | cut -f1))"
  reproducible_tar "$root" | podman import --quiet \
    --change 'USER 10001:10001' --change 'WORKDIR /home/nonroot' --change 'ENV TZ=Etc/UTC' \
    --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
    --message "fleche runtime base: ${RUNTIME_PACKAGES[*]}" - "$RUNTIME_IMAGE" >/dev/null
}

build_base() {
  local root=$WORK/build-root
  [ -x "$TEMURIN/bin/jlink" ] || die "no JDK 25 at $TEMURIN (set TEMURIN)"
  command -v debootstrap >/dev/null || {
    log "installing debootstrap (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
  }
  log "build base: debootstrap --variant=minbase bookworm (+ binutils, gcc, libc6-dev, zlib1g-dev)"
  debootstrap --variant=minbase --include=binutils,gcc,libc6-dev,zlib1g-dev bookworm "$root" "$DEBIAN_MIRROR" > "$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log" >&2; die "debootstrap failed"; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  log "build base: $TEMURIN -> /opt/jdk, Apache Maven $MAVEN_VERSION -> /opt/maven"
  mkdir -p "$root/opt/jdk" "$root/opt/maven"
  # -L: a JDK installed from a .deb links lib/security/cacerts to the host's /etc/ssl/certs/java/cacerts.
  cp -a -L "$TEMURIN/." "$root/opt/jdk/"
  local tarball=$WORK/maven.tar.gz
  curl -sSf -o "$tarball" \
    "https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/$MAVEN_VERSION/apache-maven-$MAVEN_VERSION-bin.tar.gz"
  echo "$MAVEN_SHA512  $tarball" | sha512sum -c --quiet - || die "Maven $MAVEN_VERSION's SHA-512 does not match"
  tar -C "$root/opt/maven" --strip-components=1 -xzf "$tarball"
  log "build base: importing $BUILD_IMAGE ($(du -sh "$root" | cut -f1))"
  reproducible_tar "$root" | podman import --quiet \
    --change 'ENV JAVA_HOME=/opt/jdk' \
    --change 'ENV PATH=/opt/jdk/bin:/opt/maven/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --message "fleche build base: bookworm minbase, $("$TEMURIN/bin/java" -version 2>&1 | sed -n 2p), Maven $MAVEN_VERSION" \
    - "$BUILD_IMAGE" >/dev/null
}

# Makes image $1 with function $2 unless it exists (REBUILD=1: always).
make_image() {
  if [ -z "${REBUILD:-}" ] && podman image exists "$1"; then
    log "$1 exists, kept (REBUILD=1 to make it again)"
  else
    "$2"
  fi
}

case $WHAT in
  runtime) make_image "$RUNTIME_IMAGE" runtime_base ;;
  build) make_image "$BUILD_IMAGE" build_base ;;
  all) make_image "$RUNTIME_IMAGE" runtime_base; make_image "$BUILD_IMAGE" build_base ;;
  *) die "usage: make-bases.sh [runtime|build|all]" ;;
esac
log "done: $(podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep 'localhost/fleche/' | paste -sd' ' -)"
