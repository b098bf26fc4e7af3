"""Cleaners of llenvs_go.core.cleaning: llenvs' behaviour (spec §3.1), served by the Go core."""

from __future__ import annotations

import pickle

import pytest

from llenvs_go.core.cleaning import (
    DEFAULT_POST_CLEANERS,
    DEFAULT_PRE_CLEANERS,
    POST_CLEANERS,
    PRE_CLEANERS,
    apply_cleaners,
    cleaner_spec,
    resolve_cleaners,
    strip_latex_dollars,
    strip_special_tokens,
    strip_surrounding_quotes,
    strip_thinking_tokens,
    strip_trailing_punctuation,
    take_first_nonempty_line,
    truncate_tail,
)


@pytest.mark.parametrize(("text", "want"), [
    ("<|im_start|>assistant\n42<|im_end|><|endoftext|>", "assistant\n42"),
    ("<s>a</s><pad>b", "ab"),
    ("<|eot_id|>kept", "<|eot_id|>kept"),
    ("", ""),
    ("no tokens", "no tokens"),
])
def test_strip_special_tokens(text, want):
    assert strip_special_tokens(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("<think>reasoning</think>The answer", "The answer"),
    ("a<think>1</think>b<think>2</think>c", "abc"),
    ("visible<think>never closed", "visible"),
    ("prompt had the opening</think>answer", "answer"),
    ("x</think>y</think>z", "y</think>z"),
    ("<THINK>case matters</THINK>", "<THINK>case matters</THINK>"),
])
def test_strip_thinking_tokens(text, want):
    assert strip_thinking_tokens(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("42.", "42"), ("1.", "1"), ("3.14", "3.14"), ("a,", "a"), ("x..", "x."), ("", ""), ("-2.5", "-2.5"),
])
def test_strip_trailing_punctuation(text, want):
    assert strip_trailing_punctuation(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ('"42"', "42"), ("'a b'", "a b"), ("\"x'", "\"x'"), ('"', '"'), ('""', ""), ("plain", "plain"),
])
def test_strip_surrounding_quotes(text, want):
    assert strip_surrounding_quotes(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("$$x^2$$", "x^2"), ("$5$", "5"), ("$a$b$", "$a$b$"), ("$$", "$$"), ("no dollars", "no dollars"),
])
def test_strip_latex_dollars(text, want):
    assert strip_latex_dollars(text) == want


def test_truncate_tail():
    t = truncate_tail(3)
    assert t("  abcdé \n") == "cdé"
    assert truncate_tail()("x" * 300) == "x" * 256
    assert t == truncate_tail(3) and t.spec == {"type": "truncate_tail", "config": {"max_chars": 3}}
    assert pickle.loads(pickle.dumps(t))("abcdef") == "def"
    # llenvs-go refuses max_chars < 1 (llenvs' 0 kept the whole text), like the Go config does.
    with pytest.raises(ValueError, match="at least 1"):
        truncate_tail(0)
    with pytest.raises(TypeError, match="must be an int"):
        truncate_tail("3")  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "max_chars", "want"), [
    ("\n\n  go north  \nI refuse", None, "go north"),
    (" \n\t\n", None, ""),
    ("", 4, ""),
    ("\nsearch[red headphones]\nclick[Buy Now]", 8, "search[r"),
    ("\r\n  日本語 \n", 2, "日本"),
    ("\u2028 \x1c look\x85then", None, "look"),  # str.splitlines' line breaks, not just \n
])
def test_take_first_nonempty_line(text, max_chars, want):
    cleaner = take_first_nonempty_line(max_chars)
    assert cleaner(text) == want
    # the same line Python's own reading of the rule gives
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert want == (lines[0][:max_chars] if lines else "")
    assert apply_cleaners([cleaner], [text, text]) == [want, want]


def test_take_first_nonempty_line_in_configs():
    spec = {"type": "take_first_nonempty_line", "config": {"max_chars": 3}}
    assert resolve_cleaners([spec], "pre") == [take_first_nonempty_line(3)]
    assert resolve_cleaners([{"type": "take_first_nonempty_line"}], "post") == [take_first_nonempty_line()]
    assert cleaner_spec(take_first_nonempty_line(3)) == spec
    assert pickle.loads(pickle.dumps(take_first_nonempty_line(3)))("\n abcdef") == "abc"
    with pytest.raises(ValueError, match="at least 1"):
        take_first_nonempty_line(0)
    with pytest.raises(TypeError, match="must be an int or None"):
        take_first_nonempty_line("3")  # type: ignore[arg-type]


