#!/usr/bin/env bash
# Benchmarks `tools/call` per second through MCP's stdio transport for a trivial skill (bench.echo,
# scripts/bench/dispatch_echo.c):
#   - skillhost mcp     release build, the skill in its default isolation (worker processes);
#   - python MCPServer  the Python `mcp` package's own server serving the same tool;
#   - floor             a C server that answers with fixed bytes (what the client and pipes allow);
# all driven by the same raw pipelined client (scripts/bench/mcp_pipelined_client.py: one thread writes
# N requests, another reads the answers). Target (issue #12): skillhost at least 50x the Python server.
#
# usage: scripts/bench-mcp.sh [CALLS] [MAX_WORKERS]   (defaults 20000 and the registry default, 2)
#        scripts/bench-mcp.sh --http [CALLS] [CONNECTIONS] [MAX_WORKERS]   (defaults 20000, 16, 2): the same over
#            Streamable HTTP: `skillhost mcp --http` (a token, requests of the stateless 2026-07-28 revision)
#            against the Python package's MCPServer on uvicorn (stateless, JSON answers), both driven by one
#            C client (scripts/bench/mcp_http_client.c: CONNECTIONS keep-alive connections, one request in
#            flight on each), three rounds with both servers up, in turn. Target (issue #36): skillhost at least 20x
#            the Python server (the median of the rounds' ratios)
#        scripts/bench-mcp.sh --gateway [CALLS]   (default 3000): what `skillhost mcp` adds as a gateway to an MCP
#            server registered as a skill source (issue #35, docs/mcp-sources.md "Performance").
#            First its own time: a server whose own time is next to nothing (scripts/bench/mcp_fixed_server.c: one
#            tool `echo`, every answer the same bytes at once), added as the source `fixed` with `add-mcp` (confined
#            as any source is; calls recorded in the bench's own history), called directly and through
#            `skillhost mcp` in turn, one call in flight (scripts/bench/mcp_latency_pair_client.py: the added
#            microseconds are the median of each pair's difference, which the machine's drift does not move), and
#            the same through a relay that does no work (scripts/bench/mcp_relay_floor.c: one more process hop,
#            bytes copied, nothing parsed, checked or recorded: the floor of any gateway on this machine).
#            Target (issue #35): the gateway adds at most 100 us per call (the first "added by the gateway" row).
#            Then a real server: the Python package's MCPServer with one tool `echo` (scripts/bench/mcp_python_server.py
#            echo), directly and as the source `pyecho`. The direct rows speak to it in the revision the gateway
#            settled with it (the stateless 2026-07-28 one: no initialize, `_meta` on every request,
#            scripts/bench/mcp_stateless.py), so its own time is its time for the requests the gateway sends; one
#            more paired round shows what that revision costs it over a session's request. Sequential rows
#            (scripts/bench/mcp_latency_client.py, three rounds, direct and gateway in turn: median minus median;
#            each row with the server process's context switches per call), the same paired, the relay before
#            this server (paired: with ~15 thread switches per call of its own, this server takes one more
#            process in the chain unevenly, so even the relay "adds" tens to hundreds of microseconds, round to
#            round: these rows hold that as well as the gateway's time), and both pipelined (CALLS written at once).
#        env BENCH_BINARY=PATH measures that binary instead of building .build/release/skillhost
#        env BENCH_PIN=1 runs every client on CPU 1 and every server (with its workers) on CPU 0, for steadier
#            A/B comparisons on a 2-core machine; the figures to report are the unpinned ones
#        env BENCH_INSTRUCTIONS=1 also counts the server's instructions per call (valgrind callgrind on a
#            stripped copy of the binary, 2,000 against 6,000 calls, startup cancelled out; workers not
#            counted): the figure other processes' load does not move (slow: about a minute); with --http the
#            same for `skillhost mcp --http` (2,000 against 6,000 calls over the CONNECTIONS, stopped by SIGTERM); with
#            --gateway the same for the sequential gateway row (1,000 against 3,000 calls; the MCP server not counted)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=stdio
connections=16
if [ "${1:-}" = --gateway ]; then
    mode=gateway
    shift
    calls="${1:-3000}"
    workers=""
