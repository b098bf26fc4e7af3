"""Benchmark: the cost of deadlines for Python scoring, in process against a supervised worker, in one run.

Two paths, each scored with ``Scorer(env, timeout=None)`` (in this process, no
deadline) and ``Scorer(env, timeout=10)`` (a worker process killed when an item
runs past 10 s), on the same 512 x 16 responses (1 KB each):

- the reasoning-gym fallback: a task without a Go port (Go extracts the
  answer, reasoning-gym's own ``score_answer`` scores it);
- an environment written in Python (llenvs' ``reset`` + ``step`` per item).

Prints the worker's start (its first batch less a warm one), then per path the
median microseconds per item with the spread (min-max) over the rounds, the
supervised/in-process ratio and the overhead per item, for the whole batch in
one ``score_batch`` and for ``--single`` items scored by one ``total()`` call
each (a per-sample reward function), and checks that both give the same totals
and statuses. The rows take turns, one round at a time.
Run: python scripts/bench_deadlines.py [--prompts 512] [--samples 16] [--repeats 5] [--task knights_knaves]
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from typing import Any

from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Observation, State, StateMetadata
from llenvs_go.integrations import Scorer


class TagCorrectness:
    """1.0 when the last <answer>...</answer> of the text is the expected answer."""

    name = "correctness"
    reward_type = RewardType.OUTCOME

    def compute(self, state: State, action: Any, next_state: State) -> Signal:
        text = action.text or ""
        start, end = text.rfind("<answer>"), text.rfind("</answer>")
        answer = text[start + 8: end].strip() if 0 <= start < end else None
        expected = state.hidden["expected"]
        return Signal(name=self.name, reward_type=self.reward_type, reward=1.0 if answer == expected else 0.0,
                      metadata={"extracted": answer, "expected": expected})


class ArithmeticEnvironment:
    """An environment written in Python: task i asks for i * 7."""

    def __init__(self, n: int):
        self.n = n
        self.reward_functions = (TagCorrectness(),)

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="times_seven", adapter="python", max_steps=1, pure_step=True)

    def __len__(self) -> int:
        return self.n

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        i = (options or {})["task_index"]
        prompt = f"What is {i} * 7?"
        state = State(observation=Observation(prompt=prompt), hidden={"expected": str(i * 7)},
                      metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4()), info={"task_index": i}))
        return state, {"task_index": i}

    def step(self, state: State, action: Any) -> StepResult:
        rewards = SignalBundle(tuple(rf.compute(state, action, state) for rf in self.reward_functions))
        return StepResult(next_state=state.with_metadata(step=1, is_terminal=True), rewards=rewards, terminated=True)


def _pad(text: str, size: int) -> str:
    filler = "Let me think about this step by step. "
    return (filler * (size // len(filler) + 1))[: max(0, size - len(text))] + text


def _batch(prompts: int, samples: int, truth: Any) -> tuple[list[int], list[str]]:
    indices, responses = [], []
    for p in range(prompts):
        t = truth(p)
        for s in range(samples):
            indices.append(p)
            answer = t if s % 2 == 0 else f"{t}x"
            responses.append(_pad(f"<answer>{answer}</answer>" if s % 5 else "no answer here", 1024))
    return indices, responses


def _time(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prompts", type=int, default=512)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--task", default="knights_knaves", help="a reasoning-gym task without a Go port")
    ap.add_argument("--single", type=int, default=1000, help="items scored one call each (a per-sample reward)")
    args = ap.parse_args()
    n = args.prompts * args.samples

    rg_env = environment_registry.get(name=args.task, size=args.prompts, seed=7)
    if rg_env.backend != "python":
        raise SystemExit(f"{args.task} has a Go port; pick a task whose backend is 'python'")
    py_env = ArithmeticEnvironment(args.prompts)
    paths = {
        f"reasoning-gym fallback ({args.task})": (rg_env, _batch(args.prompts, args.samples,
                                                                  lambda p: rg_env.entry(p)["answer"])),
        "environment written in Python": (py_env, _batch(args.prompts, args.samples, lambda p: str(p * 7))),
    }

    print(f"{n} items per batch ({args.prompts} prompts x {args.samples} samples, 1 KB responses), "
          f"{args.repeats} rounds\n")
    rows: dict[str, dict[str, list[float]]] = {}
    for label, (env, (indices, responses)) in paths.items():
        here, there = Scorer(env, timeout=None), Scorer(env, timeout=10.0)
        a, b = here.score_batch(indices, responses), None
        cold = _time(lambda s=there, i=indices, r=responses: s.score_batch(i, r))
        warm = _time(lambda s=there, i=indices, r=responses: s.score_batch(i, r))
        b = there.score_batch(indices, responses)
        if a.totals != b.totals or a.statuses != b.statuses:
            raise SystemExit(f"{label}: the supervised scores differ from the in-process ones")
        print(f"{label}: first supervised batch {cold:.2f} s, a warm one {warm:.2f} s: worker start and job load "
              f"about {max(cold - warm, 0.0):.2f} s (once per worker)")
        rows[label] = {"in process": [], "supervised": []}
        single = f"{label}, total() per item"
        rows[single] = {"in process": [], "supervised": []}
        m = min(n, args.single)
        for _ in range(args.repeats):
            for name, s in (("in process", here), ("supervised", there)):
                rows[label][name].append(_time(lambda s=s, i=indices, r=responses: s.score_batch(i, r)) / n * 1e6)
                rows[single][name].append(_time(lambda s=s, i=indices[:m], r=responses[:m]: list(map(s.total, i, r)))
                                          / m * 1e6)

    print(f"\n{'path':60} {'in process, µs/item':>22} {'supervised, µs/item':>22} {'ratio':>7} {'overhead':>10}")
    for label, r in rows.items():
        a, b = statistics.median(r["in process"]), statistics.median(r["supervised"])
        spread = [f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})" for v in (r["in process"], r["supervised"])]
        print(f"{label:60} {spread[0]:>22} {spread[1]:>22} {b / a:>6.2f}x {b - a:>7.1f} µs")


if __name__ == "__main__":
    main()