def test_cleaners_refuse_non_str():
    with pytest.raises(TypeError, match="needs a str"):
        strip_special_tokens(None)  # type: ignore[arg-type]


def test_registries_and_defaults():
    assert PRE_CLEANERS == {"strip_special_tokens": strip_special_tokens,
                            "strip_thinking_tokens": strip_thinking_tokens}
    assert POST_CLEANERS == {"strip_trailing_punctuation": strip_trailing_punctuation,
                             "strip_surrounding_quotes": strip_surrounding_quotes,
                             "strip_latex_dollars": strip_latex_dollars}
    assert DEFAULT_PRE_CLEANERS == ["strip_special_tokens"]
    assert DEFAULT_POST_CLEANERS == ["strip_trailing_punctuation"]


def test_resolve_cleaners():
    assert resolve_cleaners(None, "pre") == [strip_special_tokens]
    assert resolve_cleaners(None, "post") == [strip_trailing_punctuation]
    assert resolve_cleaners([], "pre") == []
    got = resolve_cleaners(["strip_latex_dollars", {"type": "truncate_tail", "config": {"max_chars": 4}}], "post")
    assert got == [strip_latex_dollars, truncate_tail(4)]
    assert resolve_cleaners([{"type": "truncate_tail"}], "pre") == [truncate_tail(256)]


def test_resolve_cleaners_errors():
    with pytest.raises(ValueError, match="Invalid cleaner kind: 'middle'"):
        resolve_cleaners([], "middle")
    with pytest.raises(KeyError, match=r"Unknown pre-cleaner: 'strip_quotes'. Available: \['strip_special_tokens'"):
        resolve_cleaners(["strip_quotes"], "pre")
    # A post-cleaner is unknown in the pre list.
    with pytest.raises(KeyError, match="Unknown pre-cleaner: 'strip_latex_dollars'"):
        resolve_cleaners(["strip_latex_dollars"], "pre")
    with pytest.raises(KeyError, match=r"Unknown parameterized cleaner: 'truncate'. "
                                        r"Available: \['take_first_nonempty_line', 'truncate_tail'\]"):
        resolve_cleaners([{"type": "truncate"}], "post")
    with pytest.raises(KeyError, match="needs a 'type'"):
        resolve_cleaners([{"config": {}}], "post")
    with pytest.raises(TypeError, match="must be a str or a dict"):
        resolve_cleaners([3], "post")  # type: ignore[list-item]
    with pytest.raises(TypeError):
        resolve_cleaners([{"type": "truncate_tail", "config": {"max_char": 3}}], "post")


def test_cleaner_spec_and_apply():
    assert cleaner_spec(strip_special_tokens) == "strip_special_tokens"
    assert cleaner_spec(strip_special_tokens, "post") is None
    assert cleaner_spec(truncate_tail(9), "post") == {"type": "truncate_tail", "config": {"max_chars": 9}}
    assert cleaner_spec(str.strip) is None
    texts = ["<s>a.</s>", "<think>x</think> b,", ""]
    assert apply_cleaners([strip_thinking_tokens, strip_special_tokens, str.strip, strip_trailing_punctuation],
                          texts) == ["a", "b", ""]
    assert apply_cleaners([], texts) == texts


def test_go_clean_call_errors_list_what_exists():
    import json

    from llenvs_go.core.columns import call_texts

    def clean(spec, texts):
        return call_texts("llenvs_clean_texts", json.dumps(spec).encode(), texts, "a cleaner")[0]

    with pytest.raises(ValueError, match="invalid cleaner kind.*strip_special_tokens.*truncate_tail"):
        clean({"kind": "both", "cleaners": []}, [])
    with pytest.raises(ValueError, match="unknown post-cleaner 'nope'. Available: \\['strip_latex_dollars'"):
        clean({"kind": "post", "cleaners": ["nope"]}, ["x"])
    with pytest.raises(ValueError, match="texts"):
        clean({"kind": "post", "cleaners": [], "texts": ["x"]}, ["x"])
    assert clean({"kind": "post", "cleaners": ["strip_surrounding_quotes"]}, ["'a'", "b"]) == ["a", "b"]

