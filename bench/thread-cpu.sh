#!/usr/bin/env bash
# CPU per intake request, per thread of a `leadscan serve` process, from /proc (user and system time), under wrk.
# A tool for finding where the time goes, not a test (the machine is shared; compare only within one run):
#
#   npm run build && bash bench/thread-cpu.sh ['SQL run on the database before serving, e.g. drop trigger …']
#
# Prints req/s and, for every thread that used more than 8 µs a request, its µs per request (user/system).
# The main thread is `main`; the SQLite writer and checkpoint threads and V8's helpers show by thread id.
# PostgreSQL's twin: bench/pg-cpu.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export DATABASE_URL="$dir/cpu.sqlite"
source bench/probe-common.sh
serve
token=$(intake_token)
stop_server
if [ -n "${1:-}" ]; then node -e "const D=require('better-sqlite3');const d=new D(process.argv[1]);d.exec(process.argv[2]);d.close()" "$DATABASE_URL" "$1"; fi
serve
url=$(intake_url "$token")
write_lead_lua
wrk -t1 -c50 -d2s -s "$dir/lead.lua" "$url" >/dev/null
snap_threads >"$dir/cpu0"
out=$(wrk -t1 -c50 -d6s -s "$dir/lead.lua" "$url")
snap_threads >"$dir/cpu1"
n=$(echo "$out" | grep -o '[0-9]* requests in' | cut -d' ' -f1)
echo "$(echo "$out" | grep Requests/sec)  ($n requests)"
report_threads "$dir/cpu0" "$dir/cpu1" "$n"
stop_server
