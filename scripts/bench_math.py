"""Benchmark: math answer verification, math-verify against llenvs_go.math_verify, in one run.

Scores N (default 8,192) generated MATH-style responses (a few hundred tokens of reasoning
each, the answer in \\boxed{}) against their reference solutions with
``verify(parse(gold), parse(response))``:

- math-verify (the Python package) one by one, on a subset (it takes milliseconds per
  sample; the total for N is extrapolated from the subset's mean and said so);
- llenvs_go.math_verify one by one (the same calls);
- llenvs_go.math_verify.verify_batch, the whole batch in one call.

Prints per-sample medians and spreads (p10, p90, p99, max), totals, the ratios and the
slowest single comparison of each, and checks that the verdicts of both libraries agree on the subset.
Run: python scripts/bench_math.py [--n 8192] [--subset 512] [--repeats 3]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from llenvs_go import math_verify as ours

FILLER = [
    "We begin by restating the problem in our own words so that nothing is missed.",
    "Let $n$ denote the number of objects, and note that $n > 0$.",
    "Substituting the first equation into the second gives $3x + 2(x - 1) = 18$, so $5x = 20$.",
    "We check the boundary case separately: when $k = 0$ the sum is empty and equals $0$.",
    "By the Pythagorean theorem, $a^2 + b^2 = c^2$, which here reads $9 + 16 = 25$.",
    "The probability of each outcome is $\\frac{1}{6}$, and the events are independent.",
    "Expanding, $(x+1)^2 = x^2 + 2x + 1$, and comparing coefficients we find the constant term.",
    "Since the sequence is arithmetic with common difference $d = 4$, the $k$-th term is $a_1 + 4(k-1)$.",
    "Factoring the quadratic gives $(x-2)(x-3) = 0$, so the roots are $x = 2$ and $x = 3$.",
    "We verify the result numerically: plugging in gives $12 \\cdot 7 = 84$, as expected.",
]


def answer_pair(rng: random.Random) -> tuple[str, str, str]:
    """A reference answer, an equal way of writing it and a wrong one."""
    kind = rng.randrange(8)
    a, b = rng.randint(2, 99), rng.randint(2, 99)
    if kind == 0:
        return str(a * b), str(a * b), str(a * b + 1)
    if kind == 1:
        return f"\\frac{{{a}}}{{{b}}}", f"\\dfrac{{{2 * a}}}{{{2 * b}}}", f"\\frac{{{b}}}{{{a}}}"
    if kind == 2:
        return f"{a}\\sqrt{{2}}", f"\\sqrt{{{2 * a * a}}}", f"{a}\\sqrt{{3}}"
    if kind == 3:
        return f"{a / 4:g}", f"\\frac{{{a}}}{{4}}", f"{a / 4 + 1:g}"
    if kind == 4:
        return f"x^2 + {2 * a}x + {a * a}", f"(x+{a})^2", f"(x-{a})^2"
    if kind == 5:
        return f"({a}, {b})", f"({a},{b})", f"({b},{a + 1})"
    if kind == 6:
        return f"{a}\\pi", f"\\pi \\cdot {a}", f"{a + 1}\\pi"
    return f"{a}\\%", f"{a}\\%", f"{a + 2}\\%"


def make_samples(n: int, seed: int = 7) -> tuple[list[str], list[str]]:
    """n (reference solution, model response) pairs, about half of them correct."""
    rng = random.Random(seed)
    golds, responses = [], []
    for _ in range(n):
        gold, right, wrong = answer_pair(rng)
        golds.append(f"Working through the algebra, the result is $\\boxed{{{gold}}}$.")
        steps = [rng.choice(FILLER) for _ in range(rng.randint(8, 16))]
        final = right if rng.random() < 0.5 else wrong
        responses.append("\n\n".join(steps) + f"\n\nTherefore, the final answer is $\\boxed{{{final}}}$.")
    return golds, responses


def time_each(fn: Callable[[str, str], bool], golds: list[str], responses: list[str]) -> tuple[list[float], list[bool]]:
    """Seconds per sample and verdicts of fn(gold, response) over the samples."""
    times, verdicts = [], []
    for g, r in zip(golds, responses, strict=True):
        t0 = time.perf_counter()
        verdicts.append(fn(g, r))
        times.append(time.perf_counter() - t0)
    return times, verdicts


def spread(xs: list[float]) -> str:
    """Median, p10, p90, p99 and max of per-sample times, in microseconds."""
    q = statistics.quantiles(xs, n=10)
    p99 = statistics.quantiles(xs, n=100)[-1]
    return (f"median {statistics.median(xs) * 1e6:9.1f} us  p10 {q[0] * 1e6:9.1f}  p90 {q[-1] * 1e6:9.1f}  "
            f"p99 {p99 * 1e6:9.1f}  max {max(xs) * 1e6:9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--subset", type=int, default=512, help="samples math-verify is timed on")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    golds, responses = make_samples(args.n)
    avg_chars = sum(map(len, responses)) / len(responses)
    print(f"{args.n} responses, {avg_chars:.0f} characters on average (~{avg_chars / 4:.0f} tokens)")

    results: dict[str, Any] = {}
    try:
        import math_verify as reference

        logging.disable(logging.WARNING)
        sub = args.subset
        t_ref, v_ref = time_each(lambda g, r: reference.verify(reference.parse(g), reference.parse(r)),
                                 golds[:sub], responses[:sub])
        results["math-verify"] = t_ref
        print(f"math-verify, one by one, {sub} samples (timed on a subset; the total for {args.n} is extrapolated):")
        print(f"  per sample: {spread(t_ref)}  slowest {max(t_ref) * 1e3:.2f} ms")
        ref_total = statistics.mean(t_ref) * args.n
        print(f"  total for {args.n} (extrapolated): {ref_total:.2f} s")
    except ImportError:
        reference, v_ref, ref_total = None, None, None
        print("math-verify is not installed: timing llenvs_go only")

    one_totals, one_all = [], []
    v_ours: list[bool] = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        t_ours, v_ours = time_each(lambda g, r: ours.verify(ours.parse(g), ours.parse(r)), golds, responses)
        one_totals.append(time.perf_counter() - t0)
        one_all.extend(t_ours)
    print(f"llenvs_go, one by one, {args.n} samples x {args.repeats}:")
    print(f"  per sample: {spread(one_all)}  slowest {max(one_all) * 1e3:.3f} ms")
    print(f"  total: median {statistics.median(one_totals):.3f} s  "
          f"(min {min(one_totals):.3f}, max {max(one_totals):.3f})")

    batch_totals = []
    v_batch: list[bool] = []
    for _ in range(max(args.repeats, 5)):
        t0 = time.perf_counter()
        v_batch = ours.verify_batch(golds, responses)  # type: ignore[assignment]
        batch_totals.append(time.perf_counter() - t0)
    print(f"llenvs_go, verify_batch, {args.n} samples in one call x {len(batch_totals)}:")
    print(f"  total: median {statistics.median(batch_totals) * 1e3:.1f} ms  (min {min(batch_totals) * 1e3:.1f}, "
          f"max {max(batch_totals) * 1e3:.1f})  = {statistics.median(batch_totals) / args.n * 1e6:.2f} us per sample")
    assert v_batch == v_ours, "verify_batch and one-by-one verify disagree"

    if ref_total is not None and v_ref is not None:
        agree = sum(a == b for a, b in zip(v_ref, v_ours[: len(v_ref)], strict=True))
        print(f"verdicts: llenvs_go agrees with math-verify on {agree}/{len(v_ref)} of the timed subset")
        one = statistics.median(one_totals)
        batch = statistics.median(batch_totals)
        per_ref = statistics.median(results["math-verify"])
        print("ratios (math-verify time / llenvs_go time):")
        print(f"  one by one, total:        {ref_total / one:8.1f}x   (per-sample medians: "
              f"{per_ref / statistics.median(one_all):.1f}x)")
        print(f"  verify_batch, total:      {ref_total / batch:8.1f}x")
        print(f"  slowest single comparison: math-verify {max(results['math-verify']) * 1e3:.2f} ms, "
              f"llenvs_go {max(one_all) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
