#!/usr/bin/env python3
"""Alpha compositing reference for the watermark tests (Pillow's alpha_composite, which no one here wrote).

usage:
  pillow_composite.py BASE.png MARK.png OPACITY X Y TILED OUT.raw
      MARK's alpha times OPACITY (rounded), drawn over BASE with its top-left corner at X, Y
      (TILED 1: repeated edge to edge from there over the whole of BASE) by Image.alpha_composite;
      OUT gets the result's straight RGBA bytes.
"""
import sys

from PIL import Image

base = Image.open(sys.argv[1]).convert("RGBA")
mark = Image.open(sys.argv[2]).convert("RGBA")
opacity = float(sys.argv[3])
x, y, tiled = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1"
alpha = mark.getchannel("A").point(lambda a: int(round(a * opacity)))
mark.putalpha(alpha)
layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
origins_x, origins_y = [x], [y]
if tiled:
    first_x = x % mark.width - (mark.width if x % mark.width else 0)
    first_y = y % mark.height - (mark.height if y % mark.height else 0)
    origins_x = range(first_x, base.width, mark.width)
    origins_y = range(first_y, base.height, mark.height)
for oy in origins_y:
    for ox in origins_x:
        layer.paste(mark, (ox, oy))
open(sys.argv[7], "wb").write(Image.alpha_composite(base, layer).tobytes())
