#!/usr/bin/env python3
"""Lanczos-3 resizes by the peers, for the YYImage resampling tests.

usage: resize_reference.py pillow|pyvips IN.raw WIDTH HEIGHT OUTWIDTH OUTHEIGHT OUT.raw
IN holds WIDTH x HEIGHT RGB bytes (the test's own decoding, so every contender resizes the same
samples). Writes the RGB bytes resized to OUTWIDTH x OUTHEIGHT: Pillow's resize(LANCZOS) (no
reducing gap), or libvips' resize with kernel lanczos3 and gap 0 (no box pre-shrink). Exits 3
when the library is not installed.
"""
import sys

library, path = sys.argv[1], sys.argv[2]
width, height, out_width, out_height = map(int, sys.argv[3:7])
out = sys.argv[7]
data = open(path, "rb").read()
if library == "pillow":
    from PIL import Image
    image = Image.frombytes("RGB", (width, height), data)
    open(out, "wb").write(image.resize((out_width, out_height), Image.LANCZOS).tobytes())
else:
    try:
        import pyvips
    except Exception:
        sys.exit(3)
    image = pyvips.Image.new_from_memory(data, width, height, 3, "uchar")
    resized = image.resize(out_width / width, vscale=out_height / height, kernel="lanczos3", gap=0)
    if (resized.width, resized.height) != (out_width, out_height):
        sys.exit("libvips made %dx%d" % (resized.width, resized.height))
    open(out, "wb").write(resized.cast("uchar").write_to_memory())
