"""Stepping many concurrent ``iterative`` episodes: llenvs-go against llenvs' own design, side by side in one run.

    python scripts/bench_multiturn.py                  # 10,000 episodes of leg_counting, up to 3 turns
    python scripts/bench_multiturn.py --episodes 2000 --repeats 5
    python scripts/bench_multiturn.py --workload formats --tool-episodes 2000 --repeats 5 --clock cpu

Every episode is an ``iterative`` leg_counting task (max_turns=3). The model's
turns are scripted and the same on both sides: turn 1 is wrong for every
episode, turn 2 is right for half of them, turn 3 is right for the rest; so
10,000 episodes take 25,000 steps.

- ``llenvs design``: llenvs' IterativeEnvironment (adapters/iterative.py, see
  reference spec section 7b) re-implemented here over its reasoning_gym adapter,
  on the real reasoning-gym package: reset regenerates the entry and stores
  the initial state per task; each step checks the submit keyword, re-scores
  the submission with the inner step (tag extraction + ``score_answer``, twice
  as llenvs does), builds the feedback, messages, State and StepResult.
- ``EpisodeBatch``: llenvs-go's batch of Go episodes, one call into Go per
  turn for all episodes (rewards, flags and next prompts as columns).
- ``env.step``: llenvs-go's per-episode API (``reset``/``step`` with llenvs'
  State objects, as a user or an agent loop takes them): the step sends only
  the action and brings back only what changed (llenvs_episode_step);
  the step's ``info``, its signals' ``metadata`` and the state's
  ``hidden.entry`` are built when first read. The next row reads them on
  every step (the baseline builds them every step).
- ``llenvs' types alone``: no environment at all, only the objects any
  per-episode step of llenvs' API returns (Observation, State, StateMetadata,
  Signal, SignalBundle, StepResult), built through their constructors once
  per step. It is the floor of ``env.step``: its ratio is the most a
  per-episode step could reach against the baseline, which builds them too
  (it resets nothing, so its ``x (all)`` is left out).

Then, per tool-call format (hermes, qwen3_coder, llama3_json, mistral, gpt_oss, deepseek), the tool
episodes of ``bench_tool_episodes.py`` (``--workload formats`` runs only those): ``calculator_arithmetic``
episodes whose model calls the calculator in that family's format, then answers, stepped through
``EpisodeBatch`` against a Python calculator environment over reasoning-gym with llenvs' types
(``--tool-episodes`` per format).

Reported: median seconds per phase over the repeats, the min-max spread, steps
per second, and the speed-up over the llenvs design (ratio of medians). The
machine may be shared and noisy: compare ratios, not absolute times;
``--clock cpu`` times the process's CPU time instead of the wall clock (every
thread counted, so the batch step's parallel Go work counts in full).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.episodes import EpisodeBatch
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, ObservationContent, State, StateMetadata

SEED = 42
MAX_TURNS = 3

# What the table measures; --clock cpu makes it time.process_time (the process's CPU time, every
# thread counted: steadier on a loaded machine, and no help to llenvs-go's parallel batch step).
clock = time.perf_counter

# ---------------------------------------------------------------------------
# The baseline: llenvs' design, in Python, on reasoning-gym.
# ---------------------------------------------------------------------------

_TAG = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)


def extract(text: str) -> tuple[str | None, dict[str, Any]]:
    """llenvs' tag_based extractor: the last complete <answer> tag, trimmed."""
    found = _TAG.findall(text)
    if not found:
        return None, {"found": False}
    return found[-1].strip(), {"found": True, "num_matches": len(found)}


@dataclass(frozen=True)
class RGHidden:
    entry: dict[str, Any]
    expected_answer: str
    task_index: int
    dataset_name: str


