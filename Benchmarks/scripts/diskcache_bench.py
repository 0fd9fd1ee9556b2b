#!/usr/bin/env python3
"""python-diskcache on the same workloads as CacheBenchmarks' DiskBenchmark.

Writes {"small"|"large": {"set"|"get"|"miss": ops/s}, "mix": {"ops": ops/s}, "limit": {"set": ops/s}}
as JSON to the file given as the first argument (best of N repetitions, N = second argument,
default 3).
"""
import json
import os
import shutil
import sys
import tempfile
import time

import diskcache

MASK = (1 << 64) - 1


class SharedLCG:
    """The 64-bit LCG of CacheBenchmarks' Timing.swift, so both run the same operation sequence."""

    def __init__(self, state):
        self.state = state

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & MASK
        return self.state >> 33


def fresh_cache():
    folder = tempfile.mkdtemp(prefix="yybench-dc-")
    return folder, diskcache.Cache(folder)


def sized(count, size, repetitions):
    value = bytes((i * 7) & 0xFF for i in range(size))
    generator = SharedLCG(7)
    order = list(range(count))
    for i in range(count - 1, 0, -1):
        j = generator.next() % (i + 1)
        order[i], order[j] = order[j], order[i]
    keys = ["key-%d" % i for i in range(count)]
    misses = ["miss-%d" % i for i in range(count)]
    best = {"set": float("inf"), "get": float("inf"), "miss": float("inf")}
    for _ in range(repetitions):
        folder, cache = fresh_cache()
        try:
            # Flush the previous run's dirty pages first, as the Swift harness does.
            os.sync()
            start = time.perf_counter()
            for key in keys:
                cache.set(key, value)
            best["set"] = min(best["set"], time.perf_counter() - start)
            start = time.perf_counter()
            for i in order:
                assert cache.get(keys[i]) is not None
            best["get"] = min(best["get"], time.perf_counter() - start)
            start = time.perf_counter()
            for key in misses:
                assert cache.get(key) is None
            best["miss"] = min(best["miss"], time.perf_counter() - start)
        finally:
            cache.close()
            shutil.rmtree(folder, ignore_errors=True)
    return {op: count / seconds for op, seconds in best.items()}


def mix(repetitions):
    value = b"a" * 100
    keys = ["key-%d" % i for i in range(1000)]
    best = float("inf")
    for _ in range(repetitions):
        folder, cache = fresh_cache()
        try:
            for key in keys:
                cache.set(key, value)
            os.sync()
            generator = SharedLCG(99)
            start = time.perf_counter()
            for _ in range(100_000):
                roll = generator.next() % 111
                key = keys[generator.next() % 1000]
                if roll < 100:
                    cache.get(key)
                elif roll < 110:
                    cache.set(key, value)
                else:
                    cache.delete(key)
            best = min(best, time.perf_counter() - start)
        finally:
            cache.close()
            shutil.rmtree(folder, ignore_errors=True)
    return 100_000 / best


def at_cost_limit(repetitions):
    """1,000 writes of 10 KB into a cache filled with 20,000 to its size_limit (diskcache culls
    inside set when its volume is over the limit)."""
    value = bytes((i * 7) & 0xFF for i in range(10_000))
    limit = 20_000 * 10_000
    best = float("inf")
    for _ in range(repetitions):
        folder = tempfile.mkdtemp(prefix="yybench-dc-")
        cache = diskcache.Cache(folder, size_limit=limit)
        try:
            for i in range(20_000):
                cache.set("fill-%d" % i, value)
            os.sync()
            start = time.perf_counter()
            for i in range(1_000):
                cache.set("new-%d" % i, value)
            best = min(best, time.perf_counter() - start)
        finally:
            cache.close()
            shutil.rmtree(folder, ignore_errors=True)
    return 1_000 / best


def main():
    output = sys.argv[1]
    repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    results = {
        "small": sized(10_000, 100, repetitions),
        "large": sized(1_000, 100_000, repetitions),
        "mix": {"ops": mix(repetitions)},
        "limit": {"set": at_cost_limit(repetitions)},
    }
    with open(output, "w") as handle:
        json.dump(results, handle, indent=1)
    print("python-diskcache %s: %s" % (diskcache.__version__, json.dumps(results)), file=sys.stderr)


if __name__ == "__main__":
    main()
