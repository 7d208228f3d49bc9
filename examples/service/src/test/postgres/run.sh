#!/usr/bin/env bash
# examples/service against a real PostgreSQL (CI's PostgreSQL stage; see examples/service/README.md):
#
#   examples/service/src/test/postgres/run.sh [maven args...]      (root; Debian or Ubuntu)
#
# Makes a throw-away cluster (cluster.sh: Debian's postgresql, installed with apt-get when missing), runs the
# postgres profile's tests against its database "todos" (*OnPostgres: two service processes on that database), then
# stops the cluster and deletes it, whatever the outcome.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source examples/service/src/test/postgres/cluster.sh

die() { printf '[postgres] FAILED: %s\n' "$*" >&2; exit 1; }
trap pg_cluster_stop EXIT
pg_cluster_start || die "the cluster did not start"

echo "[postgres] mvn -Ppostgres verify (DATABASE_URL=$PG_URL)"
mvn -B -q -Ppostgres verify -pl examples/service -am -DskipTests -Dpostgres.url="$PG_URL" "$@" \
  || { tail -20 "$PG_DIR/server.log" >&2; die "the PostgreSQL tests failed"; }
echo "[postgres] passed: $(grep -ho 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' \
  examples/service/target/surefire-reports/*OnPostgres.txt | paste -sd' ' -)"
