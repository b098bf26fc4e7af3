"""Speed of the framework adapters as each framework calls them, against llenvs' recipes, in one run.

    python scripts/bench_frameworks.py                 # leg_counting, 512 prompts x 16 samples, ~1 KB
    python scripts/bench_frameworks.py --size 16384    # ~16 KB responses

One GRPO batch (512 prompts x 16 samples = 8,192 responses: a third right, a
third wrong, a third without tags). The baselines are llenvs' recipes (its
``make_trl_reward_fn``, ``make_verl_reward_fn`` and ``make_openrlhf_reward_fn``)
re-implemented on reasoning-gym with their calling bugs fixed, so that the
frameworks can call them: per response, reasoning-gym regenerates the task's
entry, then ``extract_answer`` + ``score_answer`` (what llenvs' Scorer does).

Each adapter is timed as its framework calls it:

- TRL (GRPOTrainer._calculate_rewards, trl 1.16.0): one call with the whole
  batch, keywords and the dataset's columns; standard and conversational.
- veRL (reward-loop NaiveRewardManager.run_single, verl 0.9.1): 8,192 calls,
  one per sample, gathered; ``extra_info`` as the manager mutates it. A plain
  function goes through ``loop.run_in_executor(None, ...)`` on the event
  loop's default thread pool (the baseline, and ours); an ``async def`` is
  awaited on the loop (ours with ``asynchronous=True``, and the shipped
  ``compute_score_async``). The manager's own per-sample work (decoding the
  response ids, also through the thread pool) is the same whichever function
  it calls and is not timed.
- OpenRLHF (SingleTurnAgentExecutor, openrlhf 0.11.2): 8,192 calls
  ``reward_func([query], [prompt], [label])`` through ``asyncio.to_thread``,
  gathered; our function returns torch tensors when torch is installed.

The single-sample adapters are also timed without the framework's dispatch
(the same calls spread over 6 threads, each looping over its share, and all
in one thread), which shows the function's own cost. Every result is checked against the baseline
before it is timed. Rows show the median microseconds per response, the
min-max spread over the repeats and the ratio of medians. The machine is
shared and noisy: compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from workload import make_responses

THREADS = 6  # the default executor's size on a 2-core machine: min(32, cpu_count + 4)


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    """Wall times of ``repeats`` calls of fn, in seconds."""
    out = []
    for _ in range(repeats):
        gc.collect()  # every row starts from a collected heap, so a full collection lands on none by chance
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(times: list[float], n: int) -> tuple[float, float, float]:
    """(median, min, max) in microseconds per item."""
    us = [t / n * 1e6 for t in times]
    return statistics.median(us), min(us), max(us)


def per_sample_dispatch(calls: list[Callable[[], Any]]) -> list[Any]:
    """Every call through run_in_executor on a fresh event loop's default pool, gathered (veRL, OpenRLHF)."""

    async def run() -> list[Any]:
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*[loop.run_in_executor(None, c) for c in calls]))

    return asyncio.run(run())


def awaited_per_sample(calls: list[Callable[[], Any]]) -> list[Any]:
    """Every call's coroutine awaited in its own task on one event loop, gathered (veRL's manager, async function)."""

    async def run() -> list[Any]:
        return list(await asyncio.gather(*[asyncio.create_task(c()) for c in calls]))

    return asyncio.run(run())


def sequential(calls: list[Callable[[], Any]]) -> None:
    """The calls one after another in this thread."""
    for c in calls:
        c()


