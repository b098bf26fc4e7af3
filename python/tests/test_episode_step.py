"""The per-episode step (llenvs_episode_step): only what changed comes back, the step's details are
fetched when first read, and no details handle outlives its result."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest

from llenvs_go import _native
from llenvs_go.core.lazy_mapping import LazyMapping
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import Signal
from llenvs_go.core.state import Action
from llenvs_go.core.tools import ToolCall


def _go(env: Any) -> NativeEnvironment:
    return getattr(env, "native_environment", None) or env


def iterative(**cfg: Any) -> Any:
    return environment_registry.get("leg_counting", size=20, seed=3, iterative={"max_turns": 4, **cfg})


def guess() -> Any:
    return environment_registry.get("guess_number", adapter="native", seed=1, max_turns=6)


def calculator() -> Any:
    return environment_registry.get("calculator_arithmetic", adapter="native", seed=2, max_turns=5)


def _calc(expr: str) -> ToolCall:
    return ToolCall(id="c", name="calculator", arguments={"expression": expr})


SCRIPTS = [
    (iterative, ["<answer>-1</answer>", "no answer", "<answer>-2</answer>", "<answer>-3</answer>"]),
    (lambda: iterative(include_history=False), ["<answer>-1</answer>", "x", "y", "z"]),
    (lambda: iterative(submit_keyword=""), ["<answer>-1</answer>", "SUBMIT <answer>1</answer>", "", "é ✓ 🙂"]),
    (guess, ["<answer>50</answer>", "<answer>25</answer>", "<answer>200</answer>", "nothing",
             "<answer>12</answer>", "<answer>13</answer>"]),
    (calculator, [Action.from_tool_calls([_calc("6 * 7"), _calc("1/0")]),
                  '<tool_call>{"name": "calculator", "arguments": {"expression": "2+3"}}</tool_call>',
                  "<tool_call>not json</tool_call>", Action.from_tool_call(ToolCall(id="z", name="nope")),
                  "<answer>5</answer>"]),
]


def _action(a: Any) -> Action:
    return a if isinstance(a, Action) else Action.from_text(a)


@pytest.mark.parametrize(("make", "script"), SCRIPTS)
def test_details_are_read_once_and_released(make, script):
    """Every step's info and metadata are there when read (as pickling reads them), and the library
    holds no step's details once its result is gone, read or not."""
    import gc

    env = make()
    before = _native.live_handles(_native.KIND_STEP_DETAILS)
    for task in (0, 3):
        a, _ = env.reset(options={"task_index": task, "episode_id": "e"})
        for k, act in enumerate(script):
            try:
                r = env.step(a, _action(act))
            except RuntimeError as e:
                assert "finished" in str(e)
                break
            assert _native.live_handles(_native.KIND_STEP_DETAILS) >= before + 1
            if k % 2 == 0:  # half of them read, half dropped unread
                back = pickle.loads(pickle.dumps(r))
                assert back.info == r.info and isinstance(back.info, dict)
                assert [s.metadata for s in back.rewards] == [s.metadata for s in r.rewards]
            a = r.next_state
            if r.done:
                break
    del a, r
    gc.collect()
    assert _native.live_handles(_native.KIND_STEP_DETAILS) == before


def test_messages_are_built_from_the_previous_observation_and_survive_a_lost_version():
    env = iterative(max_turns=5)
    s, _ = env.reset(options={"task_index": 1})
    first = s.observation.messages
    assert [m["role"] for m in first] == ["system", "user"]
    r = env.step(s, Action.from_text("<answer>-1</answer>"))
    msgs = r.next_state.observation.messages
    assert msgs[:2] == first and msgs[2:] == ({"role": "assistant", "content": "<answer>-1</answer>"},
                                              {"role": "user", "content": "Incorrect, 4 attempts left."})
    assert r.next_state.observation.task is s.observation.task  # unchanged parts are not rebuilt
    ep = s.hidden.episode
    ep.observed = None  # the caller lost track: the library sends the whole observation again
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))
    assert r2.next_state.observation.messages[:4] == msgs and len(r2.next_state.observation.messages) == 6
    obs, version = ep.observed
    ep.observed = (obs, version + 100)  # a version the library does not have: the same
    r3 = env.step(r2.next_state, Action.from_text("<answer>-3</answer>"))
    assert r3.next_state.observation.messages[:6] == r2.next_state.observation.messages


