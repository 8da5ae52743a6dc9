#!/usr/bin/env python3
import json, sys, os, pathlib
here = pathlib.Path(__file__).resolve().parent.parent
header = (here / "references" / "header.txt").read_text().strip()
text = pathlib.Path(sys.argv[1]).read_text() if len(sys.argv) > 1 else sys.stdin.read()
words = text.split()
pathlib.Path("report.txt").write_text(header + "\n" + text)
pathlib.Path("summary.json").write_text(json.dumps({"words": len(words)}))
pathlib.Path("words.csv").write_text("\n".join(words))
print(f"{header}: {len(words)} words")