elif [ "${1:-}" = --http ]; then
    mode=http
    shift
    calls="${1:-20000}"
    connections="${2:-16}"
    workers="${3:-}"
else
    calls="${1:-20000}"
    workers="${2:-}"
fi
work="$root/.build/mcp-bench"
venv="$root/.build/peers/mcp"
rm -rf "$work"
mkdir -p "$work/plugins" "$work/config"
# Every tools/call is recorded (docs/history.md): in a history of the bench's own, not the user's.
export SKILLHOST_STATE="$work/state"
chmod 700 "$work" "$work/plugins"

cc -O2 -std=c99 -shared -fPIC -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/dispatch_echo.c" -o "$work/plugins/bench.so"
chmod 755 "$work/plugins/bench.so"
if [ -n "$workers" ]; then
    printf '{"version": 1, "plugins": {"bench": {"max_workers": %s}}}\n' "$workers" > "$work/config/skill_registry.json"
fi

# BENCH_BINARY: measure an already built skillhost (e.g. .build/static/release/skillhost from bench.sh).
if [ -n "${BENCH_BINARY:-}" ]; then
    binary="$BENCH_BINARY"
else
    (cd "$root" && swift build -c release --product skillhost 2>&1 | tail -1)
    bash "$root/scripts/build-sandbox-helper.sh" --release "$root/.build/release"
    binary="$root/.build/release/skillhost"
fi
"$binary" trust bench --plugins "$work/plugins" --registry "$work/config/skill_registry.json" --cache "$work/cache" >/dev/null

if ! "$venv/bin/python" -c 'import mcp.server.mcpserver' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'mcp>=2'
fi
python="$venv/bin/python"
# BENCH_PIN=1: the client on CPU 1, the server on CPU 0 (see the usage above).
client_pin=()
server_pin=()
if [ "${BENCH_PIN:-}" = 1 ]; then
    client_pin=(taskset -c 1)
    server_pin=(taskset -c 0)
fi
version=$("$python" -c 'import importlib.metadata as m; print(m.version("mcp"))')

# BENCH_INSTRUCTIONS=1: valgrind cannot read the Swift binary's debug information, so a copy without it is
# counted (its symbols kept: `callgrind_annotate` on the kept output names the functions); and valgrind
# writes into the mask libdispatch hands rt_sigsuspend, which is read-only: a copy is handed.
prepare_valgrind() {
    command -v valgrind >/dev/null || { echo "BENCH_INSTRUCTIONS=1 needs valgrind (apt-get install valgrind)" >&2; exit 1; }
    cp "$binary" "$work/skillhost-stripped"
    strip --strip-debug "$work/skillhost-stripped"
    # Its workers and MCP servers are started through the sandbox helper beside it (builds from before the
    # helper existed have none).
    if [ -e "$(dirname "$binary")/skillhost-sandbox" ]; then cp "$(dirname "$binary")/skillhost-sandbox" "$work/skillhost-sandbox"; fi
    cc -O2 -shared -fPIC "$root/scripts/bench/valgrind_sigsuspend.c" -o "$work/valgrind_sigsuspend.so"
}

# The HTTP server's instructions per call: `skillhost mcp --http` under callgrind answers 2,000 and then
# 6,000 calls (the same client and connections), stopped by SIGTERM; the difference over 4,000 cancels
# start-up and stop. Workers are other processes and not counted. The outputs stay in .build/mcp-bench
# (callgrind-http-N.out*, one file per thread) for `callgrind_annotate`.
count_http_instructions() {
    prepare_valgrind
    local counted=() n vport vserver
    for n in 2000 6000; do
        # A history of its own per run: a server starting on the previous run's history first replays its
        # unwritten finishes (millions of instructions, more after a bigger run), which skewed the difference.
        rm -rf "$work/state"
        env LD_PRELOAD="$work/valgrind_sigsuspend.so" valgrind --tool=callgrind --separate-threads=yes \
            --callgrind-out-file="$work/callgrind-http-$n.out" "$work/skillhost-stripped" mcp --http 127.0.0.1:0 "${global[@]}" \
            2>"$work/callgrind-http-$n.log" &
        vserver=$!
        vport=$(port_of "$work/callgrind-http-$n.log" 's|.*serving http://127.0.0.1:\([0-9]*\)/mcp.*|\1|p' 2400) || { kill "$vserver"; exit 1; }
        "$work/mcp_http_client" "$vport" "$n" "$connections" "$token" >/dev/null
        kill -TERM "$vserver"
        wait "$vserver" 2>/dev/null || true
        counted+=("$(sed -n 's/.*Collected : *//p' "$work/callgrind-http-$n.log" | tr -d ,)")
    done
    printf '%-34s %d instructions per call (server process, callgrind, %d connections)\n' "" "$(( (counted[1] - counted[0]) / 4000 ))" "$connections"
}

