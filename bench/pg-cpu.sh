#!/usr/bin/env bash
# CPU per intake request on PostgreSQL: each thread of a `leadscan serve` process (user and system time from /proc),
# all postgres processes together, and the database's tuple counters (pg_stat_database), under wrk.
# A tool for finding where the time goes, not a test (the machine is shared; compare only within one run):
#
#   npm run build && bash bench/pg-cpu.sh ['SQL run on the database before serving, e.g. drop index …']
#
# PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) must be allowed to create databases; the
# probe's own database is dropped at the end. SECS sets the measured run's length (6).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=leadscan_cpu_$$
psql "$admin" -qc "create database $db"
trap 'rm -rf "$dir"; psql "$admin" -qc "drop database if exists $db with (force)"' EXIT
export DATABASE_URL="${admin%/*}/$db" APP_SECRET=bench-thread-cpu-secret-0123456789abcdef HOST=127.0.0.1 PORT=0 \
  PUBLIC_BASE_URL=http://bench.local LOG_LEVEL=warn INTAKE_RATE_LIMIT=0 SCAN_RATE_LIMIT=0
serve() {
  node bin/leadscan.js serve >"$dir/out.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do grep -q 'listening on' "$dir/out.txt" && break; sleep 0.1; done
}
serve
token=$(grep -o 'intake/[0-9a-f-]*' "$dir/out.txt" | head -1 | cut -d/ -f2)
if [ -n "${1:-}" ]; then
  kill -INT "$pid"; wait "$pid" || true
  psql "$DATABASE_URL" -qc "$1"
  serve
fi
url="http://$(grep -o '127.0.0.1:[0-9]*' "$dir/out.txt" | head -1)/api/intake/$token"
cat >"$dir/lead.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0958","notes":"' .. string.rep("Please call after 5 pm on weekdays; the side door is easier. ", 10) .. '"}'
LUA
wrk -t1 -c50 -d2s -s "$dir/lead.lua" "$url" >/dev/null
pgticks() { local s=0; for p in $(pgrep -x postgres); do s=$((s + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$s"; }
counters() { psql "$admin" -Atc "select xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched from pg_stat_database where datname = '$db'"; }
snap() { for t in /proc/"$pid"/task/*; do echo "$(basename "$t") $(awk '{print $14+$15, $14, $15}' "$t/stat")"; done | sort; }
snap >"$dir/cpu0"; pg0=$(pgticks); c0=$(counters)
out=$(wrk -t1 -c50 -d"${SECS:-6}"s -s "$dir/lead.lua" "$url")
snap >"$dir/cpu1"; pg1=$(pgticks); sleep 1; c1=$(counters)
n=$(echo "$out" | grep -o '[0-9]* requests in' | cut -d' ' -f1)
clk=$(getconf CLK_TCK)
echo "$(echo "$out" | grep Requests/sec)  ($n requests)"
join "$dir/cpu0" "$dir/cpu1" | awk -v n="$n" -v clk="$clk" -v main="$pid" \
  '{d=($5-$2)*1e6/clk/n; u=($6-$3)*1e6/clk/n; s=($7-$4)*1e6/clk/n; if (d>8) printf "  %-8s %4.0f us/request (user %.0f, system %.0f)\n", ($1==main?"main":$1), d, u, s}'
awk -v a="$pg0" -v b="$pg1" -v n="$n" -v clk="$clk" 'BEGIN { printf "  postgres %4.0f us/request (all its processes)\n", (b-a)*1e6/clk/n }'
paste -d'|' <(echo "$c0" | tr '|' '\n') <(echo "$c1" | tr '|' '\n') | paste -d' ' <(printf 'commits\ninserted\nupdated\ndeleted\nfetched\n') - |
  awk -v n="$n" '{split($2, v, "|"); printf "  %-9s %.2f per request\n", $1, (v[2]-v[1])/n}'
kill -INT "$pid"; wait "$pid" || true
