"""Scorer behaviour beyond the seed snippets: bad input, signals, per-item results."""

from __future__ import annotations

import math

import pytest

from llenvs_go import TaskIndexError
from llenvs_go.integrations import Scorer


def test_length_mismatch(leg_env):
    with pytest.raises(ValueError, match="must have the same length, got 2 and 1"):
        Scorer(leg_env).score_batch([0, 1], ["a"])


@pytest.mark.parametrize("bad", [-1, 1000, 10**12])
def test_out_of_range_index_is_index_and_value_error(leg_env, bad):
    scorer = Scorer(leg_env)
    with pytest.raises(TaskIndexError) as e:
        scorer.score_batch([0, bad], ["a", "b"])
    assert isinstance(e.value, IndexError) and isinstance(e.value, ValueError)
    assert "task_indices[1]" in str(e.value) and str(bad) in str(e.value)
    with pytest.raises(IndexError):
        scorer.score(bad, "x")


def test_bad_types(leg_env):
    scorer = Scorer(leg_env)
    with pytest.raises(TypeError, match=r"task_indices\[1\]"):
        scorer.score_batch([0, "1"], ["a", "b"])
    with pytest.raises(TypeError, match=r"responses\[1\] must be a str, got NoneType"):
        scorer.score_batch([0, 1], ["a", None])
    with pytest.raises(TypeError, match=r"responses\[0\] must be a str, got bytes"):
        scorer.score_batch([0], [b"<answer>1</answer>"])


def test_empty_batch(leg_env):
    res = Scorer(leg_env).score_batch([], [])
    assert len(res) == 0 and res.totals == [] and list(res) == [] and res.errors == {}


def test_lone_surrogates_and_unicode(leg_env, rg_leg):
    scorer = Scorer(leg_env)
    truth = rg_leg[0]["answer"]
    res = scorer.score_batch(
        [0, 0, 0],
        [f"\ud800 <answer>{truth}</answer>", f"<ANSWER>\u00a0{truth}\u2003</Answer>", "<answer>é</answer>"],
    )
    assert res.totals == [1.0, 1.0, 0.0]
    assert res[1].extracted_answer == truth  # Unicode whitespace stripped as str.strip() does
    assert res[2].extracted_answer == "é"


def test_lone_surrogate_inside_the_answer_comes_back(leg_env):
    scorer = Scorer(leg_env)
    texts = ["<answer>3\ud800</answer>", "<answer>\udfff</answer> <answer>4</answer>", "<answer>5</answer>"]
    res = scorer.score_batch([0, 1, 2], texts)
    assert [r.extracted_answer for r in res] == ["3\ud800", "4", "5"]
    assert res[0].metadata["correctness"]["extracted"] == "3\ud800"
    one = scorer.score(0, texts[0])
    assert one.extracted_answer == "3\ud800" and one.metadata == res[0].metadata


def test_huge_and_empty_responses(leg_env, rg_leg):
    scorer = Scorer(leg_env)
    truth = rg_leg[1]["answer"]
    huge = "x" * (8 << 20) + f"<answer>{truth}</answer>"
    res = scorer.score_batch([1, 1, 1], [huge, "", "<answer></answer>"])
    assert res.totals == [1.0, 0.0, 0.0]
    assert res[1].extracted_answer is None
    assert res[2].extracted_answer == ""  # "" is a valid extraction, scored by reasoning-gym as 0


def test_extraction_rules(leg_env, rg_leg):
    scorer = Scorer(leg_env)
    t = rg_leg[2]["answer"]
    cases = {
        f"<answer>1</answer> then <answer>{t}</answer>": t,  # last pair wins
        f"<answer>{t}</answer><answer>unclosed": t,
        f"<answer> {t} </answer>": t,
        "<answer >1</answer>": None,
    }
    res = scorer.score_batch([2] * len(cases), list(cases))
    assert [r.extracted_answer for r in res] == list(cases.values())


def test_partial_credit_matches_reasoning_gym(leg_env, rg_leg):
    scorer = Scorer(leg_env)
    answers = [rg_leg[4]["answer"], " " + rg_leg[4]["answer"] + " apples", "1" + rg_leg[4]["answer"]]
    res = scorer.score_batch([4] * 3, [f"<answer>{a}</answer>" for a in answers])
    for r, a in zip(res, answers, strict=False):
        assert r.total == rg_leg.score_answer(a.strip(), rg_leg[4])


def test_format_signal_is_opt_in_and_weighted(rg_leg):
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get(name="leg_counting", size=1000, seed=42,
                                   extra_rewards=({"name": "format", "weight": 0.5},))
    scorer = Scorer(env)
    assert scorer.signal_names == ["correctness", "format"]
    t = rg_leg[0]["answer"]
    ok, wrong, none = scorer.score_batch([0, 0, 0], [f"<answer>{t}</answer>", "<answer>no</answer>", "no"])
    assert ok.signals == {"correctness": 1.0, "format": 1.0} and ok.total == 1.5
    assert wrong.signals == {"correctness": 0.0, "format": 1.0} and wrong.total == 0.5
    assert none.total == 0.0 and none.extracted_answer is None
    assert "expected" not in none.metadata["correctness"]
    with pytest.raises(ValueError, match="did you mean"):
        environment_registry.get(name="leg_counting", seed=1, extra_rewards=("formatt",))


def test_results_are_finite_floats_in_input_order(leg_env, rg_leg):
    scorer = Scorer(leg_env)
    idx = list(range(999, -1, -1))
    resp = [f"<answer>{rg_leg[i]['answer']}</answer>" if i % 3 else "nan" for i in idx]
    totals = scorer.totals(idx, resp)
    assert totals == [1.0 if i % 3 else 0.0 for i in idx]
    assert all(isinstance(x, float) and math.isfinite(x) for x in totals)


def test_multi_turn_environment_is_rejected(leg_env, monkeypatch):
    from llenvs_go.core import environment as envmod

    spec = leg_env.spec
    fake = envmod.EnvironmentSpec(name="chat", adapter="x", is_multi_turn=True, metadata=spec.metadata)
    monkeypatch.setattr(type(leg_env), "spec", property(lambda self: fake))
    with pytest.raises(TypeError, match="multi-turn"):
        Scorer(leg_env)


def test_step_and_reset_follow_llenvs(leg_env, rg_leg):
    from llenvs_go.core.environment import Action

    with pytest.raises(ValueError, match="options must contain 'task_index'"):
        leg_env.reset(options={})
    with pytest.raises(ValueError, match=r"task_index 1000 out of bounds \[0, 1000\)"):
        leg_env.reset(options={"task_index": 1000})
    state, info = leg_env.reset(options={"task_index": 3, "episode_id": "ep"})
    assert state.hidden.expected_answer == rg_leg[3]["answer"]
    assert info == {"task_index": 3, "dataset_name": "leg_counting", "question": rg_leg[3]["question"]}
    r = leg_env.step(state, Action.from_text(f"<answer>{rg_leg[3]['answer']}</answer>"))
    assert r.terminated and r.done and not r.truncated
    assert r.next_state.metadata.step == 1 and r.next_state.metadata.is_terminal
    assert r.next_state.metadata.episode_id == "ep"
    assert r.extracted_action == rg_leg[3]["answer"] and r.total == 1.0
    assert r.info["expected_answer"] == rg_leg[3]["answer"]
    assert leg_env.step(state, Action(text=None)).total == 0.0
