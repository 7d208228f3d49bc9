#!/usr/bin/env bash
# Runs the real h2spec (github.com/summerwind/h2spec, MIT), from a copy of its public repository kept OUTSIDE this
# one, against Fleche, to compare with our own suite (conformance/h2, `fleche-conformance-h2`, which is what CI
# runs). Not a CI stage: this repository holds only code we wrote, so h2spec's source is never laid here.
#
# Usage:
#   conformance/h2/run-real-h2spec.sh H2SPEC_SOURCE
#       builds h2spec, starts perf's FlecheRawPeer over TLS (ALPN h2) and over clear text (prior knowledge), runs
#       all of h2spec's cases against each and prints its summary line for each leg
#   conformance/h2/run-real-h2spec.sh H2SPEC_SOURCE URL [h2spec options or sections...]
#       against a server already running, e.g. https://127.0.0.1:18300/hello or http://127.0.0.1:18300/ http2/6.5
#
# H2SPEC_SOURCE: a clone or a bare git directory of h2spec (HEAD is built, or $H2SPEC_COMMIT), or a source tree.
# It is built with Debian's Go and Debian's packages of the Go libraries it imports (installed with apt-get when
# missing), in GOPATH mode, offline, in $H2SPEC_WORK (default ${TMPDIR:-/tmp}/fleche-h2spec), which must lie
# outside this repository; its logs and JUnit reports land there too. The leg of h2c is expected to fail exactly
# one case, http2/3.5/2 (conformance/h2/README.md says why); the script exits non-zero on any other failure.
# Without a URL it needs perf's jar: mvn -B -DskipTests package -pl perf -am
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
if (($# < 1)); then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
SOURCE="$(cd "$1" && pwd)"
shift
WORK="${H2SPEC_WORK:-${TMPDIR:-/tmp}/fleche-h2spec}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
case "$WORK/" in
    "$ROOT/"*) echo "H2SPEC_WORK=$WORK lies inside this repository; choose a directory outside it" >&2; exit 2 ;;
esac
case "$SOURCE/" in
    "$ROOT/"*) echo "$SOURCE lies inside this repository; h2spec's source is kept outside it" >&2; exit 2 ;;
esac
BIN="$WORK/h2spec"
JAVA="${JAVA:-java}"
SUMMARY=""

need_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "installing ${missing[*]} (apt-get)"
        local sudo=
        [[ $(id -u) -eq 0 ]] || sudo=sudo
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# Lays the source at $WORK/gopath/src/github.com/summerwind/h2spec and builds $BIN from it.
build() {
    need_packages golang-go golang-golang-x-net-dev golang-github-spf13-cobra-dev golang-github-fatih-color-dev
    local dest="$WORK/gopath/src/github.com/summerwind/h2spec" commit version
    rm -rf "$dest"
    mkdir -p "$dest"
    if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
        commit="$(git -C "$SOURCE" rev-parse "${H2SPEC_COMMIT:-HEAD}^{commit}")"
        git -C "$SOURCE" archive "$commit" | tar -x -C "$dest"
    elif [[ -f "$SOURCE/cmd/h2spec/h2spec.go" ]]; then
        commit=unknown
        cp -a "$SOURCE"/. "$dest"/
    else
        echo "$SOURCE holds no h2spec source (no git history, no cmd/h2spec/h2spec.go)" >&2
        exit 2
    fi
    version="git-${commit:0:12}"
    echo "building h2spec $version with $(go version | cut -d' ' -f3) and Debian's Go libraries -> $BIN"
    (cd "$dest" && GO111MODULE=off GOPATH="$WORK/gopath:/usr/share/gocode" GOCACHE="$WORK/cache" GOFLAGS= \
        go build -o "$BIN" -ldflags "-X main.VERSION=$version -X main.COMMIT=$commit" ./cmd/h2spec)
}

