"""score_batch and score(): everything from one crossing, results built when read, failures visible."""

from __future__ import annotations

import dataclasses
import gc
import json
import pickle
import warnings

import pytest

from llenvs_go import _native
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.scoring_results import ResultMetadata
from llenvs_go.core.state import Action
from llenvs_go.integrations import Scorer, ScoringResult
from llenvs_go.integrations.scoring import ScoringFailureWarning


@pytest.fixture(scope="module")
def env():
    return environment_registry.get(name="leg_counting", size=20, seed=42, extra_rewards=("format",))


def _truths(env):
    return [env.reset(options={"task_index": i})[0].hidden.expected_answer for i in range(len(env))]


RESPONSES = [
    "<answer>{t}</answer>",
    "think... <ANSWER> {t} </Answer>",
    "<answer>-3</answer>",
    "no tags at all {t}",
    "<answer></answer>",
    "héllo ✓ <answer>{t}</answer> ünïcode after",
    "<answer>a<answer>b</answer></answer>",
    "",
]


def _batch(env):
    truths = _truths(env)
    idx, texts = [], []
    for i, t in enumerate(truths):
        for r in RESPONSES:
            idx.append(i)
            texts.append(r.format(t=t))
    return idx, texts


def test_batch_results_equal_the_step_of_each_item(env):
    """Each result read from the columns is what reset + step says for that response."""
    idx, texts = _batch(env)
    results = Scorer(env).score_batch(idx, texts)
    for i, text, r in zip(idx, texts, results, strict=True):
        state, _ = env.reset(options={"task_index": i})
        step = env.step(state, Action.from_text(text))
        assert r.total == step.rewards.total
        assert r.signals == {s.name: s.reward for s in step.rewards}
        assert r.extracted_answer == step.extracted_action
        for s in step.rewards:
            assert r.metadata[s.name] == s.metadata
        assert r.metadata["backend"] == "native"
    assert results.errors == {}


def test_iterating_results_keeps_none_and_indexing_keeps_each(env):
    """A loop over score_batch's results holds one at a time: the view keeps no result it built while
    iterating. A result read by index is the same object when read again, in a later loop too."""
    idx, texts = _batch(env)
    results = Scorer(env).score_batch(idx, texts)
    third = results[3]

    def alive() -> int:
        gc.collect()
        return sum(type(o) is ScoringResult for o in gc.get_objects())

    before = alive()
    for k, r in enumerate(results):
        assert (r is third) == (k == 3)
    del r
    assert alive() == before
    assert list(results) == list(results) and results[3] is third
    assert [r.total for r in results] == results.totals


def test_single_score_equals_the_batch(env):
    idx, texts = _batch(env)
    scorer = Scorer(env)
    batch = scorer.score_batch(idx, texts)
    for i, text, r in zip(idx, texts, batch, strict=True):
        one = scorer.score(i, text)
        assert one == r
        assert one.extracted_answer == r.extracted_answer and one.metadata == r.metadata


def test_cleaned_answers_come_as_their_own_bytes():
    env = environment_registry.get(name="leg_counting", size=5, seed=1, post_cleaners=["strip_trailing_punctuation"])
    truth = _truths(env)[0]
    scorer = Scorer(env)
    r = scorer.score_batch([0, 0], [f"<answer>{truth}.</answer>", f"<answer>ü{truth},</answer>"])
    assert [x.extracted_answer for x in r] == [truth, f"ü{truth}"]
    assert r[0].total == 1.0
    assert scorer.score(0, f"<answer>{truth}.</answer>").extracted_answer == truth


