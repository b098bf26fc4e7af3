"""TrajectoryMasker with a one-token-per-character tokenizer: exact masks (llenvs' tests/test_token_mask.py
and the layout of llenvs-spec §8.4), tool calls and errors, carried ids, truncation at every boundary."""

from __future__ import annotations

import dataclasses
import json
import sys

import pytest
from mask_helpers import MockTokenizer, state, tool_episode, trajectory

from llenvs_go import _native
from llenvs_go.core.lazy_mapping import LazyTuple
from llenvs_go.core.state import Action
from llenvs_go.integrations import MaskedTrajectory, TokenSpan, TrajectoryMasker

enc = MockTokenizer().encode


def interleaved():
    return trajectory("Q?", [(Action.from_text("try1"), state("feedback1", 1), 0.0),
                             (Action.from_text("try2"), state("feedback1", 2, terminal=True), 1.0)])


def masker(**kw):
    return TrajectoryMasker(MockTokenizer(), **kw)


def test_types_are_frozen():
    span = TokenSpan(text="a", token_ids=(97,), source="model", step_index=0)
    m = MaskedTrajectory(prompt_ids=(1,), response_ids=(97,), response_mask=(1,), spans=(span,), rewards=(1.0,))
    for obj, name in ((span, "text"), (m, "prompt_ids")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, None)
    assert (m.num_turns, m.truncated, m.token_rewards, m.response_logprobs) == (0, False, (), None)


def test_single_turn():
    m = masker().mask_trajectory(trajectory("Q?", [(Action.from_text("A!"), state("Q?", 1, terminal=True), 1.0)]))
    assert m.prompt_ids == tuple(enc("Q?"))
    assert m.response_ids == tuple(enc("A!"))
    assert m.response_mask == (1, 1)
    assert m.rewards == (1.0,) and m.num_turns == 1 and not m.truncated
    assert m.token_rewards == (0.0, 1.0)
    assert [s.source for s in m.spans] == ["model"]


def test_interleaved_exact():
    m = masker().mask_trajectory(interleaved())
    assert m.response_ids == tuple(enc("try1") + enc("feedback1") + enc("try2"))
    assert m.response_mask == (1,) * 4 + (0,) * 9 + (1,) * 4
    assert m.rewards == (0.0, 1.0)
    assert [(s.source, s.step_index, s.text) for s in m.spans] == [
        ("model", 0, "try1"), ("environment", 0, "feedback1"), ("model", 1, "try2")]
    assert m.token_rewards[-1] == 1.0 and sum(m.token_rewards) == 1.0


def test_empty_trajectory_and_batch():
    empty = trajectory("Q?", [])
    m = masker().mask_trajectory(empty)
    assert (m.prompt_ids, m.response_ids, m.response_mask, m.spans, m.rewards) == (tuple(enc("Q?")), (), (), (), ())
    batch = masker().mask_batch([interleaved(), empty, interleaved()])
    assert [len(b.response_ids) for b in batch] == [17, 0, 17]
    assert batch[0] == batch[2] == masker().mask_trajectory(interleaved())
    assert masker().mask_batch([]) == []


def test_tool_calls_errors_and_empty_action_exact():
    m = masker().mask_trajectory(tool_episode())
    call1 = json.dumps({"id": "c1", "name": "calculator", "arguments": {"expression": "2+2"}})
    call2 = json.dumps({"id": "c2", "name": "calculator", "arguments": {"expression": "1/0"}})
    want = [("model", 0, call1), ("environment", 0, "4"),
            ("model", 1, "check"), ("model", 1, call2), ("environment", 1, "division by zero"),
            ("model", 2, ""), ("environment", 2, "Answer in tags."),
            ("model", 3, "<answer>4</answer>")]
    assert [(s.source, s.step_index, s.text) for s in m.spans] == want
    assert m.response_ids == tuple(enc("".join(t for _, _, t in want)))
    assert m.response_mask == tuple(b for s, _, t in want for b in [int(s == "model")] * len(t))
    assert all(s.token_ids == tuple(enc(s.text)) for s in m.spans)
    # the empty action's reward (0.0) and every other land on model tokens; the sum is kept
    assert sum(m.token_rewards) == pytest.approx(sum(m.rewards)) == pytest.approx(0.9)
    assert m.token_rewards[len(call1) + len("4") + len("check") + len(call2) - 1] == pytest.approx(-0.1)
    assert all(m.response_mask[i] == 1 for i, r in enumerate(m.token_rewards) if r)


