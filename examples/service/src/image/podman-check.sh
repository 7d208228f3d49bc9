#!/usr/bin/env bash
# The OCI image built and run the way a cluster runs it (CI's image stage; see examples/service/README.md):
#
#   examples/service/src/image/podman-check.sh [--native] [STARTS]   (root; installs podman and runc with apt-get if
#                                                                     missing)
#
# The JVM image (examples/service/Dockerfile: jlink runtime + AOT cache) by default; with --native the native one
# (examples/service/Dockerfile.native: the native executable, built in its build stage). The same checks for both:
# 1. the two bases (make-bases.sh: runtime base from pinned Debian packages, build base with JDK 25, Maven, gcc)
# 2. podman build of the Dockerfile (the local Maven repository mounted as an overlay: no download of what CI
#    already has, and nothing written back)
# 3. podman run as the Deployment runs it: --read-only, --user 10001, --cap-drop=ALL, no privilege escalation,
#    the manifest's memory limit; readiness, a write and a read, the RSS against the limit
# 4. podman stop (SIGTERM): the drain, exit 0 within the manifest's terminationGracePeriodSeconds
# 5. two containers of the image on one throw-away PostgreSQL (../../test/postgres/cluster.sh): a write on one,
#    read and long-polled on the other (LISTEN/NOTIFY)
# 6. the first 200 of /health/ready after `podman start`, STARTS times (default 5), median; the size by layer
#
# EXTRACT_TO=DIR copies the image's /opt/todo-service to DIR after the build (CI runs the image tests on it).
#
# podman here: runc (crun fails on this machine's hybrid cgroups), cgroupfs, no default ulimits (they cannot be
# set here), host networking. A CONTAINERS_CONF file says so; set CONTAINERS_CONF to use your own.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
NATIVE=0
if [ "${1:-}" = --native ]; then
  NATIVE=1
  shift
fi
STARTS=${1:-5}
PORT=${IMAGE_PORT:-19080}
if [ $NATIVE = 1 ]; then
  IMAGE=localhost/fleche/todo-service-native:0.1.0
  DOCKERFILE=examples/service/Dockerfile.native
  LAYERS="the base, then the JDK libraries, the executable"
else
  IMAGE=localhost/fleche/todo-service:0.1.0
  DOCKERFILE=examples/service/Dockerfile
  LAYERS="the base, then the jlink runtime, the jars, the launcher, the AOT cache"
fi
NAME=fleche-todo-ci-$$
MANIFEST=examples/service/deploy/k8s/todo-service.yaml

log() { printf '[podman] %s\n' "$*"; }
die() { printf '[podman] FAILED: %s\n' "$*" >&2; exit 1; }

for tool in podman runc; do
  if ! command -v "$tool" >/dev/null; then
    log "installing $tool (apt-get)"
    [ "$(id -u)" = 0 ] || die "$tool is missing (apt-get install podman runc, as root)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc >/dev/null; } \
      || die "apt-get install podman runc failed"
  fi
done
if [ -z "${CONTAINERS_CONF:-}" ]; then
  CONTAINERS_CONF=$(mktemp)
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' > "$CONTAINERS_CONF"
  export CONTAINERS_CONF
fi
PODMAN=(podman --runtime runc)
source examples/service/src/test/postgres/cluster.sh
cleanup() {
  "${PODMAN[@]}" rm -f "$NAME" "$NAME-a" "$NAME-b" >/dev/null 2>&1 || true
  pg_cluster_stop
}
trap cleanup EXIT

# The manifest's settings the run must match: the memory limit and the termination grace.
limit=$(sed -n '/limits:/,/memory:/s/^ *memory: *//p' "$MANIFEST" | head -1)
grace=$(sed -n 's/^ *terminationGracePeriodSeconds: *//p' "$MANIFEST" | head -1)
case $limit in *Mi) limit_mb=${limit%Mi} ;; *) die "the manifest's memory limit '$limit' is not in Mi" ;; esac
[ -n "$grace" ] || die "no terminationGracePeriodSeconds in $MANIFEST"

