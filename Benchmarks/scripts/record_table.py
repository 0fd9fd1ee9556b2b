"""Puts a results table into Benchmarks/README.md between its markers, adding the section when the
README has none yet.
Usage: record_table.py TABLE README MARKER TITLE   (markers: <!-- MARKER:start --> … <!-- MARKER:end -->)"""
import sys

table, readme, marker, title = sys.argv[1:5]
start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
text = open(readme).read()
body = open(table).read().strip()
if start not in text:
    text += f"\n## {title}\n\n{start}\n{end}\n"
before, rest = text.split(start, 1)
_, after = rest.split(end, 1)
open(readme, "w").write(before + start + "\n" + body + "\n" + end + after)
