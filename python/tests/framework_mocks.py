"""A small environment written in Python for the framework-adapter tests (llenvs' mock: task i asks "Q{i}?")."""

from __future__ import annotations

import dataclasses
import uuid

from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata


@dataclasses.dataclass(frozen=True)
class QHidden:
    expected_answer: str
    task_index: int


class ExactCorrectness:
    """1.0 when the stripped text is the expected answer."""

    name = "correctness"
    reward_type = RewardType.OUTCOME

    def compute(self, state: State, action: Action, next_state: State) -> Signal:
        found = (action.text or "").strip() == state.hidden.expected_answer
        return Signal(name=self.name, reward_type=self.reward_type, reward=1.0 if found else 0.0)


class QEnvironment:
    """Task i: prompt "Q{i}?", expected answer str(i + offset)."""

    def __init__(self, n: int = 10, offset: int = 0):
        self.n = n
        self.offset = offset
        self.reward_functions = (ExactCorrectness(),)

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="qmock", adapter="mock", max_steps=1, pure_step=True)

    def __len__(self) -> int:
        return self.n

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        i = (options or {})["task_index"]
        if not 0 <= i < self.n:
            raise ValueError(f"task_index {i} out of bounds [0, {self.n})")
        prompt = f"Q{i}?"
        state = State(observation=Observation(prompt=prompt, messages=({"role": "user", "content": prompt},)),
                      hidden=QHidden(expected_answer=str(i + self.offset), task_index=i),
                      metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4()), info={"task_index": i}))
        return state, {"task_index": i}

    def step(self, state: State, action: Action) -> StepResult:
        rewards = SignalBundle(tuple(rf.compute(state, action, state) for rf in self.reward_functions))
        return StepResult(next_state=state.with_metadata(step=1, is_terminal=True), rewards=rewards, terminated=True)


def answers(env, indices) -> list[str]:
    """Correct tagged responses for tasks of a Go-backed environment."""
    _, truths = env.task_texts(list(indices))
    return [f"Let me count. <answer>{t}</answer>" for t in truths]
