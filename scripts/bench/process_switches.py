"""Context switches of a process so far, summed over its threads, for the sequential MCP bench clients."""

import os


def switches(pid: int) -> int:
    """Voluntary and involuntary context switches of process `pid`, all its threads (0 without /proc): each
    is a thread that slept or was preempted, a figure the machine's load moves little."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/status") as status:
                    for line in status:
                        if "ctxt_switches:" in line:
                            total += int(line.split()[-1])
            except OSError:
                pass
    except OSError:
        return 0
    return total
