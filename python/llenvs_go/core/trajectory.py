"""Episode histories with named checkpoints and branching (llenvs' ``core/trajectory.py``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from llenvs_go.core.environment import StepResult
from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.state import Action, State

HiddenT = TypeVar("HiddenT")


@dataclass(frozen=True)
class Transition(Generic[HiddenT]):
    """One step of an episode: the state, the action taken, the state it led to, and its rewards.

    ``extracted_action`` and ``resolved_action`` mean what they mean on ``StepResult``.
    """

    state: State[HiddenT]
    action: Action
    next_state: State[HiddenT]
    rewards: SignalBundle
    resolved_action: str | None = None
    extracted_action: str | None = None
    info: dict[str, Any] = field(default_factory=dict)


def _type_name(value: Any) -> str:
    return "a tuple" if isinstance(value, tuple) else type(value).__name__


def transition_from_step(state: State[HiddenT], action: Action, result: StepResult[HiddenT]) -> Transition[HiddenT]:
    """The transition of one ``env.step(state, action)`` that returned ``result``.

    It carries the result's ``next_state``, ``rewards``, ``resolved_action``, ``extracted_action`` and
    ``info`` (copied into a plain dict). The agent loops record their steps with this function, so a
    trajectory built by hand from the same steps is the same.

    Raises TypeError when ``state`` is not a ``State``, ``action`` not an ``Action`` or ``result`` not
    a ``StepResult``.
    """
    if not isinstance(state, State):
        hint = " (env.reset returns (state, info): pass the state)" if isinstance(state, tuple) else ""
        raise TypeError(f"state must be a llenvs_go.core.state.State, got {_type_name(state)}{hint}")
    if not isinstance(action, Action):
        raise TypeError(f"action must be a llenvs_go.core.state.Action (e.g. Action.from_text(text)), "
                        f"got {_type_name(action)}")
    if not isinstance(result, StepResult):
        raise TypeError(f"result must be the llenvs_go.core.environment.StepResult that env.step returned, "
                        f"got {_type_name(result)}")
    return Transition(state=state, action=action, next_state=result.next_state, rewards=result.rewards,
                      resolved_action=result.resolved_action, extracted_action=result.extracted_action,
                      info=dict(result.info))


@dataclass(frozen=True)
class Checkpoint(Generic[HiddenT]):
    """A named point of a trajectory: after ``step_index`` transitions, at ``state``."""

    name: str
    trajectory_id: str
    step_index: int
    state: State[HiddenT]


@dataclass
class Trajectory(Generic[HiddenT]):
    """The mutable history of one episode: an initial state and the transitions appended to it.

    Transitions are not checked for continuity: ``add_transition`` appends whatever it is given.
    """

    episode_id: str
    initial_state: State[HiddenT]
    _transitions: list[Transition[HiddenT]] = field(default_factory=list)
    _checkpoints: dict[str, Checkpoint[HiddenT]] = field(default_factory=dict)
    _parent_trajectory_id: str | None = None

    @classmethod
    def create(cls, initial_state: State[HiddenT]) -> Trajectory[HiddenT]:
        """An empty trajectory whose episode id is the initial state's."""
        return cls(episode_id=initial_state.metadata.episode_id, initial_state=initial_state)

    @classmethod
    def from_steps(cls, initial_state: State[HiddenT],
                   steps: Iterable[tuple[Action, StepResult[HiddenT]]]) -> Trajectory[HiddenT]:
        """The trajectory of an episode played with ``env.reset`` and ``env.step``.

        Args:
            initial_state: the state ``env.reset`` returned (the first item of its ``(state, info)``).
            steps: one ``(action, step_result)`` pair per step, in order: the action passed to
                ``env.step`` and the ``StepResult`` it returned. Each step is taken from the state the
                previous one led to (the first from ``initial_state``).

        Each transition is built by :func:`transition_from_step`. Raises TypeError naming the step
        when a step is not an ``(Action, StepResult)`` pair.
        """
        if not isinstance(initial_state, State):
            hint = " (env.reset returns (state, info): pass the state)" if isinstance(initial_state, tuple) else ""
            raise TypeError(f"initial_state must be a llenvs_go.core.state.State, got "
                            f"{_type_name(initial_state)}{hint}")
        if isinstance(steps, str | bytes) or not isinstance(steps, Iterable):
            raise TypeError(f"steps must be an iterable of (action, step_result) pairs, got {_type_name(steps)}")
        traj = cls.create(initial_state)
        state = initial_state
        for k, step in enumerate(steps):
            if not isinstance(step, tuple | list) or len(step) != 2:
                raise TypeError(f"step {k} must be an (action, step_result) pair, got {_type_name(step)}"
                                + (f" of length {len(step)}" if isinstance(step, tuple | list) else ""))
            action, result = step
            if not isinstance(action, Action) or not isinstance(result, StepResult):
                raise TypeError(f"step {k} must be an (Action, StepResult) pair: the action passed to env.step "
                                f"and what it returned; got ({_type_name(action)}, {_type_name(result)})")
            t = transition_from_step(state, action, result)
            traj.add_transition(t)
            state = t.next_state
        return traj

    def add_transition(self, transition: Transition[HiddenT]) -> None:
        """Append ``transition``."""
        self._transitions.append(transition)

    def checkpoint(self, name: str) -> Checkpoint[HiddenT]:
        """Record a checkpoint named ``name`` at the current position and return it.

        Raises ValueError ``"Checkpoint '<name>' already exists"`` when the name is taken.
        """
        if name in self._checkpoints:
            raise ValueError(f"Checkpoint '{name}' already exists")
        cp = Checkpoint(name=name, trajectory_id=self.episode_id, step_index=len(self._transitions),
                        state=self.current_state)
        self._checkpoints[name] = cp
        return cp

    def branch(self, checkpoint_name: str) -> Trajectory[HiddenT]:
        """A new trajectory with a fresh uuid episode id, the same initial state, and the transitions up to
        the checkpoint; it has no checkpoints and records this trajectory as its parent.

        Raises KeyError when there is no checkpoint of that name.
        """
        cp = self._checkpoints.get(checkpoint_name)
        if cp is None:
            raise KeyError(f"Checkpoint '{checkpoint_name}' not found")
        return Trajectory(episode_id=str(uuid.uuid4()), initial_state=self.initial_state,
                          _transitions=self._transitions[: cp.step_index],
                          _parent_trajectory_id=self.episode_id)

    def state_at(self, index: int) -> State[HiddenT]:
        """The state after ``index`` transitions: 0 is the initial state.

        Raises IndexError when ``index`` is negative or greater than the number of transitions.
        """
        if index < 0:
            raise IndexError(f"Index {index} is negative")
        if index > len(self._transitions):
            raise IndexError(f"Index {index} exceeds trajectory length {len(self._transitions)}")
        return self.initial_state if index == 0 else self._transitions[index - 1].next_state

    @property
    def current_state(self) -> State[HiddenT]:
        """The ``next_state`` of the last transition, or the initial state when there is none."""
        return self._transitions[-1].next_state if self._transitions else self.initial_state

    @property
    def transitions(self) -> tuple[Transition[HiddenT], ...]:
        """The transitions, in order."""
        return tuple(self._transitions)

    @property
    def checkpoints(self) -> dict[str, Checkpoint[HiddenT]]:
        """The checkpoints by name (a copy)."""
        return dict(self._checkpoints)

    @property
    def parent_trajectory_id(self) -> str | None:
        """The episode id of the trajectory this one was branched from, or None."""
        return self._parent_trajectory_id

    def __len__(self) -> int:
        return len(self._transitions)

    @property
    def total_reward(self) -> float:
        """The sum of the transitions' ``rewards.total``."""
        return float(sum(t.rewards.total for t in self._transitions))

    @property
    def is_terminal(self) -> bool:
        """Whether the current state is terminal."""
        return self.current_state.metadata.is_terminal
