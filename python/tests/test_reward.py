"""core/reward.py: signals, bundles, reward functions (llenvs-spec §1.6, §4, and llenvs' tests/test_reward.py)."""

from __future__ import annotations

import dataclasses

import pytest

from llenvs_go.core.reward import (
    FormatReward,
    RewardFunction,
    RewardType,
    Signal,
    SignalBundle,
    StepPenalty,
    as_bundle,
)
from llenvs_go.core.state import Action, Observation, State, StateMetadata

OUT, STEP, FMT, PROC = RewardType.OUTCOME, RewardType.STEP, RewardType.FORMAT, RewardType.PROCESS


def sig(reward, name="r", rt=OUT, **kw) -> Signal:
    return Signal(name=name, reward_type=rt, reward=reward, **kw)


# -- RewardType ----------------------------------------------------------------
def test_reward_type_members_distinct():
    assert [m.name for m in RewardType] == ["OUTCOME", "STEP", "FORMAT", "PROCESS"]
    assert len({m.value for m in RewardType}) == 4


@pytest.mark.parametrize("member", list(RewardType))
def test_reward_type_lowercase_round_trip(member):
    assert RewardType.from_name(member.name.lower()) is member
    assert RewardType.from_name(member.name) is member
    assert RewardType.from_name(member) is member


def test_reward_type_unknown_name():
    with pytest.raises(ValueError, match="unknown reward type 'bonus'.*'outcome', 'step', 'format', 'process'"):
        RewardType.from_name("bonus")
    with pytest.raises(ValueError):
        RewardType.from_name(1)  # type: ignore[arg-type]


# -- Signal --------------------------------------------------------------------
def test_signal_defaults():
    s = Signal(name="x", reward_type=OUT)
    assert s.reward is None and s.feedback is None and s.metadata is None and s.weight == 1.0


def test_feedback_only_signal():
    s = Signal(name="judge", reward_type=PROC, feedback="too long")
    assert s.reward is None and s.feedback == "too long"


def test_signal_accepts_type_name():
    assert Signal(name="c", reward_type="outcome", reward=1.0) == Signal(name="c", reward_type=OUT, reward=1.0)
    assert Signal(name="c", reward_type="FORMAT").reward_type is FMT
    with pytest.raises(ValueError):
        Signal(name="c", reward_type="nope")


def test_signal_and_bundle_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        sig(1.0).reward = 2.0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        SignalBundle.empty().signals = ()  # type: ignore[misc]


# -- SignalBundle ----------------------------------------------------------------
def test_total_is_sum():
    b = SignalBundle((sig(1.0, "a"), sig(0.5, "b"), sig(-0.2, "c")))
    assert b.total == pytest.approx(1.3)


def test_empty_total_is_zero_float():
    assert SignalBundle.empty().total == 0.0 and isinstance(SignalBundle.empty().total, float)
    assert SignalBundle().signals == () and SignalBundle.empty() == SignalBundle(())


def test_total_skips_feedback_only():
    b = SignalBundle((sig(1.0, "a"), Signal(name="fb", reward_type=PROC, feedback="hi", weight=5.0), sig(0.5, "b")))
    assert b.total == pytest.approx(1.5)


def test_weighted_total():
    b = SignalBundle((sig(0.8, "a", weight=2.0), sig(1.0, "b", weight=0.5)))
    assert b.total == pytest.approx(0.8 * 2 + 1.0 * 0.5)
    assert SignalBundle((sig(1.0, weight=0.0),)).total == 0.0


def test_by_name_first_match_or_none():
    first, second = sig(1.0, "dup"), sig(0.0, "dup")
    b = SignalBundle((sig(0.3, "other"), first, second))
    assert b.by_name("dup") is first
    assert b.by_name("missing") is None
    assert b.by_name("missing", required=False) is None
    assert b.by_name("dup", required=True) is first
    with pytest.raises(ValueError, match="Signal 'missing' not found; the bundle has \\['other', 'dup', 'dup'\\]"):
        b.by_name("missing", required=True)


