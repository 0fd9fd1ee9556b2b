#!/usr/bin/env python3
"""Colour-management references for the YYImage tests (Pillow and Little CMS, which no one here wrote).

usage:
  pillow_colour.py tiff IN OUT.tif           IN (any image with an ICC profile) as an uncompressed RGB TIFF with that profile
  pillow_colour.py rgb IN OUT.raw            IN's pixels as RGB bytes
  pillow_colour.py cmyk-jpeg PROFILE OUT.jpg a 64x48 CMYK test pattern as a JPEG (quality 95) carrying PROFILE
  pillow_colour.py cms IN.jpg OUT.raw        IN converted from its embedded profile to sRGB by ImageCms (perceptual), RGB bytes
"""
import io
import sys

from PIL import Image, ImageCms

command = sys.argv[1]
if command == "tiff":
    image = Image.open(sys.argv[2])
    image.convert("RGB").save(sys.argv[3], icc_profile=image.info["icc_profile"])
elif command == "rgb":
    open(sys.argv[3], "wb").write(Image.open(sys.argv[2]).convert("RGB").tobytes())
elif command == "cmyk-jpeg":
    profile = open(sys.argv[2], "rb").read()
    image = Image.new("CMYK", (64, 48))
    image.putdata([((x * 4) % 256, (y * 5) % 256, ((x + y) * 3) % 256, (x * y) % 200) for y in range(48) for x in range(64)])
    image.save(sys.argv[3], quality=95, icc_profile=profile)
elif command == "cms":
    image = Image.open(sys.argv[2])
    source = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
    converted = ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"), outputMode="RGB")
    open(sys.argv[3], "wb").write(converted.tobytes())
else:
    sys.exit("unknown command " + command)
