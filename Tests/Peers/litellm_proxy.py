"""LiteLLM's proxy (`litellm[proxy]` from PyPI) for the tests, bound to the life of the process that started it.

Run by Tests/SkillAgentTests/Support/LiteLLMPeer.swift (and usable by hand):
    python litellm_proxy.py --config CONFIG.yaml --ready READY_FILE --log LOG_FILE [--remove-on-exit FOLDER]

Picks a free port on 127.0.0.1, starts `litellm --config CONFIG.yaml --host 127.0.0.1 --port PORT` in a
process group of its own (output to LOG_FILE), waits until GET /health/liveliness answers 200, then writes
the port to READY_FILE (through a temporary file and a rename, so a reader never sees half of it). Stops the
proxy — SIGTERM to its group, SIGKILL after 5 s — when this script's standard input ends, which happens when
the process holding the pipe's other end exits however it exits (so a test run that dies leaves no proxy
behind), or on SIGTERM/SIGINT. Exits with the proxy's status when the proxy exits on its own. With
--remove-on-exit, removes that folder (the one holding the config, ready file and log) as it exits, unless
the proxy never answered (then the log stays for the message that says so).

The cost map is read from the package (LITELLM_LOCAL_MODEL_COST_MAP): no request leaves the machine.
"""

import argparse
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(port):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/health/liveliness")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--ready", required=True, help="the file that receives the port once the proxy answers")
    parser.add_argument("--log", required=True)
    parser.add_argument("--startup-timeout", type=float, default=300)
    parser.add_argument("--remove-on-exit", help="a folder to remove when the proxy has stopped")
    args = parser.parse_args()
    args.started = False
    try:
        return serve(args)
    finally:
        # A proxy that never answered leaves its log for the test's message (and for whoever looks).
        if args.remove_on_exit and args.started:
            shutil.rmtree(args.remove_on_exit, ignore_errors=True)


def serve(args):
    port = free_port()
    environment = dict(os.environ)
    environment.update({
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        # The backend is on 127.0.0.1: never through a proxy from the environment.
        "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
    })
    litellm = os.path.join(os.path.dirname(sys.executable), "litellm")
    with open(args.log, "ab") as log:
        proxy = subprocess.Popen(
            [litellm, "--config", args.config, "--host", "127.0.0.1", "--port", str(port), "--num_workers", "1"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=environment, start_new_session=True)

    stopping = threading.Event()

    def stop(*_):
        if stopping.is_set():
            return
        stopping.set()
        try:
            os.killpg(proxy.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            proxy.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proxy.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Thread(target=watch_stdin, daemon=True).start()

    deadline = time.monotonic() + args.startup_timeout
    while not stopping.is_set() and proxy.poll() is None:
        if healthy(port):
            temporary = args.ready + ".tmp"
            with open(temporary, "w") as ready:
                ready.write("%d\n" % port)
            os.rename(temporary, args.ready)
            args.started = True
            break
        if time.monotonic() > deadline:
            with open(args.log, "a") as log:
                log.write("litellm_proxy.py: the proxy did not answer within %.0f s\n" % args.startup_timeout)
            stop()
            return 1
        time.sleep(0.2)

    while proxy.poll() is None:
        time.sleep(0.2)
    stopped = stopping.is_set()
    stop()  # the rest of its process group
    return 0 if stopped else proxy.returncode


if __name__ == "__main__":
    sys.exit(main())
