"""Scoring speed: the Python paths users have today and llenvs-go, side by side in one run.

    python scripts/bench_scoring.py [--tasks leg_counting,chain_sum] [--sizes 1024,16384] [--repeats 7]

For each task and response size it builds a GRPO-shaped batch (512 prompts x
16 samples = 8,192 responses: a third right, a third wrong, a third without
tags) and times, on the same inputs:

- ``llenvs path``: per response, reasoning-gym regenerates the entry, then
  ``extract_answer`` + ``score_answer`` (what llenvs does);
- ``best recipe``: entries generated once up front, then ``extract_answer`` +
  ``score_answer`` per response;
- ``score_batch``: ``Scorer.score_batch`` on a fresh environment (its entry
  cache cold, generation included) and warm (cache filled by a previous call);
- ``totals``: the reward-function fast path (floats only), warm.

Each is repeated; the table shows the median microseconds per response with
the min-max spread, and the speed-up of each llenvs-go row over the llenvs
path (ratio of medians). Also the cost of one ``Scorer.score`` call. The
machine is shared and noisy: compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from workload import make_responses


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    """Wall times of ``repeats`` calls of fn, in seconds."""
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(times: list[float], n: int) -> tuple[float, float, float]:
    """(median, min, max) in microseconds per item."""
    us = [t / n * 1e6 for t in times]
    return statistics.median(us), min(us), max(us)


def bench_task(task: str, size: int, repeats: int, prompts: int, samples: int, seed: int = 42) -> list[tuple]:
    import reasoning_gym
    from reasoning_gym.utils import extract_answer

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    ds = reasoning_gym.create_dataset(task, size=prompts, seed=seed)
    entries = [ds[i] for i in range(prompts)]
    indices, responses = make_responses([e["answer"] for e in entries], samples, size)
    n = len(responses)

    def llenvs_path() -> list[float]:
        out = []
        for i, r in zip(indices, responses, strict=False):
            entry = ds[i]
            ans = extract_answer(r)
            out.append(float(ds.score_answer(ans, entry)) if ans is not None else 0.0)
        return out

    def best_recipe() -> list[float]:
        out = []
        for i, r in zip(indices, responses, strict=False):
            ans = extract_answer(r)
            out.append(float(ds.score_answer(ans, entries[i])) if ans is not None else 0.0)
        return out

    def fresh_scorer() -> Scorer:
        return Scorer(environment_registry.get(name=task, size=prompts, seed=seed))

    warm = fresh_scorer()
    warm.score_batch(indices, responses)

    def cold_batch() -> None:
        s = fresh_scorer()
        t0 = time.perf_counter()
        s.score_batch(indices, responses)
        cold_times.append(time.perf_counter() - t0)

    # Same answers from every path: a benchmark of wrong results is worthless.
    want = best_recipe()
    got = warm.score_batch(indices, responses).totals
    if got != want:
        bad = sum(a != b for a, b in zip(got, want, strict=False))
        raise SystemExit(f"{task}: llenvs-go disagrees with reasoning-gym on {bad} of {n} responses")

    cold_times: list[float] = []
    rows = []
    base = timed(llenvs_path, max(3, repeats // 2))
    rows.append(("llenvs path (regenerate + extract + score)", summary(base, n)))
    rows.append(("best recipe (entries known)", summary(timed(best_recipe, repeats), n)))
    for _ in range(repeats):
        cold_batch()
    rows.append(("score_batch, fresh environment", summary(cold_times, n)))
    rows.append(("score_batch, warm", summary(timed(lambda: warm.score_batch(indices, responses), repeats), n)))
    rows.append(("totals (reward fn path), warm", summary(timed(lambda: warm.totals(indices, responses), repeats), n)))
    return rows


def bench_single(repeats: int) -> tuple[float, float, float]:
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    s = Scorer(environment_registry.get(name="leg_counting", size=1000, seed=42))
    s.score(3, "<answer>12</answer>")
    k = 20000
    times = timed(lambda: [s.score(i % 1000, "<answer>12</answer>") for i in range(k)], repeats)
    return summary(times, k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", default="leg_counting")
    ap.add_argument("--sizes", default="1024,16384")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--prompts", type=int, default=512)
    ap.add_argument("--samples", type=int, default=16)
    args = ap.parse_args()

    from llenvs_go import _native

    info = _native.call("info")
    print(f"llenvs-go scoring benchmark: {args.prompts} prompts x {args.samples} samples, "
          f"Go threads {info['max_procs']} of {info['num_cpu']} CPUs, JSON {info['json']}")
    for task in args.tasks.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            rows = bench_task(task, size, args.repeats, args.prompts, args.samples)
            print(f"\n{task}, responses of ~{size} bytes ({args.prompts * args.samples} per batch)")
            print(f"  {'path':44s} {'median us/resp':>14s} {'spread':>17s} {'speed-up':>9s}")
            base = rows[0][1][0]
            for name, (med, lo, hi) in rows:
                print(f"  {name:44s} {med:14.3f} {f'[{lo:.3f}-{hi:.3f}]':>17s} {base / med:8.1f}x")
    med, lo, hi = bench_single(max(3, args.repeats // 2))
    print(f"\none Scorer.score() call: median {med:.2f} us [{lo:.2f}-{hi:.2f}]")


if __name__ == "__main__":
    main()
