"""Benchmark: TRL's ``trl.rewards.accuracy_reward`` against llenvs_go's, on the same batch, in one run.

Builds one GRPO generation batch of MATH-style completions (default 512 prompts x 16
samples = 8,192 conversational completions of a few hundred tokens of reasoning each,
answers mostly in ``\\boxed{}``, some right, some equal in another form, some wrong, some
unboxed, a few with an unparsable solution; a fresh batch per repeat) and times, end to end
(the call that returns the list of rewards), in each repeat:

- ``trl.rewards.accuracy_reward`` (TRL 1.16.0 on the math-verify package), as called
  directly (``log_extra=None``) and as ``GRPOTrainer`` calls it (with a ``log_extra``);
- ``llenvs_go.integrations.trl.accuracy_reward``, the same two ways.

Prints the median and spread of each, the ratios of the medians (TRL / llenvs_go), and how
many rewards are identical. TRL takes about 10 ms per completion, so one repeat of TRL on
8,192 completions takes a minute or two on a small machine: ``--trl-repeats`` sets how many.
Run: python scripts/bench_trl_rewards.py [--prompts 512] [--samples 16] [--repeats 5] [--trl-repeats 3]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from llenvs_go.integrations import trl as ours

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_math import FILLER  # noqa: E402 - the MATH-style corpus of scripts/bench_math.py
from bench_math import answer_pair as answer  # noqa: E402


def make_batch(prompts: int, samples: int, seed: int = 11) -> tuple[list[list[dict[str, str]]], list[str]]:
    """One GRPO batch: ``samples`` completions for each of ``prompts`` problems, and the solution column."""
    rng = random.Random(seed)
    completions: list[list[dict[str, str]]] = []
    solutions: list[str] = []
    for _ in range(prompts):
        gold, right, wrong = answer(rng)
        solution = "The answer is not determined." if rng.random() < 0.02 else \
            rng.choice([f"${gold}$", gold, f"Working through the algebra, the result is $\\boxed{{{gold}}}$."])
        for _ in range(samples):
            steps = "\n\n".join(rng.choice(FILLER) for _ in range(rng.randint(8, 16)))
            final = right if rng.random() < 0.5 else wrong
            end = rng.random()
            if end < 0.8:
                tail = f"Therefore, the final answer is $\\boxed{{{final}}}$."
            elif end < 0.9:
                tail = f"The final answer is ${final}$. I hope it is correct."
            else:
                tail = f"So the answer is {final}."
            think = rng.random() < 0.3
            text = f"<think>\n{steps}\n</think>\n\n{tail}" if think else f"{steps}\n\n{tail}"
            completions.append([{"role": "assistant", "content": text}])
            solutions.append(solution)
    return completions, solutions


def timed(fn: Callable[..., list[Any]], completions: list[Any], solutions: list[str],
          log: bool) -> tuple[float, list[Any]]:
    """Seconds for one call that returns the list of rewards (with a trainer-like log_extra when ``log``)."""
    columns: dict[str, list[Any]] = {}
    t0 = time.perf_counter()
    rewards = fn(completions, solutions, log_extra=columns.__setitem__ if log else None)
    return time.perf_counter() - t0, rewards


def spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):8.3f} s  (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prompts", type=int, default=512)
    ap.add_argument("--samples", type=int, default=16, help="completions per prompt")
    ap.add_argument("--repeats", type=int, default=5, help="repeats of llenvs_go's calls")
    ap.add_argument("--trl-repeats", type=int, default=3, help="repeats of TRL's calls (a minute or more each)")
    args = ap.parse_args()

    try:
        from trl.rewards import accuracy_reward as trl_accuracy_reward
    except ImportError:
        trl_accuracy_reward = None
        print("trl (with math-verify) is not installed: timing llenvs_go only")
    logging.disable(logging.WARNING)

    warm_c, warm_s = make_batch(4, 4, seed=0)  # load each library and its grammars before timing
    ours.accuracy_reward(warm_c, warm_s)
    if trl_accuracy_reward is not None:
        trl_accuracy_reward(warm_c, warm_s)
    mine: dict[bool, list[float]] = {False: [], True: []}
    theirs: dict[bool, list[float]] = {False: [], True: []}
    same = total = nones = 0
    trl_repeats = args.trl_repeats if trl_accuracy_reward is not None else 0
    # A fresh batch per repeat and per way of calling (as in training: math-verify caches what it parsed), each
    # batch scored by both libraries.
    n = args.prompts * args.samples
    for r in range(max(args.repeats, trl_repeats)):
        for log in (False, True):
            completions, solutions = make_batch(args.prompts, args.samples, seed=11 + 2 * r + log)
            if r == 0 and not log:
                chars = sum(len(c[0]["content"]) for c in completions) / n
                print(f"{n} completions per batch ({args.prompts} prompts x {args.samples}), {chars:.0f} characters "
                      f"on average (~{chars / 4:.0f} tokens)", flush=True)
            mine_rewards: list[Any] = []
            if r < args.repeats:
                t, mine_rewards = timed(ours.accuracy_reward, completions, solutions, log)
                mine[log].append(t)
            if r < trl_repeats:
                assert trl_accuracy_reward is not None
                t, rewards = timed(trl_accuracy_reward, completions, solutions, log)
                theirs[log].append(t)
                print(f"  TRL repeat {r + 1}/{trl_repeats}, {'with' if log else 'without'} log_extra: {t:.1f} s",
                      flush=True)
                if mine_rewards:
                    same += sum(a == b and (a is None) == (b is None)
                                for a, b in zip(rewards, mine_rewards, strict=True))
                    total += n
                    nones += rewards.count(None)

    print(f"llenvs_go accuracy_reward, direct call:     {spread(mine[False])}  = "
          f"{statistics.median(mine[False]) / n * 1e6:.1f} us per completion")
    print(f"llenvs_go accuracy_reward, with log_extra:  {spread(mine[True])}")
    if not trl_repeats:
        return
    print(f"TRL accuracy_reward, direct call:           {spread(theirs[False])}  = "
          f"{statistics.median(theirs[False]) / n * 1e3:.2f} ms per completion")
    print(f"TRL accuracy_reward, with log_extra:        {spread(theirs[True])}")
    if total:
        print(f"rewards identical: {same}/{total} ({100 * same / total:.2f}%), {nones} of TRL's are None")
    print("ratios (TRL median / llenvs_go median):")
    for log, label in ((False, "direct call (log_extra=None)"), (True, "as GRPOTrainer calls it (log_extra)")):
        print(f"  {label:38s} {statistics.median(theirs[log]) / statistics.median(mine[log]):8.1f}x")

if __name__ == "__main__":
    main()
