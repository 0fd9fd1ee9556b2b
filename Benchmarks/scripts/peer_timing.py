"""The timing loop the Python peers of the processing benchmarks share."""
import time


def best_of(rounds, body, seconds=0.2):
    """Seconds per call of `body`: each round calls it for about `seconds`; the best round counts."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        calls = 0
        while True:
            body()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        best = min(best, elapsed / calls)
    return best
