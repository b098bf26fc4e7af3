"""The per-episode step crossing (llenvs_episode_step_told): only what changed comes back, and the
StepResult it builds is the one the full JSON reply builds, lazily decoded parts included."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from llenvs_go import _native
from llenvs_go.core.environment import StepResult
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import Signal
from llenvs_go.core.state import Action
from llenvs_go.core.tools import ToolCall


def _go(env: Any) -> NativeEnvironment:
    return getattr(env, "native_environment", None) or env


def full_reply_step(env: Any, state: Any, action: Action) -> StepResult:
    """The step through the JSON request/reply of llenvs_episode_step (the whole observation sent back)."""
    go = _go(env)
    return go._step_reply(state, action, go._advance(state, action))


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
def test_told_step_equals_full_reply(make, script):
    """Two episodes of the same task, one stepped through each crossing: same results, every field."""
    env = make()
    for task in (0, 3):
        a, _ = env.reset(options={"task_index": task, "episode_id": "e"})
        b, _ = env.reset(options={"task_index": task, "episode_id": "e"})
        for k, act in enumerate(script):
            action = _action(act)
            try:
                ra = env.step(a, action)
            except Exception as e:  # noqa: BLE001 - the full path must raise the same
                with pytest.raises(type(e), match="finished"):
                    full_reply_step(env, b, action)
                break
            rb = full_reply_step(env, b, action)
            assert ra == rb, f"step {k}"
            assert ra.info == rb.info and ra.next_state.observation == rb.next_state.observation
            assert [s.metadata for s in ra.rewards] == [s.metadata for s in rb.rewards]
            a, b = ra.next_state, rb.next_state
            if ra.done:
                break


def test_messages_are_built_from_the_previous_observation_and_survive_a_lost_version():
    env = iterative(max_turns=5)
    s, _ = env.reset(options={"task_index": 1})
    first = s.observation.messages
    r = env.step(s, Action.from_text("<answer>-1</answer>"))
    msgs = r.next_state.observation.messages
    assert msgs[:1] == first and msgs[1:] == ({"role": "assistant", "content": "<answer>-1</answer>"},
                                              {"role": "user", "content": "Incorrect, 4 attempts left."})
    assert r.next_state.observation.task is s.observation.task  # unchanged parts are not rebuilt
    ep = s.hidden.episode
    ep.told = None  # the caller lost track: the library sends the whole observation again
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))
    assert r2.next_state.observation.messages[:3] == msgs and len(r2.next_state.observation.messages) == 5
    obs, version = ep.told
    ep.told = (obs, version + 100)  # a version the library does not have: the same
    r3 = env.step(r2.next_state, Action.from_text("<answer>-3</answer>"))
    assert r3.next_state.observation.messages[:5] == r2.next_state.observation.messages


def test_lazy_parts_keep_the_dataclass_contract():
    env = iterative()
    s, _ = env.reset(options={"task_index": 2})
    r = env.step(s, Action.from_text("<answer>-1</answer>"))
    assert "info" not in r.__dict__ and "metadata" not in r.rewards.signals[0].__dict__  # still encoded
    # pickling, copying and equality read them
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.info["turn"] == 1 and "_info_source" not in back.__dict__
    assert back.rewards.signals[0].metadata["extracted"] == "-1"
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))
    assert copy.deepcopy(r2) == r2 and copy.copy(r2).info == r2.info
    sig = r2.rewards.signals[0]
    assert dataclasses.asdict(sig)["metadata"] == sig.metadata and dataclasses.replace(sig, reward=0.5).metadata == \
        sig.metadata
    assert "turns_remaining" in repr(r2) and "'extracted': '-2'" in repr(sig)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r2.info = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sig.metadata = {}  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = r2.nope  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = sig.nope  # type: ignore[attr-defined]
    # constructed ones are unaffected
    plain = Signal(name="x", reward_type="outcome", reward=1.0)
    assert plain.metadata is None and pickle.loads(pickle.dumps(plain)) == plain


def test_text_that_is_not_utf8_encodable_takes_the_json_request():
    env = iterative()
    s, _ = env.reset(options={"task_index": 0})
    r = env.step(s, Action.from_text("\ud800 <answer>-1</answer>"))  # a lone surrogate
    assert r.info["turn"] == 1 and r.next_state.observation.messages[1]["content"] == "\ufffd <answer>-1</answer>"
    r2 = env.step(r.next_state, Action.from_text("<answer>-2</answer>"))  # and back on the told path
    assert len(r2.next_state.observation.messages) == 5


def test_told_errors_are_python_exceptions():
    env = iterative()
    s, _ = env.reset(options={"task_index": 0})
    ep = s.hidden.episode
    with pytest.raises(ValueError, match="not valid UTF-8"):
        _native.episode_step_told(ep.handle, 0, 0, b"\xff\xfe", None)
    with pytest.raises(ValueError, match="malformed tool calls"):
        _native.episode_step_told(ep.handle, 0, 0, None, b"[{")
    with pytest.raises(NotImplementedError, match="stale state"):
        _native.episode_step_told(ep.handle, 7, 0, b"x", None)
    with pytest.raises(ValueError, match="text=None"):
        env.step(s, Action(text=None))
    ep.close()
    with pytest.raises(ValueError, match="invalid episode handle"):
        _native.episode_step_told(ep.handle, 0, 0, b"x", None)


def test_entry_is_fetched_when_first_read():
    env = iterative()
    s, _ = env.reset(options={"task_index": 5})
    hidden = s.hidden
    assert "entry" not in hidden.__dict__  # left in Go by reset
    entry = hidden.entry
    assert entry == _go(env).entries([5])[0] and entry["answer"] == hidden.expected_answer
    assert hidden.__dict__["entry"] is entry  # fetched once
    s2, _ = env.reset(options={"task_index": 5})
    back = pickle.loads(pickle.dumps(s2.hidden))  # pickling fetches it
    assert back == hidden and back.entry == entry and back.episode is None
    assert dataclasses.replace(s2.hidden, task_index=6).entry == entry
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = s2.hidden.nope


@pytest.mark.parametrize("make", [guess, lambda: environment_registry.get("leg_counting", size=20, seed=3)])
def test_entry_stays_eager_where_the_environment_has_none_or_its_own_hidden_type(make):
    s, _ = make().reset(options={"task_index": 0})
    assert "entry" in s.hidden.__dict__


def test_episode_ids_are_uuid4_strings():
    import uuid

    env = iterative()
    ids = {env.reset(options={"task_index": 0})[0].metadata.episode_id for _ in range(200)}
    assert len(ids) == 200
    for i in ids:
        u = uuid.UUID(i)
        assert str(u) == i and u.version == 4 and u.variant == uuid.RFC_4122
