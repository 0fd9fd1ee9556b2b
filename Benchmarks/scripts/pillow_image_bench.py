#!/usr/bin/env python3
"""Pillow contenders for Benchmarks/ImageBenchmarks (same files, same machine, same run).

Reads a JSON list of tasks on stdin: {"name", "kind", "path"}; kinds: decode (frame 0 to RGBA),
loop (every frame, composited, to RGBA), encode-webp (q80), encode-webp-anim (q80, all frames),
encode-gif (all frames), encode-png. Prints {name: {"seconds": best seconds per call, "size": bytes}}.
Each task runs for about 0.2 s per round; the best of ROUNDS rounds counts.
"""
import io
import json
import sys
import time

from PIL import Image

rounds = int(sys.argv[1])


def frames_of(path):
    image = Image.open(path)
    out = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        out.append(image.convert("RGBA"))
    return out


def task_body(task):
    kind, path = task["kind"], task["path"]
    data = open(path, "rb").read()
    if kind == "decode":
        return lambda: Image.open(io.BytesIO(data)).convert("RGBA").size and 0
    if kind == "loop":
        def loop():
            image = Image.open(io.BytesIO(data))
            for index in range(getattr(image, "n_frames", 1)):
                image.seek(index)
                image.convert("RGBA")
            return 0
        return loop
    frames = frames_of(path)
    def save(**options):
        buffer = io.BytesIO()
        frames[0].save(buffer, **options)
        return buffer.tell()
    if kind == "encode-webp":
        return lambda: save(format="WEBP", quality=80)
    if kind == "encode-webp-anim":
        return lambda: save(format="WEBP", quality=80, save_all=True, append_images=frames[1:], duration=70, loop=0)
    if kind == "encode-gif":
        return lambda: save(format="GIF", save_all=True, append_images=frames[1:], duration=70, loop=0)
    if kind == "encode-png":
        return lambda: save(format="PNG")
    if kind == "encode-jpeg":
        rgb = frames[0].convert("RGB")

        def save_jpeg():
            buffer = io.BytesIO()
            rgb.save(buffer, format="JPEG", quality=90)
            return buffer.tell()
        return save_jpeg
    raise SystemExit("unknown kind " + kind)


results = {}
for task in json.load(sys.stdin):
    body = task_body(task)
    best, size = float("inf"), 0
    for _ in range(rounds):
        calls, start = 0, time.perf_counter()
        while True:
            size = body() or size
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= 0.2:
                break
        best = min(best, elapsed / calls)
    results[task["name"]] = {"seconds": best, "size": size}
print(json.dumps(results))
