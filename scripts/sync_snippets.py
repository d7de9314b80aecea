#!/usr/bin/env python3
"""Refresh doc snippets: a line `<!-- snippet: examples/f.cpp#name -->` in a
markdown file is followed by a ```cpp block, replaced here by the region
between `// [doc:name]` and `// [/doc]` of that file (`#all`: the whole file).
tests/docs/snippets.cpp checks that every block is in examples/ verbatim but
for indentation."""
import pathlib
import re
import sys
import textwrap

root = pathlib.Path(__file__).resolve().parent.parent
marker = re.compile(r"<!-- snippet: (\S+?)#(\S+) -->")


def region(path, name):
    text = (root / path).read_text()
    if name == "all":
        return text
    m = re.search(r"// \[doc:%s\]\n(.*?)^[ \t]*// \[/doc\]\n" % re.escape(name), text, re.S | re.M)
    if not m:
        sys.exit(f"no region {name} in {path}")
    return textwrap.dedent(m.group(1))  # regions inside a function lose its indentation


for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
    lines = doc.read_text().split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = marker.search(lines[i])
        if m and i + 1 < len(lines) and lines[i + 1] == "```cpp":
            out.append("```cpp")
            out.extend(region(m.group(1), m.group(2)).rstrip("\n").split("\n"))
            j = i + 2
            while not lines[j].startswith("```"):
                j += 1
            out.append("```")
            i = j + 1
            continue
        i += 1
    doc.write_text("\n".join(out))
