"""core/environment.py: EnvironmentSpec, StepResult, the Environment protocol (llenvs-spec §1.7-1.9)."""

from __future__ import annotations

import dataclasses
import pickle
import uuid

import pytest

from llenvs_go.core import environment, reward, state
from llenvs_go.core.environment import Environment, EnvironmentSpec, StepResult
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata


def test_reexports_are_the_same_objects():
    assert environment.Action is state.Action and environment.Observation is state.Observation
    assert environment.State is state.State and environment.StateMetadata is state.StateMetadata
    assert environment.Signal is reward.Signal


def test_spec_defaults_and_frozen():
    s = EnvironmentSpec(name="x")
    assert (s.adapter, s.max_steps, s.observation_type, s.action_type) == ("", None, None, None)
    assert (s.is_multi_turn, s.supports_task_index, s.supports_len, s.supports_seed, s.pure_step) == (
        False, True, True, True, False)
    assert s.metadata == {} and s.metadata is not EnvironmentSpec(name="y").metadata
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.name = "y"  # type: ignore[misc]
    typed = EnvironmentSpec(name="x", observation_type=Observation, action_type=Action)
    assert typed.observation_type is Observation and typed.action_type is Action


def st(step=0, terminal=False) -> State[None]:
    return State(observation=Observation(prompt="p"), hidden=None,
                 metadata=StateMetadata(step=step, episode_id="e", is_terminal=terminal))


def test_step_result_defaults_done_and_total():
    r = StepResult(next_state=st(1), rewards=SignalBundle.single(1.0))
    assert (r.terminated, r.truncated, r.extracted_action, r.resolved_action, r.info) == (False, False, None, None, {})
    assert not r.done and r.total == 1.0
    assert StepResult(next_state=st(1), rewards=SignalBundle.empty(), terminated=True).done
    assert StepResult(next_state=st(1), rewards=SignalBundle.empty(), truncated=True).done
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.terminated = True  # type: ignore[misc]


def test_step_result_wraps_signal_sequences():
    sigs = (Signal(name="a", reward_type="outcome", reward=1.0, weight=0.5),
            Signal(name="b", reward_type=RewardType.FORMAT, feedback="only feedback"))
    r = StepResult(next_state=st(1), rewards=sigs)
    assert isinstance(r.rewards, SignalBundle) and r.rewards.signals == sigs
    assert r.total == 0.5 and r.rewards.by_name("b").reward is None
    assert StepResult(next_state=st(1), rewards=list(sigs)) == r


class CountingEnv:
    """A minimal single-turn environment: the reward is 1.0 when the text is the task index."""

    prompts: dict = {}
    available_tools: tuple = ()
    spec = EnvironmentSpec(name="counting", max_steps=1, pure_step=True)
    reward_functions: tuple = ()

    def __len__(self):
        return 3

    def reset(self, *, seed=None, options=None):
        i = (options or {})["task_index"]
        s = State(observation=Observation(prompt=f"say {i}"), hidden=i,
                  metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4())))
        return s, {"task_index": i}

    def compute_rewards(self, state, action, next_state):
        return SignalBundle.single(1.0 if action.text == str(state.hidden) else 0.0, name="correctness")

    def step(self, state, action):
        nxt = state.with_metadata(step=state.metadata.step + 1, is_terminal=True)
        return StepResult(next_state=nxt, rewards=self.compute_rewards(state, action, nxt), terminated=True)


def test_environment_protocol():
    env = CountingEnv()
    assert isinstance(env, Environment)
    s, info = env.reset(options={"task_index": 2})
    r = env.step(s, Action.from_text("2"))
    assert info == {"task_index": 2} and r.done and r.total == 1.0 and r.next_state.metadata.step == 1
    assert not isinstance(object(), Environment)

    class NoStep:
        prompts: dict = {}
        available_tools = ()
        spec = None
        reward_functions = ()

        def reset(self, *, seed=None, options=None): ...

        def compute_rewards(self, state, action, next_state): ...

    assert not isinstance(NoStep(), Environment)


def test_value_types_pickle():
    r = StepResult(next_state=st(1, terminal=True), rewards=(Signal(name="a", reward_type="step", reward=-0.1),),
                   terminated=True, extracted_action="4", info={"k": [1]})
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.rewards.signals[0].reward_type is RewardType.STEP