def thread_loop(calls: list[Callable[[], Any]]) -> None:
    """The calls spread over THREADS threads, each looping over its share (no per-call dispatch)."""

    def work(part: list[Callable[[], Any]]) -> None:
        for c in part:
            c()

    threads = [threading.Thread(target=work, args=(calls[k::THREADS],)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def baselines(ds: Any) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """llenvs' three reward functions, re-implemented on reasoning-gym (entry regenerated per response)."""
    from reasoning_gym.utils import extract_answer

    def score(i: int, text: str) -> float:
        entry = ds[i]
        answer = extract_answer(text)
        return float(ds.score_answer(answer, entry)) if answer is not None else 0.0

    def trl_reward(prompts: Any, completions: Any, **kwargs: Any) -> list[float]:
        texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
        return [score(i, t) for i, t in zip(kwargs["task_index"], texts, strict=True)]

    def verl_compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any,
                           **kwargs: Any) -> float:
        return score(extra_info["task_index"], solution_str)

    def openrlhf_reward(queries: list[str], prompts: list[str], labels: list[Any], **kwargs: Any) -> dict:
        rewards = []
        for q, p, label in zip(queries, prompts, labels, strict=True):
            rewards.append(score(int(label), q[len(p):] if q.startswith(p) else q))
        return {"rewards": rewards, "scores": rewards, "extra_logs": {"signals": [{"correctness": r} for r in rewards]}}

    return trl_reward, verl_compute_score, openrlhf_reward


def values(x: Any) -> list[float]:
    return x.tolist() if hasattr(x, "tolist") else list(x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="leg_counting")
    parser.add_argument("--prompts", type=int, default=512)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--size", type=int, default=1024, help="response size in characters")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    import reasoning_gym

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, make_openrlhf_reward_fn
    from llenvs_go.integrations.trl import make_trl_dataset, make_trl_reward_fn
    from llenvs_go.integrations.verl import compute_score_async, make_verl_dataset, make_verl_reward_fn

    seed = 42
    ds = reasoning_gym.create_dataset(args.task, size=args.prompts, seed=seed)
    truths = [str(ds[i]["answer"]) for i in range(args.prompts)]
    indices, responses = make_responses(truths, args.samples, args.size)
    n = len(responses)

    def new_env() -> Any:
        return environment_registry.get(name=args.task, size=args.prompts, seed=seed)

    env = new_env()
    base_trl, base_verl, base_orl = baselines(ds)
    torch_note = "tensors" if "torch" in sys.modules or importlib.util.find_spec("torch") else "lists (no torch)"
    print(f"{args.task}: {args.prompts} prompts x {args.samples} samples = {n} responses of ~{args.size} chars; "
          f"{THREADS} threads; OpenRLHF results as {torch_note}; Python {sys.version.split()[0]}")

    # -- TRL: one batch call -----------------------------------------------------------------------------------
    trl_rows = make_trl_dataset(env, conversational=False)
    columns = {k: [trl_rows[k][i] for i in indices] for k in ("task_index", "ground_truth", "env_reference")}
    conv = [[{"role": "assistant", "content": r}] for r in responses]
    trl_kwargs = {"prompts": [None] * n, "completion_ids": [[]] * n, "trainer_state": None, "log_extra": None,
                  "log_metric": None, **columns}
    trl_fn = make_trl_reward_fn(env)
    want = base_trl(completions=responses, **trl_kwargs)
    assert trl_fn(completions=responses, **trl_kwargs) == want == trl_fn(completions=conv, **trl_kwargs)
    assert base_trl(completions=conv, **trl_kwargs) == want

    def trl_fresh() -> None:
        make_trl_reward_fn(new_env())(completions=responses, **trl_kwargs)

    rows_trl = [
        ("TRL baseline (llenvs recipe), standard", timed(lambda: base_trl(completions=responses, **trl_kwargs),
                                                         max(3, args.repeats // 2))),
        ("TRL make_trl_reward_fn, standard", timed(lambda: trl_fn(completions=responses, **trl_kwargs),
                                                   args.repeats)),
        ("TRL make_trl_reward_fn, standard, fresh environment", timed(trl_fresh, args.repeats)),
        ("TRL baseline (llenvs recipe), conversational", timed(lambda: base_trl(completions=conv, **trl_kwargs),
                                                               max(3, args.repeats // 2))),
        ("TRL make_trl_reward_fn, conversational", timed(lambda: trl_fn(completions=conv, **trl_kwargs),
                                                         args.repeats)),
    ]

    # -- veRL: one call per sample from the event loop's thread pool ------------------------------------------
    verl_rows = make_verl_dataset(env)
    verl_fn = make_verl_reward_fn(env)

    def verl_calls(fn: Callable[..., Any]) -> list[Callable[[], Any]]:
        out = []
        for i, r in zip(indices, responses, strict=True):
            row = verl_rows[i]
            info = dict(row["extra_info"], num_turns=None, rollout_reward_scores={})
            out.append(lambda fn=fn, row=row, r=r, info=info: fn(
                data_source=row["data_source"], solution_str=r, ground_truth=row["reward_model"]["ground_truth"],
                extra_info=info))
        return out

    base_verl_calls, our_verl_calls = verl_calls(base_verl), verl_calls(verl_fn)
    async_verl_calls = verl_calls(make_verl_reward_fn(env, asynchronous=True))
    shipped_verl_calls = verl_calls(compute_score_async)
    assert per_sample_dispatch(our_verl_calls) == per_sample_dispatch(base_verl_calls) == want
    assert awaited_per_sample(async_verl_calls) == awaited_per_sample(shipped_verl_calls) == want
    rows_verl = [
        ("veRL baseline, run_in_executor per sample", timed(lambda: per_sample_dispatch(base_verl_calls),
                                                            max(3, args.repeats // 2))),
        ("veRL make_verl_reward_fn, run_in_executor per sample",
         timed(lambda: per_sample_dispatch(our_verl_calls), args.repeats)),
        ("veRL make_verl_reward_fn(asynchronous=True), awaited per sample",
         timed(lambda: awaited_per_sample(async_verl_calls), args.repeats)),
        ("veRL shipped compute_score_async, awaited per sample",
         timed(lambda: awaited_per_sample(shipped_verl_calls), args.repeats)),
        ("veRL baseline, function only (6 threads)", timed(lambda: thread_loop(base_verl_calls),
                                                           max(3, args.repeats // 2))),
        ("veRL make_verl_reward_fn, function only (6 threads)", timed(lambda: thread_loop(our_verl_calls),
                                                                     args.repeats)),
        ("veRL baseline, function only (one thread)",
         timed(lambda: sequential(base_verl_calls), max(3, args.repeats // 2))),
        ("veRL make_verl_reward_fn, function only (one thread)",
         timed(lambda: sequential(our_verl_calls), args.repeats)),
    ]

    # -- OpenRLHF: one call per sample through asyncio.to_thread --------------------------------------------
    labels = [r["label"] for r in make_openrlhf_dataset(env)]
    prompt = "<|im_start|>user\nHow many legs?<|im_end|>\n<|im_start|>assistant\n"
    queries = [prompt + r + "<|im_end|>" for r in responses]
    orl_fn = make_openrlhf_reward_fn(env)
    base_orl_calls = [lambda q=q, i=i: base_orl([q], [prompt], [str(i)]) for q, i in zip(queries, indices, strict=True)]
    our_orl_calls = [lambda q=q, i=i: orl_fn([q], [prompt], [labels[i]]) for q, i in zip(queries, indices, strict=True)]
    got = [values(o["rewards"])[0] for o in per_sample_dispatch(our_orl_calls)]
    base = [o["rewards"][0] for o in per_sample_dispatch(base_orl_calls)]
    assert base == want and all(abs(a - b) < 1e-6 for a, b in zip(got, want, strict=True))  # float32 tensors
    rows_orl = [
        ("OpenRLHF baseline, to_thread per sample", timed(lambda: per_sample_dispatch(base_orl_calls),
                                                          max(3, args.repeats // 2))),
        ("OpenRLHF make_openrlhf_reward_fn, to_thread per sample",
         timed(lambda: per_sample_dispatch(our_orl_calls), args.repeats)),
        ("OpenRLHF baseline, function only (6 threads)", timed(lambda: thread_loop(base_orl_calls),
                                                               max(3, args.repeats // 2))),
        ("OpenRLHF make_openrlhf_reward_fn, function only (6 threads)",
         timed(lambda: thread_loop(our_orl_calls), args.repeats)),
        ("OpenRLHF baseline, function only (one thread)",
         timed(lambda: sequential(base_orl_calls), max(3, args.repeats // 2))),
        ("OpenRLHF make_openrlhf_reward_fn, function only (one thread)",
         timed(lambda: sequential(our_orl_calls), args.repeats)),
    ]

    print(f"\n  {'path':60s} {'median us/resp':>14s} {'spread':>19s} {'ratio':>7s}")
    for group in (rows_trl, rows_verl, rows_orl):
        print()
        base = None
        for name, times in group:
            med, lo, hi = summary(times, n)
            if "baseline" in name:
                base = med
                ratio = ""
            else:
                ratio = f"{base / med:6.1f}x" if base else ""
            print(f"  {name:60s} {med:14.2f} {f'[{lo:.2f}-{hi:.2f}]':>19s} {ratio:>7s}")


if __name__ == "__main__":
    main()
