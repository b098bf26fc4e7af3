"""Extractor classes of llenvs_go.core.extraction: llenvs' cases (spec §3), the documented differences
(docs/extractors.md), and agreement with environments configured with the same extractor."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import re

import pytest

from llenvs_go.core.cleaning import (
    strip_latex_dollars,
    strip_special_tokens,
    strip_surrounding_quotes,
    strip_thinking_tokens,
    strip_trailing_punctuation,
    truncate_tail,
)
from llenvs_go.core.config import EnvironmentConfig
from llenvs_go.core.extraction import (
    AnswerExtractor,
    BoxedExtractor,
    CleanedExtractor,
    CodeBlockExtractor,
    CompositeExtractor,
    GSM8KExtractor,
    LastLineExtractor,
    MultipleChoiceExtractor,
    NativeExtractor,
    NumericExtractor,
    PatternAnswerExtractor,
    RawGenerationExtractor,
    RegexExtractor,
    TagBasedExtractor,
    TailExtractor,
    answer_extractor_registry,
    extractor_from_spec,
)
from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import Scorer


def answer(ex, text):
    return ex.extract(text)[0]


# -- tag_based -----------------------------------------------------------------

def test_tag_based():
    ex = TagBasedExtractor()
    assert answer(ex, "<answer>1</answer> then <answer> 2 </answer>") == "2"
    assert answer(ex, "<ANSWER>x</Answer>") == "x"
    assert answer(ex, "<answer></answer>") == ""
    assert answer(ex, "no tags") is None
    assert answer(ex, "<answer>42") is None
    assert answer(ex, "<answer >x</answer>") is None
    assert answer(ex, "<answer>a<answer>b</answer></answer>") == "a<answer>b"
    assert answer(ex, "<answer>\nmulti\nline\n</answer>") == "multi\nline"
    assert answer(TagBasedExtractor(strip_whitespace=False), "<answer> 4 </answer>") == " 4 "
    assert answer(TagBasedExtractor("my.tag"), "<my.tag>5</my.tag><myxtag>6</myxtag>") == "5"


def test_tag_based_metadata():
    ex = TagBasedExtractor()
    assert ex.extract("nothing") == (None, {"found": False, "tag_name": "answer"})
    assert ex.extract("ab <answer>1</answer><answer>2</answer>") == (
        "2", {"found": True, "tag_name": "answer", "match_start": 21, "match_end": 39, "num_matches": 2})
    # Offsets are UTF-8 byte offsets (docs/extractors.md).
    assert ex.extract("é<answer>x</answer>")[1]["match_start"] == 2


# -- regex ---------------------------------------------------------------------

def test_regex():
    assert answer(RegexExtractor(r"(\d+)"), "a 1 b 22 c") == "22"
    assert answer(RegexExtractor(r"x(\d+)?y", group_index=1), "x1y xy") is None  # group did not take part
    assert answer(RegexExtractor(r"a(.)b"), "a\nb") == ""  # DOTALL by default, then stripped
    assert answer(RegexExtractor(r"a(.)b", flags=0), "a\nb") is None
    assert answer(RegexExtractor(r"answer: (\w+)", flags=re.IGNORECASE), "ANSWER: yes") == "yes"
    assert answer(RegexExtractor(r"^(\w+)$", flags=re.MULTILINE), "one\ntwo\n") == "two"
    assert answer(RegexExtractor(r"\d+", group_index=0), "12 and 34") == "34"
    ex = RegexExtractor(r"(\d+)")
    assert ex.extract("none") == (None, {"found": False, "pattern": r"(\d+)"})
    assert ex.extract("7 8")[1] == {"found": True, "pattern": r"(\d+)", "match_start": 2, "match_end": 3,
                                    "num_matches": 2}


def test_regex_group_past_the_patterns_groups_fails_as_in_llenvs():
    # llenvs: no answer, and the metadata names the group, whenever the pattern matches.
    ex = RegexExtractor(r"(\d+)", group_index=5)
    assert ex.extract("123") == (None, {"found": False, "pattern": r"(\d+)", "error": "Group 5 not found in match"})
    assert ex.extract("no digits") == (None, {"found": False, "pattern": r"(\d+)"})
    assert ex.extract_batch(["1", "x"])[0] == (None, {"found": False, "pattern": r"(\d+)",
                                                      "error": "Group 5 not found in match"})


def test_regex_configuration_errors():
    with pytest.raises(ValueError, match="RE2"):
        RegexExtractor(r"(?<=a)b")
    with pytest.raises(ValueError, match="unsupported flags re.VERBOSE"):
        RegexExtractor(r"(a)", flags=re.VERBOSE)
    with pytest.raises(TypeError, match="pattern must be a str"):
        RegexExtractor(re.compile("(a)"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pattern"):
        RegexExtractor()  # type: ignore[call-arg]


# -- gsm8k, numeric --------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("#### $150", "150"), ("####42", "42"), ("#### 1,234,567", "1234567"), ("#### 1\n#### 2", "2"),
    ("#### 12.50", "12.50"), ("no marker 5", None),
    ("#### -5", "-5"),  # llenvs: None; llenvs-go reads negatives (docs/extractors.md)
])
def test_gsm8k(text, want):
    ans, meta = GSM8KExtractor().extract(text)
    assert ans == want
    assert meta["format"] == "gsm8k" and meta["found"] is (want is not None)


@pytest.mark.parametrize(("text", "want"), [
    ("3 + 4 = 7", "7"), ("-3.14", "-3.14"), ("1,234,567", "1234567"), ("The answer is 42.", "42"), ("none", None),
    # llenvs split runs of more than three digits ("0", "45", "4.5"); llenvs-go does not (docs/extractors.md).
    ("The answer is 1000", "1000"), ("12345", "12345"), ("1234.5", "1234.5"),
])
def test_numeric(text, want):
    assert answer(NumericExtractor(), text) == want


# -- multiple_choice -------------------------------------------------------------

def test_multiple_choice():
    ex = MultipleChoiceExtractor()
    assert answer(ex, "Answer: (C)") == "C"
    assert answer(ex, "answer: d") == "D"
    assert answer(ex, "(A) looks wrong, (B) right") == "B"
    assert answer(ex, "(A) or (B)\nAnswer: E") == "E"  # the first pattern with a match wins
    assert answer(ex, "A. first\nB. second") == "B"
    assert answer(ex, "Answer: F") is None
    assert answer(MultipleChoiceExtractor(choices="ABC"), "Answer: D") is None
    assert answer(MultipleChoiceExtractor(case_sensitive=True), "answer: b") is None
    assert "pattern_used" in ex.extract("(B)")[1]
    # Documented fixes over llenvs: "The answer is B" reads B; "Answer: Because" is not an answer.
    assert answer(ex, "The answer is B") == "B"
    assert answer(ex, "Answer: Because it is") is None


# -- boxed -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    (r"\boxed{x^{2}+1}", "x^{2}+1"), (r"\boxed {42}", "42"), (r"\boxed{}", ""), (r"\boxed{unclosed", None),
    (r"\boxed{1} and \boxed{2}", "2"), (r"\boxed{\boxed{1}}", "1"), (r"\boxed{ok} \boxed{bad", "ok"),
])
def test_boxed(text, want):
    ans, meta = BoxedExtractor().extract(text)
    assert ans == want and meta["format"] == "boxed"


# -- last_line, code_block, pattern_answer, raw, tail ------------------------------

def test_last_line():
    ex = LastLineExtractor()
    assert ex.extract("a\n b \n\n") == ("b", {"found": True, "format": "last_line", "num_lines": 2})
    assert answer(ex, "") is None and answer(ex, " \n\t\n") is None
    assert answer(ex, "one\r\ntwo\r\n") == "two"


def test_code_block():
    ex = CodeBlockExtractor()
    text = "```python\nfirst\n```\ntext\n```js\n  second  \n```"
    assert answer(ex, text) == "second"
    assert answer(CodeBlockExtractor("python"), text) == "first"
    assert CodeBlockExtractor("python").extract(text)[1]["language"] == "python"
    assert "language" not in ex.extract(text)[1]
    assert answer(CodeBlockExtractor("rust"), text) is None
    assert answer(ex, "```py print(1)```") is None
    assert answer(ex, "```\nunclosed") is None


def test_pattern_answer():
    ex = PatternAnswerExtractor()
    assert answer(ex, "The answer is 3.14.") == "3.14"
    assert answer(ex, "x=7") is None
    assert answer(ex, "The answer is 5. Therefore, 6") == "6"
    ans, meta = ex.extract("so y = 8\n")
    assert ans == "8" and meta["pattern_index"] == 2 and meta["pattern"] == r"=\s+"
    custom = PatternAnswerExtractor([r"total:\s*"])
    assert custom.patterns == (r"total:\s*",)
    assert answer(custom, "total: 12. fine") == "12"
    with pytest.raises(ValueError):
        PatternAnswerExtractor([])


def test_raw_and_tail():
    assert RawGenerationExtractor().extract("  all  ") == (
        "all", {"found": True, "format": "raw", "is_full_response": True})
    assert answer(RawGenerationExtractor(strip_whitespace=False), " x ") == " x "
    assert answer(RawGenerationExtractor(), "") == ""
    ans, meta = TailExtractor(max_chars=3).extract("  abcdef  ")
    assert ans == "def"
    assert meta == {"found": True, "format": "tail", "truncated": True, "max_chars": 3, "original_length": 10}
    assert TailExtractor().extract("short")[1]["truncated"] is False
    assert answer(TailExtractor(max_chars=2), "é𝄞ü") == "𝄞ü"  # characters, not bytes
    with pytest.raises(ValueError, match="max_chars"):
        TailExtractor(max_chars=0)


# -- composite, cleaned, native -------------------------------------------------------

def test_composite():
    ex = CompositeExtractor([BoxedExtractor(), TagBasedExtractor()])
    ans, meta = ex.extract("<answer>5</answer>")
    assert ans == "5" and meta["extractor_index"] == 1 and meta["extractor_type"] == "TagBasedExtractor"
    assert meta["tag_name"] == "answer"
    assert ex.extract(r"\boxed{1} <answer>2</answer>")[1]["extractor_type"] == "BoxedExtractor"
    assert ex.extract("nothing") == (None, {"found": False,
                                            "tried_extractors": ["BoxedExtractor", "TagBasedExtractor"]})
    assert ex.extract("<answer></answer>")[0] == ""  # "" is a success, the chain stops there
    assert CompositeExtractor().extract("x") == (None, {"found": False, "tried_extractors": []})
    assert CompositeExtractor([]).extractors == ()
    with pytest.raises(ValueError, match="empty"):
        CompositeExtractor([]).to_spec()


def test_composite_composed_in_python():
    calls = []

    def fn(text):
        calls.append(text)
        return 7 if "seven" in text else None

    ex = CompositeExtractor([NativeExtractor(fn, name="mine"), TagBasedExtractor()])
    assert ex.extract("seven") == ("7", {"found": True, "format": "native", "native_name": "mine",
                                         "extractor_index": 0, "extractor_type": "NativeExtractor"})
    assert ex.extract("<answer>1</answer>")[1]["extractor_index"] == 1
    assert ex.extract_batch(["a", "seven", "<answer>x</answer>"])[2][0] == "x"
    with pytest.raises(ValueError, match="NativeExtractor"):
        ex.to_spec()

    class MyTag(TagBasedExtractor):
        pass

    nested = CompositeExtractor([CompositeExtractor([BoxedExtractor()]), MyTag()])
    ans, meta = nested.extract("<answer>3</answer>")
    assert ans == "3" and meta["extractor_type"] == "MyTag" and meta["extractor_index"] == 1
    ans, meta = nested.extract(r"\boxed{4}")
    assert meta["extractor_type"] == "CompositeExtractor" and meta["extractor_index"] == 0
    assert nested.extract("none")[1] == {"found": False, "tried_extractors": ["CompositeExtractor", "MyTag"]}


def test_cleaned():
    ex = CleanedExtractor(TagBasedExtractor(), pre_cleaners=[strip_thinking_tokens],
                          post_cleaners=[strip_trailing_punctuation])
    ans, meta = ex.extract("<think><answer>1</answer></think><answer>42.</answer>")
    assert ans == "42" and meta["pre_cleaners_applied"] is True and meta["post_cleaners_applied"] is True
    assert meta["num_matches"] == 1
    ans, meta = ex.extract("nothing")
    assert ans is None and meta["pre_cleaners_applied"] and meta["post_cleaners_applied"]
    # The flags are set even with no cleaners, as in llenvs.
    assert CleanedExtractor(TagBasedExtractor()).extract("<answer>1.</answer>") == (
        "1.", {"found": True, "tag_name": "answer", "match_start": 0, "match_end": 19, "num_matches": 1,
               "pre_cleaners_applied": True, "post_cleaners_applied": True})
    # Post-cleaners run only on a found answer; names and mappings are accepted and stored as functions.
    named = CleanedExtractor(RawGenerationExtractor(), ["strip_special_tokens"],
                             [{"type": "truncate_tail", "config": {"max_chars": 2}}])
    assert named.pre_cleaners == (strip_special_tokens,) and named.post_cleaners == (truncate_tail(2),)
    assert answer(named, "abc<|im_end|>") == "bc"


def test_cleaned_composed_in_python_matches_go():
    go = CleanedExtractor(CompositeExtractor([BoxedExtractor(), TagBasedExtractor()]),
                          [strip_thinking_tokens, strip_special_tokens],
                          [strip_surrounding_quotes, strip_trailing_punctuation])
    py = CleanedExtractor(go.inner, [strip_thinking_tokens, lambda t: strip_special_tokens(t)],
                          [strip_surrounding_quotes, lambda a: strip_trailing_punctuation(a)])
    with pytest.raises(ValueError, match="only Python can run it"):
        py.to_config()
    texts = CORPUS
    assert py.extract_batch(texts) == go.extract_batch(texts)
    # A post-cleaner in the pre list is run as given (Python), as llenvs would.
    odd = CleanedExtractor(RawGenerationExtractor(), [strip_trailing_punctuation])
    assert answer(odd, "x.") == "x"


def test_nested_cleaned_flattens_in_order():
    inner = CleanedExtractor(RawGenerationExtractor(), [strip_special_tokens], [strip_latex_dollars])
    outer = CleanedExtractor(inner, [strip_thinking_tokens], [strip_trailing_punctuation])
    assert outer.to_config()["pre_cleaners"] == ["strip_thinking_tokens", "strip_special_tokens"]
    assert outer.to_config()["post_cleaners"] == ["strip_latex_dollars", "strip_trailing_punctuation"]
    assert answer(outer, "<think>x</think>$5.$<s>") == "5"


def test_native():
    ex = NativeExtractor(lambda t: len(t) if t else None)
    assert ex.extract("abc") == ("3", {"found": True, "format": "native", "native_name": "native"})
    assert ex.extract("") == (None, {"found": False, "format": "native", "native_name": "native"})
    assert NativeExtractor(lambda t: "", name="x").extract("q") == ("", {"found": True, "format": "native",
                                                                         "native_name": "x"})
    with pytest.raises(ValueError, match="Python function"):
        EnvironmentConfig(name="leg_counting", answer_extractor=ex)


# -- the classes as values -----------------------------------------------------------

ALL = [
    TagBasedExtractor(), TagBasedExtractor("final", strip_whitespace=False), RegexExtractor(r"(\d+)"),
    RegexExtractor(r"answer:\s*(\w+)", flags=re.IGNORECASE), RegexExtractor(r"^(\S+)\s*$", flags=re.MULTILINE),
    GSM8KExtractor(), MultipleChoiceExtractor(), MultipleChoiceExtractor("ABC", case_sensitive=True),
    BoxedExtractor(), BoxedExtractor(strip_whitespace=False), NumericExtractor(), LastLineExtractor(),
    CodeBlockExtractor(), CodeBlockExtractor("python"), PatternAnswerExtractor(),
    PatternAnswerExtractor([r"total is\s+", r"answer:\s*"]), RawGenerationExtractor(),
    RawGenerationExtractor(strip_whitespace=False), TailExtractor(), TailExtractor(5, strip_whitespace=False),
    CompositeExtractor([BoxedExtractor(), TagBasedExtractor(), GSM8KExtractor(), NumericExtractor()]),
    CompositeExtractor([MultipleChoiceExtractor()]),
    CleanedExtractor(TagBasedExtractor(), [strip_thinking_tokens, strip_special_tokens],
                     [strip_surrounding_quotes, strip_latex_dollars, strip_trailing_punctuation]),
    CleanedExtractor(CompositeExtractor([CodeBlockExtractor(), LastLineExtractor()]), [truncate_tail(40)],
                     [truncate_tail(3)]),
    CleanedExtractor(CleanedExtractor(NumericExtractor(), [strip_special_tokens]), [],
                     [strip_trailing_punctuation]),
]


def test_classes_are_frozen_comparable_and_picklable():
    for ex in ALL:
        assert isinstance(ex, AnswerExtractor)
        assert ex == pickle.loads(pickle.dumps(ex))
        assert hash(ex) == hash(dataclasses.replace(ex))
        assert repr(ex).startswith(type(ex).__name__ + "(")
        with pytest.raises(dataclasses.FrozenInstanceError):
            ex.foo = 1  # type: ignore[attr-defined]
    assert TagBasedExtractor() != TagBasedExtractor("final")
    assert CompositeExtractor([TagBasedExtractor()]) == CompositeExtractor((TagBasedExtractor(),))
    assert list(inspect.signature(RegexExtractor).parameters) == ["pattern", "group_index", "strip_whitespace",
                                                                    "flags"]
    assert RegexExtractor("(a)").flags == re.DOTALL
    assert MultipleChoiceExtractor().choices == "ABCDE" and TailExtractor().max_chars == 256


def test_extract_batch_is_extract_per_text():
    for ex in ALL:
        assert ex.extract_batch(CORPUS) == [ex.extract(t) for t in CORPUS]
        assert ex.extract_batch([]) == []
    with pytest.raises(TypeError, match="needs a str"):
        TagBasedExtractor().extract(None)  # type: ignore[arg-type]


def test_to_spec():
    assert TagBasedExtractor().to_spec() == {"type": "tag_based",
                                             "config": {"tag_name": "answer", "strip_whitespace": True}}
    assert RegexExtractor(r"(\d)", flags=re.I | re.M).to_spec() == {
        "type": "regex", "config": {"pattern": r"(\d)", "group_index": 1, "strip_whitespace": True, "flags": 10}}
    assert CodeBlockExtractor().to_spec() == {"type": "code_block", "config": {}}
    assert PatternAnswerExtractor(["a"]).to_spec() == {"type": "pattern_answer", "config": {"patterns": ["a"]}}
    assert CompositeExtractor([LastLineExtractor(), RawGenerationExtractor()]).to_spec() == [
        {"type": "last_line", "config": {}}, {"type": "raw", "config": {"strip_whitespace": True}}]
    cleaned = CleanedExtractor(LastLineExtractor(), [strip_special_tokens], [truncate_tail(4)])
    assert cleaned.to_spec() == {"type": "last_line", "config": {}}
    assert cleaned.to_config() == {"answer_extractor": "last_line", "answer_extractor_config": {},
                                   "pre_cleaners": ["strip_special_tokens"],
                                   "post_cleaners": [{"type": "truncate_tail", "config": {"max_chars": 4}}]}
    for ex in ALL:
        if not isinstance(ex, CleanedExtractor):
            assert extractor_from_spec(ex.to_spec()) == ex


def test_registry():
    reg = answer_extractor_registry
    assert set(reg.keys()) == {"tag_based", "regex", "gsm8k", "multiple_choice", "boxed", "numeric", "last_line",
                               "code_block", "pattern_answer", "raw", "tail"}
    assert "boxed" in reg and "native" not in reg and len(reg) == 11 and set(reg) == set(reg.keys())
    a = reg.create("regex", pattern=r"(\w+)", group_index=1)
    assert a == RegexExtractor(r"(\w+)") and a is not reg.create("regex", pattern=r"(\w+)")
    assert isinstance(reg.create("tail", max_chars=3), TailExtractor)
    with pytest.raises(KeyError, match=r"extractor 'native' not found. Available: \['tag_based'"):
        reg.create("native")
    with pytest.raises(KeyError, match="extractor 'nope' not found"):
        reg.get("nope")
    with pytest.raises(TypeError):
        reg.create("regex")  # pattern is required
    with pytest.raises(TypeError):
        reg.create("tag_based", tag="x")
    with pytest.raises(ValueError, match="extractor 'boxed' is already registered"):
        reg.register("boxed", BoxedExtractor)


def test_registry_semantics_on_a_fresh_registry():
    from llenvs_go.core.extraction import Registry

    reg: Registry[object] = Registry("thing")

    @reg.register("made")
    def make(x: int = 1) -> object:
        return [x]

    reg.register_instance("fixed", "obj")
    assert reg.get("made", x=2) == [2] and reg.get("made") is reg.get("made")
    assert reg.create("made") == [1] and reg.create("made") is not reg.create("made")
    assert reg.get("fixed") == "obj"
    with pytest.raises(KeyError, match="registered as instance, not factory"):
        reg.create("fixed")
    assert list(reg) == ["made", "fixed"]


# -- agreement with configured environments ---------------------------------------------

CORPUS = [
    "", " ", "\n\n", "42", "<answer>42</answer>", "<ANSWER> 7 </Answer>", "<answer></answer>",
    "<answer>a<answer>b</answer></answer>", "<answer>42", "<answer >x</answer>",
    "<answer>1</answer> then <answer>2</answer> and <answer>3</answer>", "<final>9</final>", "<final> 9 </final>",
    "line1\r\nline2\r\n<answer>3</answer>\r\n", "é – 𝄞 <answer>ü</answer>", "数字是 <answer>四十二</answer>。",
    "🙂 <answer>🙂</answer> 🙂", "\u00a0<answer>\u00a01\u00a0</answer>\u2003", "\t<answer>\t1\t</answer>\t",
    "\x00<answer>0</answer>", "<answer>multi\nline\nanswer</answer>", "<answer><answer>x</answer>",
    "</answer><answer>y</answer>", r"\boxed{x^{2}+1}", r"\boxed {42}", r"\boxed{}", r"\boxed{unclosed",
    r"\boxed{\boxed{1}}", r"so \boxed{ 5 } is it", "#### $150", "####42", "#### 1,234,567", "#### -5",
    "#### 12.50\n#### 13", "The answer is B", "Answer: (C)", "answer: d", "(A) is wrong, (B) is right",
    "A. first\nB. second", "Answer: Because", "Choice: E", "choice (b)", "B) maybe\n", "\n\nB\n",
    "3 + 4 = 7", "-3.14", "1,234,567", "The answer is 42.", "The answer is 1000", "12345", "1234.5",
    "The total is $1,000.", "1e10", "0.5 and .5", "−5", "٣ and 3", "```python\nprint(1)\n```",
    "```\nplain\n```\n```js\nx\n```", "```py print(1)```", "```python\r\nwindows\r\n```",
    "Therefore, x is 5. Done", "x=7", "y = 8\nz = 9", "The answer is 3.14.", "total is 12. answer: ok",
    "<think>The answer is 1</think>The answer is 2", "<think>unclosed reasoning <answer>4</answer>",
    "a</think><answer>6</answer>", "<|im_start|>assistant\n<answer>5</answer><|im_end|>",
    "<answer>'quoted'</answer>", '<answer>"42."</answer>', "<answer>$$x^2$$</answer>", "<answer>$5$.</answer>",
    "answer is 42.", "end with newline\n", "\r\n\r\n", "trailing spaces   \n   ", "one\ntwo\nthree\n\n \n",
    "x" * 100_000 + "<answer>end</answer>", "word " * 5_000 + "\n#### 77\nThe answer is C",
    "<answer>" + "y" * 50_000 + "</answer>", "\\boxed{" + "{" * 200 + "z" + "}" * 200 + "}",
]


def _environment_results(settings: dict, texts: list[str]) -> list[tuple]:
    env = environment_registry.get("leg_counting", size=5, seed=1, **settings)
    results = Scorer(env).score_batch([0] * len(texts), texts)
    return [(r.extracted_answer, r.metadata["correctness"]["extraction"]) for r in results]


def test_corpus_is_varied():
    assert len(CORPUS) >= 60


@pytest.mark.parametrize("ex", ALL, ids=[f"{i}-{type(e).__name__}" for i, e in enumerate(ALL)])
def test_class_agrees_with_configured_environment(ex):
    got = [ex.extract(t) for t in CORPUS]
    assert got == _environment_results(ex.to_config(), CORPUS)
    # The same through EnvironmentConfig, and with the object handed to environment_registry.get.
    cfg = EnvironmentConfig(name="leg_counting", size=5, seed=1, answer_extractor=ex)
    via_config = Scorer.from_config(cfg).score_batch([0] * len(CORPUS), CORPUS)
    assert [(r.extracted_answer, r.metadata["correctness"]["extraction"]) for r in via_config] == got
    env = environment_registry.get("leg_counting", size=5, seed=1, answer_extractor=ex)
    assert [r.extracted_answer for r in Scorer(env).score_batch([0] * len(CORPUS), CORPUS)] == [a for a, _ in got]


def test_class_agrees_with_environment_configured_by_name():
    ex = TailExtractor(max_chars=7)
    got = ex.extract_batch(CORPUS)
    assert got == _environment_results({"answer_extractor": "tail", "answer_extractor_config": {"max_chars": 7}},
                                       CORPUS)
    chain = [{"type": "boxed"}, {"type": "numeric"}]
    assert extractor_from_spec(chain).extract_batch(CORPUS) == _environment_results({"answer_extractors": chain},
                                                                                  CORPUS)


def test_config_with_extractor_object():
    ex = CleanedExtractor(CompositeExtractor([BoxedExtractor(), TagBasedExtractor()]),
                          post_cleaners=[strip_trailing_punctuation])
    cfg = EnvironmentConfig(name="leg_counting", seed=1, answer_extractor=ex)
    assert cfg.answer_extractor == "tag_based"
    assert cfg.answer_extractors == ex.to_spec() and cfg.post_cleaners == ["strip_trailing_punctuation"]
    assert EnvironmentConfig.from_dict(cfg.to_dict()) == cfg
    assert EnvironmentConfig(name="leg_counting", answer_extractor=BoxedExtractor(False)).answer_extractor_config == {
        "strip_whitespace": False}
    with pytest.raises(ValueError, match="sets post_cleaners; post_cleaners cannot be given as well"):
        EnvironmentConfig(name="leg_counting", answer_extractor=ex, post_cleaners=["strip_latex_dollars"])
    with pytest.raises(ValueError, match="cannot be given as well"):
        environment_registry.get("leg_counting", seed=1, answer_extractor=TailExtractor(3),
                                 answer_extractor_config={"max_chars": 4})
    with pytest.raises(TypeError, match="must be an extractor name or an extractor"):
        EnvironmentConfig(name="leg_counting", answer_extractor=3)  # type: ignore[arg-type]


def test_environment_with_empty_cleaner_lists_does_not_clean():
    # llenvs' config path wraps only when a cleaner list is non-empty; so does llenvs-go. The class reports the flags.
    ex = CleanedExtractor(TagBasedExtractor())
    assert ex.to_config() == TagBasedExtractor().to_config()
    ans, meta = _environment_results(ex.to_config(), ["<answer>1.</answer>"])[0]
    assert ans == "1." and "pre_cleaners_applied" not in meta
    assert ex.extract("<answer>1.</answer>")[1]["pre_cleaners_applied"] is True
