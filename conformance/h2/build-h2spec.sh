#!/usr/bin/env bash
# Builds h2spec (github.com/summerwind/h2spec, MIT), the HTTP/2 conformance tester, at a pinned commit, into
# conformance/h2/bin/h2spec. Go and h2spec's Go libraries come from Debian (apt-get: golang-go and the golang-*-dev
# packages below); h2spec's own source comes from the first of:
#   1. $H2SPEC_SRC: a checkout or a bare git directory of h2spec (the pinned commit is taken from it if it has it);
#   2. conformance/h2/src/h2spec: a copy of the source at the pinned commit, if one is laid there;
#   3. the Go module proxy: `go install github.com/summerwind/h2spec/cmd/h2spec@<commit>` (only where the proxy
#      can be reached; h2spec's v2 tags carry no /v2 module path, so the pin is a commit, not a tag).
# 1 and 2 build offline, in GOPATH mode, against Debian's packaged libraries (x/net 0.7, cobra 1.6, color 1.7);
# h2spec's go.mod pins 2016-era versions of the same APIs, which Debian's still provide.
#
# Usage: conformance/h2/build-h2spec.sh [--force]     (does nothing when bin/h2spec is already this commit)
#        conformance/h2/build-h2spec.sh --vendor GIT_DIR
#            lays the pinned commit from a clone (or bare git dir) at conformance/h2/src/h2spec, with a COMMIT file,
#            for the repository to carry where the Go module proxy cannot be reached
set -euo pipefail

H2SPEC_COMMIT=af83a65f0b6273ef38bf778d400d98892e7653d8  # v2.6.0 + 5 fixes (2022-06-25), the last commit
H2SPEC_VERSION=2.6.0+af83a65
HERE="$(cd "$(dirname "$0")" && pwd)"
BIN="$HERE/bin"
STAMP="$BIN/h2spec.commit"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
started=$(date +%s)

if [[ "${1:-}" == "--vendor" ]]; then
    src="${2:?usage: $0 --vendor GIT_DIR}"
    git -C "$src" cat-file -e "$H2SPEC_COMMIT^{commit}" || { echo "$src does not hold $H2SPEC_COMMIT" >&2; exit 2; }
    rm -rf "$HERE/src/h2spec"
    mkdir -p "$HERE/src/h2spec"
    git -C "$src" archive "$H2SPEC_COMMIT" | tar -x -C "$HERE/src/h2spec"
    echo "$H2SPEC_COMMIT" > "$HERE/src/h2spec/COMMIT"
    echo "h2spec $H2SPEC_VERSION laid at $HERE/src/h2spec ($(du -sh "$HERE/src/h2spec" | cut -f1))"
    exit 0
fi

if [[ "${1:-}" != "--force" && -x "$BIN/h2spec" && "$(cat "$STAMP" 2>/dev/null)" == "$H2SPEC_COMMIT" ]]; then
    echo "h2spec $H2SPEC_VERSION already built: $BIN/h2spec"
    exit 0
fi

need_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "installing ${missing[*]}"
        if [[ $(id -u) -eq 0 ]]; then SUDO=; else SUDO=sudo; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# Lays the pinned source at $WORK/gopath/src/github.com/summerwind/h2spec from a checkout or git dir; false if
# the source there is not at (or does not contain) the pinned commit.
source_from_git() {
    local src="$1" dest="$WORK/gopath/src/github.com/summerwind/h2spec"
    mkdir -p "$dest"
    if git -C "$src" cat-file -e "$H2SPEC_COMMIT^{commit}" 2>/dev/null; then
        git -C "$src" archive "$H2SPEC_COMMIT" | tar -x -C "$dest"
    elif [[ -f "$src/cmd/h2spec/h2spec.go" ]]; then
        if [[ "$(cat "$src/COMMIT" 2>/dev/null)" != "$H2SPEC_COMMIT" ]]; then
            echo "note: $src names no commit or another one than $H2SPEC_COMMIT; building it as it is" >&2
        fi
        cp -a "$src"/. "$dest"/
    else
        return 1
    fi
}

build_offline() {
    need_packages golang-go golang-golang-x-net-dev golang-github-spf13-cobra-dev golang-github-fatih-color-dev
    echo "building h2spec $H2SPEC_VERSION with $(go version | cut -d' ' -f3) and Debian's Go libraries"
    (cd "$WORK/gopath/src/github.com/summerwind/h2spec" \
        && GO111MODULE=off GOPATH="$WORK/gopath:/usr/share/gocode" GOCACHE="$WORK/cache" GOFLAGS= \
           go build -o "$BIN/h2spec" \
             -ldflags "-X main.VERSION=$H2SPEC_VERSION -X main.COMMIT=$H2SPEC_COMMIT" ./cmd/h2spec)
}

build_from_proxy() {
    need_packages golang-go
    echo "building h2spec $H2SPEC_VERSION through the Go module proxy ($(go env GOPROXY))"
    GOPATH="$WORK/gopath" GOCACHE="$WORK/cache" GOBIN="$BIN" GOFLAGS= \
        go install -ldflags "-X main.VERSION=$H2SPEC_VERSION -X main.COMMIT=$H2SPEC_COMMIT" \
        "github.com/summerwind/h2spec/cmd/h2spec@$H2SPEC_COMMIT"
}

mkdir -p "$BIN"
if [[ -n "${H2SPEC_SRC:-}" ]]; then
    source_from_git "$H2SPEC_SRC" || { echo "H2SPEC_SRC=$H2SPEC_SRC holds no h2spec source" >&2; exit 2; }
    build_offline
elif [[ -d "$HERE/src/h2spec" ]]; then
    source_from_git "$HERE/src/h2spec" || { echo "$HERE/src/h2spec holds no h2spec source" >&2; exit 2; }
    build_offline
elif ! build_from_proxy; then
    cat >&2 <<MSG
h2spec could not be built: no source given and the Go module proxy could not be reached.
Give it a source: H2SPEC_SRC=/path/to/h2spec-checkout $0
(a clone of github.com/summerwind/h2spec holding commit $H2SPEC_COMMIT, or a copy of it at $HERE/src/h2spec).
MSG
    exit 2
fi
echo "$H2SPEC_COMMIT" > "$STAMP"
echo "built $("$BIN/h2spec" --version) -> $BIN/h2spec in $(( $(date +%s) - started )) s"
