#!/usr/bin/env python3
"""Reference decoder for the YYImage tests: Pillow, which no one here wrote.

usage: pillow_frames.py IMAGE OUT
Writes every frame, composited onto the canvas and converted to straight RGBA, to OUT as
  u32 frame count, u32 width, u32 height, then per frame: u32 width, u32 height, RGBA bytes
(little-endian), and prints {"format", "frames", "loop", "durations"} as JSON on stdout.
"""
import json
import struct
import sys

from PIL import Image

path, out = sys.argv[1], sys.argv[2]
image = Image.open(path)
count = getattr(image, "n_frames", 1)
durations = []
with open(out, "wb") as f:
    f.write(struct.pack("<III", count, image.size[0], image.size[1]))
    for index in range(count):
        image.seek(index)
        frame = image.convert("RGBA")
        durations.append(image.info.get("duration"))
        f.write(struct.pack("<II", frame.size[0], frame.size[1]))
        f.write(frame.tobytes())
print(json.dumps({"format": image.format, "frames": count, "loop": image.info.get("loop"), "durations": durations}))
