# Shared by bench/thread-cpu.sh (SQLite) and bench/pg-cpu.sh (PostgreSQL): a `leadscan serve` on DATABASE_URL,
# the bench's lead for wrk, and CPU per request of each of the server's threads. Sourced, not run; expects `dir`
# (a scratch folder) and DATABASE_URL to be set.

export APP_SECRET=bench-thread-cpu-secret-0123456789abcdef HOST=127.0.0.1 PORT=0 \
  PUBLIC_BASE_URL=http://bench.local LOG_LEVEL=warn INTAKE_RATE_LIMIT=0 SCAN_RATE_LIMIT=0

# Starts the server (pid in `pid`) and waits until it listens.
serve() {
  node bin/leadscan.js serve >"$dir/out.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do grep -q 'listening on' "$dir/out.txt" && break; sleep 0.1; done
}

stop_server() {
  kill -INT "$pid"
  wait "$pid" || true
}

# The first start's intake token, once the server listens.
intake_token() {
  grep -o 'intake/[0-9a-f-]*' "$dir/out.txt" | head -1 | cut -d/ -f2
}

intake_url() {
  echo "http://$(grep -o '127.0.0.1:[0-9]*' "$dir/out.txt" | head -1)/api/intake/$1"
}

# wrk's script: the bench's ~0.9 KB lead, POSTed as JSON.
write_lead_lua() {
  cat >"$dir/lead.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0958","notes":"' .. string.rep("Please call after 5 pm on weekdays; the side door is easier. ", 10) .. '"}'
LUA
}

# Each thread of the server: id, user+system, user, system (clock ticks).
snap_threads() {
  for t in /proc/"$pid"/task/*; do echo "$(basename "$t") $(awk '{print $14+$15, $14, $15}' "$t/stat")"; done | sort
}

# Prints, for every thread that used more than 8 µs a request between two snapshots, its µs per request.
report_threads() { # before-file after-file requests
  join "$1" "$2" | awk -v n="$3" -v clk="$(getconf CLK_TCK)" -v main="$pid" \
    '{d=($5-$2)*1e6/clk/n; u=($6-$3)*1e6/clk/n; s=($7-$4)*1e6/clk/n; if (d>8) printf "  %-8s %4.0f us/request (user %.0f, system %.0f)\n", ($1==main?"main":$1), d, u, s}'
}
