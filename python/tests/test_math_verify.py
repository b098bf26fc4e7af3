"""llenvs_go.math_verify: the drop-in for math-verify's parse/verify, its batch form, and its agreement
with the real math-verify package on the corpus in data/math_agreement.jsonl."""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import pickle
import sys
import threading
import time

import pytest

from llenvs_go import math_verify as mv

HAS_MATH_VERIFY = importlib.util.find_spec("math_verify") is not None


def test_parse_returns_value_and_text() -> None:
    parsed = mv.parse("We get $x = 2$, so the answer is $\\boxed{\\frac{6}{8}}$.")
    assert isinstance(parsed, list) and len(parsed) == 2
    value, text = parsed
    assert isinstance(value, mv.MathValue) and value.kind == "expression"
    assert str(value) == "3/4"
    assert text == "\\frac{6}{8}"
    assert "3/4" in repr(value)


def test_parse_fallback_and_no_answer() -> None:
    assert mv.parse("no numbers here") == []
    no_fallback = mv.parse("\\boxed{\\frac{6}{8}}", fallback_mode="no_fallback")
    assert len(no_fallback) == 1 and str(no_fallback[0]) == "3/4"
    only_text = mv.parse("\\boxed{\\unknowncommand{2}}")
    assert only_text == ["\\unknowncommand{2}"]


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("$\\frac{1}{2}$", "so \\boxed{0.5}", True),
        ("$\\frac{1}{3}$", "\\boxed{0.33}", False),
        ("$1,234$", "The total is 1234.", True),
        ("$50\\%$", "\\boxed{0.5}", True),
        ("$\\sqrt{8}$", "\\boxed{2\\sqrt{2}}", True),
        ("$x^2+2x+1$", "\\boxed{(x+1)^2}", True),
        ("$x^2+2x+1$", "\\boxed{(x-1)^2}", False),
        ("$(1,2)$", "\\boxed{(1,2)}", True),
        ("$\\{1,2\\}$", "\\boxed{\\{2,1\\}}", True),
        ("$x=3$", "\\boxed{3}", True),
        ("$30^\\circ$", "\\boxed{30}", True),
        ("$[1,2)$", "\\boxed{[1,2]}", False),
    ],
)
def test_verify(gold: str, answer: str, expected: bool) -> None:
    assert mv.verify(mv.parse(gold), mv.parse(answer)) is expected


def test_verify_accepts_single_values_and_strings() -> None:
    gold = mv.parse("$\\frac{1}{2}$")
    pred = mv.parse("\\boxed{0.5}")
    assert mv.verify(gold[0], pred[0])
    assert mv.verify(gold, pred[0])
    # strings compare as text, as in math-verify
    assert mv.verify("\\frac{1}{2}", "\\frac{1}{2}")
    assert not mv.verify("\\frac{1}{2}", "0.5")
    assert not mv.verify(" ", " ")
    with pytest.raises(TypeError, match="MathValue"):
        mv.verify(0.5, pred)


def test_verify_options() -> None:
    g, p = mv.parse("$\\frac{1}{3}$"), mv.parse("$0.33$")
    assert not mv.verify(g, p)
    assert mv.verify(g, p, float_rounding=2)
    g, p = mv.parse("$x+1$"), mv.parse("$y+1$")
    assert not mv.verify(g, p)
    assert mv.verify(g, p, strict=False)
    g, p = mv.parse("$(1,2)$"), mv.parse("$1 < x < 2$")
    assert not mv.verify(g, p)
    assert mv.verify(g, p, allow_set_relation_comp=True)
    with pytest.raises(ValueError, match="float_rounding"):
        mv.verify(g, p, float_rounding=-1)
    with pytest.raises(ValueError, match="numeric_precision"):
        mv.verify(g, p, numeric_precision=0)


