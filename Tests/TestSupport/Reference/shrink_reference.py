"""Inputs and Pillow's thumbnail recipe for the shrink-on-load quality tests.

  shrink_reference.py encode PHOTO OUT_FOLDER
      writes PHOTO as JPEGs (quality 90: 4:2:0 and 4:4:4, each baseline and progressive) and
      as a lossy WebP (quality 90) into OUT_FOLDER, named j420.jpg, j444.jpg, j420p.jpg,
      j444p.jpg, photo.webp.
  shrink_reference.py draft FILE OUT W H [W H ...]
      for each size: FILE decoded with draft() to the power-of-two scale that keeps twice the
      size (JPEG only; other formats decode whole), then resized with LANCZOS to exactly W x H;
      the RGB bytes of every result written one after another to OUT.
"""
import sys

from PIL import Image


def encode(photo, folder):
    image = Image.open(photo).convert("RGB")
    for name, subsampling, progressive in [("j420", 2, False), ("j444", 0, False), ("j420p", 2, True), ("j444p", 0, True)]:
        image.save(f"{folder}/{name}.jpg", quality=90, subsampling=subsampling, progressive=progressive)
    image.save(f"{folder}/photo.webp", quality=90)


def draft(path, out, sizes):
    with open(out, "wb") as stream:
        for width, height in sizes:
            image = Image.open(path)
            image.draft("RGB", (width * 2, height * 2))
            stream.write(image.convert("RGB").resize((width, height), Image.LANCZOS).tobytes())


if __name__ == "__main__":
    if sys.argv[1] == "encode":
        encode(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "draft":
        numbers = [int(value) for value in sys.argv[4:]]
        draft(sys.argv[2], sys.argv[3], list(zip(numbers[0::2], numbers[1::2])))
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
