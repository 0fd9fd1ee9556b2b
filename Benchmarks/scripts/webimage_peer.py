"""What a user would otherwise write for YYWebImage's benchmark (b): asyncio + aiohttp downloads,
Pillow decodes, the same URL list and the same concurrency as the pipeline.

    python webimage_peer.py URL_LIST_FILE CONCURRENCY

Prints one JSON object: seconds, images, bytes, failures.
"""
import asyncio
import io
import json
import sys
import time

import aiohttp
from PIL import Image


async def fetch_and_decode(session, semaphore, url, totals):
    async with semaphore:
        try:
            async with session.get(url, headers={"Accept-Encoding": "identity"}) as response:
                response.raise_for_status()
                body = await response.read()
            image = Image.open(io.BytesIO(body))
            image.load()  # decode the first frame, as the pipeline does
            totals["images"] += 1
            totals["bytes"] += len(body)
        except Exception:  # a failure is counted, not fatal
            totals["failures"] += 1


async def main(urls, concurrency):
    totals = {"images": 0, "bytes": 0, "failures": 0}
    semaphore = asyncio.Semaphore(concurrency)
    connector = aiohttp.TCPConnector(limit_per_host=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        started = time.perf_counter()
        await asyncio.gather(*(fetch_and_decode(session, semaphore, url, totals) for url in urls))
        totals["seconds"] = time.perf_counter() - started
    return totals


if __name__ == "__main__":
    with open(sys.argv[1]) as listing:
        urls = [line.strip() for line in listing if line.strip()]
    print(json.dumps(asyncio.run(main(urls, int(sys.argv[2])))))
