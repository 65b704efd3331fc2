#!/usr/bin/env bash
# CPU per intake request, per thread of a `leadscan serve` process, from /proc (user and system time), under wrk.
# A tool for finding where the time goes, not a test (the machine is shared; compare only within one run):
#
#   npm run build && bash bench/thread-cpu.sh ['SQL run on the database before serving, e.g. drop trigger …']
#
# Prints req/s and, for every thread that used more than 8 µs a request, its µs per request (user/system).
# The main thread is `main`; the SQLite writer and checkpoint threads and V8's helpers show by thread id.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export DATABASE_URL="$dir/cpu.sqlite" APP_SECRET=bench-thread-cpu-secret-0123456789abcdef HOST=127.0.0.1 PORT=0 \
  PUBLIC_BASE_URL=http://bench.local LOG_LEVEL=warn INTAKE_RATE_LIMIT=0 SCAN_RATE_LIMIT=0
serve() {
  node bin/leadscan.js serve >"$dir/out.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q 'listening on' "$dir/out.txt" && break; sleep 0.1; done
}
serve
token=$(grep -o 'intake/[0-9a-f-]*' "$dir/out.txt" | head -1 | cut -d/ -f2)
kill -INT "$pid"; wait "$pid" || true
if [ -n "${1:-}" ]; then node -e "const D=require('better-sqlite3');const d=new D(process.argv[1]);d.exec(process.argv[2]);d.close()" "$DATABASE_URL" "$1"; fi
serve
url="http://$(grep -o '127.0.0.1:[0-9]*' "$dir/out.txt" | head -1)/api/intake/$token"
cat >"$dir/lead.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0958","notes":"' .. string.rep("Please call after 5 pm on weekdays; the side door is easier. ", 10) .. '"}'
LUA
wrk -t1 -c50 -d2s -s "$dir/lead.lua" "$url" >/dev/null
snap() { for t in /proc/"$pid"/task/*; do echo "$(basename "$t") $(awk '{print $14+$15, $14, $15}' "$t/stat")"; done | sort; }
snap >"$dir/cpu0"
out=$(wrk -t1 -c50 -d6s -s "$dir/lead.lua" "$url")
snap >"$dir/cpu1"
n=$(echo "$out" | grep -o '[0-9]* requests in' | cut -d' ' -f1)
echo "$(echo "$out" | grep Requests/sec)  ($n requests)"
join "$dir/cpu0" "$dir/cpu1" | awk -v n="$n" -v clk="$(getconf CLK_TCK)" -v main="$pid" \
  '{d=($5-$2)*1e6/clk/n; u=($6-$3)*1e6/clk/n; s=($7-$4)*1e6/clk/n; if (d>8) printf "  %-8s %4.0f us/request (user %.0f, system %.0f)\n", ($1==main?"main":$1), d, u, s}'
kill -INT "$pid"; wait "$pid" || true
