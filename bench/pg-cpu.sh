#!/usr/bin/env bash
# CPU per intake request on PostgreSQL: each thread of a `leadscan serve` process (user and system time from /proc),
# all postgres processes together, and the database's tuple counters (pg_stat_database), under wrk.
# A tool for finding where the time goes, not a test (the machine is shared; compare only within one run):
#
#   npm run build && bash bench/pg-cpu.sh ['SQL run on the database before serving, e.g. drop index …']
#
# PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) must be allowed to create databases; the
# probe's own database is dropped at the end. Then the durable floor runs the same wrk on a database of its own,
# and Leadscan's ratio to it is printed. SECS sets the measured run's length (6). SQLite's twin: bench/thread-cpu.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=leadscan_cpu_$$
psql "$admin" -qc "create database $db"
trap 'rm -rf "$dir"; psql "$admin" -qc "drop database if exists $db with (force)"' EXIT
export DATABASE_URL="${admin%/*}/$db"
source bench/probe-common.sh
serve
token=$(intake_token)
if [ -n "${1:-}" ]; then
  stop_server
  psql "$DATABASE_URL" -qc "$1"
  serve
fi
url=$(intake_url "$token")
write_lead_lua
wrk -t1 -c50 -d2s -s "$dir/lead.lua" "$url" >/dev/null
pgticks() { local s=0; for p in $(pgrep -x postgres); do s=$((s + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$s"; }
counters() { psql "$admin" -Atc "select xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched from pg_stat_database where datname = '$db'"; }
snap_threads >"$dir/cpu0"; pg0=$(pgticks); c0=$(counters)
out=$(wrk -t1 -c50 -d"${SECS:-6}"s -s "$dir/lead.lua" "$url")
snap_threads >"$dir/cpu1"; pg1=$(pgticks); sleep 1; c1=$(counters)
n=$(echo "$out" | grep -o '[0-9]* requests in' | cut -d' ' -f1)
echo "$(echo "$out" | grep Requests/sec)  ($n requests)"
report_threads "$dir/cpu0" "$dir/cpu1" "$n"
awk -v a="$pg0" -v b="$pg1" -v n="$n" -v clk="$(getconf CLK_TCK)" 'BEGIN { printf "  postgres %4.0f us/request (all its processes)\n", (b-a)*1e6/clk/n }'
paste -d'|' <(echo "$c0" | tr '|' '\n') <(echo "$c1" | tr '|' '\n') | paste -d' ' <(printf 'commits\ninserted\nupdated\ndeleted\nfetched\n') - |
  awk -v n="$n" '{split($2, v, "|"); printf "  %-9s %.2f per request\n", $1, (v[2]-v[1])/n}'
stop_server

# The durable floor (bench/raw-servers.ts) on a database of its own, the same wrk run right after: Leadscan's
# req/s over the floor's is the ratio `npm run bench` reports (one round here, so noisier).
floor_db=leadscan_cpu_floor_$$
psql "$admin" -qc "create database $floor_db"
trap 'rm -rf "$dir"; psql "$admin" -qc "drop database if exists $db with (force)"; psql "$admin" -qc "drop database if exists $floor_db with (force)"' EXIT
node --import tsx bench/raw-servers.ts floor-postgres "${admin%/*}/$floor_db" >"$dir/floor.txt" 2>&1 &
floor_pid=$!
for _ in $(seq 1 100); do grep -qs 'listening on' "$dir/floor.txt" && break; sleep 0.1; done
floor_url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/floor.txt" | head -1)
wrk -t1 -c50 -d2s -s "$dir/lead.lua" "$floor_url" >/dev/null
floor_rps=$(wrk -t1 -c50 -d"${SECS:-6}"s -s "$dir/lead.lua" "$floor_url" | awk '/Requests\/sec/ {print $2}')
kill "$floor_pid"
wait "$floor_pid" || true
leadscan_rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
awk -v l="$leadscan_rps" -v f="$floor_rps" 'BEGIN { printf "durable floor, PostgreSQL: %.0f req/s; Leadscan %.2fx the floor\n", f, l/f }'
