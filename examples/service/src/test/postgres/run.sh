#!/usr/bin/env bash
# examples/service against a real PostgreSQL (CI's PostgreSQL stage; see examples/service/README.md):
#
#   examples/service/src/test/postgres/run.sh [maven args...]      (root; Debian or Ubuntu)
#
# Installs Debian's postgresql with apt-get when no initdb is found, makes a throw-away cluster in a temporary
# directory (owned by the postgres user, trust authentication, 127.0.0.1 only, a free port in 19400-19499), creates
# the database "todos", runs the postgres profile's tests (*PgIT: two service processes on that database), then
# stops the cluster and deletes it, whatever the outcome.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."

log() { printf '[postgres] %s\n' "$*"; }
die() { printf '[postgres] FAILED: %s\n' "$*" >&2; exit 1; }

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  log "installing postgresql (apt-get)"
  [ "$(id -u)" = 0 ] || die "no PostgreSQL server found; apt-get install postgresql needs root"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_postgres=()
if [ "$(id -u)" = 0 ]; then
  as_postgres=(runuser -u postgres --)
fi

port=
for candidate in $(seq 19400 19499); do
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
done
[ -n "$port" ] || die "no free port in 19400-19499"

dir=$(mktemp -d)
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
stop() {
  "${as_postgres[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

log "cluster: $("$bin/postgres" --version), port $port, in $dir"
"${as_postgres[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
"${as_postgres[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
  || { cat "$dir/server.log" >&2; die "the cluster did not start"; }
"${as_postgres[@]}" "$bin/createdb" -h "$dir" -p "$port" -U postgres todos

url="jdbc:postgresql://127.0.0.1:$port/todos?user=postgres"
log "mvn -Ppostgres verify (DATABASE_URL=$url)"
mvn -B -q -Ppostgres verify -pl examples/service -am -DskipTests -Dpostgres.url="$url" "$@" \
  || { tail -20 "$dir/server.log" >&2; die "the PostgreSQL tests failed"; }
log "passed: $(grep -ho 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' \
  examples/service/target/surefire-reports/*PgIT.txt | paste -sd' ' -)"
