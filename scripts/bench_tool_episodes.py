"""Tool episodes of calculator_arithmetic in every tool-call format: llenvs-go against a Python design, in one run.

    python scripts/bench_tool_episodes.py                  # 4,000 episodes per format
    python scripts/bench_tool_episodes.py --episodes 1000 --repeats 5 --clock cpu

Every episode is a basic_arithmetic task (reasoning-gym's generator, the same seed on both sides) played in
two turns: the model calls the calculator in the format of its family, then answers right. So each format
costs one tool step (the call read from the text, the expression evaluated exactly, the tool result and
the conversation built) and one answer step (the answer read from its tags and scored with the task's
``score_answer``) per episode.

- ``Python design``: a calculator environment written in Python over reasoning-gym, as a user would write
  one with llenvs' types: the calls read with a regular expression and ``json.loads`` per format (the
  parsers of ``bench_tool_calls.py``), the expression evaluated with ``fractions.Fraction`` over Python's
  ``ast``, llenvs' ``ToolResult``, ``Observation``, ``State``, ``Signal`` and ``StepResult`` built per step.
- ``EpisodeBatch``: llenvs-go's batch of Go episodes (``tool_call_format=`` the format), one call into Go
  per turn for all episodes.

Both sides are checked to give the same number of steps and the same total reward. Prints per format the
median seconds of the steps over the repeats, the ratio of the medians and its range (slowest Python run
over fastest llenvs-go run, to fastest over slowest; the machine may be noisy: compare ratios).
"""

from __future__ import annotations

import argparse
import ast
import operator
import re
import statistics
import sys
import time
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_tool_calls import python_parse, render, render_results  # noqa: E402

from llenvs_go.core.environment import StepResult  # noqa: E402
from llenvs_go.core.episodes import EpisodeBatch  # noqa: E402
from llenvs_go.core.registry import environment_registry  # noqa: E402
from llenvs_go.core.reward import RewardType, Signal, SignalBundle  # noqa: E402
from llenvs_go.core.state import Action, Observation, ObservationContent, State, StateMetadata  # noqa: E402
from llenvs_go.core.tools import ToolResult  # noqa: E402

SEED = 11
FORMATS = ("hermes", "qwen3_coder", "llama3_json", "mistral", "gpt_oss", "deepseek")
clock = time.perf_counter

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.Pow: operator.pow}
_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)


def evaluate(expr: str) -> Fraction:
    """An arithmetic expression, exactly: numbers, + - * / **, parentheses."""
    def ev(n: ast.AST) -> Fraction:
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return Fraction(str(n.value))
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            return _OPS[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        raise ValueError("unsupported expression")
    return ev(ast.parse(expr, mode="eval"))


def fmt_number(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else str(float(v))


class PythonCalculator:
    """The Python design of a calculator tool environment (see the module docstring)."""

    def __init__(self, ds: Any, fmt: str, tools: tuple[Any, ...]):
        self.ds, self.fmt, self.tools = ds, fmt, tools

    def reset(self, i: int) -> State:
        entry = self.ds[i]
        prompt = entry["question"] + "\n\nYou can use a calculator. Give your final answer in <answer></answer> tags."
        msgs = ({"role": "user", "content": prompt},)
        return State(observation=Observation(prompt=prompt, messages=msgs, available_tools=self.tools,
                                             task=ObservationContent(text=entry["question"])),
                     hidden={"entry": entry, "turn": 0, "history": list(msgs)},
                     metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4()), info={"task_index": i}))

    def step(self, state: State, action: Action) -> StepResult:
        h = state.hidden
        text = action.text or ""
        turn = h["turn"] + 1
        calls = python_parse(self.fmt, turn, text)
        history = h["history"]
        if calls:
            results = []
            for call, err in calls:
                if err is not None:
                    results.append(ToolResult.from_error(call.id, call.name, err))
                    continue
                try:
                    results.append(ToolResult.success(call.id, call.name,
                                                      fmt_number(evaluate(call.arguments["expression"]))))
                except (ValueError, KeyError, SyntaxError, ZeroDivisionError) as e:
                    results.append(ToolResult.from_error(call.id, call.name, str(e)))
            history.append({"role": "assistant", "content": text})
            history += [{"role": "tool", "content": r.output if not r.is_error else f"Error: {r.error}",
                         "tool_call_id": r.call_id, "name": r.tool_name} for r in results]
            prompt = render_results(self.fmt, [(m["tool_call_id"], m["name"], m["content"])
                                               for m in history[-len(results):]])
            valid = sum(not r.is_error for r in results) / len(results)
            signals = (Signal(name="correctness", reward_type=RewardType.OUTCOME, reward=0.0),
                       Signal(name="tool_validity", reward_type=RewardType.STEP, reward=valid, weight=0.0))
            done, score, answer = False, 0.0, None
        else:
            found = _TAG.findall(text)
            answer = found[-1].strip() if found else None
            score = float(self.ds.score_answer(answer, h["entry"])) if answer is not None else 0.0
            history.append({"role": "assistant", "content": text})
            prompt, done, results = "Episode complete.", answer is not None, []
            signals = (Signal(name="correctness", reward_type=RewardType.OUTCOME, reward=score),
                       Signal(name="tool_validity", reward_type=RewardType.STEP, reward=1.0, weight=0.0))
        obs = Observation(prompt=prompt, messages=tuple(history), tool_results=tuple(results),
                          available_tools=self.tools, task=state.observation.task)
        md = state.metadata
        nxt = State(observation=obs, hidden={**h, "turn": turn},
                    metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=done,
                                           info={**md.info, "response": text}))
        return StepResult(next_state=nxt, rewards=SignalBundle(signals), terminated=done, extracted_action=answer,
                          resolved_action=answer, info={"turn": turn, "extracted_answer": answer})


