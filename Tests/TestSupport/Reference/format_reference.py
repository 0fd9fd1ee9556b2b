#!/usr/bin/env python3
"""Reference files and pixels for the YYImage format tests, with Pillow (which no one here wrote).

usage:
  format_reference.py tiffs SOURCE.png OUTDIR
      Writes SOURCE as TIFFs of every colour type Pillow writes (1-bit, 8- and 16-bit gray,
      palette, RGB, RGBA with unassociated and with associated alpha, CMYK), uncompressed, named
      <kind>.tif; the tests vary compression and layout from them with libtiff's tiffcp. The
      8- and 16-bit grays also as gray8.pgm and gray16.pgm.
  format_reference.py raw IMAGE OUT
      Writes IMAGE's first frame to OUT as u32 width, u32 height, u32 premultiplied (1 when the
      pixels are Pillow's associated-alpha "RGBa", as tiff2rgba writes them), then RGBA bytes
      (little-endian).
"""
import struct
import subprocess
import sys

from PIL import Image


def tiffs(source, outdir):
    rgba = Image.open(source).convert("RGBA")
    rgb = rgba.convert("RGB")
    rgb.convert("1").save(f"{outdir}/gray1.tif")
    rgb.convert("L").save(f"{outdir}/gray8.tif")
    # 16-bit gray whose low byte varies, so that rounding to 8 bits is tested.
    samples = b"".join(struct.pack("<H", min(65535, v * 257 + (i % 200))) for i, v in enumerate(rgb.convert("L").tobytes()))
    Image.frombytes("I;16", rgb.size, samples).save(f"{outdir}/gray16.tif")
    # The same grays as PGM, which OpenJPEG's opj_compress reads (it refuses Pillow's TIFFs).
    Image.frombytes("I;16", rgb.size, samples).save(f"{outdir}/gray16.pgm")
    rgb.convert("L").save(f"{outdir}/gray8.pgm")
    rgb.quantize(colors=200).save(f"{outdir}/palette.tif")
    rgb.save(f"{outdir}/rgb.tif")
    rgba.save(f"{outdir}/rgba.tif")
    # Pillow writes no associated alpha: premultiplied samples, then libtiff's tiffset marks them.
    Image.frombytes("RGBA", rgba.size, rgba.convert("RGBa").tobytes()).save(f"{outdir}/rgba-associated.tif")
    subprocess.run(["tiffset", "-s", "338", "1", "1", f"{outdir}/rgba-associated.tif"], check=True)
    rgb.convert("CMYK").save(f"{outdir}/cmyk.tif")


def raw(path, out):
    image = Image.open(path)
    premultiplied = image.mode == "RGBa"
    frame = image if premultiplied else image.convert("RGBA")
    with open(out, "wb") as f:
        f.write(struct.pack("<III", frame.size[0], frame.size[1], 1 if premultiplied else 0))
        f.write(frame.tobytes())


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "tiffs":
        tiffs(sys.argv[2], sys.argv[3])
    elif command == "raw":
        raw(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown command {command}")