def test_extraction_configs() -> None:
    letters = [mv.StringExtractionConfig()]
    assert mv.verify(mv.parse("B", extraction_config=letters),
                     mv.parse("Checking each option, the answer is B.", extraction_config=letters))
    assert not mv.verify(mv.parse("B", extraction_config=letters),
                         mv.parse("Answer: C", extraction_config=letters))
    expr_only = [mv.ExprExtractionConfig()]
    assert mv.parse("the answer is $\\frac{1}{2}$ or 7", extraction_config=expr_only)[-1] == "7"
    boxed_first = [mv.LatexExtractionConfig(boxed_match_priority=0)]
    parsed = mv.parse("The final answer is $5$. Also \\boxed{6}", extraction_config=boxed_first)
    assert str(parsed[0]) == "6"
    with pytest.raises(TypeError, match="extraction_config"):
        mv.parse("1", extraction_config=["latex"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="fallback_mode"):
        mv.parse("1", fallback_mode="sometimes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str"):
        mv.parse(b"1")  # type: ignore[arg-type]


def test_budget_refuses_power_towers_quickly() -> None:
    start = time.perf_counter()
    gold = mv.parse("$9^{9^{9^{9}}}$")
    pred = mv.parse("\\boxed{9^{9^{9^{9}}} + 1}")
    assert not mv.verify(gold, pred)
    with pytest.raises(ValueError, match="over budget"):
        mv.verify(gold, pred, raise_on_error=True)
    assert mv.verify(gold, mv.parse("\\boxed{9^{9^{9^{9}}}}"))
    assert not mv.verify(mv.parse("$1$"), mv.parse("\\boxed{" + "(" * 2000 + "1" + ")" * 2000 + "}"))
    assert time.perf_counter() - start < 5


def test_works_off_the_main_thread() -> None:
    results: list[bool] = []
    t = threading.Thread(target=lambda: results.append(mv.verify(mv.parse("$2$"), mv.parse("\\boxed{2}"))))
    t.start()
    t.join()
    assert results == [True]


def test_values_pickle() -> None:
    parsed = mv.parse("\\boxed{\\{1, 2\\} \\cup [3, 4)}")
    back = pickle.loads(pickle.dumps(parsed))
    assert back == parsed
    assert mv.verify(back, parsed)


def test_verify_batch_matches_verify() -> None:
    golds = ["$\\frac{1}{2}$", "$3$", "$x+1$", "$(1,2)$", "$7$"]
    preds = ["\\boxed{0.5}", "x = 4", "\\boxed{1+x}", "\\boxed{(2,1)}", "nothing"]
    expected = [mv.verify(mv.parse(g), mv.parse(p)) for g, p in zip(golds, preds, strict=True)]
    assert expected == [True, False, True, False, False]
    assert mv.verify_batch(golds, preds) == expected
    assert mv.verify_batch([mv.parse(g) for g in golds], preds) == expected
    verdicts, reasons = mv.verify_batch(golds, preds, return_reasons=True)
    assert verdicts == expected
    assert reasons[0] == "equal" and reasons[1] == "not equal" and reasons[4] == "no answer"
    big = mv.verify_batch(golds * 400, preds * 400)
    assert big == expected * 400
    with pytest.raises(ValueError, match="as many"):
        mv.verify_batch(golds, preds[:2])
    with pytest.raises(TypeError, match="lists"):
        mv.verify_batch("$1$", "$1$")  # type: ignore[arg-type]


def test_parse_batch_matches_parse() -> None:
    texts = ["\\boxed{1}", "The answer is 2.", "", "$\\frac{1}{2}$ and $3$"]
    assert mv.parse_batch(texts) == [mv.parse(t) for t in texts]


def test_lone_surrogates_stay_distinct() -> None:
    """A lone surrogate crosses into Go as "surrogatepass" UTF-8 and comes back the same code point: two
    different ones never collapse into the same replacement characters, and a high one next to a low one stays
    two code points."""
    hi, lo = mv.parse("\\boxed{\ud800}"), mv.parse("\\boxed{\udc00}")
    assert hi == ["\ud800"] and lo == ["\udc00"]
    assert mv.verify(hi, lo) is False and mv.verify(lo, hi) is False
    assert mv.verify(hi, mv.parse("\\boxed{\ud800}")) is True
    for text in ("a\ud800\udc00b", "\udfff x \ud800", "\udc00\ud800"):
        assert mv.parse(f"\\boxed{{{text}}}") == [text]
    assert mv.parse_batch(["\\boxed{\ud800}", "\\boxed{\udc00}"]) == [hi, lo]
    assert mv.verify_batch(["\\boxed{\ud800}", "\\boxed{\ud800}"], ["\\boxed{\udc00}", "\\boxed{\ud800}"]) == \
        [False, True]
    assert mv.verify("\ud800", "\udc00") is False  # plain strings are compared as text
    assert pickle.loads(pickle.dumps(hi)) == hi
    if HAS_MATH_VERIFY:
        import math_verify

        assert math_verify.verify(math_verify.parse("\\boxed{\ud800}"), math_verify.parse("\\boxed{\udc00}")) is False


@pytest.mark.skipif(not HAS_MATH_VERIFY, reason="math-verify is not installed")
def test_config_classes_match_math_verify() -> None:
    import math_verify

    for ours, theirs in [(mv.LatexExtractionConfig, math_verify.LatexExtractionConfig),
                         (mv.ExprExtractionConfig, math_verify.ExprExtractionConfig),
                         (mv.StringExtractionConfig, math_verify.StringExtractionConfig)]:
        a, b = ours(), theirs()
        assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(b)]
        for f in dataclasses.fields(a):
            va, vb = getattr(a, f.name), getattr(b, f.name)
            if dataclasses.is_dataclass(va):
                assert dataclasses.asdict(va) == dataclasses.asdict(vb)
            else:
                assert va == vb, f.name
    from latex2sympy2_extended.latex2sympy2 import NormalizationConfig

    assert dataclasses.asdict(mv.NormalizationConfig()) == dataclasses.asdict(NormalizationConfig())


