"""A sequential MCP client for scripts/bench-mcp.sh --gateway: starts a stdio server, initializes it, then
makes N `tools/call` requests one at a time (the next is written when the answer came) and times each.
Prints one JSON line: {"calls", "seconds", "calls_per_second", "median_us", "p10_us", "p90_us", "errors",
"switches_per_call"} (the server process's context switches per timed call, all its threads, voluntary and
involuntary, from /proc: each is a thread that slept or was preempted, a figure the machine's load moves
little) and, with --samples FILE, writes every call's microseconds to FILE (one a line, in call order) so that two
runs can be compared call by call.

usage: python mcp_latency_client.py N WARMUP TOOL [--samples FILE] -- COMMAND [ARGS...]
TOOL `stateless:NAME` speaks the stateless revision (2026-07-28) to the server as `skillhost mcp` does to an MCP
source that offers it (mcp_stateless.py): no `initialize`, every request with its `_meta`.
"""

import json
import subprocess
import sys
import time

import mcp_stateless
import process_switches

split = sys.argv.index("--")
own, command = sys.argv[1:split], sys.argv[split + 1:]
count, warmup, tool = int(own[0]), int(own[1]), own[2]
tool, stateless = mcp_stateless.parse(tool)
samples_file = own[own.index("--samples") + 1] if "--samples" in own else None
process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 16)
reader = process.stdout


def read_answer() -> dict:
    while True:
        line = reader.readline()
        if not line:
            raise SystemExit(f"the server closed its stdout (exit {process.poll()})")
        message = json.loads(line)
        if "id" in message:
            return message


def send(message: dict) -> None:
    process.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    process.stdin.flush()


if not stateless:
    send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    read_answer()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
# The requests are encoded before the clock starts: only the write, the server and the read are timed.
requests = [(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                         "params": mcp_stateless.params(tool, {"text": "hello"}, i, stateless)},
                        separators=(",", ":")) + "\n").encode() for i in range(warmup + count)]
write, flush = process.stdin.write, process.stdin.flush
clock = time.perf_counter_ns


def switches() -> int:
    return process_switches.switches(process.pid)


errors = 0
timings = []
started = 0
for index, request in enumerate(requests):
    if index == warmup:
        switched = switches()
        started = clock()
    before = clock()
    write(request)
    flush()
    answer = read_answer()
    after = clock()
    if index < warmup:
        continue
    timings.append((after - before) / 1000)
    if "error" in answer or answer.get("result", {}).get("isError"):
        if errors == 0:
            print("first error:", json.dumps(answer)[:300], file=sys.stderr)
        errors += 1
seconds = (clock() - started) / 1e9
switched = switches() - switched
process.stdin.close()
process.wait(timeout=30)
if samples_file:
    with open(samples_file, "w") as out:
        out.write("".join(f"{t:.1f}\n" for t in timings))
ordered = sorted(timings)


def at(fraction: float) -> float:
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1)


print(json.dumps({"calls": count, "seconds": round(seconds, 3), "calls_per_second": round(count / seconds),
                  "median_us": at(0.5), "p10_us": at(0.1), "p90_us": at(0.9), "errors": errors,
                  "switches_per_call": round(switched / count, 2)}))
