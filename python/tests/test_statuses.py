"""Every scored item has an outcome: correct, incorrect, no_answer, timeout or error.

A timeout (a budget reached) or a failure is never reported as a plain wrong
answer: it has its own status, in ``ScoringResults.statuses`` and in each
result's ``metadata["status"]``.
"""

from __future__ import annotations

import time

import pytest

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import Scorer
from llenvs_go.integrations.scoring import STATUSES


def _truth(env, i: int) -> str:
    return env.reset(options={"task_index": i})[0].hidden.expected_answer


def test_statuses_of_a_native_batch(leg_env):
    t = _truth(leg_env, 0)
    wrong = str(int(t) + 1)
    results = Scorer(leg_env).score_batch([0, 0, 0, 0, 0], [f"<answer>{t}</answer>", f"<answer>{wrong}</answer>",
                                                            "no tags", "<answer></answer>", f"<ANSWER> {t} </ANSWER>"])
    assert results.statuses == ["correct", "incorrect", "no_answer", "incorrect", "correct"]
    assert [r.metadata["status"] for r in results] == results.statuses
    assert Scorer(leg_env).score(0, "no tags").metadata["status"] == "no_answer"
    assert set(results.statuses) <= set(STATUSES)


def test_a_verifier_budget_is_a_timeout_not_a_wrong_answer():
    env = environment_registry.get([{"problem": "q", "solution": "\\boxed{7}"}], adapter="huggingface",
                                   scoring="math")
    deep = "<answer>3 + \\frac{1}{2} + " + "(" * 70 + "7" + ")" * 70 + "</answer>"
    start = time.perf_counter()
    results = Scorer(env).score_batch([0, 0, 0, 0], [deep, "<answer>7</answer>", "<answer>8</answer>", "none"])
    elapsed = time.perf_counter() - start
    assert results.statuses == ["timeout", "correct", "incorrect", "no_answer"]
    assert results.totals[0] == 0.0 and 0 in results.errors and "over budget" in results.errors[0]
    assert results[0].metadata["status"] == "timeout"
    assert elapsed < 5.0  # the budget stops the work, far inside this bound (not a timing benchmark)


def test_partial_credit_is_incorrect():
    # reasoning-gym's score_answer gives partial credit for an answer that holds the oracle; only full credit counts.
    env = environment_registry.get("spell_backward", size=5, seed=1)
    t = _truth(env, 0)
    results = Scorer(env).score_batch([0, 0], [f"<answer>{t}</answer>", f"<answer>{t} and more</answer>"])
    assert results.totals[0] == 1.0 and 0.0 < results.totals[1] < 1.0
    assert results.statuses == ["correct", "incorrect"]


def test_an_item_that_fails_in_python_is_an_error():
    from framework_mocks import QEnvironment

    class Failing(QEnvironment):
        def step(self, state, action):
            if "boom" in (action.text or ""):
                raise RuntimeError("reward function failed")
            return super().step(state, action)

    env = Failing()
    results = Scorer(env).score_batch([0, 1], ["boom", "x"])
    assert results.statuses[0] == "error"
    assert results.statuses[1] in ("incorrect", "no_answer")
    assert results[0].metadata["status"] == "error"


@pytest.mark.parametrize("n", [0, 1, 3])
def test_statuses_have_one_entry_per_item(leg_env, n):
    results = Scorer(leg_env).score_batch([0] * n, ["x"] * n)
    assert len(results.statuses) == n


def _budget_env():
    return environment_registry.get([{"problem": "q", "solution": "\\boxed{7}"}] * 3, adapter="huggingface",
                                    scoring="math", size=3, seed=0)


DEEP = "<answer>3 + \\frac{1}{2} + " + "(" * 70 + "7" + ")" * 70 + "</answer>"


def test_each_framework_sees_its_own_convention_for_a_timeout():
    from llenvs_go.integrations import openrlhf, trl, verl

    env = _budget_env()
    completions = [DEEP, "<answer>7</answer>", "<answer>8</answer>"]
    # TRL: None is "no reward for this sample" (by default); counts through log_metric.
    logged = {}
    fn = trl.make_trl_reward_fn(env)
    assert fn(prompts=None, completions=completions, task_index=[0, 1, 2],
              log_metric=lambda k, v: logged.__setitem__(k, v)) == [None, 1.0, 0.0]
    assert logged == {"llenvs/timeout": 1.0, "llenvs/error": 0.0}
    assert trl.make_trl_reward_fn(env, unscored=0.0)(prompts=None, completions=completions,
                                                     task_index=[0, 1, 2]) == [0.0, 1.0, 0.0]
    # veRL: extra numeric keys in the dict form, the same keys for every sample.
    rows = verl.make_verl_dataset(env)
    dict_fn = verl.make_verl_reward_fn(env, return_dict=True)
    outs = [dict_fn(r["data_source"], c, r["reward_model"]["ground_truth"], r["extra_info"])
            for r, c in zip(rows, completions, strict=True)]
    assert [o["llenvs/timeout"] for o in outs] == [1.0, 0.0, 0.0] and [o["score"] for o in outs] == [0.0, 1.0, 0.0]
    assert len({tuple(o) for o in outs}) == 1
    # OpenRLHF: counters in extra_logs, and a score outside dynamic filtering's 0-1 range.
    labels = [r["label"] for r in openrlhf.make_openrlhf_dataset(env)]
    out = openrlhf.make_openrlhf_reward_fn(env)(completions, None, labels)
    values = [float(x) for x in out["scores"]]
    assert values == [-1.0, 1.0, 0.0] and [float(x) for x in out["rewards"]] == [0.0, 1.0, 0.0]
    assert out["extra_logs"][openrlhf.TIMEOUT_KEY] == 1.0 and out["extra_logs"][openrlhf.ERROR_KEY] == 0.0


def test_outcome_matches_outcomes():
    env = _budget_env()
    scorer = Scorer(env)
    texts = [DEEP, "<answer>7</answer>", "<answer>8</answer>", "no answer"]
    totals, statuses = scorer.outcomes([0, 1, 2, 0], texts)
    assert statuses == ["timeout", "correct", "incorrect", "no_answer"]
    assert [scorer.outcome(i, t) for i, t in zip([0, 1, 2, 0], texts, strict=True)] == list(zip(totals, statuses,
                                                                                                strict=True))
