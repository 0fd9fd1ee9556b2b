"""Times decoding and encoding in the formats of the format benchmark with the Python peers: Pillow
13 (TIFF through libtiff, JPEG 2000 through OpenJPEG, AVIF through libavif, ICNS), pillow-heif
(HEIC through libheif) and imagecodecs (JPEG XL through libjxl). Prints {"row": seconds}, best of
ROUNDS; a row whose library is missing is left out.
Usage: format_peers.py ROUNDS RAW WIDTH HEIGHT ICON ROW=KIND:ARGUMENT...
  decode-<type>:FILE   decode the file to pixels
  encode-<type>:SETTING  encode RAW (RGB bytes, WIDTH × HEIGHT; ICON, a 1024-pixel RGBA PNG, for icns)"""
import io
import json
import sys

from peer_timing import best_of

rounds, raw, width, height, icon = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rows = [arg.split("=", 1) for arg in sys.argv[6:]]

from PIL import Image

try:
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pillow_heif = None
try:
    import imagecodecs
except ImportError:
    imagecodecs = None

rgb = Image.frombytes("RGB", (width, height), open(raw, "rb").read())
icon_image = Image.open(icon)
icon_image.load()
results = {}


def pillow_decode(data):
    def body():
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    return body


def pillow_encode(image, form, **options):
    def body():
        image.save(io.BytesIO(), form, **options)
    return body


for name, spec in rows:
    kind, argument = spec.split(":", 1)
    body = None
    if kind.startswith("decode-"):
        data = open(argument, "rb").read()
        if kind == "decode-jxl":
            if imagecodecs is not None and imagecodecs.JPEGXL.available:
                def body(data=data):
                    imagecodecs.jpegxl_decode(data)
        elif kind == "decode-heic":
            if pillow_heif is not None:
                body = pillow_decode(data)
        else:
            body = pillow_decode(data)
    elif kind == "encode-tiff":
        body = pillow_encode(rgb, "TIFF", compression="tiff_lzw")
    elif kind == "encode-jp2-lossless":
        body = pillow_encode(rgb, "JPEG2000", irreversible=False)
    elif kind == "encode-jp2-lossy":
        body = pillow_encode(rgb, "JPEG2000", irreversible=True, quality_mode="dB", quality_layers=[float(argument)])
    elif kind == "encode-avif":
        body = pillow_encode(rgb, "AVIF", quality=int(argument), speed=6)
    elif kind == "encode-jxl":
        if imagecodecs is not None and imagecodecs.JPEGXL.available:
            import numpy
            array = numpy.asarray(rgb)

            def body():
                imagecodecs.jpegxl_encode(array, distance=float(argument), effort=7)
    elif kind == "encode-icns":
        body = pillow_encode(icon_image, "ICNS")
    if body is not None:
        results[name] = best_of(rounds, body)
print(json.dumps(results))
