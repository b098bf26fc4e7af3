"""The environment lifecycle served by Go: reset starts an episode, step advances it."""

from __future__ import annotations

import gc
import json
import pickle
import threading

import pytest

from llenvs_go import _native
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, State


@pytest.fixture()
def env():
    return environment_registry.get(name="leg_counting", size=50, seed=42)


def test_reset_gives_llenvs_state(env):
    state, info = env.reset(options={"task_index": 3})
    assert isinstance(state, State)
    assert state.observation.prompt == state.observation.task.text
    assert state.observation.state is None and state.observation.messages == ()
    assert state.hidden.task_index == 3
    assert state.metadata.step == 0 and not state.metadata.is_terminal
    assert state.metadata.info == {"task_index": 3}
    assert set(info) == {"task_index", "dataset_name", "question"}
    assert info["question"] == state.observation.prompt
    reasoning_gym = pytest.importorskip("reasoning_gym")
    ds = reasoning_gym.create_dataset("leg_counting", size=50, seed=42)
    assert state.observation.prompt == ds[3]["question"]
    assert state.hidden.expected_answer == str(ds[3]["answer"])
    assert state.hidden.entry["metadata"] == json.loads(json.dumps(ds[3]["metadata"]))  # tuples arrive as lists


def test_reset_errors_and_episode_id(env):
    with pytest.raises(ValueError, match="task_index"):
        env.reset(options={})
    with pytest.raises(ValueError, match="out of bounds"):
        env.reset(options={"task_index": 100})
    with pytest.raises(ValueError, match="out of bounds"):
        env.reset(options={"task_index": -1})
    state, _ = env.reset(options={"task_index": 0, "episode_id": "my-episode"})
    assert state.metadata.episode_id == "my-episode"


def test_step_scores_and_terminates(env):
    state, _ = env.reset(options={"task_index": 0})
    right = f"<answer>{state.hidden.expected_answer}</answer>"
    result = env.step(state, Action.from_text(right))
    assert isinstance(result.rewards, SignalBundle)
    assert result.terminated and not result.truncated and result.done
    assert result.rewards.total == 1.0
    c = result.rewards.by_name("correctness")
    assert c.reward == 1.0 and c.reward_type is RewardType.OUTCOME
    assert result.rewards.by_name("format") is None
    assert result.extracted_action == result.resolved_action == state.hidden.expected_answer
    assert result.info["expected_answer"] == state.hidden.expected_answer
    nxt = result.next_state
    assert nxt.metadata.step == 1 and nxt.metadata.is_terminal
    assert nxt.metadata.episode_id == state.metadata.episode_id
    assert nxt.metadata.info["response"] == right
    assert state.metadata.step == 0 and not state.metadata.is_terminal  # the input state is not changed

    wrong = env.step(state, Action.from_text("<answer>-1</answer>"))
    assert wrong.rewards.total == 0.0
    none = env.step(state, Action.from_text("no tags"))
    assert none.extracted_action is None and none.info["extracted_answer"] is None
    again = env.step(state, Action.from_text(right))  # single-turn steps are pure
    assert again.rewards == result.rewards


def test_compute_rewards_and_reward_functions(env):
    state, _ = env.reset(options={"task_index": 1})
    action = Action.from_text(f"<answer>{state.hidden.expected_answer}</answer>")
    assert env.compute_rewards(state, action, state).total == 1.0
    (fn,) = env.reward_functions
    assert fn.name == "correctness" and fn.reward_type is RewardType.OUTCOME
    assert fn.compute(state, action, state).reward == 1.0


class LengthPenalty:
    """A reward function written in Python."""

    name = "length_penalty"
    reward_type = RewardType.STEP

    def compute(self, state, action, next_state) -> Signal:
        return Signal(name=self.name, reward_type=self.reward_type, reward=-0.001 * len(action.text or ""),
                      weight=1.0, metadata={"step": next_state.metadata.step})


def test_python_reward_function_joins_the_signals():
    env = environment_registry.get(name="leg_counting", size=5, seed=1, extra_rewards=("format", LengthPenalty()))
    state, _ = env.reset(options={"task_index": 0})
    text = f"<answer>{state.hidden.expected_answer}</answer>"
    result = env.step(state, Action.from_text(text))
    assert [s.name for s in result.rewards.signals] == ["correctness", "format", "length_penalty"]
    assert result.rewards.by_name("length_penalty").metadata == {"step": 1}
    assert result.rewards.total == pytest.approx(2.0 - 0.001 * len(text))
    assert [f.name for f in env.reward_functions] == ["correctness", "format", "length_penalty"]


def test_episodes_are_freed_on_close_and_collection(env):
    gc.collect()
    base = _native.live_handles(_native.KIND_EPISODE)
    states = [env.reset(options={"task_index": i})[0] for i in range(10)]
    assert _native.live_handles(_native.KIND_EPISODE) == base + 10
    env.step(states[0], Action.from_text("x"))  # a finished single-turn episode is released at once
    assert _native.live_handles(_native.KIND_EPISODE) == base + 9
    states[1].hidden.episode.close()
    assert _native.live_handles(_native.KIND_EPISODE) == base + 8
    del states
    gc.collect()
    assert _native.live_handles(_native.KIND_EPISODE) == base


def test_stale_and_wrong_kind_episode_handles_are_clear_errors(env):
    state, _ = env.reset(options={"task_index": 0})
    handle = state.hidden.episode.handle
    state.hidden.episode.close()
    with pytest.raises(ValueError, match="invalid episode handle"):
        _native.episode_step(handle, 0, 0, b"x", None)
    with pytest.raises(ValueError, match="is an environment, not an episode"):
        _native.episode_step(env.handle, 0, 0, b"x", None)
    # A pure step from a state whose episode is gone starts a fresh one.
    assert env.step(state, Action.from_text("x")).terminated


def test_pickled_state_steps_in_place_of_the_original(env):
    state, _ = env.reset(options={"task_index": 2})
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.hidden.episode is None
    text = f"<answer>{state.hidden.expected_answer}</answer>"
    assert env.step(copy, Action.from_text(text)).rewards == env.step(state, Action.from_text(text)).rewards


def test_concurrent_episodes_match_serial_and_leave_no_handles(env):
    gc.collect()
    base = _native.live_handles(_native.KIND_EPISODE)
    n = 1000

    def outcome(state: State, i: int) -> tuple[float, str | None, int, str]:
        answer = state.hidden.expected_answer if i % 3 == 0 else str(i % 7)
        r = env.step(state, Action.from_text(f"<answer>{answer}</answer>"))
        return r.rewards.total, r.extracted_action, r.next_state.metadata.step, r.next_state.metadata.episode_id

    serial = [outcome(env.reset(options={"task_index": i % len(env), "episode_id": str(i)})[0], i) for i in range(n)]
    # 1,000 episodes live at once, stepped from 8 threads.
    states = [env.reset(options={"task_index": i % len(env), "episode_id": str(i)})[0] for i in range(n)]
    assert _native.live_handles(_native.KIND_EPISODE) == base + n
    results: list[tuple[float, str | None, int, str] | None] = [None] * n

    def worker(k: int) -> None:
        for i in range(k, n, 8):
            results[i] = outcome(states[i], i)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == serial
    assert sum(t for t, _, _, _ in serial) > 0
    states.clear()
    gc.collect()
    assert _native.live_handles(_native.KIND_EPISODE) == base
