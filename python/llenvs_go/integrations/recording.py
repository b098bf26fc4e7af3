"""From an episode played with ``env.reset`` / ``env.step`` to the :class:`Trajectory` that
:class:`~llenvs_go.integrations.TrajectoryMasker` masks.

Two ways, both building each transition with
:func:`~llenvs_go.core.trajectory.transition_from_step` (as the agent loops do):

* :func:`episode_to_trajectory` (or ``Trajectory.from_steps``) from the initial state and the
  ``(action, step_result)`` pairs of the steps;
* :class:`TrajectoryRecorder`, a wrapper of the environment whose ``reset`` and ``step`` pass through
  and record the episode in ``.trajectory`` as it is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from llenvs_go.core.environment import StepResult
from llenvs_go.core.state import Action, State
from llenvs_go.core.trajectory import Trajectory, transition_from_step
from llenvs_go.integrations.agent_loop import action_from_output

StepAction = Action | str | Mapping[str, Any]


def _action(value: Any, k: int) -> Action:
    """An Action as given, or one from a generate_fn output (a str, or a mapping with ``text``)."""
    if isinstance(value, Action):
        return value
    if isinstance(value, str | Mapping):
        return action_from_output(value)
    raise TypeError(f"the action of step {k} must be an Action, a str or a mapping with 'text' (what a "
                    f"generate_fn returns), got {type(value).__name__}")


def episode_to_trajectory(initial_state: State[Any],
                          steps: Iterable[tuple[StepAction, StepResult[Any]]]) -> Trajectory[Any]:
    """The trajectory of an episode played with ``env.reset`` and ``env.step``.

    Args:
        initial_state: the state ``env.reset`` returned (the first item of its ``(state, info)``).
        steps: one ``(action, step_result)`` pair per step, in order: what was passed to ``env.step``
            (an ``Action``; a str or a ``{"text", "token_ids", "logprobs"}`` mapping is turned into one as
            the agent loops do) and the ``StepResult`` it returned.

    The transitions carry each result's ``rewards``, ``resolved_action``, ``extracted_action`` and
    ``info`` (:func:`~llenvs_go.core.trajectory.transition_from_step`). Raises TypeError naming the step
    when a step is not such a pair.
    """
    if isinstance(steps, str | bytes | Mapping) or not isinstance(steps, Iterable):
        raise TypeError(f"steps must be an iterable of (action, step_result) pairs, got {type(steps).__name__}")
    pairs: list[tuple[Action, StepResult[Any]]] = []
    for k, step in enumerate(steps):
        if not isinstance(step, tuple | list) or len(step) != 2:
            size = f" of length {len(step)}" if isinstance(step, tuple | list) else ""
            raise TypeError(f"step {k} must be an (action, step_result) pair, got {type(step).__name__}{size}")
        pairs.append((_action(step[0], k), step[1]))
    return Trajectory.from_steps(initial_state, pairs)


class TrajectoryRecorder:
    """An environment that records its episode: ``reset`` and ``step`` are the wrapped environment's,
    and ``trajectory`` holds the episode since the last ``reset``.

    Every other attribute (``spec``, ``available_tools``, ``len(...)``) is the environment's. One
    recorder records one episode at a time; use one per concurrent episode.

    Args:
        env: any llenvs environment (``reset`` and ``step``).
    """

    def __init__(self, env: Any):
        if not hasattr(env, "reset") or not hasattr(env, "step"):
            raise TypeError(f"TrajectoryRecorder needs an environment (with reset and step), got "
                            f"{type(env).__name__}")
        self.env = env
        self._trajectory: Trajectory[Any] | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[State[Any], dict[str, Any]]:
        """``env.reset(seed=seed, options=options)``; starts a new trajectory from the state it returns."""
        state, info = self.env.reset(seed=seed, options=options)
        self._trajectory = Trajectory.create(state)
        return state, info

    def step(self, state: State[Any], action: Action) -> StepResult[Any]:
        """``env.step(state, action)``, recorded as the trajectory's next transition.

        Raises RuntimeError before ``reset``, and ValueError when ``state`` is not the state the episode
        is at (the last step's ``next_state``, or the reset state): a trajectory is one line of steps.
        """
        traj = self.trajectory
        current = traj.current_state
        if not isinstance(state, State):
            raise TypeError(f"state must be a llenvs_go.core.state.State (the reset state or the last result's "
                            f"next_state), got {type(state).__name__}")
        if state is not current and state != current:
            raise ValueError(f"step from the episode's current state (after {len(traj)} step(s): the last "
                             f"result's next_state); got a state at step {state.metadata.step}")
        if not isinstance(action, Action):
            raise TypeError(f"action must be a llenvs_go.core.state.Action (e.g. Action.from_text(text)), "
                            f"got {type(action).__name__}")
        result = self.env.step(state, action)
        traj.add_transition(transition_from_step(state, action, result))
        return result

    @property
    def trajectory(self) -> Trajectory[Any]:
        """The episode so far. Raises RuntimeError before the first ``reset``."""
        if self._trajectory is None:
            raise RuntimeError("TrajectoryRecorder has no episode yet: call reset() first")
        return self._trajectory

    def __len__(self) -> int:
        return len(self.env)

    # The Environment protocol's members, declared here: from CPython 3.12 a runtime-checkable protocol
    # does not count attributes that only __getattr__ provides.
    @property
    def spec(self) -> Any:
        """The environment's spec."""
        return self.env.spec

    @property
    def prompts(self) -> dict[str, str]:
        """The environment's prompts."""
        return getattr(self.env, "prompts", {})

    @property
    def available_tools(self) -> tuple[Any, ...]:
        """The environment's tools."""
        return tuple(getattr(self.env, "available_tools", ()))

    @property
    def reward_functions(self) -> Any:
        """The environment's reward functions."""
        return getattr(self.env, "reward_functions", ())

    def compute_rewards(self, state: State[Any], action: Action, next_state: State[Any]) -> Any:
        """``env.compute_rewards(...)`` (not recorded: it takes no step)."""
        return self.env.compute_rewards(state, action, next_state)

    def __getattr__(self, name: str) -> Any:
        if name in ("env", "_trajectory"):  # not set yet (e.g. while unpickling)
            raise AttributeError(name)
        return getattr(self.env, name)
