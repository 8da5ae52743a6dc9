#!/usr/bin/env python3
"""Makes plugin packages (.skillpkg) the way a publisher's own tooling could, with Python's zipfile and
hashlib and the real minisign, for PluginPackageTests: good ones, and each kind of bad one.

Reads a JSON spec on stdin:
  {"out": PATH,
   "entries": [{"path": "plugin/x86_64/x.so", "file": SOURCE} | {"path": ..., "text": "..."}],
   "index": {"plugin": "x", "version": "1.0.0"},       write package.json listing every entry (omit: none)
   "index_extra": {"path": {"sha256": ..., "size": ...}},   members added to package.json's files
   "sign": SECRET_KEY,                                  sign package.json with `minisign -S -s KEY`
   "signature_from": PATH,                              or use this .minisig (a signature of other bytes)
   "claim": {"path": P, "size": N}}                     write P as a stored entry whose headers claim N bytes
Entries are deflated (zipfile's ZIP_DEFLATED), so SkillHost's inflater reads what zlib wrote.
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib


def main():
    spec = json.load(sys.stdin)
    entries = []
    for entry in spec.get("entries", []):
        if "file" in entry:
            with open(entry["file"], "rb") as handle:
                data = handle.read()
        else:
            data = entry["text"].encode()
        entries.append((entry["path"], data))
    extra = []
    if "index" in spec:
        files = {path: {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()} for path, data in entries}
        files.update(spec.get("index_extra", {}))
        index = dict(format=1, abi_version="1.0", files=files, **spec["index"])
        index_bytes = (json.dumps(index, indent=2, sort_keys=True) + "\n").encode()
        extra.append(("package.json", index_bytes))
        if "sign" in spec:
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "package.json")
                with open(path, "wb") as handle:
                    handle.write(index_bytes)
                subprocess.run(["minisign", "-S", "-s", spec["sign"], "-m", path], check=True, capture_output=True)
                with open(path + ".minisig", "rb") as handle:
                    extra.append(("package.json.minisig", handle.read()))
        elif "signature_from" in spec:
            with open(spec["signature_from"], "rb") as handle:
                extra.append(("package.json.minisig", handle.read()))
    with zipfile.ZipFile(spec["out"], "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data in extra + entries:
            archive.writestr(path, data)
    if "claim" in spec:
        append_lying_entry(spec["out"], spec["claim"]["path"], spec["claim"]["size"])


def append_lying_entry(out, name, claimed):
    """Rewrites the archive with one more stored entry whose headers claim `claimed` bytes (a 2 GB entry
    without 2 GB on disk): a reader that trusted the headers would try to unpack that much."""
    with zipfile.ZipFile(out) as archive:
        kept = [(info.filename, archive.read(info.filename)) for info in archive.infolist()]
    body = b""
    directory = b""
    for path, data in kept + [(name, b"tiny")]:
        raw = path.encode()
        size = claimed if path == name else len(data)
        crc = zlib.crc32(data) & 0xFFFFFFFF
        offset = len(body)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, size if path == name else len(data), size, len(raw), 0) + raw + data
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, 20, 0, 0, 0, 0x21, crc,
                                 size if path == name else len(data), size, len(raw), 0, 0, 0, 0, 0o100644 << 16, offset) + raw
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(kept) + 1, len(kept) + 1, len(directory), len(body), 0)
    with open(out, "wb") as handle:
        handle.write(body + directory + end)


if __name__ == "__main__":
    main()