class ReasoningGymEnv:
    """llenvs' reasoning_gym adapter: single-turn, pure step, correctness = score_answer of the extraction."""

    def __init__(self, ds: Any):
        self.ds = ds
        self.spec = EnvironmentSpec(name="leg_counting", adapter="reasoning_gym", max_steps=1, pure_step=True)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State, dict]:
        i = (options or {})["task_index"]
        entry = self.ds[i]
        q = entry["question"]
        state = State(observation=Observation(prompt=q, task=ObservationContent(text=q)),
                      hidden=RGHidden(entry, str(entry["answer"]), i, "leg_counting"),
                      metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4()), info={"task_index": i}))
        return state, {"task_index": i, "dataset_name": "leg_counting", "question": q}

    def compute_rewards(self, state: State, action: Action, next_state: State) -> SignalBundle:
        answer, meta = extract(action.text or "")
        reward = 0.0 if answer is None else float(self.ds.score_answer(answer=answer, entry=state.hidden.entry))
        return SignalBundle((Signal(name="correctness", reward_type=RewardType.OUTCOME, reward=reward,
                                    metadata={"extracted": answer, "extraction": meta}),))

    def step(self, state: State, action: Action) -> StepResult:
        rewards = self.compute_rewards(state, action, state)
        md = state.metadata
        nxt = State(observation=state.observation, hidden=state.hidden,
                    metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=True,
                                           info={**md.info, "response": action.text}))
        answer, meta = extract(action.text or "")
        return StepResult(next_state=nxt, rewards=rewards, terminated=True, extracted_action=answer,
                          resolved_action=answer, info={"extracted_answer": answer,
                                                        "expected_answer": state.hidden.expected_answer,
                                                        "extraction_metadata": meta})


@dataclass(frozen=True)
class IterHidden:
    task_index: int
    turn: int
    inner: Any = field(repr=False)


class LlenvsIterative:
    """llenvs' IterativeEnvironment (section 7b): each attempt is re-scored by the inner step on the initial state."""

    TEMPLATE = ("{task}\n\nYou have {turns_remaining} turn(s) to solve this task.\nWhen you are satisfied with your "
                "solution, write SUBMIT at the start of your response.")

    def __init__(self, inner: ReasoningGymEnv, max_turns: int = MAX_TURNS, keyword: str = "SUBMIT",
                 threshold: float = 1.0):
        self.inner, self.max_turns, self.keyword, self.threshold = inner, max_turns, keyword, threshold
        self._initial: dict[int, State] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State, dict]:
        inner_state, info = self.inner.reset(seed=seed, options=options)
        i = inner_state.hidden.task_index
        self._initial[i] = inner_state
        prompt = self.TEMPLATE.format(task=inner_state.observation.prompt, turns_remaining=self.max_turns)
        state = State(observation=Observation(prompt=prompt, messages=()), hidden=IterHidden(i, 0, inner_state.hidden),
                      metadata=StateMetadata(step=0, episode_id=inner_state.metadata.episode_id,
                                             info={"task_index": i}))
        return state, info

    def step(self, state: State, action: Action) -> StepResult:
        text = action.text or ""
        early = text.lstrip().upper().startswith(self.keyword)
        submission = text
        r = self.inner.step(self._initial[state.hidden.task_index], Action.from_text(submission))
        feedback = r.rewards.feedback_texts()
        outcomes = [s.reward for s in r.rewards.by_type(RewardType.OUTCOME) if s.reward is not None]
        solved = bool(outcomes) and max(outcomes) >= self.threshold
        turn = state.hidden.turn + 1
        terminated = early or solved
        truncated = not terminated and turn >= self.max_turns
        if terminated or truncated:
            obs = Observation(prompt="Episode complete.", messages=())
        else:
            fb = "\n".join(feedback)
            obs = Observation(prompt=fb, messages=(*state.observation.messages, {"role": "assistant", "content": text},
                                                   {"role": "user", "content": fb}))
        md = state.metadata
        nxt = State(observation=obs, hidden=IterHidden(state.hidden.task_index, turn, state.hidden.inner),
                    metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id,
                                           is_terminal=terminated or truncated, info=md.info))
        return StepResult(next_state=nxt, rewards=r.rewards, terminated=terminated, truncated=truncated,
                          extracted_action=r.extracted_action, resolved_action=submission, info=r.info)


# ---------------------------------------------------------------------------
# The workload and the three runners.
# ---------------------------------------------------------------------------

