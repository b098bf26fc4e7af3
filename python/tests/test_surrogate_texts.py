"""Extraction and cleaning of texts with lone surrogates: texts cross to Go as columns of "surrogatepass"
bytes, where a lone surrogate is one character (as a Python str sees it) and comes back unchanged."""

from __future__ import annotations

import pytest

from llenvs_go.core import cleaning
from llenvs_go.core.composite_extractors import CleanedExtractor, CompositeExtractor
from llenvs_go.core.extractors import (
    BoxedExtractor,
    CodeBlockExtractor,
    GSM8KExtractor,
    LastLineExtractor,
    MultipleChoiceExtractor,
    NumericExtractor,
    PatternAnswerExtractor,
    RawGenerationExtractor,
    RegexExtractor,
    TagBasedExtractor,
    TailExtractor,
)

# U+2603 (a snowman) is, like a lone surrogate, one character that is neither a space, a digit, a letter
# nor punctuation, and three bytes in UTF-8: a text with it in place of each surrogate extracts and
# cleans the same, with the same byte offsets.
OTHER = "\u2603"
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]

EXTRACTORS = [
    TagBasedExtractor(), TagBasedExtractor(strip_whitespace=False), RegexExtractor(r"is (\S+)"),
    RegexExtractor(r"(.)$"), GSM8KExtractor(), MultipleChoiceExtractor(), BoxedExtractor(), NumericExtractor(),
    LastLineExtractor(), CodeBlockExtractor(), PatternAnswerExtractor(), PatternAnswerExtractor(["is."]),
    RawGenerationExtractor(), RawGenerationExtractor(strip_whitespace=False), TailExtractor(max_chars=3),
    CompositeExtractor([BoxedExtractor(), TailExtractor(max_chars=2)]),
    CleanedExtractor(TagBasedExtractor(), pre_cleaners=[cleaning.strip_thinking_tokens],
                     post_cleaners=[cleaning.strip_trailing_punctuation]),
]

CLEANERS = [cleaning.strip_special_tokens, cleaning.strip_thinking_tokens, cleaning.strip_trailing_punctuation,
            cleaning.strip_surrounding_quotes, cleaning.strip_latex_dollars, cleaning.truncate_tail(1),
            cleaning.truncate_tail(2), cleaning.truncate_tail(4)]

TEMPLATES = ["{s}", " {s} ", "<answer>{s}</answer>", "<answer> x{s}y </answer>", "The answer is {s}7. Done",
             "this is{s}x", "#### 5{s}", "Answer: B{s}", "Answer: {s}", "\\boxed{{{s}}}", "```\n{s}\n```",
             "a\n{s}b \n ", "1{s}2", "ab{s}", "{s}{s}", "'{s}'", '"{s}x"', "{s}.", "${s}$",
             "<think>{s}</think>{s}", "<s>{s}</s>"]


def _texts(s: str) -> list[str]:
    return [t.format(s=s) for t in TEMPLATES]


@pytest.mark.parametrize("ex", EXTRACTORS, ids=repr)
def test_extractors_see_a_surrogate_as_one_character(ex):
    others = ex.extract_batch(_texts(OTHER))
    for sur in SURROGATES:
        got = ex.extract_batch(_texts(sur))
        want = [(None if a is None else a.replace(OTHER, sur), m) for a, m in others]
        assert got == want


@pytest.mark.parametrize("cleaner", CLEANERS, ids=repr)
def test_cleaners_see_a_surrogate_as_one_character(cleaner):
    others = cleaning.apply_cleaners([cleaner], _texts(OTHER))
    for sur in SURROGATES:
        assert cleaning.apply_cleaners([cleaner], _texts(sur)) == [t.replace(OTHER, sur) for t in others]
        assert [cleaner(t) for t in _texts(sur)] == [t.replace(OTHER, sur) for t in others]


def test_exact_values_with_surrogates():
    assert TailExtractor(max_chars=2).extract("ab\ud800") == (
        "b\ud800", {"format": "tail", "found": True, "max_chars": 2, "original_length": 3, "truncated": True})
    assert TailExtractor(max_chars=2).extract("\ud800\udc00")[1]["original_length"] == 2
    assert cleaning.truncate_tail(1)("a\udfff") == "\udfff"
    assert cleaning.truncate_tail(2)("  x\ud800\udc00 ") == "\ud800\udc00"
    assert RegexExtractor(r"(.)$").extract("a\ud800")[0] == "\ud800"
    assert RegexExtractor(r"x([^y])").extract("x\udc00y")[0] == "\udc00"
    assert PatternAnswerExtractor(["is."]).extract("this\ud800x")[0] == "x"
    assert MultipleChoiceExtractor().extract("Answer: C\ud800")[0] == "C"
    assert NumericExtractor().extract("1\ud8002")[0] == "2"
    answer, meta = TagBasedExtractor().extract("\ud800<answer>\udfff</answer>")
    assert answer == "\udfff" and meta["match_start"] == 3 and meta["match_end"] == 3 + 8 + 3 + 9


def test_texts_come_back_unchanged():
    texts = ["\ud800", "a\udc00b", "\ud800\udc00", "\udbff\udfff\ud800", "\ue000\ud800", "x" * 1000 + "\udfff",
             "", "\U0001f600\ud83d", "\x00\ud800\x00"]
    raw = RawGenerationExtractor(strip_whitespace=False)
    assert [a for a, _ in raw.extract_batch(texts)] == texts
    assert cleaning.apply_cleaners([cleaning.strip_special_tokens], texts) == texts
    assert cleaning.apply_cleaners([cleaning.truncate_tail(10_000)], texts) == texts


def test_invalid_texts_are_type_errors():
    for bad in [None, b"x", 1, ["x"]]:
        with pytest.raises(TypeError, match=r"extract needs a str: texts\[1\] must be a str, got"):
            TagBasedExtractor().extract_batch(["ok", bad])  # type: ignore[list-item]
        with pytest.raises(TypeError, match="a cleaner needs a str"):
            cleaning.strip_special_tokens(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a cleaner needs a str"):
            cleaning.apply_cleaners([cleaning.truncate_tail(3)], ["a", bad])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="max_chars"):
        TailExtractor(max_chars=0)
    with pytest.raises(ValueError, match="max_chars"):
        cleaning.truncate_tail(0)
