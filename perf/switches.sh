#!/usr/bin/env bash
# Hand-offs per request: the context switches of each thread of a server under wrk load, summed by thread name
# (digits folded to N), divided by the requests wrk completed. A voluntary switch is a thread that blocked: a reactor
# asleep in epoll_wait, a carrier or worker parked for want of work, a lock waited for; each one is later woken by
# another thread or an event. Non-voluntary switches are preemptions (the cores were busy).
#
#   perf/switches.sh [--java J] [--warmup S] [--duration S] [--connections C] [--path P] -- CMD...
#     CMD: the server command with PORT in it, e.g.
#     perf/switches.sh -- java -cp perf/target/fleche-perf.jar dev.fleche.perf.fleche.FlecheJerseyPeer PORT
#
# Prints one table: thread group, voluntary and non-voluntary switches per request, CPU % of a core. Run on a quiet
# machine; the counts move less with noise than CPU does, but they do move (a busier machine parks less).
set -euo pipefail
warmup=15 duration=10 conns=100 path=/hello port=18190
while [ $# -gt 0 ]; do
  case $1 in
    --warmup) warmup=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) conns=$2; shift 2 ;;
    --path) path=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: perf/switches.sh [options] -- CMD with PORT" >&2; exit 2; }
cmd=()
for a in "$@"; do cmd+=("${a//PORT/$port}"); done
hz=$(getconf CLK_TCK)
log=$(mktemp)
"${cmd[@]}" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 300); do grep -q '^READY' "$log" && break; kill -0 "$pid" || { cat "$log"; exit 1; }; sleep 0.1; done
grep -q '^READY' "$log" || { echo "server not ready" >&2; exit 1; }

snapshot() { # "tid name voluntary nonvoluntary ticks" per thread
  local t name v n line rest
  for t in /proc/"$pid"/task/*; do
    name=$(<"$t/comm") 2>/dev/null || continue
    v=$(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null) || continue
    n=$(awk '/^nonvoluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null) || continue
    line=$(<"$t/stat") 2>/dev/null || continue
    rest=${line##*) }
    read -r -a f <<<"$rest"
    echo "${t##*/} ${name// /_} ${v:-0} ${n:-0} $((f[11] + f[12]))"
  done
}

wrk -t2 -c"$conns" -d"${warmup}s" "http://127.0.0.1:$port$path" >/dev/null
before=$(snapshot)
out=$(wrk -t2 -c"$conns" -d"${duration}s" "http://127.0.0.1:$port$path")
after=$(snapshot)
requests=$(printf '%s\n' "$out" | awk '/requests in/ {print $1}')
echo "$(printf '%s\n' "$out" | grep -E 'requests in|Requests/sec')"
awk -v req="$requests" -v secs="$duration" -v hz="$hz" '
  NR == FNR { v0[$1] = $3; n0[$1] = $4; c0[$1] = $5; next }
  { g = $2; gsub(/[0-9]+/, "N", g)
    vol[g] += $3 - ($1 in v0 ? v0[$1] : 0); non[g] += $4 - ($1 in n0 ? n0[$1] : 0); cpu[g] += $5 - ($1 in c0 ? c0[$1] : 0)
    tv += $3 - ($1 in v0 ? v0[$1] : 0); tn += $4 - ($1 in n0 ? n0[$1] : 0); tc += $5 - ($1 in c0 ? c0[$1] : 0) }
  END {
    printf "%-28s %12s %12s %10s\n", "threads", "vol/req", "nonvol/req", "CPU %"
    for (g in vol) if (vol[g] + non[g] > 0 || cpu[g] > 0)
      printf "%-28s %12.3f %12.3f %10.1f\n", g, vol[g] / req, non[g] / req, cpu[g] / hz / secs * 100 | "sort -k2,2nr"
    close("sort -k2,2nr")
    printf "%-28s %12.3f %12.3f %10.1f\n", "all", tv / req, tn / req, tc / hz / secs * 100
  }' <(echo "$before") <(echo "$after")
