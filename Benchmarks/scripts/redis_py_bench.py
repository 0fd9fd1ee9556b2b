"""The redis-py peer of the Redis benchmarks (with its hiredis parser): SET and GET of one value
size, by 1 caller (the blocking client) or by N concurrent callers (redis.asyncio, one task per
caller, sharing a connection pool as an application would).

    python redis_py_bench.py PORT SIZE CONCURRENCY OPERATIONS ROUNDS

Prints one JSON object: {"set": ops_per_second, "get": ops_per_second, "hiredis": bool}, the best
round of each.
"""
import asyncio
import json
import sys
import time

import redis
import redis.asyncio
from redis.utils import HIREDIS_AVAILABLE

KEYS = 1000


def blocking(port, value, operations):
    client = redis.Redis(port=port)
    keys = [f"bench:{i % KEYS}" for i in range(operations)]
    started = time.perf_counter()
    for key in keys:
        client.set(key, value)
    set_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for key in keys:
        client.get(key)
    get_seconds = time.perf_counter() - started
    client.close()
    return operations / set_seconds, operations / get_seconds


async def concurrent(port, value, operations, concurrency):
    client = redis.asyncio.Redis(port=port, max_connections=concurrency)
    share = operations // concurrency

    async def worker(index, command):
        for i in range(share):
            key = f"bench:{(index * share + i) % KEYS}"
            if command == "set":
                await client.set(key, value)
            else:
                await client.get(key)

    rates = []
    for command in ("set", "get"):
        started = time.perf_counter()
        await asyncio.gather(*(worker(index, command) for index in range(concurrency)))
        rates.append(share * concurrency / (time.perf_counter() - started))
    await client.aclose()
    return tuple(rates)


def main():
    port, size, concurrency, operations, rounds = (int(argument) for argument in sys.argv[1:6])
    value = b"x" * size
    best_set, best_get = 0.0, 0.0
    for _ in range(rounds):
        if concurrency == 1:
            set_rate, get_rate = blocking(port, value, operations)
        else:
            set_rate, get_rate = asyncio.run(concurrent(port, value, operations, concurrency))
        best_set, best_get = max(best_set, set_rate), max(best_get, get_rate)
    print(json.dumps({"set": best_set, "get": best_get, "hiredis": HIREDIS_AVAILABLE}))


if __name__ == "__main__":
    main()
