#!/usr/bin/env python3
"""Colour adjustment references for the YYImage tests (Pillow's ImageEnhance, which no one here wrote).

usage:
  pillow_enhance.py IN.png KIND FACTOR OUT.raw
      IN (as RGB) through ImageEnhance.KIND (Contrast or Color) with FACTOR; OUT gets the
      result's RGB bytes. Prints the mean grey level Contrast pivots on.
"""
import sys

from PIL import Image, ImageEnhance, ImageStat

image = Image.open(sys.argv[1]).convert("RGB")
kind, factor = sys.argv[2], float(sys.argv[3])
enhancer = {"Contrast": ImageEnhance.Contrast, "Color": ImageEnhance.Color}[kind](image)
open(sys.argv[4], "wb").write(enhancer.enhance(factor).tobytes())
print(int(ImageStat.Stat(image.convert("L")).mean[0] + 0.5))