if [ "$mode" = gateway ]; then
    # The Python MCPServer with one tool `echo`, called directly and as the MCP source `pyecho` through
    # `skillhost mcp` (its tool is the skill pyecho.echo, served as pyecho_echo). The source runs confined:
    # its script is copied into the bench's folder and granted read-only; its data folder is the bench's.
    export XDG_DATA_HOME="$work/data"
    cp "$root/scripts/bench/mcp_python_server.py" "$work/mcp_python_server.py"
    global=(--plugins "$work/plugins" --registry "$work/config/skill_registry.json" --cache "$work/cache")
    "$binary" add-mcp pyecho "${global[@]}" --read "$work/mcp_python_server.py" -- "$python" "$work/mcp_python_server.py" echo >/dev/null
    direct=("$python" "$work/mcp_python_server.py" echo)
    gateway=("$binary" mcp "${global[@]}")
    median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
    field() { sed "s/.*\"$2\": \([0-9.-]*\).*/\1/" <<< "$1"; }
    pair() { "${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_pair_client.py" "$@" 2>>"$work/paired.log"; }
    # The gateway's own time: calls of a server whose own time is next to nothing (scripts/bench/mcp_fixed_server.c:
    # one tool, every answer the same bytes at once), added as the source `fixed` (confined like any source).
    # Paired rounds: directly and through `skillhost mcp`, then directly and through a relay that does no work
    # (scripts/bench/mcp_relay_floor.c: the floor, one more process hop). Against this server the difference is
    # the gateway's alone; against the Python server below it also holds how that server's threads take one
    # more process in the chain (there even the relay adds tens to hundreds of microseconds, round to round).
    cc -O2 "$root/scripts/bench/mcp_fixed_server.c" -o "$work/mcp_fixed_server"
    cc -O2 "$root/scripts/bench/mcp_relay_floor.c" -o "$work/mcp_relay_floor"
    "$binary" add-mcp fixed "${global[@]}" -- "$work/mcp_fixed_server" >/dev/null
    echo "MCP gateway, its own time: a tools/call of a server that answers at once (scripts/bench/mcp_fixed_server.c), directly and through skillhost mcp, $(nproc) cores"
    echo "paired (both up, called in turn, one call in flight, $calls pairs a round; per-call microseconds):"
    own=()
    floor=()
    for round in 1 2 3; do
        p=$(pair "$calls" 200 echo fixed_echo -- "${server_pin[@]}" "$work/mcp_fixed_server" :: "${server_pin[@]}" "${gateway[@]}")
        f=$(pair "$calls" 200 echo echo -- "${server_pin[@]}" "$work/mcp_fixed_server" :: "${server_pin[@]}" "$work/mcp_relay_floor" "$work/mcp_fixed_server")
        own+=("$(field "$p" added_median_us)")
        floor+=("$(field "$f" added_median_us)")
        printf '  round %d  direct %s, through skillhost mcp %s (added %s); through the relay: added %s\n' "$round" \
            "$(sed 's/.*"a": {"median_us": \([0-9.]*\).*/\1/' <<< "$p")" "$(sed 's/.*"b": {"median_us": \([0-9.]*\).*/\1/' <<< "$p")" \
            "${own[-1]}" "${floor[-1]}"
    done
    printf '%-34s %s us per call (median of the rounds: %s; target: at most 100)\n' "added by the gateway:" "$(median3 "${own[@]}")" "${own[*]}"
    printf '%-34s %s us per call (median of the rounds: %s; a relay that copies bytes and does nothing else)\n' \
        "added by any gateway (the floor):" "$(median3 "${floor[@]}")" "${floor[*]}"
    "$binary" remove fixed "${global[@]}" >/dev/null
    # "The server's own time" is its time for the requests the gateway sends it: the direct rows speak the
    # revision the gateway settled with the server (the stateless 2026-07-28 one when the server offers it,
    # as this one does: every request with its `_meta`; scripts/bench/mcp_stateless.py).
    if "$binary" inspect pyecho "${global[@]}" 2>/dev/null | grep -q 'protocol: *2026-07-28'; then
        direct_tool=stateless:echo
        revision="the stateless 2026-07-28 revision, as the gateway speaks to it"
    else
        direct_tool=echo
        revision="a 2025-06-18 session, as the gateway speaks to it"
    fi
    echo "MCP gateway, a real server: a tools/call of the Python MCPServer's echo {\"text\":\"hello\"} (mcp $version), directly (in $revision) and through skillhost mcp, $(nproc) cores"
    echo "sequential (one call in flight, $calls calls a run, three rounds in turn; per-call microseconds):"
    added=()
    for round in 1 2 3; do
        d=$("${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_client.py" "$calls" 200 "$direct_tool" -- "${server_pin[@]}" "${direct[@]}" 2>"$work/direct.log")
        g=$("${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_client.py" "$calls" 200 pyecho_echo -- "${server_pin[@]}" "${gateway[@]}" 2>"$work/gateway.log")
        printf '  round %d  %-10s %s\n  round %d  %-10s %s\n' "$round" direct: "$d" "$round" gateway: "$g"
        added+=("$(awk -v a="$(field "$g" median_us)" -v b="$(field "$d" median_us)" 'BEGIN { printf "%.1f", a - b }')")
    done
    printf '%-34s %s us per call (median of the rounds'"'"' median differences: %s)\n' "added with this server:" "$(median3 "${added[@]}")" "${added[*]}"
    # The same, paired: both servers run at once and are called in turn, one call in flight (direct then
    # gateway, then gateway then direct, …), so each difference is taken between two calls milliseconds apart
    # (scripts/bench/mcp_latency_pair_client.py): the machine's drift between runs, which moves the direct
    # row's median by a millisecond on a shared VM, cancels out.
    echo "paired (both servers up, called in turn, $calls pairs a round, three rounds; per-call microseconds):"
    paired=()
    for round in 1 2 3; do
        p=$("${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_pair_client.py" "$calls" 200 "$direct_tool" pyecho_echo -- \
            "${server_pin[@]}" "${direct[@]}" :: "${server_pin[@]}" "${gateway[@]}" 2>"$work/paired.log")
        printf '  round %d  %s\n' "$round" "$p"
        paired+=("$(field "$p" added_median_us)")
    done
    printf '%-34s %s us per call (median of the rounds'"'"' median pair differences: %s)\n' "added with this server (paired):" "$(median3 "${paired[@]}")" "${paired[*]}"
    if [ "$direct_tool" != echo ]; then
        # For comparison, not part of the target: what the server itself spends on the stateless revision's
        # request over a session's (the same server, directly, called in turn both ways).
        p=$("${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_pair_client.py" "$calls" 200 echo "$direct_tool" -- \
            "${server_pin[@]}" "${direct[@]}" :: "${server_pin[@]}" "${direct[@]}" 2>>"$work/paired.log")
        printf '%-34s %s us per call (paired, one round: the server directly, stateless request minus session request)\n' \
            "the server's own stateless cost:" "$(field "$p" added_median_us)"
    fi
    # The relay before this server, paired the same way: what one more process hop that does no work "adds"
    # with this server (its own threads take the hop unevenly; see the usage above).
    floor=()
    for round in 1 2 3; do
        p=$("${client_pin[@]}" "$python" "$root/scripts/bench/mcp_latency_pair_client.py" "$calls" 200 "$direct_tool" "$direct_tool" -- \
            "${server_pin[@]}" "${direct[@]}" :: "${server_pin[@]}" "$work/mcp_relay_floor" "${direct[@]}" 2>>"$work/paired.log")
        floor+=("$(field "$p" added_median_us)")
    done
    printf '%-34s %s us per call (paired, median of the rounds: %s; a relay that copies bytes and does nothing else)\n' \
        "the relay before this server:" "$(median3 "${floor[@]}")" "${floor[*]}"
    if [ "${BENCH_INSTRUCTIONS:-}" = 1 ]; then
        # The gateway's instructions per sequential call: `skillhost mcp` under callgrind serves 1,000 and then
        # 3,000 calls (after the same 200 warm-up calls); the difference over 2,000 cancels start-up, the
        # source's start and the end. The server (another process) is not counted. The outputs stay in
        # .build/mcp-bench (callgrind-gateway-N.out) for `callgrind_annotate`.
        prepare_valgrind
        counted=()
        for n in 1000 3000; do
            "$python" "$root/scripts/bench/mcp_latency_client.py" "$n" 200 pyecho_echo -- \
                env LD_PRELOAD="$work/valgrind_sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file="$work/callgrind-gateway-$n.out" \
                "$work/skillhost-stripped" mcp "${global[@]}" >/dev/null 2>"$work/callgrind-gateway-$n.log"
            counted+=("$(sed -n 's/.*Collected : *//p' "$work/callgrind-gateway-$n.log" | tr -d ,)")
        done
        printf '%-34s %d instructions per call (skillhost mcp process, callgrind)\n' "" "$(( (counted[1] - counted[0]) / 2000 ))"
    fi
    echo "pipelined ($calls calls written at once):"
    printf '  %-32s ' "direct:"
    "${client_pin[@]}" "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$calls" 200 echo -- "${server_pin[@]}" "${direct[@]}" 2>>"$work/direct.log"
    printf '  %-32s ' "through skillhost mcp:"
    "${client_pin[@]}" "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$calls" 200 pyecho_echo -- "${server_pin[@]}" "${gateway[@]}" 2>>"$work/gateway.log"
    exit 0
