"""Times Lanczos-3 resizes of raw RGB/RGBA files with Pillow (or Pillow-SIMD, whichever this
interpreter has) and pyvips, best of N, and prints one JSON object: {"row": seconds}.
Usage: resize_peers.py pillow|pyvips ROUNDS [--save PREFIX] ROW... where a row is
NAME:PATH:WIDTH:HEIGHT:BANDS:OUTWIDTH:OUTHEIGHT. With --save, each row's result is written raw
(the source's bands, straight colour) to PREFIX-NAME.raw, for image_quality.py."""
import json
import sys

from peer_timing import best_of


def main():
    library, rounds, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    save = None
    if rows[:1] == ["--save"]:
        save, rows = rows[1], rows[2:]
    results = {}
    for row in rows:
        name, path, width, height, bands, out_width, out_height = row.split(":")
        width, height, bands, out_width, out_height = map(int, (width, height, bands, out_width, out_height))
        data = open(path, "rb").read()
        if library == "pillow":
            from PIL import Image
            image = Image.frombytes("RGBA" if bands == 4 else "RGB", (width, height), data)
            image.load()
            body = lambda: image.resize((out_width, out_height), Image.LANCZOS)
            pixels = lambda: body().tobytes()
        else:
            import pyvips
            image = pyvips.Image.new_from_memory(data, width, height, bands, "uchar").copy_memory()
            scale, vscale = out_width / width, out_height / height
            # RGBA: premultiplied around the resize, as vips_thumbnail does and we do.
            if bands == 4:
                body = lambda: image.premultiply().resize(scale, vscale=vscale, kernel="lanczos3").unpremultiply().cast("uchar").write_to_memory()
            else:
                body = lambda: image.resize(scale, vscale=vscale, kernel="lanczos3").write_to_memory()
            pixels = body
            pyvips.cache_set_max(0)
        results[name] = best_of(rounds, body)
        if save:
            with open(f"{save}-{name}.raw", "wb") as file:
                file.write(pixels())
    print(json.dumps(results))


main()
