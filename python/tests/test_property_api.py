"""Property-based tests: arbitrary input at the public API gives a value or a documented exception.

Every call below either returns, or raises one of the exceptions its documentation allows: TypeError for a
value of the wrong type, ValueError for a bad value (TaskIndexError and UnknownNameError are both ValueErrors,
and also an IndexError and a KeyError), KeyError and IndexError. InternalError (a panic in the Go core) is
never allowed, nor any other exception (AttributeError, RecursionError, OverflowError, ...), nor a crash.

The run is bounded by hypothesis profiles: ``ci`` (the default, a modest number of examples per test) and
``thorough`` (many more); choose one with ``LLENVS_HYPOTHESIS_PROFILE=thorough``.
"""

from __future__ import annotations

import math
import os
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from llenvs_go import InternalError  # noqa: E402
from llenvs_go.core import cleaning, extraction  # noqa: E402
from llenvs_go.core.config import EnvironmentConfig  # noqa: E402
from llenvs_go.core.registry import environment_registry  # noqa: E402
from llenvs_go.core.state import Action  # noqa: E402
from llenvs_go.core.trajectory import Trajectory, Transition  # noqa: E402
from llenvs_go.integrations import DatasetProvider, Scorer, TrajectoryMasker  # noqa: E402

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("LLENVS_HYPOTHESIS_PROFILE", "ci"))

# The exceptions bad input may raise (the package's own are subclasses of these).
DOCUMENTED = (TypeError, ValueError, KeyError, IndexError)


def outcome(func: Any, /, *args: Any, _allowed: tuple[type[BaseException], ...] = DOCUMENTED, **kwargs: Any) -> Any:
    """Call func; return its value, or the documented exception it raised (with a message)."""
    try:
        return func(*args, **kwargs)
    except InternalError as e:  # a panic in Go: always a failure
        pytest.fail(f"InternalError from {getattr(func, '__qualname__', func)}: {e}")
    except _allowed as e:
        assert str(e), f"{type(e).__name__} without a message"
        return e


# -- strategies ---------------------------------------------------------------------------------

# Pieces that matter to extractors and the ABI: tags, boxes, numbers, lone surrogates, NUL bytes.
_PIECES = ["<answer>", "</answer>", "<ANSWER>", "\\boxed{", "}", "{", "#### ", "1,000", "-3.5", "42", "(B)", "Answer: ",
           "```python\n", "```", "\n", " ", "\x00", "\ud800", "\udfff", "\U0001f600", "\u2028", "é", "<think>",
           "</think>", "<|im_end|>", "$", "nan", "inf", "1e308", "9" * 50]

texts = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())),
    st.lists(st.sampled_from(_PIECES), max_size=30).map("".join),
    st.integers(min_value=0, max_value=2_000_000).map(lambda n: "7" * n),  # empty to huge
)

numbers = st.one_of(
    st.integers(), st.integers(min_value=-(2**80), max_value=2**80), st.integers(min_value=-3, max_value=60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.5, 2**63, -(2**63) - 1]),
    st.booleans(), st.none(),
)

json_leaves = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    json_leaves, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=12)


class Nested(list):
    """``[{"a": [{"a": ... 1}]}]`` nested ``depth`` deep, shown by its depth in failure reports."""

    def __init__(self, depth: int):
        v: Any = 1
        for k in range(depth):
            v = [v] if k % 2 else {"a": v}
        super().__init__([v])
        self.depth = depth

    def __repr__(self) -> str:
        return f"Nested({self.depth})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))


deep_values = st.integers(min_value=1, max_value=20_000).map(Nested)
wrong_types = st.one_of(st.builds(object), st.just(b"bytes"), st.just(bytearray(b"x")), st.just({1, 2}),
                        st.just(1j), st.just(range(3)))
anything = st.one_of(json_values, deep_values, wrong_types)

NATIVE_TASKS = ["leg_counting", "chain_sum", "countdown", "basic_arithmetic", "gcd", "lcm", "simple_equations",
                "fraction_simplification", "number_sorting", "mini_sudoku", "shortest_path", "composite"]
OPTIONS = ["size", "seed", "answer_extractor", "answer_extractor_config", "answer_extractors", "pre_cleaners",
           "post_cleaners", "extra_rewards", "system_prompt", "prompt_template", "iterative", "min_animals",
           "max_animals", "datasets", "min_value", "max_value", "data_dir"]


# -- the registry and configuration ---------------------------------------------------------------

@given(name=st.one_of(st.sampled_from(NATIVE_TASKS), st.text(max_size=12)),
       kwargs=st.dictionaries(st.one_of(st.sampled_from(OPTIONS), st.text(max_size=10)), anything, max_size=4))
