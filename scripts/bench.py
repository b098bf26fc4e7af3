"""Speed of llenvs-go against the Python paths users have today, side by side in one run.

    python scripts/bench.py                         # leg_counting, 1 KB and 16 KB responses
    python scripts/bench.py --tasks all --sizes 1024 # every native task

Scoring, per task and response size, on one GRPO-shaped batch (512 prompts x
16 samples = 8,192 responses: a third right, a third wrong, a third without
tags), times on the same inputs:

- ``llenvs path``: per response, reasoning-gym regenerates the entry, then
  ``extract_answer`` + ``score_answer`` (what llenvs does);
- ``best recipe``: entries generated once up front, then ``extract_answer`` +
  ``score_answer`` per response;
- ``score_batch``: ``Scorer.score_batch`` on a fresh environment (entry cache
  cold, generation included) and on a warm one;
- ``totals``: the reward-function path (floats only), warm.

Generation, per task: reasoning-gym's own ``[ds[i] for i in range(N)]``
against ``DatasetProvider.get_items(range(N))`` on a fresh environment
(N = 10,000), every item built.

Each measurement is repeated; tables show the median microseconds per item,
the min-max spread and the speed-up (ratio of medians) over the baseline. For
slow reasoning-gym tasks the baseline runs on a prefix of the batch, sized to
a time budget, and is reported per item. Every llenvs-go result is checked
against reasoning-gym before it is timed. The machine is shared and noisy:
compare ratios, not absolute times.
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


def prefix_for_budget(per_item: float, n: int, budget: float) -> int:
    """How many of n items fit in ``budget`` seconds at ``per_item`` seconds each (at least 64)."""
    return max(64, min(n, int(budget / max(per_item, 1e-9))))


def print_rows(title: str, rows: list[tuple[str, tuple[float, float, float]]]) -> None:
    print(f"\n{title}")
    print(f"  {'path':44s} {'median us/item':>14s} {'spread':>21s} {'speed-up':>9s}")
    base = rows[0][1][0]
    for name, (med, lo, hi) in rows:
        print(f"  {name:44s} {med:14.3f} {f'[{lo:.3f}-{hi:.3f}]':>21s} {base / med:8.1f}x")


def bench_scoring(task: str, size: int, repeats: int, prompts: int, samples: int, budget: float,
                  seed: int = 42) -> list[tuple]:
    import reasoning_gym
    from reasoning_gym.utils import extract_answer

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    ds = reasoning_gym.create_dataset(task, size=prompts, seed=seed)
    entries = [ds[i] for i in range(prompts)]
    indices, responses = make_responses([e["answer"] for e in entries], samples, size)
    n = len(responses)

    def reference(k: int) -> list[float]:
        out = []
        for i, r in zip(indices[:k], responses[:k], strict=True):
            ans = extract_answer(r)
            out.append(float(ds.score_answer(ans, entries[i])) if ans is not None else 0.0)
        return out

    def llenvs_path(k: int) -> None:
        for i, r in zip(indices[:k], responses[:k], strict=True):
            entry = ds[i]
            ans = extract_answer(r)
            if ans is not None:
                ds.score_answer(ans, entry)

    def fresh_scorer() -> Scorer:
        return Scorer(environment_registry.get(name=task, size=prompts, seed=seed))

    warm = fresh_scorer()
    got = warm.score_batch(indices, responses).totals
    t0 = time.perf_counter()
    want = reference(n)
    best_one = (time.perf_counter() - t0) / n
    if got != want:
        bad = sum(a != b for a, b in zip(got, want, strict=True))
        raise SystemExit(f"{task}: llenvs-go disagrees with reasoning-gym on {bad} of {n} responses")

    t0 = time.perf_counter()
    llenvs_path(32)
    k = prefix_for_budget((time.perf_counter() - t0) / 32, n, budget)
    kb = prefix_for_budget(best_one, n, budget)
    cold: list[float] = []
    for _ in range(repeats):
        s = fresh_scorer()
        t0 = time.perf_counter()
        s.score_batch(indices, responses)
        cold.append(time.perf_counter() - t0)
    return [
        (f"llenvs path (regenerate+extract+score){'' if k == n else f', {k} items'}",
         summary(timed(lambda: llenvs_path(k), max(3, repeats // 2)), k)),
        (f"best recipe (entries known){'' if kb == n else f', {kb} items'}",
         summary(timed(lambda: reference(kb), max(3, repeats // 2)), kb)),
        ("score_batch, fresh environment", summary(cold, n)),
        ("score_batch, warm", summary(timed(lambda: warm.score_batch(indices, responses), repeats), n)),
        ("totals (reward-function path), warm", summary(timed(lambda: warm.totals(indices, responses), repeats), n)),
    ]


def bench_generation(task: str, n: int, repeats: int, budget: float, seed: int = 42) -> list[tuple]:
    import json

    import reasoning_gym

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider

    ds = reasoning_gym.create_dataset(task, size=n, seed=seed)
    provider = DatasetProvider(environment_registry.get(name=task, size=n, seed=seed))
    t0 = time.perf_counter()
    check = [ds[i] for i in range(32)]
    k = prefix_for_budget((time.perf_counter() - t0) / 32, n, budget)
    items = provider.get_items(range(32))
    for it, e in zip(items, check, strict=True):
        if (it.prompt, it.ground_truth) != (e["question"], e["answer"]):
            raise SystemExit(f"{task}: item {it.task_index} differs from reasoning-gym: {json.dumps(e)[:200]}")

    def ours() -> None:
        fresh = DatasetProvider(environment_registry.get(name=task, size=n, seed=seed))
        for item in fresh.get_items(range(n)):
            _ = item.prompt  # every item is built and read

    return [
        (f"reasoning-gym ds[i]{'' if k == n else f', {k} items'}",
         summary(timed(lambda: [ds[i] for i in range(k)], max(3, repeats // 2)), k)),
        ("DatasetProvider.get_items, fresh environment", summary(timed(ours, repeats), n)),
    ]


def bench_single(repeats: int) -> tuple[float, float, float]:
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    s = Scorer(environment_registry.get(name="leg_counting", size=1000, seed=42))
    s.score(3, "<answer>12</answer>")
    k = 20000

    def loop() -> None:
        for i in range(k):
            s.score(i % 1000, "<answer>12</answer>")

    return summary(timed(loop, repeats), k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", default="leg_counting", help="comma-separated task names, or 'all' native tasks")
    ap.add_argument("--sizes", default="1024,16384", help="response sizes in bytes")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--prompts", type=int, default=512)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--items", type=int, default=10000, help="items for the generation benchmark")
    ap.add_argument("--budget", type=float, default=8.0, help="seconds per baseline measurement")
    ap.add_argument("--skip", default="", help="sections to skip: scoring, generation, single")
    args = ap.parse_args()

    from llenvs_go import _native
    from llenvs_go.core.registry import environment_registry

    tasks = args.tasks.split(",")
    if tasks == ["all"]:
        tasks = [r["name"] for r in environment_registry.describe_environments("reasoning_gym")
                 if r["backend"] == "native" and r["name"] != "composite"]
    skip = set(args.skip.split(",")) if args.skip else set()
    info = _native.call("info")
    print(f"llenvs-go benchmark: Go threads {info['max_procs']} of {info['num_cpu']} CPUs, JSON {info['json']}, "
          f"{args.repeats} repeats")
    summary_rows = []
    for task in tasks:
        score_ratio = gen_ratio = float("nan")
        if "scoring" not in skip:
            for size in (int(s) for s in args.sizes.split(",")):
                rows = bench_scoring(task, size, args.repeats, args.prompts, args.samples, args.budget)
                print_rows(f"{task}: scoring {args.prompts * args.samples} responses of ~{size} bytes", rows)
                if size == int(args.sizes.split(",")[0]):
                    score_ratio = rows[0][1][0] / rows[2][1][0]
        if "generation" not in skip:
            rows = bench_generation(task, args.items, args.repeats, args.budget)
            print_rows(f"{task}: generating {args.items} items", rows)
            gen_ratio = rows[0][1][0] / rows[1][1][0]
        summary_rows.append((task, score_ratio, gen_ratio))
    if len(summary_rows) > 1:
        size = args.sizes.split(",")[0]
        print(f"\nsummary: speed-up over reasoning-gym (scoring: llenvs path / score_batch on a fresh environment, "
              f"{size}-byte responses; generation: ds[i] / get_items)")
        print(f"  {'task':26s} {'scoring':>9s} {'generation':>11s}")
        for task, sr, gr in summary_rows:
            print(f"  {task:26s} {sr:8.1f}x {gr:10.1f}x")
    if "single" not in skip:
        med, lo, hi = bench_single(max(3, args.repeats // 2))
        print(f"\none Scorer.score() call: median {med:.2f} us [{lo:.2f}-{hi:.2f}]")


if __name__ == "__main__":
    main()
