"""Soak test: many mixed calls into the Go core from many threads, watching memory and handles.

Runs N calls (default 1,000,000) from T threads (default 8): single scores, batch scores, reward
totals, dataset items, environment create/close, episodes reset/step/close (single-turn and the
multi-turn ``guess_number``, one at a time and as an ``EpisodeBatch``) and trajectory masking, in a fixed
mix. Every 100,000 calls it prints the
peak resident set size (``ru_maxrss``) and the current one; at the end it checks that the live handle
count of every kind is back to what it was before the run, and exits 1 when it is not or when any call
raised an error that is not one of the expected (documented) ones.

    python scripts/soak.py                 # 1,000,000 calls, 8 threads
    python scripts/soak.py --calls 200000 --threads 4 --json soak.json
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import threading
import time
from collections import Counter
from typing import Any

from llenvs_go import _native
from llenvs_go.core.episodes import EpisodeBatch
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action
from llenvs_go.core.trajectory import Trajectory, Transition
from llenvs_go.integrations import DatasetProvider, Scorer, TrajectoryMasker

KINDS = {"all": _native.KIND_ALL, "environment": _native.KIND_ENVIRONMENT, "episode": _native.KIND_EPISODE,
         "tokenizer": _native.KIND_TOKENIZER}


class CharTokenizer:
    """One token per code point; enough for the masker's Python path."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(chr(i) for i in ids)