fi

if [ "$mode" = http ]; then
    cc -O2 "$root/scripts/bench/mcp_http_client.c" -o "$work/mcp_http_client"
    global=(--plugins "$work/plugins" --registry "$work/config/skill_registry.json" --cache "$work/cache")
    token=$("$binary" token create bench "${global[@]}" | tail -1)
    echo "MCP tools/call over HTTP: bench_echo {\"text\":\"hello\"}, $calls calls on $connections keep-alive connections, $(nproc) cores"
    # Waits for a server's "listening" line in its log (up to $3 × 50 ms, default 10 s) and prints the port.
    port_of() {
        for _ in $(seq 1 "${3:-200}"); do
            port=$(sed -n "$2" "$1" 2>/dev/null | head -1)
            if [ -n "$port" ]; then echo "$port"; return; fi
            sleep 0.05
        done
        echo "the server did not start: $(cat "$1")" >&2
        exit 1
    }
    # Both servers up at once, measured in turn for three rounds: each round's ratio is taken between two runs
    # seconds apart, so the machine's load (other VMs on a shared host move either rate by 20-30% from minute
    # to minute) changes both sides of it; the figure is the median of the rounds' ratios.
    "${server_pin[@]}" "$binary" mcp --http 127.0.0.1:0 "${global[@]}" 2>"$work/skillhost-http.log" &
    server=$!
    port=$(port_of "$work/skillhost-http.log" 's|.*serving http://127.0.0.1:\([0-9]*\)/mcp.*|\1|p')
    python_calls=$(( calls < 5000 ? calls : 5000 ))
    python_port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${server_pin[@]}" "$python" "$root/scripts/bench/mcp_python_http_server.py" "$python_port" 2>"$work/python-http.log" &
    pyserver=$!
    for _ in $(seq 1 200); do
        if "$python" -c "import socket,sys; socket.create_connection(('127.0.0.1', $python_port)).close()" 2>/dev/null; then break; fi
        sleep 0.05
    done
    "$work/mcp_http_client" "$port" 500 "$connections" "$token" >/dev/null
    "$work/mcp_http_client" "$python_port" 200 "$connections" "$token" >/dev/null
    rate() { sed 's/.*"calls_per_second": \([0-9]*\).*/\1/' <<< "$1"; }
    ratios=()
    for round in 1 2 3; do
        skillhost_result=$("${client_pin[@]}" "$work/mcp_http_client" "$port" "$calls" "$connections" "$token")
        python_result=$("${client_pin[@]}" "$work/mcp_http_client" "$python_port" "$python_calls" "$connections" "$token")
        ratios+=("$(awk -v a="$(rate "$skillhost_result")" -v b="$(rate "$python_result")" 'BEGIN { printf "%.1f", a / b }')")
        printf '  round %d  %-30s %s\n' "$round" "skillhost mcp --http:" "$skillhost_result"
        printf '  round %d  %-30s %s\n' "$round" "python mcp $version MCPServer (uvicorn):" "$python_result"
    done
    kill "$server" "$pyserver"
    wait "$server" "$pyserver" 2>/dev/null || true
    printf '%-34s %sx (median of the rounds: %s; target: 20x)\n' "ratio:" \
        "$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n 2p)" "${ratios[*]}"
    if [ "${BENCH_INSTRUCTIONS:-}" = 1 ]; then
        count_http_instructions
    fi
    exit 0
