"""core/state.py: metadata, state, observation and its images, action (llenvs-spec §1.1-1.4)."""

from __future__ import annotations

import dataclasses

import pytest

from llenvs_go.core.state import (
    Action,
    ImageContent,
    Observation,
    ObservationContent,
    ObservationImages,
    State,
    StateMetadata,
)
from llenvs_go.core.tools import ToolCall


def make_state(**md) -> State[dict]:
    md = {"step": 0, "episode_id": "ep", **md}
    return State(observation=Observation(prompt="Q?"), hidden={"answer": "4"}, metadata=StateMetadata(**md))


def test_state_metadata_defaults_and_fresh_info():
    a = StateMetadata(step=0, episode_id="e")
    b = StateMetadata(step=0, episode_id="e")
    assert a.is_terminal is False and a.info == {}
    assert a.info is not b.info  # default_factory, not one shared dict


def test_with_metadata_replaces_named_fields_only():
    s = make_state(info={"k": 1})
    t = s.with_metadata(step=3, is_terminal=True)
    assert t.metadata == StateMetadata(step=3, episode_id="ep", is_terminal=True, info={"k": 1})
    assert t.observation is s.observation and t.hidden is s.hidden
    assert s.metadata.step == 0 and not s.metadata.is_terminal  # the original is unchanged
    assert s.with_metadata(episode_id="x", info={}).metadata.episode_id == "x"
    with pytest.raises(TypeError):
        s.with_metadata(steps=1)


@pytest.mark.parametrize(
    "obj, attr",
    [
        (StateMetadata(step=0, episode_id="e"), "step"),
        (make_state(), "hidden"),
        (Observation(prompt="p"), "prompt"),
        (ObservationContent(), "text"),
        (ImageContent(data="x"), "source"),
        (ObservationImages(), "task"),
        (Action.from_text("a"), "text"),
    ],
)
def test_frozen(obj, attr):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, attr, None)
    with pytest.raises(AttributeError):
        setattr(obj, attr, None)


def test_observation_defaults():
    o = Observation(prompt="p")
    assert (o.messages, o.tool_results, o.available_tools, o.task, o.state) == ((), (), (), None, None)
    with pytest.raises(TypeError):
        Observation()  # type: ignore[call-arg]


def test_content_and_image_defaults():
    assert ObservationContent() == ObservationContent(text="", images=(), data=None)
    img = ImageContent(data="abc")
    assert (img.media_type, img.source) == ("image/png", "")


def test_get_images_marks_sources_and_orders_task_first():
    t1, t2 = ImageContent(data="t1"), ImageContent(data="t2", media_type="image/jpeg")
    s1 = ImageContent(data="s1", source="whatever")
    o = Observation(prompt="p", task=ObservationContent(text="task", images=(t1, t2)),
                    state=ObservationContent(images=(s1,)))
    imgs = o.get_images()
    assert imgs.task == (ImageContent("t1", "image/png", "task"), ImageContent("t2", "image/jpeg", "task"))
    assert imgs.state == (ImageContent("s1", "image/png", "state"),)
    assert [i.data for i in imgs.all] == ["t1", "t2", "s1"]
    assert imgs
    assert t1.source == "" and s1.source == "whatever"  # copies; the originals are untouched


def test_get_images_without_content_is_falsy():
    assert not Observation(prompt="p").get_images()
    assert Observation(prompt="p").get_images().all == ()
    only_state = Observation(prompt="p", state=ObservationContent(images=(ImageContent(data="s"),)))
    imgs = only_state.get_images()
    assert imgs and imgs.task == () and [i.source for i in imgs.all] == ["state"]
    assert not Observation(prompt="p", task=ObservationContent(text="no images")).get_images()


def test_action_builders():
    call, call2 = ToolCall(id="1", name="f"), ToolCall(id="2", name="g", arguments={"x": 1})
    assert Action.from_text("hi") == Action(text="hi", tool_calls=())
    assert Action.from_tool_call(call) == Action(text=None, tool_calls=(call,))
    a = Action.from_tool_calls([call, call2])
    assert a.text is None and a.tool_calls == (call, call2) and isinstance(a.tool_calls, tuple)
    assert Action() == Action(text=None, tool_calls=())


def test_action_properties_empty_string_counts_as_text():
    call = ToolCall(id="1", name="f")
    empty = Action.from_text("")
    assert empty.has_text and empty.is_text_only and not empty.has_tool_calls
    none = Action()
    assert not none.has_text and not none.is_text_only and not none.has_tool_calls
    calls = Action.from_tool_call(call)
    assert calls.has_tool_calls and not calls.has_text and not calls.is_text_only
    both = Action(text="t", tool_calls=(call,))
    assert both.has_text and both.has_tool_calls and not both.is_text_only


def test_equality_and_repr_are_dataclass_ones():
    assert make_state() == make_state()
    assert make_state() != make_state(step=1)
    assert repr(Action.from_text("x")) == "Action(text='x', tool_calls=(), token_ids=None, logprobs=None)"


def test_action_carries_generated_ids():
    a = Action.from_text("hi", token_ids=[5, 6], logprobs=[-0.5, -0.25])
    assert a.token_ids == (5, 6) and a.logprobs == (-0.5, -0.25)
    assert Action.from_text("hi").token_ids is None and Action().logprobs is None
    assert a == Action(text="hi", token_ids=(5, 6), logprobs=(-0.5, -0.25)) != Action.from_text("hi")
    with pytest.raises(AttributeError):
        a.token_ids = ()  # type: ignore[misc]