started=$(date +%s)
log "bases"
bash examples/service/src/image/base/make-bases.sh all
log "podman build -f $DOCKERFILE"
m2=${MAVEN_REPO:-$HOME/.m2/repository}
mkdir -p "$m2"
build_log=$(mktemp)
"${PODMAN[@]}" build --network=host -v "$m2:/root/.m2/repository:O" \
  -f "$DOCKERFILE" -t "$IMAGE" . >"$build_log" 2>&1 \
  || { grep -v '^WARNING' "$build_log" | tail -40 >&2; die "podman build failed"; }
rm -f "$build_log"
log "built in $(( $(date +%s) - started )) s (bases included)"
if [ -n "${EXTRACT_TO:-}" ]; then # the image's /opt/todo-service, for tests on this machine (CI's native stage)
  rm -rf "$EXTRACT_TO" && mkdir -p "$(dirname "$EXTRACT_TO")"
  holder=$("${PODMAN[@]}" create "$IMAGE")
  "${PODMAN[@]}" cp "$holder:/opt/todo-service" "$EXTRACT_TO"
  "${PODMAN[@]}" rm "$holder" >/dev/null
  log "copied the image's /opt/todo-service to $EXTRACT_TO"
fi

run() { # [--name NAME] [-e PORT=...] extra podman run arguments...
  "${PODMAN[@]}" run -d --name "$NAME" --network=host --read-only --user 10001:10001 --cap-drop=ALL \
    --security-opt=no-new-privileges --memory "${limit_mb}m" -e PORT="$PORT" -e DRAIN_DELAY_SECONDS=1 \
    -e DRAIN_GRACE_SECONDS=5 "$@" "$IMAGE" >/dev/null
}
base=http://127.0.0.1:$PORT
curl_opts=(--silent --show-error --max-time 5)
# Waits for the first 200 of /health/ready; prints the milliseconds since $1 (date +%s%N). Bounded: 30 s.
await_ready() {
  local since=$1 deadline=$(( $(date +%s) + 30 ))
  until curl --silent --max-time 1 -o /dev/null -f "$base/health/ready"; do
    [ "$(date +%s)" -lt "$deadline" ] || { "${PODMAN[@]}" logs "$NAME" >&2 || true; die "not ready within 30 s"; }
    "${PODMAN[@]}" container exists "$NAME" && [ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$NAME")" = true ] \
      || { "${PODMAN[@]}" logs "$NAME" >&2 || true; die "the container ended before it was ready"; }
    sleep 0.01
  done
  echo $(( ($(date +%s%N) - since) / 1000000 ))
}

log "podman run --read-only --user 10001 --cap-drop=ALL --memory ${limit_mb}m"
t0=$(date +%s%N)
run
ms=$(await_ready "$t0")
log "ready: first 200 of /health/ready $ms ms after podman run"
user=$("${PODMAN[@]}" top "$NAME" user | tail -n +2 | head -1 | tr -d ' ')
[ "$user" = 10001 ] || [ "$user" = nonroot ] || die "the service runs as '$user', not 10001"
created=$(curl "${curl_opts[@]}" -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  -d '{"title":"ship it","priority":2}' "$base/todos")
[ "$created" = 201 ] || die "POST /todos answered $created"
read=$(curl "${curl_opts[@]}" "$base/todos")
case $read in *'"title":"ship it"'*) ;; *) die "GET /todos: $read" ;; esac
invalid=$(curl "${curl_opts[@]}" -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  -d '{"title":""}' "$base/todos")
[ "$invalid" = 400 ] || die "an invalid to-do answered $invalid"
log "write and read: 201, the to-do listed, an invalid one 400"
pid=$("${PODMAN[@]}" inspect -f '{{.State.Pid}}' "$NAME")
rss_kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
log "RSS $(( rss_kb / 1024 )) MB after those requests; the manifest's limit ${limit_mb} MiB"
[ $(( rss_kb / 1024 )) -lt "$limit_mb" ] || die "RSS above the memory limit"

log "podman stop (SIGTERM, the manifest's grace ${grace} s)"
t0=$(date +%s%N)
"${PODMAN[@]}" stop -t "$grace" "$NAME" >/dev/null
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
code=$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$NAME")
"${PODMAN[@]}" logs "$NAME" 2>&1 | grep -q 'drain.done Outcome\[clean=true' \
  || { "${PODMAN[@]}" logs "$NAME" >&2; die "no clean drain in the log"; }