def test_last_transition_has_no_environment_span():
    m = masker().mask_trajectory(trajectory("Q?", [(Action.from_text("a"), state("changed", 1, terminal=True), 1.0)]))
    assert [s.source for s in m.spans] == ["model"]


def test_unchanged_prompt_gives_no_environment_span():
    m = masker().mask_trajectory(trajectory("Q?", [(Action.from_text("a"), state("Q?", 1), 0.0),
                                                   (Action.from_text("b"), state("Q?", 2, terminal=True), 1.0)]))
    assert [s.source for s in m.spans] == ["model", "model"]


def test_carried_ids_are_used_as_they_are():
    ids = (7, 8, 9, 2)  # deliberately not enc(text), with a final end-of-turn id
    t = trajectory("Q?", [(Action.from_text("xy", token_ids=ids, logprobs=[-0.1, -0.2, -0.3, -0.4]),
                           state("fb", 1), 0.5),
                          (Action.from_text("z"), state("fb", 2, terminal=True), 1.0)])
    m = masker().mask_trajectory(t)
    assert m.response_ids == ids + tuple(enc("fb")) + tuple(enc("z"))
    assert m.response_mask == (1, 1, 1, 1, 0, 0, 1)
    assert m.response_logprobs == (-0.1, -0.2, -0.3, -0.4, 0.0, 0.0, 0.0)
    assert m.token_rewards == (0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0)
    assert m.spans[0].text == "xy" and m.spans[0].token_ids == ids


@pytest.mark.parametrize("hide_numpy", [False, True])
def test_token_ids_read_back_as_they_were_at_every_size(monkeypatch, hide_numpy):
    # Ids come back through a table of shared int objects (with numpy), grown to the largest id up to 2**20;
    # larger ids, and a process without numpy, are read one by one. Every path gives the ids unchanged.
    if hide_numpy:
        monkeypatch.setitem(sys.modules, "numpy", None)
    sizes = (0, 5, 2**16 - 1, 2**16, 2**20 - 1, 2**20, 2**31 - 1)
    for ids in (sizes[:4], sizes[:5], sizes, sizes[:3]):
        t = trajectory("Q?", [(Action.from_text("x", token_ids=ids), state("fb", 1), 0.0),
                              (Action.from_text("y"), state("fb", 2, terminal=True), 1.0)])
        got = masker().mask_batch([t, t])
        want = ids + tuple(enc("fb")) + tuple(enc("y"))
        assert [m.response_ids for m in got] == [want, want]
        assert [m.prompt_ids for m in got] == [tuple(enc("Q?"))] * 2
        assert all(type(i) is int for i in got[1].response_ids)
        if not hide_numpy and max(ids) < 2**19:  # one shared int object per id, in every result
            assert all(x is y for x, y in zip(got[0].response_ids, got[1].response_ids, strict=True))


def test_truncation_at_every_boundary():
    full = masker().mask_trajectory(tool_episode())
    n = len(full.response_ids)
    for limit in range(n + 2):
        m = masker(max_length=limit).mask_trajectory(tool_episode())
        k = min(limit, n)
        assert m.response_ids == full.response_ids[:k], limit
        assert m.response_mask == full.response_mask[:k]
        assert m.truncated == (limit < n)
        assert m.prompt_ids == full.prompt_ids and m.rewards == full.rewards and m.num_turns == 4
        assert len(m.token_rewards) == k
        if k:
            assert sum(m.token_rewards) == pytest.approx(0.9)
        assert tuple(t for s in m.spans for t in s.token_ids) == m.response_ids
        assert all(s.text == MockTokenizer().decode(list(s.token_ids)) for s in m.spans)


def test_errors():
    with pytest.raises(ValueError, match="max_length"):
        masker(max_length=-1)
    with pytest.raises(ValueError, match="no chat template"):
        masker(chat_template=True)


