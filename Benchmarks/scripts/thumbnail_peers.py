"""Times a thumbnail end to end — JPEG file in, 400 px wide JPEG (quality 90) or WebP (quality
80) bytes out — with Pillow (or Pillow-SIMD: whichever this interpreter has; `draft` then
`thumbnail`, as Pillow's docs advise) or pyvips (`thumbnail`, which shrinks on load). Prints
{"jpeg": seconds, "webp": seconds}, best of ROUNDS. With --save, the thumbnails are written to
PREFIX-jpeg.jpg and PREFIX-webp.webp, for image_quality.py.
Usage: thumbnail_peers.py pillow|pyvips ROUNDS FILE WIDTH [--save PREFIX]"""
import io
import json
import sys

from peer_timing import best_of


library, rounds, path, width = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
save = sys.argv[6] if sys.argv[5:6] == ["--save"] else None
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
                return out.getvalue()
    else:
        import pyvips
        pyvips.cache_set_max(0)

        def body():
            image = pyvips.Image.thumbnail(path, width)
            return image.jpegsave_buffer(Q=90) if kind == "jpeg" else image.webpsave_buffer(Q=80)
    results[kind] = best_of(rounds, body, seconds=0.5)
    if save:
        with open(f"{save}-{kind}.{'jpg' if kind == 'jpeg' else 'webp'}", "wb") as file:
            file.write(body())
print(json.dumps(results))
