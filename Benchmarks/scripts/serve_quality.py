"""How close each server's 512 px results are to the picture: PSNR (RGB, dB) of every result
against the same source decoded whole (no draft scale) and resized with Lanczos 3 to the result's
own size, by Pillow.

  serve_quality.py PHOTOS LABEL=FOLDER [LABEL=FOLDER ...]

Each FOLDER holds one lossless PNG per photo, named after it (photo01.png for photo01.jpg).
Prints one line per label: "LABEL mean MEAN min MIN", MEAN and MIN in dB.
"""
import os
import sys

from PIL import Image

from image_quality import psnr


def main():
    photos = sys.argv[1]
    references = {}
    for argument in sys.argv[2:]:
        label, folder = argument.split("=", 1)
        scores = []
        for name in sorted(os.listdir(folder)):
            stem = os.path.splitext(name)[0]
            result = Image.open(os.path.join(folder, name)).convert("RGB")
            key = (stem, result.size)
            if key not in references:
                with Image.open(os.path.join(photos, stem + ".jpg")) as source:
                    references[key] = source.convert("RGB").resize(result.size, Image.LANCZOS)
            scores.append(psnr(result, references[key]))
        print(f"{label} mean {sum(scores) / len(scores):.2f} min {min(scores):.2f}")


if __name__ == "__main__":
    main()
