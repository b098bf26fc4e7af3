"""The value types of the environment lifecycle: spec, observation, action, state, signals, step result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EnvironmentSpec:
    """What an environment is (llenvs' ``EnvironmentSpec`` fields)."""

    name: str
    adapter: str = ""
    max_steps: int | None = None
    is_multi_turn: bool = False
    supports_task_index: bool = True
    supports_len: bool = True
    supports_seed: bool = True
    pure_step: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)

@dataclass(frozen=True)
class Action:
    """What the model did: its text (``None`` when it produced none)."""

    text: str | None = None

    @classmethod
    def from_text(cls, text: str) -> Action:
        """An action made of text only."""
        return cls(text=text)

@dataclass(frozen=True)
class Observation:
    """What the model sees: the prompt and, for chat environments, messages."""

    prompt: str
    messages: tuple[dict[str, Any], ...] = ()

@dataclass(frozen=True)
class TaskHidden:
    """What the model does not see; ``expected_answer`` is the ground truth."""

    task_index: int
    expected_answer: str | None
    dataset_name: str

@dataclass(frozen=True)
class StateMetadata:
    """Step counter, episode id, terminal flag and environment info."""

    step: int
    episode_id: str
    is_terminal: bool = False
    info: dict[str, Any] = field(default_factory=dict)

@dataclass(frozen=True)
class State:
    """An environment state: observation, hidden part and metadata."""

    observation: Observation
    hidden: TaskHidden
    metadata: StateMetadata

@dataclass(frozen=True)
class Signal:
    """One named reward: the unweighted value, its weight and metadata."""

    name: str
    reward_type: str
    reward: float | None
    weight: float = 1.0
    metadata: dict[str, Any] | None = None
    feedback: str | None = None

@dataclass(frozen=True)
class StepResult:
    """The outcome of ``step``: next state, reward signals and flags."""

    next_state: State
    rewards: tuple[Signal, ...]
    terminated: bool = False
    truncated: bool = False
    extracted_action: str | None = None
    resolved_action: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        """Whether the episode ended (terminated or truncated)."""
        return self.terminated or self.truncated

    @property
    def total(self) -> float:
        """Weighted sum of the numeric signals."""
        return sum(s.reward * s.weight for s in self.rewards if s.reward is not None)
