#!/usr/bin/env python3
"""BlurHash and ThumbHash references for the YYImage tests (the `blurhash` and `thumbhash`
packages from PyPI, which no one here wrote).

usage:
  placeholder_hashes.py blurhash IN.png X Y     prints the BlurHash of IN's RGB with X x Y components
  placeholder_hashes.py thumbhash IN.png        prints the ThumbHash of IN's RGBA, in hex
  placeholder_hashes.py thumbaverage HEX        prints the average RGBA a ThumbHash holds, 0...255, space-separated
"""
import sys

command = sys.argv[1]
if command == "blurhash":
    import blurhash
    from PIL import Image
    image = Image.open(sys.argv[2]).convert("RGB")
    rows = [[list(image.getpixel((x, y))) for x in range(image.width)] for y in range(image.height)]
    print(blurhash.encode(rows, components_x=int(sys.argv[3]), components_y=int(sys.argv[4])))
elif command == "thumbhash":
    import thumbhash
    from PIL import Image
    image = Image.open(sys.argv[2]).convert("RGBA")
    print(bytes(thumbhash.rgba_to_thumb_hash(image.width, image.height, list(image.tobytes()))).hex())
elif command == "thumbaverage":
    import thumbhash
    r, g, b, a = thumbhash.thumb_hash_to_average_rgba(list(bytes.fromhex(sys.argv[2])))
    print(" ".join(str(round(v * 255)) for v in (r, g, b, a)))
else:
    sys.exit("unknown command " + command)
