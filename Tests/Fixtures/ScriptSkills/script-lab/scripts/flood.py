#!/usr/bin/env python3
import sys
chunk = "x" * 65535 + "\n"
for _ in range(1600):  # 100 MiB
    sys.stdout.write(chunk)
print("flood done", file=sys.stderr)
