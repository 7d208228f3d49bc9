#!/usr/bin/env bash
# CI smoke of the benchmark harness (seconds per target, no throughput threshold): every target starts, every
# endpoint it claims answers the right body, and every scenario runs once with a tiny load and no errors.
# Exit status 0 when all that holds. Called from .ci/run after `mvn verify` (which built perf/target/fleche-perf.jar;
# it is rebuilt only when stale). The peers are built (cached: offline first, online only on a first build) unless
# up to date. Results: perf/results/tmp/smoke-<date>.{json,md,html} (git-ignored), logs beside them.
#
#   perf/smoke.sh                                # every target
#   perf/smoke.sh --targets fleche-jersey,netty  # some of them
#   perf/smoke.sh --no-build --targets fleche-jersey,fleche-jersey-log,fleche-jersey-metrics,fleche-jersey-all
#                                                # the observability variants (perf/target/fleche-perf.jar built)
set -euo pipefail
PERF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$PERF_DIR/bench.sh" --smoke --jersey "${JERSEY:-3}" --out "$PERF_DIR/results/tmp" "$@"