def response(turn: int, k: int, truth: str) -> str:
    """The scripted text of episode k at turn (1-based): wrong, then right for even k, then right."""
    right = turn == 3 or (turn == 2 and k % 2 == 0)
    body = "Counting legs animal by animal, then adding them up. "
    return body + (f"<answer>{truth}</answer>" if right else "<answer>-1</answer>")


def scripted(truths: list[str]) -> dict[int, list[str]]:
    """The model's text per turn and episode (made before the steps are timed: the model writes them)."""
    return {turn: [response(turn, k, t) for k, t in enumerate(truths)] for turn in range(1, MAX_TURNS + 1)}


def run_baseline(n: int) -> tuple[float, float, int, float]:
    import reasoning_gym

    ds = reasoning_gym.create_dataset("leg_counting", size=n, seed=SEED)
    env = LlenvsIterative(ReasoningGymEnv(ds))
    t0 = clock()
    states = [env.reset(options={"task_index": k})[0] for k in range(n)]
    reset = clock() - t0
    texts = scripted([s.hidden.inner.expected_answer for s in states])
    t1 = clock()
    steps, reward = 0, 0.0
    live = list(range(n))
    for turn in range(1, MAX_TURNS + 1):
        nxt = []
        for k in live:
            r = env.step(states[k], Action.from_text(texts[turn][k]))
            steps += 1
            reward += r.rewards.total
            states[k] = r.next_state
            if not r.done:
                nxt.append(k)
        live = nxt
    return reset, clock() - t1, steps, reward


def run_batch(n: int) -> tuple[float, float, int, float]:
    env = environment_registry.get("leg_counting", size=n, seed=SEED, iterative={"max_turns": MAX_TURNS})
    _ = env.spec  # the Go environment is built before timing
    t0 = clock()
    batch = EpisodeBatch(env, range(n))
    reset = clock() - t0
    texts = scripted(batch.expected_answers)
    t1 = clock()
    steps, reward = 0, 0.0
    for turn in range(1, MAX_TURNS + 1):
        live = batch.live()
        turn_texts = texts[turn]
        r = batch.step([turn_texts[k] for k in live], live)
        steps += len(live)
        reward += sum(r.totals)
    return reset, clock() - t1, steps, reward


def run_objects(n: int, read_details: bool = False) -> tuple[float, float, int, float]:
    env = environment_registry.get("leg_counting", size=n, seed=SEED, iterative={"max_turns": MAX_TURNS})
    _ = env.spec
    t0 = clock()
    states = [env.reset(options={"task_index": k})[0] for k in range(n)]
    reset = clock() - t0
    texts = scripted([s.hidden.expected_answer for s in states])
    t1 = clock()
    steps, reward = 0, 0.0
    live = list(range(n))
    for turn in range(1, MAX_TURNS + 1):
        nxt = []
        for k in live:
            r = env.step(states[k], Action.from_text(texts[turn][k]))
            steps += 1
            reward += r.rewards.total
            if read_details:  # what the baseline builds eagerly and llenvs-go on first read
                assert r.info["turn"] == turn and r.rewards.signals[0].metadata is not None
                assert states[k].hidden.entry["answer"] is not None
            states[k] = r.next_state
            if not r.done:
                nxt.append(k)
        live = nxt
    return reset, clock() - t1, steps, reward


