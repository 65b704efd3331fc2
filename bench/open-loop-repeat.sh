#!/usr/bin/env bash
# Open-loop p99 of SQLite intake, repeated: a fresh `leadscan serve`, 3 s of wrk at saturation (as `npm run bench`
# does before its open-loop row), then RUNS runs of bench/open-loop.ts at RATE req/s; then the raw echo on the same
# schedule, for this machine's floor. A tool for p99 work (one `npm run bench` row is one sample of a noisy figure):
#
#   npm run build && bash bench/open-loop-repeat.sh RATE [RUNS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rate=$1 runs=${2:-3} seconds=${3:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export DATABASE_URL="$dir/ol.sqlite" APP_SECRET=bench-open-loop-secret-0123456789abcdef HOST=127.0.0.1 PORT=0 \
  PUBLIC_BASE_URL=http://bench.local LOG_LEVEL=warn INTAKE_RATE_LIMIT=0 SCAN_RATE_LIMIT=0
lead='{"name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0958","notes":"Please call after 5 pm on weekdays; the side door is easier."}'
printf '%s' "$lead" >"$dir/lead.json"
cat >"$dir/lead.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$lead'
LUA
node bin/leadscan.js serve >"$dir/out.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -qs 'listening on' "$dir/out.txt" && break; sleep 0.1; done
token=$(grep -o 'intake/[0-9a-f-]*' "$dir/out.txt" | head -1 | cut -d/ -f2)
url="http://$(grep -o '127.0.0.1:[0-9]*' "$dir/out.txt" | head -1)/api/intake/$token"
echo "saturation warm-up: $(wrk -t1 -c50 -d3s -s "$dir/lead.lua" "$url" | grep Requests/sec)"
for _ in $(seq 1 "$runs"); do echo "leadscan $(node --import tsx bench/open-loop.ts "$url" "$dir/lead.json" "$rate" "$seconds" 50)"; done
kill -INT "$pid"; wait "$pid" || true
node --import tsx bench/raw-servers.ts echo >"$dir/echo.txt" 2>&1 &
echo_pid=$!
for _ in $(seq 1 100); do grep -qs 'listening on' "$dir/echo.txt" && break; sleep 0.1; done
echo_url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/echo.txt" | head -1)
for _ in $(seq 1 "$runs"); do echo "echo     $(node --import tsx bench/open-loop.ts "$echo_url/" "$dir/lead.json" "$rate" "$seconds" 50)"; done
kill "$echo_pid"
