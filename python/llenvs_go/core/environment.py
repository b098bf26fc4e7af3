"""The environment lifecycle: its spec, the result of a step, and the ``Environment`` protocol.

For code that imported them from here, this module also re-exports the value types of
:mod:`llenvs_go.core.state` (``Action``, ``Observation``, ``State``, ``StateMetadata``) and
:class:`~llenvs_go.core.reward.Signal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from llenvs_go.core.reward import RewardFunction, Signal, SignalBundle, as_bundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.tools import ToolDefinition

__all__ = [
    "Action",
    "Environment",
    "EnvironmentSpec",
    "Observation",
    "Signal",
    "State",
    "StateMetadata",
    "StepResult",
]

HiddenT = TypeVar("HiddenT")


@dataclass(frozen=True)
class EnvironmentSpec:
    """What an environment is.

    Attributes:
        name: the environment's name.
        adapter: the adapter that made it (``"reasoning_gym"``, ...).
        max_steps: the most steps an episode takes, if bounded.
        observation_type: the type of its observations, when declared.
        action_type: the type of the actions it accepts, when declared.
        is_multi_turn: whether an episode may take more than one step.
        supports_task_index: whether ``reset`` takes ``options["task_index"]``.
        supports_len: whether ``len(env)`` gives the number of tasks.
        supports_seed: whether ``reset`` honours ``seed``.
        pure_step: whether ``step`` may be called with any earlier state, as a pure function.
        metadata: environment-specific facts (``dataset_size``, ...).
    """

    name: str
    adapter: str = ""
    max_steps: int | None = None
    observation_type: type | None = None
    action_type: type | None = None
    is_multi_turn: bool = False
    supports_task_index: bool = True
    supports_len: bool = True
    supports_seed: bool = True
    pure_step: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StepResult(Generic[HiddenT]):
    """The outcome of ``step``.

    Attributes:
        next_state: the state the action led to.
        rewards: the reward signals; any iterable of :class:`Signal` is stored as a :class:`SignalBundle`.
        terminated: whether the episode reached its end.
        truncated: whether it was cut short (step limit).
        extracted_action: the extractor's raw output; None when extraction failed or did not run.
        resolved_action: the action the environment understood; None when extraction or mapping failed.
        info: environment-specific details of the step; for a step served by the library, a mapping
            fetched from it when first read (it compares, copies and pickles as a dict).
    """

    next_state: State[HiddenT]
    rewards: SignalBundle
    terminated: bool = False
    truncated: bool = False
    extracted_action: str | None = None
    resolved_action: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.rewards, SignalBundle):
            object.__setattr__(self, "rewards", as_bundle(self.rewards))

    @property
    def done(self) -> bool:
        """Whether the episode ended (terminated or truncated)."""
        return self.terminated or self.truncated

    @property
    def total(self) -> float:
        """``rewards.total``: the weighted sum of the numeric signals."""
        return self.rewards.total




@runtime_checkable
class Environment(Protocol):
    """What every environment provides (Gymnasium's lifecycle: ``reset`` starts an episode, ``step`` advances it).

    Single-turn environments also provide ``__len__`` (the number of tasks); the integrations rely on it.
    """

    @property
    def prompts(self) -> dict[str, str]:
        """Named prompt texts of a multi-turn environment; ``{}`` for single-turn ones."""
        ...

    @property
    def available_tools(self) -> tuple[ToolDefinition, ...]:
        """The tools the model may call."""
        ...

    @property
    def spec(self) -> EnvironmentSpec:
        """What the environment is."""
        ...

    @property
    def reward_functions(self) -> Sequence[RewardFunction]:
        """The reward functions whose signals make up each step's rewards, in order."""
        ...

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[State[Any], dict[str, Any]]:
        """Start an episode; return its first state and an info dict."""
        ...

    def step(self, state: State[Any], action: Action) -> StepResult[Any]:
        """Apply ``action`` to ``state``."""
        ...

    def compute_rewards(self, state: State[Any], action: Action, next_state: State[Any]) -> SignalBundle:
        """The signals of the transition ``state --action--> next_state``."""
        ...