fi

echo "MCP tools/call benchmark: bench.echo {\"text\":\"hello\"}, $calls pipelined calls, $(nproc) cores"
printf '%-34s ' "skillhost mcp (workers${workers:+, max_workers $workers}):"
# CPU of the server and its workers (user + system, the workers reaped by the server), per call: a figure the
# load of other processes distorts far less than calls per second.
timed=()
if [ -x /usr/bin/time ]; then timed=(/usr/bin/time -f '%U %S %w %c' -o "$work/skillhost.time"); fi
"${client_pin[@]}" "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$calls" 500 -- \
    "${timed[@]}" "${server_pin[@]}" "$binary" mcp --plugins "$work/plugins" --registry "$work/config/skill_registry.json" --cache "$work/cache" \
    2>"$work/skillhost.log"
if [ -s "$work/skillhost.time" ]; then
    read -r user system voluntary involuntary < "$work/skillhost.time"
    awk -v u="$user" -v s="$system" -v v="$voluntary" -v i="$involuntary" -v n="$((calls + 500))" \
        'BEGIN { printf "%-34s %.1f us CPU per call (server + workers; user %.1f, system %.1f), %.2f voluntary / %.2f involuntary switches per call\n", "", (u + s) * 1e6 / n, u * 1e6 / n, s * 1e6 / n, v / n, i / n }'