def run_types_alone(n: int) -> tuple[float, float, int, float]:
    """Build, per step of the same workload, the llenvs objects a per-episode step returns; nothing else."""
    env = environment_registry.get("leg_counting", size=n, seed=SEED, iterative={"max_turns": MAX_TURNS})
    states = [env.reset(options={"task_index": k})[0] for k in range(n)]
    texts = scripted([s.hidden.expected_answer for s in states])
    right = {turn: [f"<answer>{s.hidden.expected_answer}</answer>" in texts[turn][k] for k, s in enumerate(states)]
             for turn in texts}
    t1 = clock()
    steps, reward = 0, 0.0
    live = list(range(n))
    for turn in range(1, MAX_TURNS + 1):
        nxt = []
        for k in live:
            action = Action.from_text(texts[turn][k])
            state = states[k]
            r_ = 1.0 if right[turn][k] else 0.0
            done = r_ == 1.0 or turn == MAX_TURNS
            md = state.metadata
            obs = Observation(prompt="Incorrect.", messages=(*state.observation.messages,
                                                             {"role": "assistant", "content": action.text},
                                                             {"role": "user", "content": "Incorrect."}))
            next_state = State(observation=obs, hidden=state.hidden,
                               metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=done,
                                                      info={**md.info, "response": action.text}))
            signal = Signal(name="correctness", reward_type=RewardType.OUTCOME, reward=r_, feedback=None,
                            weight=1.0, metadata=None)
            r = StepResult(next_state=next_state, rewards=SignalBundle((signal,)), terminated=done,
                           truncated=False, extracted_action=None, resolved_action=action.text, info=None)
            steps += 1
            reward += r.rewards.total
            states[k] = r.next_state
            if not r.done:
                nxt.append(k)
        live = nxt
    return 0.0, clock() - t1, steps, reward


def run_objects_read(n: int) -> tuple[float, float, int, float]:
    return run_objects(n, read_details=True)


def measure(fn: Callable[[int], tuple[float, float, int, float]], n: int, repeats: int) -> dict[str, Any]:
    runs = [fn(n) for _ in range(repeats)]
    checks = {(r[2], round(r[3], 6)) for r in runs}
    assert len(checks) == 1, f"runs disagree: {checks}"
    resets, steps = [r[0] for r in runs], [r[1] for r in runs]
    totals = [r[0] + r[1] for r in runs]
    return {"reset": resets, "step": steps, "total": totals, "steps": runs[0][2], "reward": runs[0][3]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall-clock time (default) or the process's CPU time, all threads counted")
    ap.add_argument("--workload", choices=("iterative", "formats", "all"), default="all",
                    help="the iterative episodes, the tool episodes per tool-call format, or both (default)")
    ap.add_argument("--tool-episodes", type=int, default=2000, help="tool episodes per format")
    args = ap.parse_args()
    global clock
    if args.clock == "cpu":
        clock = time.process_time
    if args.workload != "formats":
        run_iterative(args)
    if args.workload != "iterative":
        import bench_tool_episodes

        bench_tool_episodes.clock = clock
        bench_tool_episodes.run_formats(args.tool_episodes, args.repeats, args.clock)


def run_iterative(args: Any) -> None:
    """The iterative table (see the module docstring)."""
    n = args.episodes
    rows = [("llenvs design (Python, reasoning-gym)", run_baseline), ("llenvs-go EpisodeBatch", run_batch),
            ("llenvs-go env.step per episode", run_objects),
            ("  the same, info/metadata/entry read", run_objects_read),
            ("llenvs' types alone (a step's floor)", run_types_alone)]
    results = {name: measure(fn, n, args.repeats) for name, fn in rows}
    base = results[rows[0][0]]
    for name, r in results.items():
        assert (r["steps"], round(r["reward"], 6)) == (base["steps"], round(base["reward"], 6)), \
            f"{name} disagrees with the baseline: {r['steps']} steps, reward {r['reward']}"
    print(f"{n} concurrent iterative episodes (leg_counting, max_turns={MAX_TURNS}), {base['steps']} steps, "
          f"total reward {base['reward']:.0f}; median of {args.repeats} runs [min-max], {args.clock} clock")
    print(f"{'':40} {'reset s':>18} {'steps s':>18} {'steps/s':>10} {'x (steps)':>10} {'x (all)':>8}")
    for name, r in results.items():
        def cell(xs: list[float]) -> str:
            return f"{statistics.median(xs):.3f} [{min(xs):.3f}-{max(xs):.3f}]"

        med_step = statistics.median(r["step"])
        whole = (f"{statistics.median(base['total']) / statistics.median(r['total']):>8.1f}" if max(r["reset"])
                 else f"{'-':>8}")
        print(f"{name:40} {cell(r['reset']):>18} {cell(r['step']):>18} {r['steps'] / med_step:>10.0f} "
              f"{statistics.median(base['step']) / med_step:>10.1f} {whole}")


if __name__ == "__main__":
    main()