def rss_kib() -> int:
    """The current resident set size in KiB (Linux), or 0 where /proc is missing."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return 0
    return pages * resource.getpagesize() // 1024


def peak_rss_kib() -> int:
    """The peak resident set size in KiB (ru_maxrss is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def live() -> dict[str, int]:
    return {k: _native.live_handles(v) for k, v in KINDS.items()}


class Soak:
    """The shared state of a run: environments, the counter of calls and the errors seen."""

    def __init__(self, calls: int, report_every: int):
        self.calls = calls
        self.report_every = report_every
        self.lock = threading.Lock()
        self.done = 0
        self.next_report = report_every
        self.ops: Counter[str] = Counter()
        self.unexpected: list[str] = []
        self.reports: list[dict[str, Any]] = []
        self.start = time.perf_counter()
        self.env = environment_registry.get(name="leg_counting", size=1000, seed=42)
        self.scorer = Scorer(self.env)
        self.provider = DatasetProvider(self.env)
        self.truths = self.env.task_texts(range(200))[1]
        self.guess = environment_registry.get(name="guess_number", adapter="native", seed=7)
        self.masker = TrajectoryMasker(CharTokenizer(), chat_template=False)

    def claim(self, n: int) -> int:
        """Reserves up to n calls; returns how many were granted (0 when the run is over)."""
        with self.lock:
            k = min(n, self.calls - self.done)
            if k <= 0:
                return 0
            self.done += k
            while self.done >= self.next_report:
                self.report(self.next_report)
                self.next_report += self.report_every
            return k

    def report(self, at: int) -> None:
        r = {"calls": at, "seconds": round(time.perf_counter() - self.start, 1), "peak_rss_mib": peak_rss_kib() / 1024,
             "rss_mib": rss_kib() / 1024, "live_handles": _native.live_handles(_native.KIND_ALL)}
        self.reports.append(r)
        print(f"{at:>9,} calls  {r['seconds']:>7.1f}s  peak RSS {r['peak_rss_mib']:7.1f} MiB  "
              f"RSS {r['rss_mib']:7.1f} MiB  live handles {r['live_handles']}", flush=True)

    # -- the operations; each returns how many library calls it made --------------------------

    def answer(self, i: int, k: int) -> str:
        t = self.truths[i % len(self.truths)]
        return f"<answer>{t}</answer>" if k % 2 == 0 else f"I think <answer>{k % 13}</answer>"

    def op_score(self, k: int) -> int:
        r = self.scorer.score(k % 200, self.answer(k, k))
        assert 0.0 <= r.total <= 1.0
        return 1

    def op_score_batch(self, k: int) -> int:
        idx = [(k + j) % 200 for j in range(16)]
        rs = self.scorer.score_batch(idx, [self.answer(i, k + j) for j, i in enumerate(idx)])
        _ = rs[0].extracted_answer, rs[-1].metadata
        return 1

    def op_totals(self, k: int) -> int:
        idx = [(k + j) % 200 for j in range(64)]
        ts = self.scorer.totals(idx, [self.answer(i, k + j) for j, i in enumerate(idx)])
        assert len(ts) == 64
        return 1

    def op_items(self, k: int) -> int:
        items = self.provider.get_items(range(k % 900, k % 900 + 8))
        assert len(items) == 8
        return 1

    def op_env(self, k: int) -> int:
        env = environment_registry.get(name="chain_sum", size=50, seed=k)
        r = Scorer(env).score(k % 50, "<answer>0</answer>")
        assert r.total in (0.0, 1.0)
        env.close()
        return 3  # create, score, close

    def op_episode(self, k: int) -> int:
        state, _ = self.env.reset(options={"task_index": k % 1000})
        if k % 3 == 0:
            state.hidden.episode.close()  # closed without a step
            return 2
        res = self.env.step(state, Action.from_text(self.answer(k, k)))
        assert res.terminated
        return 2  # reset, step (a finished episode is released with the step)

    def op_multiturn(self, k: int) -> int:
        state, _ = self.guess.reset(options={"task_index": k % len(self.guess)})
        calls = 1
        for guess in (50, 25, 75):
            res = self.guess.step(state, Action.from_text(f"<answer>{guess}</answer>"))
            calls += 1
            if res.terminated or res.truncated:
                break
            state = res.next_state
        if state.hidden.episode is not None:
            state.hidden.episode.close()
        return calls

    def op_batch_episodes(self, k: int) -> int:
        """A batch of 16 multi-turn episodes stepped together until done (or three rounds), then closed."""
        batch = EpisodeBatch(self.guess, [(k + j) % len(self.guess) for j in range(16)])
        calls = 1
        for guess in (50, 25, 75):
            live = batch.live()
            if not live:
                break
            batch.step([f"<answer>{guess}</answer>"] * len(live), live)
            calls += 1
        batch.close()
        return calls

    def op_mask(self, k: int) -> int:
        traj = Trajectory.create(self.env.reset(options={"task_index": k % 1000})[0])
        s0 = traj.initial_state
        res = self.env.step(s0, Action.from_text(self.answer(k, k)))
        traj.add_transition(Transition(state=s0, action=Action.from_text(self.answer(k, k)), next_state=res.next_state,
                                       rewards=res.rewards))
        m = self.masker.mask_trajectory(traj)
        assert len(m.response_ids) == len(m.response_mask)
        return 3  # reset, step, mask

    def op_bad(self, k: int) -> int:
        """Calls that must fail cleanly: they count, and only the documented exceptions are allowed."""
        try:
            self.scorer.score(10**6 + k, "x")
        except IndexError:
            pass
        try:
            environment_registry.get(name="leg_countin", seed=1)
        except (KeyError, ValueError):
            pass
        return 2


MIX = [("score", 30), ("totals", 10), ("score_batch", 10), ("episode", 20), ("items", 8), ("env", 6),
       ("multiturn", 6), ("batch_episodes", 2), ("mask", 6), ("bad", 4)]


def worker(s: Soak, tid: int) -> None:
    schedule = [name for name, w in MIX for _ in range(w)]
    k = tid
    while True:
        name = schedule[k % len(schedule)]
        f = getattr(s, "op_" + name)
        try:
            n = f(k)
        except Exception as e:  # noqa: BLE001 - every error is recorded and fails the run
            with s.lock:
                s.unexpected.append(f"{name}({k}): {type(e).__name__}: {e}")
            n = 1
        with s.lock:
            s.ops[name] += 1
        if s.claim(n) == 0:
            return
        k += 7919  # a prime stride: threads interleave over tasks and operations


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=1_000_000, help="library calls to make in all (default 1,000,000)")
    ap.add_argument("--threads", type=int, default=8, help="Python threads (default 8)")
    ap.add_argument("--report-every", type=int, default=100_000, help="calls between memory reports")
    ap.add_argument("--json", help="also write the figures to this JSON file")
    args = ap.parse_args()

    gc.collect()
    baseline = live()
    s = Soak(args.calls, args.report_every)
    print(f"soak: {args.calls:,} calls from {args.threads} threads; live handles before: {baseline}", flush=True)
    threads = [threading.Thread(target=worker, args=(s, t), daemon=True) for t in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - s.start
    # Release what the run itself holds: its environments, and any state still referenced.
    for env in (s.env, s.guess):
        env.close()
    del s.scorer, s.provider
    gc.collect()
    after = live()
    leaked = {k: after[k] - baseline[k] for k in after if after[k] != baseline[k]}
    print(f"done: {s.done:,} calls in {elapsed:.1f}s ({s.done / elapsed:,.0f} calls/s); operations: {dict(s.ops)}")
    print(f"peak RSS {peak_rss_kib() / 1024:.1f} MiB; live handles after: {after} (baseline {baseline})")
    if s.unexpected:
        print(f"{len(s.unexpected)} unexpected errors, first: {s.unexpected[:5]}")
    if leaked:
        print(f"LEAK: handle counts differ from the baseline: {leaked}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"calls": s.done, "threads": args.threads, "seconds": elapsed, "ops": dict(s.ops),
                       "reports": s.reports, "baseline": baseline, "after": after,
                       "unexpected": s.unexpected[:20]}, f, indent=1)
    return 1 if (leaked or s.unexpected) else 0


if __name__ == "__main__":
    sys.exit(main())