@pytest.mark.skipif(not HAS_MATH_VERIFY, reason="math-verify is not installed")
def test_agreement_with_math_verify(repo) -> None:
    sys.path.insert(0, str(repo / "scripts"))
    try:
        import math_agreement
    finally:
        sys.path.pop(0)
    logging.disable(logging.WARNING)
    try:
        cases = math_agreement.load(repo / "python" / "tests" / "data" / "math_agreement.jsonl")
        assert len(cases) >= 500
        agree, diffs = math_agreement.compare(cases)
    finally:
        logging.disable(logging.NOTSET)
    report = "\n".join(f"{d['feature']}: math-verify={d['math_verify']} ours={d['llenvs_go']} "
                       f"gold={d['gold'][:80]!r} answer={d['answer'][-80:]!r}" for d in diffs)
    assert agree / len(cases) >= 0.98, f"agreement {agree}/{len(cases)}; disagreements:\n{report}"


def test_math_verify_reward_on_reasoning_gym_tasks(rg_leg) -> None:
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    env = environment_registry.get(name="leg_counting", size=1000, seed=42, extra_rewards=("math_verify",))
    scorer = Scorer(env)
    assert scorer.signal_names == ["correctness", "math_verify"]
    t = int(rg_leg[0]["answer"])
    boxed, wrong, tagged = scorer.score_batch(
        [0, 0, 0], [f"Counting every animal gives \\boxed{{{t}}}.", f"\\boxed{{{t + 1}}}", f"<answer>{t}</answer>"])
    assert boxed.signals == {"correctness": 0.0, "math_verify": 1.0}
    assert wrong.signals == {"correctness": 0.0, "math_verify": 0.0}
    assert tagged.signals["correctness"] == 1.0
    with pytest.raises(ValueError, match="math_verify"):
        environment_registry.get(name="leg_counting", seed=1, extra_rewards=("math_verifyy",))


@pytest.mark.skipif(not HAS_MATH_VERIFY, reason="math-verify is not installed")
def test_heldout_agreement_with_math_verify(repo) -> None:
    """The held-out split of scripts/math_heldout.py (never tuned on) agrees with math-verify at 98% or better."""
    sys.path.insert(0, str(repo / "scripts"))
    try:
        import math_heldout
    finally:
        sys.path.pop(0)
    logging.disable(logging.WARNING)
    try:
        cases = math_heldout.cases("heldout", 300)
        agree, diffs = math_heldout.compare(cases)
    finally:
        logging.disable(logging.NOTSET)
    report = "\n".join(f"{c.kind}: math-verify={theirs} ours={mine} gold={c.gold!r} answer={c.answer!r}"
                       for c, theirs, mine in diffs)
    assert agree / len(cases) >= 0.98, f"held-out agreement {agree}/{len(cases)}; disagreements:\n{report}"