# Runs h2spec against URL with the rest of the arguments; NAME names its log and report. Prints the summary line.
run_h2spec() {
    local name="$1" url="$2"
    shift 2
    local scheme host port path tls=()
    [[ "$url" =~ ^(https?)://([^/:]+)(:([0-9]+))?(/.*)?$ ]] || { echo "not an http(s) URL: $url" >&2; exit 2; }
    scheme="${BASH_REMATCH[1]}"
    host="${BASH_REMATCH[2]}"
    path="${BASH_REMATCH[5]:-/}"
    if [[ "$scheme" == https ]]; then
        tls=(-t -k)
        port="${BASH_REMATCH[4]:-443}"
    else
        port="${BASH_REMATCH[4]:-80}"
    fi
    set +e
    SUMMARY=""
    "$BIN" -h "$host" -p "$port" -P "$path" "${tls[@]}" -o 3 -j "$WORK/$name.xml" "$@" > "$WORK/$name.log" 2>&1
    set -e
    if grep -q '^Failures:' "$WORK/$name.log"; then
        sed -n '/^Failures:/,$p' "$WORK/$name.log" | grep -v -E '^[0-9]+ tests, ' | sed '/^$/N;/^\n$/D'
    fi
    local summary
    summary="$(grep -E '^[0-9]+ tests, [0-9]+ passed, [0-9]+ skipped, [0-9]+ failed' "$WORK/$name.log" | tail -1 || true)"
    if [[ -z "$summary" ]]; then
        echo "h2spec gave no summary against $url; the end of its output ($WORK/$name.log):" >&2
        tail -20 "$WORK/$name.log" >&2
        return 1
    fi
    echo "h2spec $("$BIN" --version | sed 's/^Version: //') against $url: $summary (log: $WORK/$name.log)"
    SUMMARY="$summary"
}

build
if (($# > 0)); then
    run_h2spec h2spec "$@"
    [[ "$SUMMARY" =~ \ 0\ failed$ ]]
    exit
fi

JAR="$ROOT/perf/target/fleche-perf.jar"
[[ -f "$JAR" ]] || { echo "no $JAR: build it first (mvn -B -DskipTests package -pl perf -am)" >&2; exit 2; }
RUN="$(mktemp -d)"
cleanup() {
    local pid
    while read -r pid; do kill "$pid" 2>/dev/null || true; done < <(cat "$RUN/pids" 2>/dev/null)
    while read -r pid; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done < <(cat "$RUN/pids" 2>/dev/null)
    rm -rf "$RUN"
}
trap cleanup EXIT

keytool="$(dirname "$(readlink -f "$(command -v "$JAVA")")")/keytool"
"$keytool" -genkeypair -alias fleche -keyalg EC -groupname secp256r1 -dname CN=localhost \
    -ext san=dns:localhost,ip:127.0.0.1 -validity 2 -storetype PKCS12 -keystore "$RUN/keys.p12" \
    -storepass changeit -keypass changeit >/dev/null 2>&1

# Starts FlecheRawPeer on a free port with "$@" and echoes that port (from its READY line). Its pid goes to a file:
# this runs in a command substitution, whose variables the calling shell never sees.
start() {
    local log="$RUN/peer-$#.log"
    "$JAVA" -Xmx256m -cp "$JAR" dev.fleche.perf.fleche.FlecheRawPeer 0 "$@" > "$log" 2>&1 &
    local pid=$!
    echo "$pid" >> "$RUN/pids"
    for _ in $(seq 1 300); do
        if grep -q '^READY ' "$log"; then
            sed -n 's/^READY \([0-9]*\).*/\1/p' "$log" | head -1
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "FlecheRawPeer $* did not start:" >&2
    cat "$log" >&2
    return 1
}

plain=$(start)
tls=$(start --tls "$RUN/keys.p12" changeit)
status=0
run_h2spec h2spec-tls "https://127.0.0.1:$tls/hello" || status=1
[[ "$SUMMARY" =~ \ 0\ failed$ ]] || status=1
run_h2spec h2spec-h2c "http://127.0.0.1:$plain/hello" || status=1
if [[ "$SUMMARY" != *" 1 failed" ]] || ! sed -n '/^Failures:/,$p' "$WORK/h2spec-h2c.log" \
        | grep -q '× 2: Sends invalid connection preface'; then
    echo "over h2c, exactly http2/3.5/2 was expected to fail (conformance/h2/README.md)" >&2
    status=1
fi
exit $status