fi
if [ "${BENCH_INSTRUCTIONS:-}" = 1 ]; then
    prepare_valgrind
    counted=()
    for n in 2000 6000; do
        "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$n" 0 -- \
            env LD_PRELOAD="$work/valgrind_sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/skillhost-stripped" mcp --plugins "$work/plugins" \
            --registry "$work/config/skill_registry.json" --cache "$work/cache" >/dev/null 2>"$work/callgrind-$n.log"
        counted+=("$(sed -n 's/.*Collected : *//p' "$work/callgrind-$n.log" | tr -d ,)")
    done
    printf '%-34s %d instructions per call (server process, callgrind)\n' "" "$(( (counted[1] - counted[0]) / 4000 ))"
fi
python_calls=$(( calls < 5000 ? calls : 5000 ))
printf '%-34s ' "python mcp $version MCPServer:"
"${client_pin[@]}" "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$python_calls" 200 -- \
    "${server_pin[@]}" "$python" "$root/scripts/bench/mcp_python_server.py" 2>"$work/python.log"
# The floor: the same client against a C stdio server that answers every line with a fixed result and
# does no work (scripts/bench/mcp_echo_floor.c). No server can beat this row on this machine.
cc -O2 "$root/scripts/bench/mcp_echo_floor.c" -o "$work/mcp_echo_floor"
printf '%-34s ' "floor (C, fixed answers):"
"${client_pin[@]}" "$python" "$root/scripts/bench/mcp_pipelined_client.py" "$calls" 500 -- "${server_pin[@]}" "$work/mcp_echo_floor"