def test_lazy_parts_keep_the_dataclass_contract():
    env = iterative()
    s, _ = env.reset(options={"task_index": 2})
    r = env.step(s, Action.from_text("<answer>-1</answer>"))
    assert isinstance(r.info, LazyMapping) and r.info._dict is None  # still in the library
    assert r.rewards.signals[0].metadata._dict is None
    # pickling, copying and equality read them
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.info["turn"] == 1 and type(back.info) is dict
    assert back.rewards.signals[0].metadata["extracted"] == "-1"
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))
    assert copy.deepcopy(r2) == r2 and copy.copy(r2).info == r2.info
    sig = r2.rewards.signals[0]
    assert dataclasses.asdict(sig)["metadata"] == sig.metadata and dataclasses.replace(sig, reward=0.5).metadata == \
        sig.metadata
    assert "turns_remaining" in repr(r2) and "'extracted': '-2'" in repr(sig)
    assert {**r2.info}["turn"] == 2 and r2.info.copy() == dict(r2.info) and json.dumps(dict(r2.info))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r2.info = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sig.metadata = {}  # type: ignore[misc]
    # constructed ones are unaffected
    plain = Signal(name="x", reward_type="outcome", reward=1.0)
    assert plain.metadata is None and pickle.loads(pickle.dumps(plain)) == plain


def test_lone_surrogates_in_a_step_become_replacement_characters():
    env = iterative()
    s, _ = env.reset(options={"task_index": 0})
    r = env.step(s, Action.from_text("\ud800 <answer>-1</answer>"))  # a lone surrogate
    assert r.info["turn"] == 1 and r.next_state.observation.messages[-2]["content"] == "\ufffd <answer>-1</answer>"
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))
    assert len(r2.next_state.observation.messages) == 6  # system, user, then two exchanges


def test_step_errors_are_python_exceptions():
    env = iterative()
    s, _ = env.reset(options={"task_index": 0})
    ep = s.hidden.episode
    with pytest.raises(ValueError, match="not valid UTF-8"):
        _native.episode_step(ep.handle, 0, 0, b"\xff\xfe", None)
    with pytest.raises(ValueError, match="malformed tool calls"):
        _native.episode_step(ep.handle, 0, 0, None, b"[{")
    with pytest.raises(NotImplementedError, match="stale state"):
        _native.episode_step(ep.handle, 7, 0, b"x", None)
    with pytest.raises(ValueError, match="text=None"):
        env.step(s, Action(text=None))
    ep.close()
    with pytest.raises(ValueError, match="invalid episode handle"):
        _native.episode_step(ep.handle, 0, 0, b"x", None)


def test_entry_is_fetched_when_first_read():
    env = iterative()
    s, _ = env.reset(options={"task_index": 5})
    hidden = s.hidden
    assert isinstance(hidden.entry, LazyMapping) and hidden.entry._dict is None  # left in Go by reset
    entry = hidden.entry
    assert entry == _go(env).entries([5])[0] and entry["answer"] == hidden.expected_answer
    assert hidden.entry._dict is not None and hidden.entry is entry  # fetched once
    s2, _ = env.reset(options={"task_index": 5})
    back = pickle.loads(pickle.dumps(s2.hidden))  # pickling fetches it
    assert back == hidden and back.entry == entry and back.episode is None
    assert dataclasses.replace(s2.hidden, task_index=6).entry == entry


@pytest.mark.parametrize("make", [guess, lambda: environment_registry.get("leg_counting", size=20, seed=3)])
def test_entry_stays_eager_where_the_environment_has_none_or_its_own_hidden_type(make):
    s, _ = make().reset(options={"task_index": 0})
    assert not isinstance(s.hidden.entry, LazyMapping)


def test_episode_ids_are_uuid4_strings():
    import uuid

    env = iterative()
    ids = {env.reset(options={"task_index": 0})[0].metadata.episode_id for _ in range(200)}
    assert len(ids) == 200
    for i in ids:
        u = uuid.UUID(i)
        assert str(u) == i and u.version == 4 and u.variant == uuid.RFC_4122