[ "$code" = 0 ] || die "exit code $code after SIGTERM (137: killed at the grace's end)"
[ "$stop_ms" -lt $(( grace * 1000 )) ] || die "the stop took $stop_ms ms, the grace is $grace s"
log "stopped: drained, exit 0, $stop_ms ms after SIGTERM (delay 1 s + grace 5 s set for the run)"
"${PODMAN[@]}" rm "$NAME" >/dev/null

log "two replicas of the image on one PostgreSQL"
pg_cluster_start
replica() { # name port
  "${PODMAN[@]}" run -d --name "$1" --network=host --read-only --user 10001:10001 --cap-drop=ALL \
    --security-opt=no-new-privileges --memory "${limit_mb}m" -e PORT="$2" -e DRAIN_DELAY_SECONDS=0.2 \
    -e DRAIN_GRACE_SECONDS=3 -e DATABASE_URL="$PG_URL" "$IMAGE" >/dev/null
}
port_a=$((PORT + 1)) port_b=$((PORT + 2))
replica "$NAME-a" $port_a
replica "$NAME-b" $port_b
for p in $port_a $port_b; do
  deadline=$(( $(date +%s) + 30 ))
  until curl --silent --max-time 1 -o /dev/null -f "http://127.0.0.1:$p/health/ready"; do
    [ "$(date +%s)" -lt "$deadline" ] || { "${PODMAN[@]}" logs "$NAME-a" "$NAME-b" >&2 || true; die "replica on $p not ready in 30 s"; }
    sleep 0.05
  done
done
poll_out=$(mktemp)
curl "${curl_opts[@]}" --max-time 20 "http://127.0.0.1:$port_b/changes" > "$poll_out" &
poll_pid=$!
deadline=$(( $(date +%s) + 10 ))
until curl "${curl_opts[@]}" "http://127.0.0.1:$port_b/changes/waiting" | grep -q '"waiting":1'; do
  [ "$(date +%s)" -lt "$deadline" ] || die "the long-poll on B was not registered in 10 s"
done
created=$(curl "${curl_opts[@]}" -H 'Content-Type: application/json' -d '{"title":"written on A"}' \
  "http://127.0.0.1:$port_a/todos")
id=$(printf '%s' "$created" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
[ -n "$id" ] || die "POST /todos on A: $created"
wait $poll_pid || die "the long-poll on B failed"
grep -q '"change":"POST /todos"' "$poll_out" || die "the long-poll on B answered: $(cat "$poll_out")"
read=$(curl "${curl_opts[@]}" "http://127.0.0.1:$port_b/todos/$id")
case $read in *'"title":"written on A"'*) ;; *) die "GET /todos/$id on B: $read" ;; esac
rm -f "$poll_out"
"${PODMAN[@]}" stop -t "$grace" "$NAME-a" "$NAME-b" >/dev/null
for r in a b; do
  code=$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$NAME-$r")
  [ "$code" = 0 ] || { "${PODMAN[@]}" logs "$NAME-$r" >&2; die "replica $r exited $code"; }
done
"${PODMAN[@]}" rm "$NAME-a" "$NAME-b" >/dev/null
pg_cluster_stop
log "two replicas: POST on A answered 201, B's long-poll woke with it, B read it; both drained, exit 0"

times=()
for i in $(seq "$STARTS"); do
  run
  "${PODMAN[@]}" stop -t 0 "$NAME" >/dev/null 2>&1 || true # created and started once: the start below is warm
  t0=$(date +%s%N)
  "${PODMAN[@]}" start "$NAME" >/dev/null
  times+=("$(await_ready "$t0")")
  "${PODMAN[@]}" rm -f "$NAME" >/dev/null
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (STARTS + 1) / 2 ))p")
log "first 200 after podman start, $STARTS starts: ${times[*]} ms; median $median ms"

log "size by layer ($LAYERS):"
"${PODMAN[@]}" history --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" | grep -v $'^0 B\t' | tac \
  | sed 's/\/bin\/sh -c #(nop) //' | cut -c1-80 | sed 's/^/[podman]   /'
log "total $("${PODMAN[@]}" image inspect -f '{{.Size}}' "$IMAGE" | awk '{printf "%.1f MB", $1/1e6}'); stage took $(( $(date +%s) - started )) s"
