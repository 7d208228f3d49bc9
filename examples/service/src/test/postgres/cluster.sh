# A throw-away PostgreSQL cluster, for scripts to source (run.sh, ../../image/podman-check.sh):
#
#   source examples/service/src/test/postgres/cluster.sh
#   pg_cluster_start        # sets PG_URL (JDBC, database "todos", user postgres), PG_PORT, PG_DIR
#   ...
#   pg_cluster_stop         # stops it and deletes its directory (call it from an EXIT trap)
#
# Installs Debian's postgresql with apt-get when no initdb is found. The cluster: a temporary directory owned by
# the postgres user, trust authentication, 127.0.0.1 only, a free port in 19400-19499, fsync off.

pg_cluster_start() {
  local bin candidate
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "[postgres] installing postgresql (apt-get)"
    [ "$(id -u)" = 0 ] || { echo "[postgres] no PostgreSQL server; apt-get install postgresql needs root" >&2; return 1; }
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  PG_BIN=$bin
  PG_AS=()
  [ "$(id -u)" = 0 ] && PG_AS=(runuser -u postgres --)
  PG_PORT=
  for candidate in $(seq 19400 19499); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then PG_PORT=$candidate; break; fi
  done
  [ -n "$PG_PORT" ] || { echo "[postgres] no free port in 19400-19499" >&2; return 1; }
  PG_DIR=$(mktemp -d)
  chmod 755 "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
  echo "[postgres] cluster: $("$PG_BIN/postgres" --version), port $PG_PORT, in $PG_DIR"
  "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres --no-sync >/dev/null
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
    || { cat "$PG_DIR/server.log" >&2; return 1; }
  "${PG_AS[@]}" "$PG_BIN/createdb" -h "$PG_DIR" -p "$PG_PORT" -U postgres todos
  PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/todos?user=postgres"
}

pg_cluster_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=
}
