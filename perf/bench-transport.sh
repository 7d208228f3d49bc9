#!/usr/bin/env bash
# Transport-only benchmark (kept for its old name): Fleche's transport (examples/transport-hello and the raw
# handler of the perf module) against raw Netty, microhttp and Vert.x: hello, 16-deep pipelining, idle
# connections, start-up. Now a mode of the harness:  perf/bench.sh --suite transport [options]
# Any harness option works here too, e.g.
#   perf/bench-transport.sh --rounds 1 --warmup 2 --duration 3          # quick look
#   perf/bench-transport.sh --scenarios idle --idle 10000               # heap and RSS per idle connection
set -euo pipefail
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bench.sh" --suite transport "$@"