def test_abi_rejects_bad_input():
    from llenvs_go._native import ffi

    L = _native.lib()
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    toks = ffi.new("int32_t[]", [1, 2])
    offs = ffi.new("int64_t[]", [0, 2])
    segs = ffi.new("int32_t[]", [5, 0, 0])  # fragment 5 does not exist
    soffs = ffi.new("int64_t[]", [0, 1])
    roffs = ffi.new("int64_t[]", [0, 0])
    schema, array = ffi.new("struct ArrowSchema *"), ffi.new("struct ArrowArray *")
    rc = L.llenvs_mask_batch(toks, offs, 1, segs, soffs, ffi.NULL, roffs, 1, -1, schema, array, out, out_len)
    with pytest.raises(ValueError, match="fragment 5 out of range"):
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    assert schema.release == ffi.NULL and array.release == ffi.NULL  # left untouched on error


def test_abi_record_batch():
    """llenvs_mask_batch's record batch: fragments "Q?", "ab", "fb"; prompt, model, environment, model, cut at 5."""
    import pyarrow as pa

    from llenvs_go._native import ffi
    from llenvs_go.core.columns import BatchSlot

    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    slot = BatchSlot()
    rc = _native.lib().llenvs_mask_batch(
        ffi.new("int32_t[]", [ord(c) for c in "Q?abfb"]), ffi.new("int64_t[]", [0, 2, 4, 6]), 3,
        ffi.new("int32_t[]", [0, 0, 0, 1, 1, 0, 2, 2, 0, 1, 1, 1]), ffi.new("int64_t[]", [0, 4]),
        ffi.new("double[]", [0.5, 1.0]), ffi.new("int64_t[]", [0, 2]), 1, 5, slot.schema, slot.array, out, out_len)
    assert rc == _native.OK
    batch = slot.take()
    span = pa.struct([(f, pa.int32()) for f in ("start", "end", "source", "step", "fragment")])
    assert batch.schema == pa.schema([
        ("prompt_ids", pa.list_(pa.int32())), ("response_ids", pa.list_(pa.int32())),
        ("response_mask", pa.list_(pa.uint8())), ("token_rewards", pa.list_(pa.float64())),
        ("spans", pa.list_(span)), ("reward_at", pa.list_(pa.int32())), ("truncated", pa.uint8())])
    batch.validate(full=True)
    assert batch.to_pylist() == [{
        "prompt_ids": [ord("Q"), ord("?")], "response_ids": [ord(c) for c in "abfba"],
        "response_mask": [1, 1, 0, 0, 1], "token_rewards": [0.0, 0.5, 0.0, 0.0, 1.0],
        "spans": [{"start": 0, "end": 2, "source": 1, "step": 0, "fragment": 1},
                  {"start": 2, "end": 4, "source": 2, "step": 0, "fragment": 2},
                  {"start": 4, "end": 5, "source": 1, "step": 1, "fragment": 1}],
        "reward_at": [1, 4], "truncated": 1}]


def test_masker_pickles():
    import pickle

    m = masker(max_length=5)
    again = pickle.loads(pickle.dumps(m))
    assert again.mask_trajectory(interleaved()) == m.mask_trajectory(interleaved())


def test_spans_are_built_when_first_read_and_behave_as_a_field():
    import copy
    import pickle

    batch = masker(max_length=6).mask_batch([interleaved(), tool_episode()])
    m = batch[0]
    # A view: MaskedTrajectory is built by its own constructor and holds it as its spans.
    spans = m.spans
    assert isinstance(spans, LazyTuple) and m.spans is spans
    assert spans._tuple is None  # mask_batch built no span
    assert [(s.source, s.step_index, s.text, s.token_ids) for s in spans] == [
        ("model", 0, "try1", tuple(enc("try1"))), ("environment", 0, "fe", tuple(enc("fe")))]  # cut at 6
    built = tuple(spans)
    assert spans == built and built == spans and hash(spans) == hash(built) and hash(m) == hash(dataclasses.replace(
        m, spans=built)) and spans[-1] == built[-1] and spans[:1] == built[:1] and spans + () == built
    assert spans * 2 == built * 2 and spans <= built and not spans < built and isinstance(tuple(spans), tuple)
    assert dataclasses.asdict(dataclasses.replace(m, spans=tuple(spans)))["spans"][0]["text"] == "try1"
    other = batch[1]
    back = pickle.loads(pickle.dumps(other))  # pickles as the tuple it views
    assert back == other and back.spans == other.spans and type(back.spans) is tuple
    assert copy.deepcopy(batch[0]) == batch[0] and dataclasses.replace(other, num_turns=9).spans == other.spans
    assert tuple(t for s in other.spans for t in s.token_ids) == other.response_ids
    with pytest.raises(dataclasses.FrozenInstanceError):
        other.spans = ()  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = other.nope  # type: ignore[attr-defined]


