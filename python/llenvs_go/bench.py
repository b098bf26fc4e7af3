"""Speed of llenvs-go against the Python paths users have today, side by side in one run.

    llenvs-go bench                                 # leg_counting, 1 KB and 16 KB responses
    llenvs-go bench --tasks all --sizes 1024        # every native task
    python -m llenvs_go.bench ...                   # the same without the cli extra (scripts/bench.py too)

The baselines need reasoning-gym (``pip install "llenvs-go[reasoning-gym]"``).

Scoring, per task and response size, on one GRPO-shaped batch (512 prompts x
16 samples = 8,192 responses: a third right, a third wrong, a third without
tags), times on the same inputs what a user pays end to end:

- ``llenvs path``: per response, reasoning-gym regenerates the entry, then
  ``extract_answer`` + ``score_answer`` (what llenvs does);
- ``best recipe``: entries generated once up front, then ``extract_answer`` +
  ``score_answer`` per response;
- ``score_batch``: the call, then every result read (``total`` and
  ``extracted_answer``; then also ``metadata``), on a fresh environment (entry
  cache cold, generation included) and on a warm one;
- ``score()``: one call per response, each result's total and answer read;
- ``its floor``: the same ``ScoringResult`` objects and metadata dicts built
  through their constructors from values known up front, with no environment
  and no scoring: the most the metadata row could reach;
- ``totals``: the reward-function path (floats only), fresh and warm, and
  ``score_batch(...).totals`` (results never read), warm.

Generation, per task: reasoning-gym's own ``[ds[i] for i in range(N)]``
against ``DatasetProvider.get_items(range(N))`` (every TaskItem read) and
``DatasetProvider.to_hf_dataset()``, each on a fresh environment (N = 20,000);
the dataset's columns are checked against reasoning-gym's items first.
``--million`` builds a 1,000,000-item leg_counting dataset in a child process
and reports its time and the process's peak memory.

Each measurement is repeated, the rows of a table taking turns (one round
runs every row once), so that a burst of load on a shared machine falls on
all of them; tables show the median microseconds per item,
the min-max spread and the speed-up (ratio of medians) over the baseline(s). For
slow reasoning-gym tasks the baseline runs on a prefix of the batch, sized to
a time budget, and is reported per item. Every llenvs-go result is checked
against reasoning-gym before it is timed. The machine is shared and noisy:
compare ratios, not absolute times; ``--clock cpu`` times the process's CPU
instead, which other load disturbs far less.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

FILLER = (
    "Let me think step by step. First I list what is given and count each part carefully, "
    "then I add the partial results and check the sum once more before answering. "
)


def make_responses(truths: list[str], samples: int, size: int, seed: int = 0) -> tuple[list[int], list[str]]:
    """``samples`` responses per task of about ``size`` characters each (the GRPO-shaped workload).

    A third answer correctly in ``<answer>`` tags, a third answer wrongly in
    tags, and a third give no tags at all; returns (task_indices, responses).
    """
    rng = random.Random(seed)
    indices: list[int] = []
    responses: list[str] = []
    for i, truth in enumerate(truths):
        for s in range(samples):
            body = (FILLER * (size // len(FILLER) + 1))[: max(0, size - 40)]
            kind = (i + s) % 3
            if kind == 0:
                tail = f"<answer>{truth}</answer>"
            elif kind == 1:
                tail = f"<answer>{rng.randint(0, 999)}</answer>"
            else:
                tail = f"So the total is {truth}."
            indices.append(i)
            responses.append(body + tail)
    return indices, responses

clock = time.perf_counter  # what the tables measure; --clock cpu makes it time.process_time


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    """Times (by ``clock``) of ``repeats`` calls of fn, in seconds."""
    out = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        out.append(clock() - t0)
    return out


def interleaved(rows: list[tuple[str, Callable[[], object], Callable[[object], object], int]],
                repeats: int) -> list[tuple[str, tuple[float, float, float]]]:
    """Time every row once per round, ``repeats`` rounds: (name, summary) per row.

    A row is (name, setup, fn, items): setup (untimed) makes fn's argument,
    e.g. a fresh environment. Running the rows in turn, rather than each
    row's repeats in a row, spreads the load of a shared machine over all
    of them, so that the ratios between rows stay meaningful.
    """
    times: list[list[float]] = [[] for _ in rows]
    for _ in range(repeats):
        for k, (_, setup, fn, _) in enumerate(rows):
            arg = setup()
            t0 = clock()
            fn(arg)
            times[k].append(clock() - t0)
    return [(name, summary(times[k], items)) for k, (name, _, _, items) in enumerate(rows)]


def summary(times: list[float], n: int) -> tuple[float, float, float]:
    """(median, min, max) in microseconds per item."""
    us = [t / n * 1e6 for t in times]
    return statistics.median(us), min(us), max(us)


def prefix_for_budget(per_item: float, n: int, budget: float) -> int:
    """How many of n items fit in ``budget`` seconds at ``per_item`` seconds each (at least 64)."""
    return max(64, min(n, int(budget / max(per_item, 1e-9))))


def print_rows(title: str, rows: list[tuple[str, tuple[float, float, float]]], second: int | None = None) -> None:
    """Rows with their speed-up over the first row (and over row ``second`` when given)."""
    print(f"\n{title}")
    extra = f" {'vs ' + rows[second][0].split(' (')[0]:>16s}" if second is not None else ""
    print(f"  {'path':52s} {'median us/item':>14s} {'spread':>21s} {'speed-up':>9s}{extra}")
    base = rows[0][1][0]
    for k, (name, (med, lo, hi)) in enumerate(rows):
        tail = ""
        if second is not None:
            tail = f" {rows[second][1][0] / med:15.1f}x" if k > second else " " * 17
        print(f"  {name:52s} {med:14.3f} {f'[{lo:.3f}-{hi:.3f}]':>21s} {base / med:8.1f}x{tail}")


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

    def read(scorer: Scorer) -> None:
        for r in scorer.score_batch(indices, responses):
            _ = r.total, r.extracted_answer

    def read_all(scorer: Scorer) -> None:
        for r in scorer.score_batch(indices, responses):
            _ = r.total, r.extracted_answer, r.metadata

    warm = fresh_scorer()
    got = warm.score_batch(indices, responses)
    t0 = time.perf_counter()
    want = reference(n)
    best_one = (time.perf_counter() - t0) / n
    if got.totals != want:
        bad = sum(a != b for a, b in zip(got.totals, want, strict=True))
        raise SystemExit(f"{task}: llenvs-go disagrees with reasoning-gym on {bad} of {n} responses")
    for i in range(0, n, 97):
        if got[i].extracted_answer != extract_answer(responses[i]):
            raise SystemExit(f"{task}: extracted answer of response {i} differs from reasoning-gym's")

    t0 = time.perf_counter()
    llenvs_path(32)
    k = prefix_for_budget((time.perf_counter() - t0) / 32, n, budget)
    kb = prefix_for_budget(best_one, n, budget)
    ks = min(n, 4096)

    def singles() -> None:
        for i, r in zip(indices[:ks], responses[:ks], strict=True):
            res = warm.score(i, r)
            _ = res.total, res.extracted_answer

    def none() -> None:
        return None

    # The floor of the metadata row: the same results and metadata dicts, built through their
    # constructors from values known up front; no environment, no scoring.
    from llenvs_go.integrations import ScoringResult

    known = [(r.total, r.extracted_answer, dict(r.metadata["correctness"]["extraction"]), r.metadata["status"])
             for r in got]
    expected = [str(e["answer"]) for e in entries]

    def objects_alone() -> None:
        for i, (total, answer, extraction, status) in zip(indices, known, strict=True):
            meta = {"extracted": answer, "extraction": dict(extraction)}
            if answer is not None:
                meta["expected"] = expected[i]
            r = ScoringResult(total, {"correctness": total}, answer,
                              {"correctness": meta, "backend": "native", "status": status})
            _ = r.total, r.extracted_answer, r.metadata

    return interleaved([
        (f"llenvs path (regenerate+extract+score){'' if k == n else f', {k} items'}", none,
         lambda _: llenvs_path(k), k),
        (f"best recipe (entries known){'' if kb == n else f', {kb} items'}", none, lambda _: reference(kb), kb),
        ("score_batch + read total, answer; fresh env", fresh_scorer, read, n),
        ("score_batch + read total, answer; warm", lambda: warm, read, n),
        ("score_batch + read total, answer, metadata; warm", lambda: warm, read_all, n),
        ("  its floor: those results built alone (no scoring)", none, lambda _: objects_alone(), n),
        (f"score() per response, warm ({ks} calls)", none, lambda _: singles(), ks),
        ("totals (reward-function path), fresh env", fresh_scorer, lambda s: s.totals(indices, responses), n),
        ("totals (reward-function path), warm", lambda: warm, lambda s: s.totals(indices, responses), n),
        ("score_batch(...).totals, warm", lambda: warm, lambda s: s.score_batch(indices, responses).totals, n),
    ], repeats)


def bench_generation(task: str, n: int, repeats: int, budget: float, seed: int = 42) -> list[tuple]:
    import reasoning_gym

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider

    ds = reasoning_gym.create_dataset(task, size=n, seed=seed)

    def fresh() -> DatasetProvider:
        return DatasetProvider(environment_registry.get(name=task, size=n, seed=seed))

    t0 = time.perf_counter()
    check = [ds[i] for i in range(64)]
    k = prefix_for_budget((time.perf_counter() - t0) / 64, n, budget)
    hf = fresh().to_hf_dataset(range(64))
    want = [(e["question"], None if e["answer"] is None else str(e["answer"])) for e in check]
    if list(zip(hf["prompt"], hf["ground_truth"], strict=True)) != want:
        raise SystemExit(f"{task}: to_hf_dataset differs from reasoning-gym's items")
    if [(it.prompt, it.ground_truth) for it in fresh().get_items(range(64))] != want:
        raise SystemExit(f"{task}: get_items differs from reasoning-gym's items")

    def items(p: DatasetProvider) -> None:
        for item in p.get_items(range(n)):
            _ = item.prompt  # every item is built and read

    return interleaved([
        (f"reasoning-gym ds[i]{'' if k == n else f', {k} items'}", lambda: None,
         lambda _: [ds[i] for i in range(k)], k),
        ("DatasetProvider.get_items, fresh environment", fresh, items, n),
        ("DatasetProvider.to_hf_dataset, fresh environment", fresh, lambda p: p.to_hf_dataset(progress=False), n),
    ], repeats)


def bench_million() -> None:
    """Build a 1,000,000-item leg_counting dataset in a child process: time, rows and peak memory."""
    import subprocess

    code = (
        "import resource, time\n"
        "from llenvs_go.core.registry import environment_registry\n"
        "from llenvs_go.integrations import DatasetProvider\n"
        "p = DatasetProvider(environment_registry.get(name='leg_counting', size=1_000_000, seed=42))\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "t = time.perf_counter(); ds = p.to_hf_dataset(progress=False); t = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "size = ds.data.nbytes\n"
        "print(f'{len(ds)} rows in {t:.2f} s ({t / len(ds) * 1e6:.2f} us/row); table {size / 2**20:.0f} MiB; '\n"
        "      f'peak RSS {peak / 1024:.0f} MiB (before the build {before / 1024:.0f} MiB)')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    print(f"\n1,000,000-item to_hf_dataset (leg_counting): {out.stdout.strip()}")


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


#: Sections of the benchmark that ``--skip`` may leave out.
SECTIONS = ("scoring", "generation", "single")


class BenchUsageError(ValueError):
    """A benchmark option with a bad value; the message names it, the valid values and the closest one."""


def _nearest(value: str, valid: Sequence[str]) -> str:
    import difflib

    near = difflib.get_close_matches(value, list(valid), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


@dataclasses.dataclass(frozen=True)
class BenchOptions:
    """The benchmark's options, checked (:func:`check_options` makes them from the command line's text)."""

    tasks: tuple[str, ...] = ("leg_counting",)
    sizes: tuple[int, ...] = (1024, 16384)
    repeats: int = 7
    prompts: int = 512
    samples: int = 16
    items: int = 20000
    budget: float = 8.0
    skip: frozenset[str] = frozenset()
    million: bool = False
    clock: str = "wall"


def benchmark_tasks() -> list[str]:
    """The tasks ``--tasks`` may name: reasoning-gym tasks llenvs-go serves (``composite`` needs a configuration)."""
    from llenvs_go.core.registry import environment_registry

    return sorted(r["name"] for r in environment_registry.describe_environments("reasoning_gym")
                  if r["name"] != "composite")


def check_options(tasks: str = "leg_counting", sizes: str = "1024,16384", repeats: int = 7, prompts: int = 512,
                  samples: int = 16, items: int = 20000, budget: float = 8.0, skip: str = "",
                  million: bool = False, clock: str = "wall") -> BenchOptions:
    """The options of the command line, checked; BenchUsageError names a bad one, the valid values, the closest."""
    size_list: list[int] = []
    for part in sizes.split(","):
        try:
            size = int(part)
        except ValueError:
            size = 0
        if size < 1:
            raise BenchUsageError(f"--sizes {sizes!r}: {part.strip()!r} is not a positive number of bytes; give "
                                  "comma-separated response sizes, e.g. --sizes 1024,16384")
        size_list.append(size)
    for name, value in (("--repeats", repeats), ("--prompts", prompts), ("--samples", samples), ("--items", items)):
        if value < 1:
            raise BenchUsageError(f"{name} {value}: must be at least 1 (each measurement needs one run)")
    if not budget > 0:
        raise BenchUsageError(f"--budget {budget}: must be a positive number of seconds")
    skipped = frozenset(s.strip() for s in skip.split(",") if s.strip())
    for s in sorted(skipped):
        if s not in SECTIONS:
            raise BenchUsageError(f"--skip: unknown section {s!r}{_nearest(s, SECTIONS)} (sections: "
                                  f"{', '.join(SECTIONS)})")
    if clock not in ("wall", "cpu"):
        raise BenchUsageError(f"--clock {clock!r}: must be wall or cpu{_nearest(clock, ('wall', 'cpu'))}")
    valid = benchmark_tasks()
    if tasks.strip() == "all":
        from llenvs_go.core.registry import environment_registry

        task_list = [r["name"] for r in environment_registry.describe_environments("reasoning_gym")
                     if r["backend"] == "native" and r["name"] != "composite"]
    else:
        task_list = [t.strip() for t in tasks.split(",")]
        for t in task_list:
            if t not in valid:
                raise BenchUsageError(f"--tasks: unknown task {t!r}{_nearest(t, valid)} (valid: 'all' or "
                                      f"comma-separated names among {', '.join(valid)})")
    return BenchOptions(tuple(task_list), tuple(size_list), repeats, prompts, samples, items, budget, skipped,
                        million, clock)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> None:
    """Run the benchmark with command-line arguments ``argv`` (``sys.argv[1:]`` when None)."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", default="leg_counting", help="comma-separated task names, or 'all' native tasks")
    ap.add_argument("--sizes", default="1024,16384", help="response sizes in bytes")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--prompts", type=int, default=512)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--items", type=int, default=20000, help="items for the generation benchmark")
    ap.add_argument("--budget", type=float, default=8.0, help="seconds per baseline measurement")
    ap.add_argument("--skip", default="", help="sections to skip: scoring, generation, single")
    ap.add_argument("--million", action="store_true", help="also build a 1,000,000-item dataset (time, peak memory)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help=CLOCK_HELP)
    args = ap.parse_args(argv)
    if importlib.util.find_spec("reasoning_gym") is None:
        ap.exit(2, NEEDS_REASONING_GYM + "\n")
    try:
        options = check_options(args.tasks, args.sizes, args.repeats, args.prompts, args.samples, args.items,
                                args.budget, args.skip, args.million, args.clock)
    except BenchUsageError as e:
        ap.error(str(e))
    run(options)


#: Help of ``--clock``.
CLOCK_HELP = ("wall: elapsed time (the default); cpu: the process's CPU time, all threads summed, which other load "
              "on a shared machine disturbs far less (Go's work on two threads counts twice, so its speed-ups are "
              "understated)")
#: What the benchmark says when reasoning-gym is missing.
NEEDS_REASONING_GYM = ("the benchmark's baselines need reasoning-gym: pip install \"llenvs-go[reasoning-gym]\" "
                       "(or reasoning-gym==0.1.25)")


def run(options: BenchOptions) -> None:
    """Run the benchmark with checked ``options`` and print its tables."""
    global clock
    if options.clock == "cpu":
        clock = time.process_time

    from llenvs_go import _native

    args = options
    tasks = list(options.tasks)
    skip = options.skip
    info = _native.call("info")
    print(f"llenvs-go benchmark: Go threads {info['max_procs']} of {info['num_cpu']} CPUs, JSON {info['json']}, "
          f"{args.repeats} repeats, {args.clock} clock")
    summary_rows = []
    for task in tasks:
        score_ratio = gen_ratio = float("nan")
        if "scoring" not in skip:
            for size in args.sizes:
                rows = bench_scoring(task, size, args.repeats, args.prompts, args.samples, args.budget)
                print_rows(f"{task}: scoring {args.prompts * args.samples} responses of ~{size} bytes", rows, second=1)
                if size == args.sizes[0]:
                    score_ratio = rows[0][1][0] / rows[2][1][0]
        if "generation" not in skip:
            rows = bench_generation(task, args.items, args.repeats, args.budget)
            print_rows(f"{task}: generating {args.items} items", rows)
            gen_ratio = rows[0][1][0] / rows[2][1][0]
        summary_rows.append((task, score_ratio, gen_ratio))
    if len(summary_rows) > 1:
        size = args.sizes[0]
        print(f"\nsummary: speed-up over reasoning-gym (scoring: llenvs path / score_batch with results read, fresh "
              f"environment, {size}-byte responses; generation: ds[i] / to_hf_dataset)")
        print(f"  {'task':26s} {'scoring':>9s} {'generation':>11s}")
        def ratio(x: float, width: int) -> str:
            return f"{x:{width}.1f}x" if x == x else f"{'-':>{width + 1}s}"  # NaN: section skipped

        for task, sr, gr in summary_rows:
            print(f"  {task:26s} {ratio(sr, 8)} {ratio(gr, 10)}")
    if "single" not in skip:
        med, lo, hi = bench_single(max(3, args.repeats // 2))
        print(f"\none Scorer.score() call (short response): median {med:.2f} us [{lo:.2f}-{hi:.2f}]")
    if args.million:
        bench_million()


if __name__ == "__main__":
    main()
