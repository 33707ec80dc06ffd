#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: a new cluster in a temporary folder, owned by an unprivileged
# user (postgres when run as root), listening on 127.0.0.1 on a free port, with password sign-in. The command sees
#   CRASHTRAIL_TEST_POSTGRES  postgres://crashtrail@127.0.0.1:PORT/crashtrail (a superuser, so tests make databases)
#   PGPASSWORD                that user's password
#   CRASHTRAIL_TEST_PGCTL     a script that runs pg_ctl on the cluster (tests restart the server with it)
# The server is stopped and the folder removed when the command ends, however it ends.
#
#   Tools/with-postgres.sh swift test
#   Tools/with-postgres.sh Tools/store-bench.sh 100000
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT…]" >&2; exit 2; }

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "error: no PostgreSQL server found under /usr/lib/postgresql; install it with: sudo apt-get install postgresql" >&2
    exit 1
fi

folder=$(mktemp -d /tmp/crashtrail-postgres.XXXXXX)
chmod 755 "$folder"
as_owner=()
if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "error: running as root needs the postgres user (the postgresql package makes it)" >&2; exit 1; }
    chown postgres "$folder"
    as_owner=(runuser -u postgres --)
fi

password="crashtrail-$RANDOM$RANDOM"
printf '%s\n' "$password" > "$folder/password"
[ "$(id -u)" = 0 ] && chown postgres "$folder/password"
chmod 600 "$folder/password"

port=""
for candidate in $(seq 54321 54420); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
done
[ -n "$port" ] || { echo "error: no free port between 54321 and 54420" >&2; exit 1; }

# The server that pg_ctl starts must not keep its caller's descriptors: a test that starts pg_ctl waits for them to
# close (Foundation's Process watches its child that way), so they are closed before pg_ctl runs.
cat > "$folder/pgctl" <<SCRIPT
#!/usr/bin/env bash
for fd in \$(ls /proc/\$\$/fd); do [ "\$fd" -gt 2 ] && eval "exec \$fd>&-"; done 2>/dev/null
exec ${as_owner[*]} "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off" "\$@"
SCRIPT
chmod 755 "$folder/pgctl"

stop() {
    "$folder/pgctl" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

"${as_owner[@]}" "$bin/initdb" -D "$folder/data" -U crashtrail --auth=scram-sha-256 --pwfile="$folder/password" \
    --encoding=UTF8 --locale=C >"$folder/initdb.log" 2>&1 || { cat "$folder/initdb.log" >&2; exit 1; }
"$folder/pgctl" start -w >/dev/null || { cat "$folder/server.log" >&2; exit 1; }
PGPASSWORD="$password" "$bin/createdb" -h 127.0.0.1 -p "$port" -U crashtrail crashtrail

export CRASHTRAIL_TEST_POSTGRES="postgres://crashtrail@127.0.0.1:$port/crashtrail"
export PGPASSWORD="$password"
export CRASHTRAIL_TEST_PGCTL="$folder/pgctl"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the tests at $CRASHTRAIL_TEST_POSTGRES" >&2
set +e
"$@"
status=$?
exit $status
