"""What the peer scripts share: one line per check ("ok: ..."), exit 1 at the first failed one ("FAILED: ..."),
and the text of a tool result."""

import sys
from typing import Any


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)
