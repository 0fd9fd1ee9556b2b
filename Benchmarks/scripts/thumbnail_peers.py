"""Times a thumbnail end to end — JPEG file in, 400 px wide JPEG (quality 90) or WebP (quality
80) bytes out — with Pillow (or Pillow-SIMD: whichever this interpreter has; `draft` then
`thumbnail`, as Pillow's docs advise) or pyvips (`thumbnail`, which shrinks on load). Prints
{"jpeg": seconds, "webp": seconds}, best of ROUNDS.
Usage: thumbnail_peers.py pillow|pyvips ROUNDS FILE WIDTH"""
import io
import json
import sys

from peer_timing import best_of


library, rounds, path, width = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
results = {}
for kind in ("jpeg", "webp"):
    if library == "pillow":
        from PIL import Image

        def body():
            with Image.open(path) as image:
                image.draft("RGB", (width * 2, width * 2))
                image.thumbnail((width, width * 10), Image.LANCZOS)
                out = io.BytesIO()
                image.save(out, "JPEG" if kind == "jpeg" else "WEBP", quality=90 if kind == "jpeg" else 80)
    else:
        import pyvips
        pyvips.cache_set_max(0)

        def body():
            image = pyvips.Image.thumbnail(path, width)
            image.jpegsave_buffer(Q=90) if kind == "jpeg" else image.webpsave_buffer(Q=80)
    results[kind] = best_of(rounds, body, seconds=0.5)
print(json.dumps(results))