def test_by_type_is_tuple_in_order():
    a, f, c = sig(1.0, "a", OUT), sig(1.0, "f", FMT), sig(0.0, "c", OUT)
    b = SignalBundle((a, f, c))
    assert b.by_type(OUT) == (a, c) and isinstance(b.by_type(OUT), tuple)
    assert b.by_type(FMT) == (f,)
    assert b.by_type(STEP) == ()


def test_single_defaults():
    b = SignalBundle.single(0.7)
    assert len(b.signals) == 1
    s = b.signals[0]
    assert (s.name, s.reward_type, s.reward, s.weight) == ("reward", OUT, 0.7, 1.0)
    assert b.total == pytest.approx(0.7)
    s2 = SignalBundle.single(1.0, name="fmt", reward_type=FMT).signals[0]
    assert (s2.name, s2.reward_type) == ("fmt", FMT)


def test_numeric_signals():
    n1, fb, n2 = sig(1.0, "a"), Signal(name="fb", reward_type=PROC, feedback="x"), sig(0.0, "b")
    assert SignalBundle((n1, fb, n2)).numeric_signals() == (n1, n2)


def test_feedback_texts_keep_order():
    b = SignalBundle((
        Signal(name="a", reward_type=PROC, feedback="first"),
        sig(1.0, "b"),
        Signal(name="c", reward_type=PROC, reward=0.5, feedback="second"),
        Signal(name="d", reward_type=PROC, feedback=""),
    ))
    assert b.feedback_texts() == ("first", "second", "")


def test_bundle_iter_len_and_list_input():
    a, c = sig(1.0, "a"), sig(2.0, "c")
    b = SignalBundle([a, c])
    assert b.signals == (a, c) and isinstance(b.signals, tuple)
    assert list(b) == [a, c] and len(b) == 2
    assert not SignalBundle.empty()
    assert as_bundle([a]) == SignalBundle((a,)) and as_bundle(b) is b


# -- reward functions --------------------------------------------------------------
class TagExtractor:
    """Extracts what follows ``ANSWER:``; None when absent."""

    def extract(self, text):
        if text is None or "ANSWER:" not in text:
            return None, {"method": "tag", "found": False}
        return text.split("ANSWER:", 1)[1].strip(), {"method": "tag", "found": True}


def state(step=0) -> State[None]:
    return State(observation=Observation(prompt="p"), hidden=None, metadata=StateMetadata(step=step, episode_id="e"))


def test_format_reward():
    fr = FormatReward(TagExtractor())
    assert fr.name == "format" and fr.reward_type is FMT and fr.weight == 1.0
    ok = fr.compute(state(), Action.from_text("ANSWER: 4"), state(1))
    assert ok == Signal(name="format", reward_type=FMT, reward=1.0,
                        metadata={"extraction": {"method": "tag", "found": True}}, weight=1.0)
    bad = fr.compute(state(), Action.from_text("4"), state(1))
    assert bad.reward == 0.0 and bad.metadata == {"extraction": {"method": "tag", "found": False}}
    assert fr.compute(state(), Action(), state(1)).reward == 0.0


def test_format_reward_empty_extraction_counts():
    assert FormatReward(TagExtractor()).compute(state(), Action.from_text("ANSWER:"), state(1)).reward == 1.0


def test_format_reward_weight():
    s = FormatReward(TagExtractor(), weight=0.5).compute(state(), Action.from_text("ANSWER: x"), state(1))
    assert s.weight == 0.5 and SignalBundle((s,)).total == 0.5


def test_step_penalty():
    p = StepPenalty()
    assert (p.name, p.reward_type, p.penalty, p.weight) == ("step_penalty", STEP, 0.1, 1.0)
    s = p.compute(state(2), Action.from_text("x"), state(3))
    assert s == Signal(name="step_penalty", reward_type=STEP, reward=-0.1, metadata={"step": 3}, weight=1.0)
    custom = StepPenalty(penalty=0.5, _name="cost", _weight=2.0).compute(state(0), Action(), state(1))
    assert (custom.name, custom.reward, custom.weight) == ("cost", -0.5, 2.0)
    assert SignalBundle((custom,)).total == -1.0


def test_reward_function_protocol():
    assert isinstance(FormatReward(TagExtractor()), RewardFunction)
    assert isinstance(StepPenalty(), RewardFunction)
    assert not isinstance(TagExtractor(), RewardFunction)