def test_result_is_a_frozen_dataclass_with_lazy_metadata(env):
    truth = _truths(env)[0]
    r = Scorer(env).score_batch([0], [f"<answer>{truth}</answer>"])[0]
    assert dataclasses.is_dataclass(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.total = 0.0  # type: ignore[misc]
    eager = ScoringResult(total=r.total, signals=dict(r.signals), extracted_answer=r.extracted_answer,
                          metadata=r.metadata)
    assert r == eager and repr(r) == repr(eager)
    assert dataclasses.asdict(r)["metadata"]["correctness"]["expected"] == truth
    assert pickle.loads(pickle.dumps(r)) == r
    # The metadata is a view of the batch's columns until read; then it is the result's own dict, and the
    # columns are no longer referenced.
    def holds_columns(result: ScoringResult) -> bool:
        return any(type(x).__name__ == "ScoredColumns" for x in gc.get_referents(result.metadata))

    assert isinstance(r.metadata, ResultMetadata) and not holds_columns(r)
    unread = Scorer(env).score_batch([0], [f"<answer>{truth}</answer>"])[0]
    assert holds_columns(unread)
    assert unread.metadata == r.metadata and not holds_columns(unread)
    assert json.dumps(dict(unread.metadata)) == json.dumps(dict(r.metadata))


def test_results_pickle_before_any_item_is_read(env):
    idx, texts = _batch(env)
    results = Scorer(env).score_batch(idx, texts)
    copy = pickle.loads(pickle.dumps(results))
    assert copy == results and copy.totals == results.totals


def test_a_failure_inside_one_item_is_reported_not_silent():
    if not _native.call("info").get("test_hooks"):
        pytest.skip("library built without the test hooks")
    env = environment_registry.get(name="leg_counting", size=5, seed=1, answer_extractor="panics_on_marker_for_test")
    truth = _truths(env)[0]
    scorer = Scorer(env)
    texts = [f"<answer>{truth}</answer>", "PANIC here", f"<answer>{truth}</answer>"]
    results = scorer.score_batch([0, 0, 0], texts)
    assert results.totals == [1.0, 0.0, 1.0]
    assert list(results.errors) == [1] and "met its marker" in results.errors[1]
    assert "met its marker" in results[1].metadata["error"] and "error" not in results[0].metadata
    with pytest.warns(ScoringFailureWarning, match="1 of 3 responses could not be scored.*position 1"):
        assert scorer.totals([0, 0, 0], texts) == [1.0, 0.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scorer.totals([0], texts[:1])  # no failure, no warning


@pytest.mark.parametrize("bad", ["100", b"100"])
def test_a_str_is_not_a_batch(env, bad):
    with pytest.raises(TypeError, match="sequence of str"):
        Scorer(env).score_batch([0, 0, 0], bad)


def test_score_keeps_no_scorer_alive():
    import weakref

    env = environment_registry.get(name="leg_counting", size=5, seed=3)
    scorer = Scorer(env)
    scorer.score(0, "x")
    ref = weakref.ref(scorer)
    del scorer
    gc.collect()
    assert ref() is None


def test_total_of_one_response_equals_the_batch(env):
    idx, texts = _batch(env)
    scorer = Scorer(env)
    assert [scorer.total(i, t) for i, t in zip(idx, texts, strict=True)] == scorer.totals(idx, texts)


def test_total_of_a_failing_response_warns():
    if not _native.call("info").get("test_hooks"):
        pytest.skip("library built without the test hooks")
    env = environment_registry.get(name="leg_counting", size=5, seed=1, answer_extractor="panics_on_marker_for_test")
    with pytest.warns(ScoringFailureWarning, match="task 2 could not be scored"):
        assert Scorer(env).total(2, "PANIC") == 0.0


@pytest.mark.parametrize("bad", [2**63, -(2**63) - 1, 2**70, 10**12, -1])
def test_one_item_paths_refuse_indices_out_of_range(env, bad):
    scorer = Scorer(env)
    for call in (scorer.score, scorer.total):
        with pytest.raises(IndexError):
            call(bad, "<answer>1</answer>")
    with pytest.raises(TypeError):
        scorer.total(1.5, "x")  # type: ignore[arg-type]


def test_one_item_paths_from_many_threads(env):
    from concurrent.futures import ThreadPoolExecutor

    idx, texts = _batch(env)
    scorer = Scorer(env)
    want = scorer.totals(idx, texts)
    with ThreadPoolExecutor(6) as pool:
        assert list(pool.map(scorer.total, idx, texts)) == want
        assert [r.total for r in pool.map(scorer.score, idx, texts)] == want


def test_one_item_paths_follow_an_environment_closed_and_made_again():
    env = environment_registry.get(name="leg_counting", size=5, seed=3)
    truth = _truths(env)[1]
    scorer = Scorer(env)
    assert scorer.score(1, f"<answer>{truth}</answer>").total == 1.0
    old = env.handle
    env.close()
    # The Scorer knew the old handle; the next call uses the environment's new one.
    assert scorer.total(1, f"<answer>{truth}</answer>") == 1.0
    r = scorer.score(1, f"<answer>{truth}</answer>")
    assert (r.total, r.extracted_answer) == (1.0, truth) and env.handle != old
    assert r.metadata["correctness"]["expected"] == truth


def test_a_large_batch_with_cleaned_answers_reads_like_single_items():
    """Large batches are described in parallel ranges: every answer and metadata stays in place."""
    env = environment_registry.get(name="leg_counting", size=40, seed=5, pre_cleaners=["strip_thinking_tokens"])
    truths = _truths(env)
    idx = [k % 40 for k in range(600)]
    forms = ("<think>hm</think><answer>{t}</answer>", "x <answer>ü{t}</answer> y", "none", "<answer>{k}</answer>")
    texts = [forms[k % 4].format(t=truths[i], k=k) for k, i in enumerate(idx)]
    scorer = Scorer(env)
    batch = scorer.score_batch(idx, texts)
    for i, text, r in zip(idx, texts, batch, strict=True):
        one = scorer.score(i, text)
        assert (r.total, r.extracted_answer, r.metadata) == (one.total, one.extracted_answer, one.metadata)
    assert [r.extracted_answer for r in batch[:4]] == [truths[0], f"ü{truths[1]}", None, "3"]
    # The think block was stripped before extraction: the match is in the cleaned text.
    assert batch[0].metadata["correctness"]["extraction"]["match_start"] == 0
    assert batch[0].metadata["correctness"]["extraction"]["pre_cleaners_applied"] is True


def test_metadata_is_read_against_the_indices_as_they_were_scored(env):
    truths = _truths(env)
    idx = [0, 1]
    results = Scorer(env).score_batch(idx, [f"<answer>{truths[0]}</answer>", f"<answer>{truths[1]}</answer>"])
    idx[0] = 5  # the caller reuses its list before reading the metadata
    assert results[0].metadata["correctness"]["expected"] == truths[0]


def test_metadata_view_acts_as_the_dict_it_views(env):
    truth = _truths(env)[0]
    r = Scorer(env).score_batch([0], [f"<answer>{truth}</answer>"])[0]
    plain = r.metadata.copy()
    assert type(plain) is dict and plain == r.metadata and plain is not r.metadata.copy()
    assert (r.metadata | {"extra": 1})["extra"] == 1 and ({"extra": 1} | r.metadata)["backend"] == "native"
    r.metadata["note"] = "kept"
    assert r.metadata["note"] == "kept" and "note" not in plain


def test_metadata_read_from_many_threads_is_built_once(env):
    from concurrent.futures import ThreadPoolExecutor

    idx, texts = _batch(env)
    results = Scorer(env).score_batch(idx, texts)
    first = results[0]
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: dict(first.metadata), range(64)))
    assert all(m == seen[0] for m in seen) and first.metadata == seen[0]