def test_registry_get_takes_anything(name, kwargs):
    kwargs.setdefault("size", 5)
    kwargs.setdefault("seed", 1)
    env = outcome(environment_registry.get, name=name, **kwargs)
    if isinstance(env, BaseException):
        return
    try:
        assert outcome(len, env) is not None
        if len(env) > 0:
            outcome(Scorer(env).totals, [0], ["<answer>1</answer>"])
    finally:
        env.close()


@given(kwargs=st.dictionaries(st.one_of(st.sampled_from(["name", "adapter", "size", "seed", "answer_extractor",
                                                          "answer_extractor_config", "pre_cleaners", "post_cleaners",
                                                          "params"]), st.text(max_size=8)),
                              anything, max_size=5))
def test_environment_config_takes_anything(kwargs):
    cfg = outcome(EnvironmentConfig, **kwargs)
    outcome(EnvironmentConfig.from_dict, kwargs)
    if isinstance(cfg, EnvironmentConfig):
        assert EnvironmentConfig.from_dict(cfg.to_dict()) == cfg
        scorer = outcome(Scorer.from_config, cfg)
        if not isinstance(scorer, BaseException):
            outcome(scorer.totals, [0], ["<answer>1</answer>"])


# -- scoring ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def env():
    e = environment_registry.get(name="leg_counting", size=50, seed=3)
    yield e
    e.close()


@given(index=st.one_of(numbers, wrong_types), response=st.one_of(texts, wrong_types, st.none()))
def test_scorer_takes_anything(env, index, response):
    scorer = Scorer(env)
    r = outcome(scorer.score, index, response)
    t = outcome(scorer.total, index, response)
    b = outcome(scorer.score_batch, [index], [response])
    ts = outcome(scorer.totals, [index], [response])
    if not isinstance(r, BaseException):
        assert r.total in (0.0, 1.0) and t == r.total and b[0].total == r.total and ts == [r.total]
        assert r.extracted_answer is None or isinstance(r.extracted_answer, str)
        _ = r.metadata, b[0].metadata, b.errors
    else:
        assert all(isinstance(x, BaseException) for x in (t, b, ts))


@given(indices=st.one_of(st.lists(st.integers(min_value=0, max_value=49), max_size=40), st.lists(numbers, max_size=5),
                         wrong_types, st.none()),
       responses=st.one_of(st.lists(texts, max_size=40), st.lists(st.one_of(texts, wrong_types), max_size=3),
                           wrong_types))
def test_batches_take_anything(env, indices, responses):
    scorer = Scorer(env)
    rs = outcome(scorer.score_batch, indices, responses)
    ts = outcome(scorer.totals, indices, responses)
    if not isinstance(rs, BaseException):
        assert len(rs) == len(ts) == len(indices) and list(rs.totals) == ts
        assert all(not math.isnan(x) for x in ts)
        for r in rs:
            _ = r.extracted_answer, r.metadata


_COLUMN_KINDS = ("list", "tuple", "numpy", "dict", "scalar")


def _as_column(values: list[Any], kind: str) -> Any:
    """``values`` in one of the shapes a caller of a TRL reward function may pass."""
    if kind == "tuple":
        return tuple(values)
    if kind == "numpy":
        import numpy as np
        try:
            return np.array(values)
        except (ValueError, TypeError, OverflowError):
            return np.array(values, dtype=object)
    if kind == "dict":
        return {str(k): v for k, v in enumerate(values)}
    if kind == "scalar":
        return values[0] if values else 0
    return values


@given(n=st.integers(min_value=0, max_value=6), kinds=st.tuples(*[st.sampled_from(_COLUMN_KINDS)] * 4),
       indices=st.lists(st.one_of(st.integers(min_value=-1, max_value=52), numbers), max_size=6),
       references=st.lists(st.one_of(st.none(), texts, st.just(""), st.just("{}"), wrong_types), max_size=6),
       truths=st.lists(st.one_of(st.none(), texts, st.just("")), max_size=6))
def test_trl_reward_function_takes_any_column_type(env, n, kinds, indices, references, truths):
    from llenvs_go.integrations.trl import make_trl_reward_fn

    fn = make_trl_reward_fn(env)
    completions = _as_column(["<answer>3</answer>"] * n, kinds[0] if kinds[0] != "dict" else "list")
    out = outcome(fn, prompts=None, completions=completions, task_index=_as_column(indices[:n] or [0] * n, kinds[1]),
                  env_reference=_as_column(references[:n], kinds[2]), ground_truth=_as_column(truths[:n], kinds[3]))
    if not isinstance(out, BaseException):
        assert isinstance(out, list) and len(out) == n and all(isinstance(x, float) for x in out)