def scripted(fmt: str, questions: list[str], truths: list[str]) -> list[list[str]]:
    """The model's two turns per episode: a call of the calculator on the task's expression, then the answer."""
    calls = [render(fmt, "calculator", {"expression": q.split("Calculate ", 1)[-1].split(" =", 1)[0].rstrip(".")})
             for q in questions]
    return [["I will use the calculator.\n" + c for c in calls], [f"<answer>{t}</answer>" for t in truths]]


def run_python(fmt: str, n: int, tools: tuple[Any, ...]) -> tuple[float, int, float]:
    import reasoning_gym

    env = PythonCalculator(reasoning_gym.create_dataset("basic_arithmetic", size=n, seed=SEED), fmt, tools)
    states = [env.reset(i) for i in range(n)]
    turns = scripted(fmt, [s.hidden["entry"]["question"] for s in states],
                     [s.hidden["entry"]["answer"] for s in states])
    t0 = clock()
    steps, reward = 0, 0.0
    for texts in turns:
        for k in range(n):
            if states[k].metadata.is_terminal:
                continue
            r = env.step(states[k], Action.from_text(texts[k]))
            states[k] = r.next_state
            steps += 1
            reward += r.rewards.total
    return clock() - t0, steps, reward


def run_batch(fmt: str, n: int) -> tuple[float, int, float]:
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=SEED, size=n, max_turns=4,
                                   tool_call_format=fmt)
    batch = EpisodeBatch(env, range(n))
    import reasoning_gym

    ds = reasoning_gym.create_dataset("basic_arithmetic", size=n, seed=SEED)  # the same tasks (bit-identical ports)
    questions = [ds[i]["question"] for i in range(n)]
    turns = scripted(fmt, questions, [str(t) for t in batch.expected_answers])
    t0 = clock()
    steps, reward = 0, 0.0
    for texts in turns:
        live = batch.live()
        r = batch.step([texts[k] for k in live], live)
        steps += len(live)
        reward += sum(r.totals)
    return clock() - t0, steps, reward


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    global clock
    if args.clock == "cpu":
        clock = time.process_time
    run_formats(args.episodes, args.repeats, args.clock)


def run_formats(n: int, repeats: int, clock_name: str) -> None:
    """The table: per format, the two sides taking turns, ``repeats`` runs each."""
    tools = environment_registry.get("calculator_arithmetic", adapter="native", seed=SEED, size=1).available_tools
    print(f"{n} calculator_arithmetic episodes per format (a tool call, then the answer), median of "
          f"{repeats} runs, {clock_name} clock")
    print(f"{'format':14} {'steps':>6} {'reward':>7} {'Python design s':>16} {'EpisodeBatch s':>15} {'x':>6}   x range")
    for fmt in FORMATS:
        py, go = [], []
        for _ in range(repeats):  # in turns, so that other load falls on both alike
            py.append(run_python(fmt, n, tools))
            go.append(run_batch(fmt, n))
        assert {(s, round(r, 6)) for _, s, r in py} == {(s, round(r, 6)) for _, s, r in go}, \
            f"{fmt}: the two sides disagree: {py[0][1:]} against {go[0][1:]}"
        assert py[0][2] == n, f"{fmt}: {py[0][2]} of {n} episodes right"
        tp, tg = [t for t, _, _ in py], [t for t, _, _ in go]
        mp, mg = statistics.median(tp), statistics.median(tg)
        print(f"{fmt:14} {py[0][1]:>6} {py[0][2]:>7.0f} {mp:>16.4f} {mg:>15.4f} {mp / mg:>6.1f}   "
              f"{min(tp) / max(tg):.1f}-{max(tp) / min(tg):.1f}")


if __name__ == "__main__":
    main()
