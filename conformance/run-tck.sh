#!/usr/bin/env bash
# Runs the official Jakarta REST TCK (jakarta.ws.rs:jakarta-restful-ws-tck) against Jersey on Fleche and writes
# the summary to conformance/tck/target/tck-summary.md. Exit status: non-zero when any TCK test failed (or an
# exclusion went stale, or the build broke). Extra arguments go to Maven, e.g.
#   conformance/run-tck.sh -Dtest='ee.jakarta.tck.ws.rs.ee.rs.get.*IT'     # a subset
#   conformance/run-tck.sh -Dtck.webServerPort=9998                        # a fixed port instead of a free one
#   conformance/run-tck.sh --h2c            # the h2c leg: the Jakarta REST clients over HTTP/2 (Jersey's JDK
#                                           # connector, Upgrade: h2c); fails unless the server saw them as HTTP/2
# See conformance/README.md.
set -uo pipefail
cd "$(dirname "$0")/.."

profiles=tck
leg="HTTP/1.1"
if [ "${1:-}" = "--h2c" ]; then
  shift
  profiles=tck,tck-h2c
  leg="h2c"
fi

start=$SECONDS
# -DskipTests skips the unit tests of the upstream modules (transport-nio, jaxrs-bridge) that -am builds; the
# TCK module's Surefire ignores it (its switch is -Dtck.skip).
mvn -B -P"$profiles" verify -pl conformance/tck -am -DskipTests -Dsurefire.failIfNoSpecifiedTests=false "$@"
rc=$?
echo "TCK ($leg) wall time: $((SECONDS - start)) s (maven exit status $rc)"
summary=conformance/tck/target/tck-summary.md
if [ -f "$summary" ]; then
  tail -n 1 "$summary"
fi
exit $rc
