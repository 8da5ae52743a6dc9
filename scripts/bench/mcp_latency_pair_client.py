"""A paired sequential MCP client for scripts/bench-mcp.sh --gateway: starts two stdio servers (A: the MCP
server itself, B: `skillhost mcp` serving it as a source), initializes both, then calls them in turn, one
call in flight at a time (A then B, then B then A, …), so that both see the same moments of a machine whose
speed drifts: the added time is read from pairs of calls made a few milliseconds apart, not from two runs
made seconds apart. Prints one JSON line: {"calls", "a": {...}, "b": {...}, "added_median_us",
"added_p25_us", "added_p75_us"}, where a and b hold "median_us", "p10_us", "p90_us", "errors" and
"switches_per_call" (the server process's context switches per timed call, all its threads, from /proc),
and added_* are quantiles of the pairs' differences (B's call minus A's call of the same pair).

usage: python mcp_latency_pair_client.py N WARMUP TOOL_A TOOL_B -- COMMAND_A [ARGS...] :: COMMAND_B [ARGS...]
A tool `stateless:NAME` speaks the stateless revision (2026-07-28) to its server (mcp_stateless.py).
"""

import json
import subprocess
import sys
import time

import mcp_stateless
import process_switches

split = sys.argv.index("--")
own, rest = sys.argv[1:split], sys.argv[split + 1:]
count, warmup, tools = int(own[0]), int(own[1]), (own[2], own[3])
middle = rest.index("::")
commands = (rest[:middle], rest[middle + 1:])
clock = time.perf_counter_ns


class Server:
    def __init__(self, command: list[str], tool: str) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 16)
        self.reader = self.process.stdout
        self.tool, self.stateless = mcp_stateless.parse(tool)
        self.timings: list[float] = []
        self.errors = 0
        self.next_id = 0
        if self.stateless:
            return
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        self.read_answer()
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.process.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
        self.process.stdin.flush()

    def read_answer(self) -> dict:
        while True:
            line = self.reader.readline()
            if not line:
                raise SystemExit(f"a server closed its stdout (exit {self.process.poll()})")
            message = json.loads(line)
            if "id" in message:
                return message

    def call(self, timed: bool) -> float:
        # Encoded before the clock starts: only the write, the server and the read are timed.
        request = (json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                               "params": mcp_stateless.params(self.tool, {"text": "hello"}, self.next_id, self.stateless)},
                              separators=(",", ":")) + "\n").encode()
        self.next_id += 1
        before = clock()
        self.process.stdin.write(request)
        self.process.stdin.flush()
        answer = self.read_answer()
        microseconds = (clock() - before) / 1000
        if timed:
            self.timings.append(microseconds)
            if "error" in answer or answer.get("result", {}).get("isError"):
                if self.errors == 0:
                    print("first error:", json.dumps(answer)[:300], file=sys.stderr)
                self.errors += 1
        return microseconds

    def switches(self) -> int:
        return process_switches.switches(self.process.pid)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1)


a, b = Server(commands[0], tools[0]), Server(commands[1], tools[1])
for index in range(warmup):
    a.call(False)
    b.call(False)
switched = (a.switches(), b.switches())
differences = []
for index in range(count):
    first, second = (a, b) if index % 2 == 0 else (b, a)
    first.call(True)
    second.call(True)
    differences.append(b.timings[-1] - a.timings[-1])
switched = (a.switches() - switched[0], b.switches() - switched[1])
a.close()
b.close()


def side(server: Server, switches: int) -> dict:
    return {"median_us": quantile(server.timings, 0.5), "p10_us": quantile(server.timings, 0.1),
            "p90_us": quantile(server.timings, 0.9), "errors": server.errors, "switches_per_call": round(switches / count, 2)}


print(json.dumps({"calls": count, "a": side(a, switched[0]), "b": side(b, switched[1]),
                  "added_median_us": quantile(differences, 0.5), "added_p25_us": quantile(differences, 0.25),
                  "added_p75_us": quantile(differences, 0.75)}))
