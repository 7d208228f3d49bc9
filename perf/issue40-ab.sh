#!/usr/bin/env bash
# perf/issue40-ab.sh — issue 40's performance bar (the transport's packages and parts): CPU per request within 2 %
# of the commit before the redesign (09421d5; built as 3a1fede, whose perf module compiles), on hello over HTTP/1.1 (perf/bench.sh, the two builds as two --target jars, as
# perf/RESULTS.md's "Issue 28's bar, run 3" compares builds) and over h2c with 10 streams per connection
# (perf/h2bench.sh, fleche-jersey's h2c-c16-m10 cell, each tree running its own build, the trees' order swapped
# every round). Run it on a quiet machine, from this tree; it writes perf/results/bench-*.md and
# perf/results/issue40/h2bench-*.md.
#
#   perf/issue40-ab.sh [--base COMMIT] [--rounds N] [--java JAVA] [--dry-run]
#
#   --base     the commit before the redesign (default 3a1fede: 09421d5 plus the perf module's compile fix; the
#              transport is the same)
#   --rounds   rounds of each measurement (default 5; bench.sh rotates the targets' order itself, h2bench alternates
#              the trees: A B, B A, ...)
#   --java     the JVM of the targets (default: /usr/bin/java; run once more with Temurin 25's for that JDK)
#   --pin S:L  pin the HTTP/1.1 server to CPUs S and wrk to CPUs L (bench.sh's --pin; e.g. 0:1 on 2 cores)
#   --short    HTTP/1.1 windows of 20 s JIT warm-up + 5 s warm-up + 15 s measured (default 20 + 15 + 30)
#   --dry-run  one short round of each, to check that everything starts and answers (no figure is valid then)
#
# Both perf jars are built the same way (mvn -DskipTests package -pl perf -am, Jersey 3.1) and copied to /tmp, so
# the bench.sh targets differ only by the tree. Compare CPU µs/request of base and i40 in the hello rows (both the
# Jersey container and the raw transport) and in the h2c-c16-m10 cells (medians of the rounds, tree by tree).
set -euo pipefail
cd "$(dirname "$0")/.."
HERE=$PWD
BASE=3a1fede
ROUNDS=5
JAVA=/usr/bin/java
DRY=0
SHORT=0
PIN=()
while [ $# -gt 0 ]; do
  case "$1" in
    --base) BASE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --java) JAVA=$2; shift 2 ;;
    --pin) PIN=(--pin "$2"); shift 2 ;;
    --short) SHORT=1; shift ;;
    --dry-run) DRY=1; ROUNDS=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
BASE_TREE=/tmp/fleche-base-issue40
MVN=(mvn -q -B -DskipTests package -pl perf -am)

if [ ! -d "$BASE_TREE" ]; then
  git clone -q "$HERE" "$BASE_TREE" # a clone of its own: this repository's worktrees and branches are left alone
fi
git -C "$BASE_TREE" checkout -q --detach "$BASE"
echo "== building the perf jar of $BASE ($BASE_TREE) and of this tree ($(git rev-parse --short HEAD))"
(cd "$BASE_TREE" && "${MVN[@]}")
"${MVN[@]}"
cp "$BASE_TREE/perf/target/fleche-perf.jar" /tmp/fleche-perf-issue40-base.jar
cp perf/target/fleche-perf.jar /tmp/fleche-perf-issue40-i40.jar

if [ $DRY = 1 ]; then
  TIMES=(--jit-warmup 2 --warmup 1 --duration 3)
  H2TIMES=(--duration 3 --warmup 1 --cell-warmup 1)
elif [ $SHORT = 1 ]; then
  TIMES=(--jit-warmup 20 --warmup 5 --duration 15)
  H2TIMES=()
else
  TIMES=(--jit-warmup 20 --warmup 15 --duration 30)
  H2TIMES=()
fi

echo "== HTTP/1.1 hello: the Jersey container and the raw transport, base against i40, $ROUNDS rounds"
target() { # name jar class
  echo "$1=JAVA FLAGS -cp $2 $3 PORT"
}
perf/bench.sh --no-build --java "$JAVA" ${PIN[@]+"${PIN[@]}"} --targets base,i40,base-raw,i40-raw \
  --target "$(target base /tmp/fleche-perf-issue40-base.jar dev.fleche.perf.fleche.FlecheJerseyPeer)" \
  --target "$(target i40 /tmp/fleche-perf-issue40-i40.jar dev.fleche.perf.fleche.FlecheJerseyPeer)" \
  --target "$(target base-raw /tmp/fleche-perf-issue40-base.jar dev.fleche.perf.fleche.FlecheRawPeer)" \
  --target "$(target i40-raw /tmp/fleche-perf-issue40-i40.jar dev.fleche.perf.fleche.FlecheRawPeer)" \
  --scenarios hello --rounds "$ROUNDS" "${TIMES[@]}"

echo "== h2c, 10 streams per connection (fleche-jersey h2c-c16-m10), the trees alternating, $ROUNDS rounds"
mkdir -p perf/results/issue40 "$BASE_TREE/perf/results/issue40"
for r in $(seq 1 "$ROUNDS"); do
  trees=("$BASE_TREE" "$HERE")
  [ $((r % 2)) = 0 ] && trees=("$HERE" "$BASE_TREE")
  for t in "${trees[@]}"; do
    (cd "$t" && perf/h2bench.sh --no-build --java "$JAVA" --targets fleche-jersey --cells h2c-c16-m10 --rounds 1 \
      "${H2TIMES[@]}" --out perf/results/issue40)
  done
done
echo "== done: perf/results/bench-*.md (latest), perf/results/issue40/ and $BASE_TREE/perf/results/issue40/"