class OutOfRangeTokenizer(MockTokenizer):
    """Encodes "x" as an id past int32 or a negative one."""

    def __init__(self, bad: int):
        self.bad = bad

    def encode(self, text: str) -> list[int]:
        return [self.bad if c == "x" else ord(c) for c in text]


@pytest.mark.parametrize("bad", [2**31, -1, 2**63, -(2**40)])
def test_token_ids_out_of_range_are_value_errors_naming_where(bad):
    # Found under attack: Action(token_ids=[2**31]) raised OverflowError and negative ids went through silently.
    one = trajectory("Q?", [(Action.from_text("ok", token_ids=[1, 2]), state("more", 1), 0.0),
                            (Action(text="", token_ids=(5, bad, 6)), state("more", 2, terminal=True), 1.0)])
    with pytest.raises(ValueError, match=rf"trajectories\[1\], step 1: Action.token_ids\[1\] = {bad} is out of "
                                         r"range; token ids must be from 0 to 2147483647 \(2\*\*31 - 1\)"):
        masker().mask_batch([interleaved(), one])
    # Ids the tokenizer gives are checked too, naming the text.
    t = trajectory("Q?", [(Action.from_text("a x"), state("Q?", 1, terminal=True), 1.0)])
    with pytest.raises(ValueError, match=rf"the tokenizer's encoding of 'a x'\[2\] = {bad} is out of range"):
        TrajectoryMasker(OutOfRangeTokenizer(bad)).mask_trajectory(t)
    assert masker().mask_trajectory(trajectory("Q?", [(Action(text="", token_ids=(0, 2**31 - 1)),
                                                        state("Q?", 1, terminal=True), 1.0)])).response_ids == (
        0, 2**31 - 1)


def test_token_ids_that_are_not_ints_are_type_errors():
    t = trajectory("Q?", [(Action(text="", token_ids=(1, "2")), state("Q?", 1, terminal=True), 1.0)])
    with pytest.raises(TypeError, match=r"step 0: Action.token_ids\[1\] is '2' \(str\); token ids must be ints"):
        masker().mask_trajectory(t)


@pytest.mark.parametrize("bad", [2**63, 2**31, -1, -(2**70)])
def test_max_length_out_of_range_is_a_value_error(bad):
    # Found under attack: max_length=2**63 was accepted, then mask_trajectory raised OverflowError.
    with pytest.raises(ValueError, match=rf"max_length must be None or an int from 0 to 2147483647 \(2\*\*31 - 1\), "
                                         rf"got {bad}"):
        masker(max_length=bad, chat_template=False)
    with pytest.raises(ValueError, match="max_length must be None or an int from 0 to 2147483647"):
        masker().mask_batch([interleaved()], max_length=bad)
    for wrong in (1.5, True, "3"):
        with pytest.raises(TypeError, match="max_length must be None or an int"):
            masker(max_length=wrong)
    assert len(masker(max_length=2**31 - 1).mask_trajectory(interleaved()).response_ids) == 17


def test_environment_messages_come_from_the_conversation_the_environment_keeps():
    """An environment that keeps the conversation said what follows the model's turn there, once; one that
    keeps none is read from its tool results and prompt."""
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.core.trajectory import Transition
    from llenvs_go.integrations.chat_messages import environment_messages

    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=1, size=4, max_turns=4)
    s, _ = env.reset(options={"task_index": 0})
    call = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "2*21"}}\n</tool_call>'
    r = env.step(s, Action.from_text(call))
    assert "<tool_response>" in r.next_state.observation.prompt  # the prompt repeats the result as text
    t = Transition(state=s, action=Action.from_text(call), next_state=r.next_state, rewards=r.rewards)
    assert environment_messages(t) == [{"role": "tool", "content": "42", "tool_call_id": "call_1_0",
                                        "name": "calculator"}]
    no_history = dataclasses.replace(r.next_state, observation=dataclasses.replace(r.next_state.observation,
                                                                                   messages=()))
    t2 = Transition(state=s, action=Action.from_text(call), next_state=no_history, rewards=r.rewards)
    got = environment_messages(t2)
    assert got[0] == {"role": "tool", "tool_call_id": "call_1_0", "name": "calculator", "content": "42"}
    assert got[1:] == [{"role": "user", "content": r.next_state.observation.prompt}]
