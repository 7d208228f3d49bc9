#!/usr/bin/env bash
# CPU time of each thread of a running process over a window, summed by thread name (digits folded to N), in % of
# one core: shows which thread, if any, is saturated (JFR's execution samples see only threads running Java code).
#
#   perf/thread-cpu.sh PID [SECONDS]      # default 15 s
set -euo pipefail
pid=${1:?usage: perf/thread-cpu.sh PID [SECONDS]}
secs=${2:-15}
hz=$(getconf CLK_TCK)

snapshot() { # "tid name ticks" per thread; the name is between the first '(' and the last ')'
  for stat in /proc/"$pid"/task/*/stat; do
    line=$(<"$stat") || continue
    name=${line#*(}; name=${name%)*}; rest=${line##*) }
    read -r -a f <<<"$rest"
    echo "${stat//[^0-9]/ } ${name// /_} $((f[11] + f[12]))"
  done 2>/dev/null
}

before=$(snapshot)
sleep "$secs"
after=$(snapshot)
awk -v secs="$secs" -v hz="$hz" '
  NR == FNR { start[$2] = $4; next }
  { name = $3; gsub(/[0-9]+/, "N", name); used[name] += $4 - ($2 in start ? start[$2] : 0) }
  END { for (n in used) printf "%6.1f %% of a core  %s\n", used[n] / hz / secs * 100, n }
' <(echo "$before") <(echo "$after") | sort -rn
