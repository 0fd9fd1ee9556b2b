"""How close a benchmark's pictures lie to their reference: PSNR over the red, green and blue
channels (straight colour), in dB, capped at 100 (identical pictures). Pillow computes the sums
of squares (ImageChops and ImageStat run in C), so megapixel pictures take milliseconds.

  image_quality.py resize DIR REFERENCE ROW...
      Raw results of the resize benchmark, DIR/LABEL-NAME.raw, each against DIR/REFERENCE-NAME.raw;
      a ROW is NAME:WIDTH:HEIGHT:BANDS. Prints {"LABEL/NAME": dB} for every other label found.
  image_quality.py thumbnail SOURCE FILE...
      Thumbnails (JPEG or WebP files) of the JPEG file SOURCE, each against SOURCE decoded whole
      (no draft scale) and resized with Lanczos 3 to the thumbnail's own size. Prints
      {"FILE's name without extension": dB}.
"""
import json
import math
import os
import sys

from PIL import Image, ImageChops, ImageStat

CAP = 100.0


def psnr(a, b):
    """PSNR in dB of the RGB channels of two images of one size (infinite when they are equal)."""
    a, b = a.convert("RGB"), b.convert("RGB")
    if a.size != b.size:
        raise ValueError(f"PSNR of {a.size} against {b.size}")
    squares = sum(ImageStat.Stat(ImageChops.difference(a, b)).sum2)
    return math.inf if squares == 0 else 10 * math.log10(255 * 255 * a.width * a.height * 3 / squares)


def capped(value):
    return min(value, CAP)


def resize(folder, reference, rows):
    results = {}
    for row in rows:
        name, width, height, bands = row.split(":")
        width, height, bands = int(width), int(height), int(bands)
        mode = "RGBA" if bands == 4 else "RGB"

        def load(label):
            with open(os.path.join(folder, f"{label}-{name}.raw"), "rb") as file:
                data = file.read()
            # A result of another size (a peer that rounds the scale otherwise) is not compared.
            return Image.frombytes(mode, (width, height), data) if len(data) == width * height * bands else None

        expected = load(reference)
        suffix = f"-{name}.raw"
        for file in sorted(os.listdir(folder)):
            label = file[: -len(suffix)] if file.endswith(suffix) else None
            result = load(label) if label and label != reference else None
            if result is not None and expected is not None:
                results[f"{label}/{name}"] = capped(psnr(result, expected))
    return results


def thumbnail(source, files):
    with Image.open(source) as image:
        whole = image.convert("RGB")
    results = {}
    for file in files:
        with Image.open(file) as image:
            result = image.convert("RGB")
        expected = whole.resize(result.size, Image.LANCZOS)
        results[os.path.splitext(os.path.basename(file))[0]] = capped(psnr(result, expected))
    return results


def main():
    command = sys.argv[1]
    if command == "resize":
        print(json.dumps(resize(sys.argv[2], sys.argv[3], sys.argv[4:])))
    elif command == "thumbnail":
        print(json.dumps(thumbnail(sys.argv[2], sys.argv[3:])))
    else:
        sys.exit(f"image_quality.py: resize or thumbnail, not {command}")


if __name__ == "__main__":
    main()