# -- datasets --------------------------------------------------------------------------------------

@given(indices=st.one_of(st.lists(st.integers(min_value=-2, max_value=52), max_size=10), st.lists(numbers, max_size=4),
                         wrong_types, st.none(), st.text(max_size=4)),
       on_error=st.one_of(st.sampled_from(["raise", "skip"]), st.text(max_size=5), wrong_types))
def test_dataset_provider_takes_anything(env, indices, on_error):
    provider = DatasetProvider(env)
    items = outcome(provider.get_items, indices, on_error=on_error)
    if not isinstance(items, BaseException):
        assert all(0 <= it.task_index < 50 for it in items)
    ds = outcome(provider.to_hf_dataset, indices if isinstance(indices, list) else [0], on_error=on_error)
    if not isinstance(ds, BaseException):
        assert set(ds.column_names) >= {"task_index", "prompt", "ground_truth", "messages"}


# -- episodes --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def guess_env():
    e = environment_registry.get(name="guess_number", adapter="native", size=20, seed=3, max_turns=3)
    yield e
    e.close()


@given(seed=st.one_of(numbers, wrong_types), options=st.one_of(
    st.fixed_dictionaries({"task_index": st.one_of(numbers, wrong_types)},
                          optional={"episode_id": st.one_of(texts, numbers), "x": anything}),
    wrong_types, st.none()),
    actions=st.lists(st.one_of(texts.map(Action.from_text), wrong_types, st.none(),
                               st.builds(Action, text=st.one_of(texts, numbers))), max_size=4),
    which=st.booleans())
def test_episodes_take_anything(env, guess_env, seed, options, actions, which):
    e = guess_env if which else env
    started = outcome(e.reset, seed=seed, options=options)
    if isinstance(started, BaseException):
        return
    state, info = started
    assert isinstance(info, dict)
    for action in actions:
        # NotImplementedError: llenvs' error for a step from a stale state; RuntimeError: a finished episode.
        res = outcome(e.step, state, action, _allowed=DOCUMENTED + (NotImplementedError, RuntimeError))
        if isinstance(res, BaseException):
            continue
        assert not math.isnan(res.rewards.total)
        if res.terminated or res.truncated:
            break
        state = res.next_state
    if getattr(state.hidden, "episode", None) is not None:
        state.hidden.episode.close()


@given(task_indices=st.one_of(st.lists(st.integers(min_value=-1, max_value=20), max_size=6),
                              st.lists(numbers, max_size=2), wrong_types),
       rounds=st.lists(st.tuples(st.lists(st.one_of(texts, wrong_types), max_size=6),
                                 st.one_of(st.none(), st.lists(st.integers(min_value=-2, max_value=7), max_size=6))),
                       max_size=3))
def test_episode_batches_take_anything(guess_env, task_indices, rounds):
    from llenvs_go.core.episodes import EpisodeBatch

    batch = outcome(EpisodeBatch, guess_env, task_indices)
    if isinstance(batch, BaseException):
        return
    try:
        assert len(batch.prompts) == len(batch) == len(task_indices)
        for step_texts, indices in rounds:
            res = outcome(batch.step, step_texts, indices)
            if not isinstance(res, BaseException):
                assert len(res.totals) == len(res.prompts) == len(res.indices)
                assert all(not math.isnan(t) for t in res.totals)
    finally:
        batch.close()


# -- masking ---------------------------------------------------------------------------------------

