"""A bounded load through a load balancer in front of `skillhost mcp --http` replicas, with the official Python
`mcp` 2.x Client pinned to the stateless revision (2026-07-28), killing one replica with SIGKILL mid-run.

Run by Tests/SkillMCPTests/ScaleOutTests.swift:
    python mcp_scale_out.py URL TOKEN KILL_PID CALLS WORKERS REMINDERS_FILE
Two calls in three are clock_now (read, idempotent: a call that fails because its replica died is retried), one
in three reminders_add with a unique title (write, not idempotent: a failed one is not retried, since it may have
taken effect). Afterwards every acknowledged reminder must be in REMINDERS_FILE, the file the replicas share.
Prints one line per check and a summary; exits 1 at the first failed check.
"""

import os
import signal
import sys
import time

import anyio
import httpx2

from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from peer_checks import check, text_of

URL, TOKEN, KILL_PID, CALLS, WORKERS, REMINDERS_FILE = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]




state = {"next": 0, "acknowledged": 0, "killed_at": None, "retries": 0, "reads": 0, "lost_reads": 0}
added: list[str] = []
unacknowledged: list[str] = []


def client() -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=20)
    return Client(streamable_http_client(URL, http_client=http), mode="2026-07-28")


def take() -> int | None:
    if state["next"] >= CALLS:
        return None
    state["next"] += 1
    return state["next"] - 1


async def one_call(session: Client, number: int) -> None:
    """One call; raises when its replica died under it (the connection broke, or the balancer said 502)."""
    if number % 3 != 0:
        result = await session.call_tool("clock_now", {"timezone": "UTC"})
        if result.is_error:
            raise RuntimeError(text_of(result))
        state["reads"] += 1
    else:
        title = f"load-{number}"
        result = await session.call_tool("reminders_add", {"title": title})
        if result.is_error:
            raise RuntimeError(text_of(result))
        added.append(title)


kill_now = anyio.Event()
sleepers = {"broken": 0, "answered": 0, "calling": 0}


def answered() -> None:
    state["acknowledged"] += 1
    if state["acknowledged"] >= CALLS // 3:
        kill_now.set()


async def sleeper() -> None:
    """A slow idempotent call (fixture_slow, 1 s here) in flight when the replica dies: if the kill breaks
    it, it is retried on another replica and answered there."""
    for attempt in range(5):
        try:
            async with client() as session:
                sleepers["calling"] += 1
                await session.call_tool("fixture_slow", {})  # ends at its timeout: isError, but answered
                sleepers["answered"] += 1
                return
        except Exception:
            sleepers["broken"] += 1
            await anyio.sleep(0.1)


async def killer() -> None:
    """Once a third of the calls were answered: six slow calls go out (round robin puts some on every
    replica), and while they run the replica is killed: once all six have their sessions and are calling
    (opening a session takes a loaded machine longer than a fixed pause), then 0.2 s into their 1 s."""
    await kill_now.wait()
    async with anyio.create_task_group() as group:
        for _ in range(6):
            group.start_soon(sleeper)
        with anyio.move_on_after(10):
            while sleepers["calling"] < 6:
                await anyio.sleep(0.01)
        await anyio.sleep(0.2)
        os.kill(KILL_PID, signal.SIGKILL)
        state["killed_at"] = state["acknowledged"]


async def worker() -> None:
    """Calls until CALLS were made; a broken connection ends the client, and a new one goes on. The call it
    broke is retried when it is idempotent (a read), and counted as unacknowledged when not (a write)."""
    pending: int | None = None
    attempts = 0
    while True:
        try:
            async with client() as session:
                while True:
                    if pending is None:
                        pending = take()
                        attempts = 0
                    if pending is None:
                        return
                    await one_call(session, pending)
                    pending = None
                    answered()
        except Exception:
            if pending is None:
                continue
            if pending % 3 != 0 and attempts < 8:
                attempts += 1
                state["retries"] += 1
                await anyio.sleep(0.05 * attempts)
            else:
                if pending % 3 != 0:
                    state["lost_reads"] += 1
                else:
                    unacknowledged.append(f"load-{pending}")
                pending = None
                answered()


async def main() -> None:
    started = time.monotonic()
    async with anyio.create_task_group() as group:
        group.start_soon(killer)
        for _ in range(WORKERS):
            group.start_soon(worker)
    elapsed = time.monotonic() - started
    print(f"summary: {CALLS} calls in {elapsed:.1f} s by {WORKERS} clients; replica {KILL_PID} killed after {state['killed_at']} answers; "
          f"{state['reads']} reads ({state['retries']} retries), {len(added)} reminders acknowledged, {len(unacknowledged)} not; "
          f"slow calls broken by the kill and retried: {sleepers['broken']}", flush=True)
    check(state["killed_at"] is not None, "a replica was killed mid-run")
    check(state["lost_reads"] == 0, f"every idempotent call succeeded, retried where its replica died ({state['retries']} retries)")
    with open(REMINDERS_FILE, encoding="utf-8") as file:
        stored = {line[len("SUMMARY:"):].strip() for line in file.read().splitlines() if line.startswith("SUMMARY:")}
    lost = [title for title in added if title not in stored]
    check(not lost, f"every acknowledged reminder is in the shared file ({len(added)} of {len(added)}; lost: {lost[:5]})")
    check(len(added) + len(unacknowledged) == (CALLS + 2) // 3, "every write was made once, answered or not")
    check(sleepers["broken"] >= 1 and sleepers["answered"] == 6,
          f"slow idempotent calls in flight on the killed replica broke ({sleepers['broken']}) and were retried and answered elsewhere ({sleepers['answered']} of 6)")
    # After the kill the balancer serves every request from the replicas left.
    async with client() as session:
        for _ in range(6):
            result = await session.call_tool("clock_now", {})
            check(not result.is_error, "a call after the kill is answered")


if __name__ == "__main__":
    anyio.run(main)
    print("all checks passed", flush=True)