class CharTokenizer:
    """One token per code point."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(chr(i) for i in ids)


@given(max_length=st.one_of(st.none(), st.integers(min_value=-2, max_value=50), wrong_types),
       turns=st.lists(st.tuples(texts.filter(lambda s: len(s) < 5000), st.floats(allow_nan=True, allow_infinity=True)),
                      max_size=4))
def test_masker_takes_anything(env, max_length, turns):
    masker = outcome(TrajectoryMasker, CharTokenizer(), max_length=max_length, chat_template=False)
    if isinstance(masker, BaseException):
        return
    state, _ = env.reset(options={"task_index": 0})
    traj = Trajectory.create(state)
    for text, reward in turns:
        res = env.step(state, Action.from_text(text))
        from llenvs_go.core.reward import SignalBundle
        traj.add_transition(Transition(state=state, action=Action.from_text(text), next_state=res.next_state,
                                       rewards=SignalBundle.single(reward)))
    m = outcome(masker.mask_trajectory, traj)
    if not isinstance(m, BaseException):
        assert len(m.response_ids) == len(m.response_mask)
        if isinstance(max_length, int) and max_length >= 0:
            assert len(m.response_ids) <= max_length


token_ids = st.one_of(st.integers(min_value=-3, max_value=300), st.integers(),
                      st.sampled_from([2**31 - 1, 2**31, -(2**31), 2**63, -(2**63) - 1, 2**100]))


class WildTokenizer(CharTokenizer):
    """One token per code point, with "~" encoded as a chosen id (maybe out of range or not an int)."""

    def __init__(self, tilde: Any):
        self.tilde = tilde

    def encode(self, text: str) -> list[int]:
        return [self.tilde if c == "~" else ord(c) for c in text]


@given(max_length=st.one_of(st.none(), st.integers(min_value=-2, max_value=50), st.integers(), wrong_types,
                            st.sampled_from([2**31 - 1, 2**31, 2**63, 2**64, 1.5, True])),
       actions=st.lists(st.tuples(st.sampled_from(["", "a~b", "~", "plain"]),
                                  st.one_of(st.none(), st.lists(st.one_of(token_ids, wrong_types, st.floats()),
                                                                max_size=5))),
                        max_size=4),
       tilde=st.one_of(token_ids, st.sampled_from([1.5, "7", None])))
def test_masker_takes_any_token_ids(env, max_length, actions, tilde):
    # Carried ids (Action.token_ids), a tokenizer's ids and max_length of any size and type: a value or a
    # TypeError / ValueError, never OverflowError.
    masker = outcome(TrajectoryMasker, WildTokenizer(tilde), max_length=max_length, chat_template=False)
    if isinstance(masker, BaseException):
        return
    state, _ = env.reset(options={"task_index": 0})
    traj = Trajectory.create(state)
    carried = []
    from llenvs_go.core.reward import SignalBundle
    for text, ids in actions:
        action = outcome(Action, text=text, token_ids=ids)
        if isinstance(action, BaseException):
            continue
        carried.extend(action.token_ids or ())
        res = env.step(state, action)
        traj.add_transition(Transition(state=state, action=action, next_state=res.next_state,
                                       rewards=SignalBundle.single(1.0)))
    m = outcome(masker.mask_trajectory, traj)
    if isinstance(m, BaseException):
        return
    assert len(m.response_ids) == len(m.response_mask)
    assert all(0 <= t <= 2**31 - 1 for t in m.prompt_ids + m.response_ids)
    assert all(isinstance(t, int) and 0 <= t <= 2**31 - 1 for t in carried)
    if isinstance(max_length, int):
        assert len(m.response_ids) <= max_length


# -- extractors and cleaners -----------------------------------------------------------------------

EXTRACTORS = [extraction.TagBasedExtractor, extraction.GSM8KExtractor, extraction.MultipleChoiceExtractor,
              extraction.BoxedExtractor, extraction.NumericExtractor, extraction.LastLineExtractor,
              extraction.CodeBlockExtractor, extraction.PatternAnswerExtractor, extraction.RawGenerationExtractor,
              extraction.TailExtractor]


@given(k=st.integers(min_value=0, max_value=len(EXTRACTORS) - 1), text=st.one_of(texts, wrong_types, st.none()))
def test_extractors_take_anything(k, text):
    ex = EXTRACTORS[k]()
    r = outcome(ex.extract, text)
    rb = outcome(ex.extract_batch, [text, "<answer>1</answer>"])
    if not isinstance(r, BaseException):
        answer, meta = r
        assert answer is None or isinstance(answer, str)
        assert isinstance(meta, dict)
        assert not isinstance(rb, BaseException) and rb[0] == r


@given(pattern=st.one_of(st.text(max_size=20), st.sampled_from(["(", "(\\d+)", "a{99999}", "(?P<x>a)", "\\", "(?=x)"]),
                         wrong_types),
       group=st.one_of(st.integers(min_value=-3, max_value=5), wrong_types),
       flags=st.one_of(st.integers(), wrong_types),
       text=texts)
def test_regex_extractor_takes_anything(pattern, group, flags, text):
    ex = outcome(extraction.RegexExtractor, pattern=pattern, group_index=group, flags=flags)
    if not isinstance(ex, BaseException):
        outcome(ex.extract, text)


@given(text=st.one_of(texts, wrong_types, st.none()),
       n=st.one_of(st.integers(min_value=-5, max_value=10**6), wrong_types),
       specs=st.lists(st.one_of(st.sampled_from(["strip_special_tokens", "strip_thinking_tokens",
                                                 "strip_trailing_punctuation"]),
                                st.text(max_size=8), json_values), max_size=3),
       kind=st.one_of(st.sampled_from(["pre", "post"]), st.text(max_size=4)))
def test_cleaners_take_anything(text, n, specs, kind):
    for f in (cleaning.strip_special_tokens, cleaning.strip_thinking_tokens, cleaning.strip_trailing_punctuation,
              cleaning.strip_surrounding_quotes, cleaning.strip_latex_dollars):
        out = outcome(f, text)
        if isinstance(text, str):
            assert isinstance(out, str) and len(out) <= len(text)
    tail = outcome(cleaning.truncate_tail, n)
    if not isinstance(tail, BaseException):
        outcome(tail, text)
    resolved = outcome(cleaning.resolve_cleaners, specs, kind)
    if not isinstance(resolved, BaseException):
        outcome(cleaning.apply_cleaners, resolved, [text])


def test_lone_surrogates_pass_through_cleaners_and_extractors_unchanged():
    assert cleaning.strip_trailing_punctuation("\ud800.") == "\ud800"
    assert cleaning.strip_surrounding_quotes('"\udfff"') == "\udfff"
    assert cleaning.truncate_tail(2)("ab\ud800\udbff") == "\ud800\udbff"
    answer, meta = extraction.TagBasedExtractor().extract("x\ud800<answer> \ud800a </answer>")
    assert answer == "\ud800a"
    # Offsets are UTF-8 byte offsets of the text as "surrogatepass" encodes it.
    assert meta["match_start"] == len("x\ud800".encode("utf-8", "surrogatepass"))
    # Private-use code points next to lone surrogates (which no stand-in scheme could tell apart) pass too.
    assert cleaning.strip_latex_dollars("$\ue000\ud800$") == "\ue000\ud800"


# -- question/answer datasets (the huggingface adapter) and math answers -----------------------------

cells = st.one_of(texts.filter(lambda s: len(s) < 2000), numbers, st.none(), st.lists(st.integers(), max_size=2))


@given(rows=st.lists(st.dictionaries(st.sampled_from(["problem", "solution", "question", "answer", "meta"]), cells,
                                     max_size=5), max_size=4),
       options=st.fixed_dictionaries({}, optional={
           "question_column": st.one_of(st.sampled_from(["problem", "question", "nope"]), wrong_types),
           "answer_column": st.one_of(st.sampled_from(["solution", "answer"]), wrong_types),
           "ground_truth_extractor": st.one_of(st.sampled_from(["boxed", "gsm8k", "numeric", "last_line", "direct"]),
                                               st.text(max_size=6), wrong_types),
           "scoring": st.one_of(st.sampled_from(["numeric", "exact", "numeric_tolerance", "math"]),
                                st.text(max_size=6)),
           "metadata_columns": st.one_of(st.lists(st.sampled_from(["meta", "problem", "x"]), max_size=2), wrong_types),
           "size": st.one_of(numbers, wrong_types)}),
       responses=st.lists(texts.filter(lambda s: len(s) < 5000), min_size=1, max_size=4))
def test_question_answer_datasets_take_anything(rows, options, responses):
    env = outcome(environment_registry.get, name=rows, adapter="huggingface", **options)
    if isinstance(env, BaseException):
        return
    try:
        n = len(env)
        assert n == len(rows) or "size" in options
        idx = [k % n for k in range(len(responses))]
        ts = outcome(Scorer(env).totals, idx, responses)
        if not isinstance(ts, BaseException):
            assert all(not math.isnan(t) for t in ts)
        outcome(DatasetProvider(env).get_items, idx)
    finally:
        env.close()


@given(gold=st.one_of(texts.filter(lambda s: len(s) < 3000), wrong_types, st.none()),
       pred=st.one_of(texts.filter(lambda s: len(s) < 3000), wrong_types, st.none()),
       float_rounding=st.one_of(st.integers(min_value=-2, max_value=120), wrong_types),
       numeric_precision=st.one_of(st.integers(min_value=-2, max_value=200), wrong_types))
def test_math_verify_takes_anything(gold, pred, float_rounding, numeric_precision):
    from llenvs_go import math_verify

    g = outcome(math_verify.parse, gold)
    p = outcome(math_verify.parse, pred)
    outcome(math_verify.parse_batch, [gold, pred])
    if isinstance(g, BaseException) or isinstance(p, BaseException):
        return
    v = outcome(math_verify.verify, g, p, float_rounding=float_rounding, numeric_precision=numeric_precision)
    if not isinstance(v, BaseException):
        assert isinstance(v, bool)
        assert math_verify.verify(g, g) in (True, False)
