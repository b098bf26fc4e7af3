"""Math answer verification in Go, as a drop-in for the ``math-verify`` package (0.9).

``from llenvs_go import math_verify`` replaces ``import math_verify``: :func:`parse` finds
the answer in a text (``\\boxed{}``, ``$...$``, ``\\[...\\]``, "final answer is", plain
numbers) and :func:`verify` compares a reference with a prediction, with math-verify's
arguments, defaults and configuration classes. The work happens in the Go core under hard
budgets (input size, expression depth and size, arithmetic steps, size of exact numbers)
instead of signal-based timeouts, so both functions work on any thread and never hang:
an answer past a budget parses to nothing or compares as not equal.

:func:`parse` returns a list like math-verify's: the parsed value (a :class:`MathValue`,
which prints as the value) and the text it was read from (a ``str``). :func:`verify`
accepts those lists, single values and plain strings (a string is compared as text, as
math-verify does). :func:`verify_batch` parses and compares a whole batch in one call
into Go, in parallel.

The equality rules, the grammar, the budgets and where the verdicts differ from
math-verify's are described in docs/math-verify.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Literal

from llenvs_go import _native
from llenvs_go.core.columns import BatchSlot, read_offsets, read_texts, release, texts_of

__all__ = [
    "ExprExtractionConfig",
    "LatexExtractionConfig",
    "MathValue",
    "NormalizationConfig",
    "StringExtractionConfig",
    "parse",
    "parse_batch",
    "verify",
    "verify_batch",
]


@dataclass(frozen=True)
class NormalizationConfig:
    """Clean-ups applied to an extracted LaTeX answer before it is parsed.

    Attributes:
        basic_latex: drop ``\\displaystyle``, ``$`` and quotes; ``\\dfrac`` to ``\\frac``; "and"/"or"
            to commas; percent words to ``\\%``.
        units: drop a trailing ``\\text{...}`` unit and unit words after a number.
        malformed_operators: repair ``\\frac12``, ``\\sqrt2``, ``sqrt(2)``, ``^(...)``, ``a/b``.
        nits: ``.5`` to ``0.5``; ``0.5`` to ``\\frac{1}{2}``.
        boxed: which ``\\boxed{}`` contents to keep: ``"all"``, ``"last"`` or ``"none"``.
        equations: keep only the last side of a chain ``a = b = c``.
    """

    basic_latex: bool = True
    units: bool = False
    malformed_operators: bool = False
    nits: bool = False
    boxed: Literal["all", "last", "none"] = "all"
    equations: bool = False


@dataclass(frozen=True)
class LatexExtractionConfig:
    """Look for LaTeX answers.

    Attributes:
        try_extract_without_anchor: also take answers not introduced by "answer" or "final answer is".
        boxed_match_priority: priority of ``\\boxed{}`` answers: 0 first, 50 (default) together with
            "final answer ... is", -1 never.
        normalization_config: the clean-ups of extracted answers.
    """

    try_extract_without_anchor: bool = True
    boxed_match_priority: int = 50
    normalization_config: NormalizationConfig = field(
        default_factory=lambda: NormalizationConfig(
            basic_latex=True, units=True, malformed_operators=True, nits=True, boxed="all", equations=False
        )
    )


@dataclass(frozen=True)
class ExprExtractionConfig:
    """Look for plain numbers and arithmetic (``42``, ``1,234.5``, ``3/4``, ``50%``).

    Attributes:
        try_extract_without_anchor: also take answers not introduced by "answer" or "final answer is".
    """

    try_extract_without_anchor: bool = True


@dataclass(frozen=True)
class StringExtractionConfig:
    """Look for one of a list of strings (multiple-choice letters).

    Attributes:
        strings: the accepted answers.
        try_extract_without_anchor: also take answers not introduced by "answer" or "final answer is".
        lowercase: lowercase the found answer.
    """

    strings: tuple[str, ...] = field(default_factory=lambda: ("A", "B", "C", "D"))
    try_extract_without_anchor: bool = True
    lowercase: bool = True


ExtractionTarget = LatexExtractionConfig | ExprExtractionConfig | StringExtractionConfig

_DEFAULT_EXTRACTION: tuple[ExtractionTarget, ...] = (LatexExtractionConfig(), ExprExtractionConfig())


@dataclass(frozen=True)
class MathValue:
    """A parsed answer held by the Go core.

    ``str(value)`` is the value in plain notation (``1/2``, ``{1, 2}``, ``x = 3``); ``kind`` is
    ``"expression"``, ``"relation"``, ``"tuple"``, ``"set"``, ``"interval"`` or
    ``"set operation"``; ``encoding`` is how Go reads it back (it pickles by that).
    """

    encoding: str
    text: str
    kind: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"MathValue({self.text!r}, kind={self.kind!r})"


def _config_bytes(extraction_config: Sequence[ExtractionTarget], fallback_mode: str, extraction_mode: str) -> bytes:
    """The extraction configuration as the JSON the library reads (cached for hashable configurations)."""
    try:
        key = (tuple(extraction_config), fallback_mode, extraction_mode)
        hash(key)
    except TypeError:
        return json.dumps(_config_json(extraction_config, fallback_mode, extraction_mode)).encode()
    cached = _CONFIG_CACHE.get(key)
    if cached is None:
        cached = json.dumps(_config_json(extraction_config, fallback_mode, extraction_mode)).encode()
        if len(_CONFIG_CACHE) < 64:
            _CONFIG_CACHE[key] = cached
    return cached


_CONFIG_CACHE: dict[Any, bytes] = {}


def _config_json(extraction_config: Sequence[ExtractionTarget], fallback_mode: str,
                 extraction_mode: str) -> dict[str, Any]:
    if fallback_mode not in ("first_match", "no_fallback"):
        raise ValueError(f"fallback_mode must be 'first_match' or 'no_fallback', got {fallback_mode!r}")
    if extraction_mode not in ("any_match", "first_match"):
        raise ValueError(f"extraction_mode must be 'any_match' or 'first_match', got {extraction_mode!r}")
    if isinstance(extraction_config, (str, bytes)) or not isinstance(extraction_config, Sequence):
        raise TypeError("extraction_config must be a list of LatexExtractionConfig, ExprExtractionConfig "
                        f"or StringExtractionConfig, got {type(extraction_config).__name__}")
    targets: list[dict[str, Any]] = []
    for i, t in enumerate(extraction_config):
        if isinstance(t, LatexExtractionConfig):
            n = t.normalization_config
            targets.append({"kind": "latex", "try_extract_without_anchor": bool(t.try_extract_without_anchor),
                            "boxed_match_priority": int(t.boxed_match_priority),
                            "normalization_config": {"basic_latex": n.basic_latex, "units": n.units,
                                                     "malformed_operators": n.malformed_operators,
                                                     "nits": n.nits, "boxed": n.boxed, "equations": n.equations}})
        elif isinstance(t, ExprExtractionConfig):
            targets.append({"kind": "expr", "try_extract_without_anchor": bool(t.try_extract_without_anchor)})
        elif isinstance(t, StringExtractionConfig):
            targets.append({"kind": "string", "try_extract_without_anchor": bool(t.try_extract_without_anchor),
                            "strings": [str(s) for s in t.strings], "lowercase": bool(t.lowercase)})
        else:
            raise TypeError(f"extraction_config[{i}] must be a LatexExtractionConfig, ExprExtractionConfig or "
                            f"StringExtractionConfig, got {type(t).__name__}")
    return {"targets": targets, "fallback_mode": fallback_mode, "extraction_mode": extraction_mode}


def _pack(items: Sequence[bytes]) -> tuple[bytes, Any]:
    buf = b"".join(items)
    offsets = _native.ffi.new("int64_t[]", [0, *accumulate(len(b) for b in items)])
    return buf, offsets


def _utf8(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


def parse_batch(
    preds: Sequence[str],
    extraction_config: Sequence[ExtractionTarget] = _DEFAULT_EXTRACTION,
    fallback_mode: Literal["no_fallback", "first_match"] = "first_match",
    extraction_mode: Literal["first_match", "any_match"] = "any_match",
    raise_on_error: bool = False,
) -> list[list[Any]]:
    """:func:`parse` for many texts in one call into Go (in parallel for big batches)."""
    if isinstance(preds, (str, bytes)):
        raise TypeError("parse_batch takes a list of str; use parse for one text")
    texts = list(preds)
    for i, p in enumerate(texts):
        if not isinstance(p, str):
            raise TypeError(f"preds[{i}] must be a str, got {type(p).__name__}")
    if isinstance(extraction_config, (str, bytes)) or not isinstance(extraction_config, Sequence):
        raise TypeError("extraction_config must be a list of LatexExtractionConfig, ExprExtractionConfig "
                        f"or StringExtractionConfig, got {type(extraction_config).__name__}")
    cfg = _config_bytes(extraction_config, fallback_mode, extraction_mode)
    buf, offsets = _pack([_utf8(p) for p in texts])
    L = _native.lib()
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    slot = BatchSlot()
    rc = L.llenvs_math_parse(buf, offsets, len(texts), cfg, len(cfg), slot.schema, slot.array, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    # Read in place: a parse is a few short strings per text, and importing the batch into pyarrow would
    # cost more than the reading (parse is called once per text).
    try:
        columns = slot.array.children
        values, errors = columns[0], columns[1]
        ends = read_offsets(values)
        kids = values.children[0].children
        # Texts crossed as "surrogatepass" UTF-8 and come back so: each lone surrogate stays itself.
        encs, shown, kinds = read_texts(kids[0]), read_texts(kids[1]), read_texts(kids[2])
        errs = read_texts(errors)
    finally:
        release(slot)
    results: list[list[Any]] = []
    for i, err in enumerate(errs):
        if err is not None:
            if raise_on_error:
                raise ValueError(f"parsing text {i}: {err}")
            results.append([])
            continue
        results.append([shown[j] if kinds[j] == "text" else MathValue(encs[j], shown[j], kinds[j])  # type: ignore[arg-type]
                        for j in range(ends[i], ends[i + 1])])
    return results


def parse(
    pred: str,
    extraction_config: Sequence[ExtractionTarget] = _DEFAULT_EXTRACTION,
    fallback_mode: Literal["no_fallback", "first_match"] = "first_match",
    extraction_mode: Literal["first_match", "any_match"] = "any_match",
    parsing_timeout: float | None = 5,
    raise_on_error: bool = False,
) -> list[Any]:
    """Find the answer in ``pred`` and parse it, as math-verify's ``parse`` does.

    Returns ``[value, text]``: the parsed :class:`MathValue` and the text it was read from
    (with ``fallback_mode="first_match"``); ``[text]`` when the answer was found but could
    not be parsed; ``[]`` when none was found. ``parsing_timeout`` is accepted for
    compatibility: the Go budgets bound the work instead, on any thread. With
    ``raise_on_error``, an answer past a budget raises ValueError instead of giving ``[]``.
    """
    if not isinstance(pred, str):
        raise TypeError(f"pred must be a str, got {type(pred).__name__}")
    return parse_batch([pred], extraction_config, fallback_mode, extraction_mode, raise_on_error)[0]


def _encodings(x: Any, what: str) -> list[bytes]:
    """The encodings of one verify argument: a parsed list, a MathValue or a str (compared as text)."""
    values = x if isinstance(x, list) else [x]
    encs: list[bytes] = []
    for v in values:
        if isinstance(v, MathValue):
            encs.append(_utf8(v.encoding))
        elif isinstance(v, str):
            encs.append(_utf8("T" + v))
        else:
            raise TypeError(f"{what} must be what parse returns (a list of MathValue and str), a MathValue or a "
                            f"str; got {type(v).__name__} (values of the math-verify package itself are not "
                            "accepted: parse with llenvs_go.math_verify.parse)")
    return encs


def _options(float_rounding: int, numeric_precision: int, strict: bool, allow_set_relation_comp: bool,
             **extra: Any) -> bytes:
    if isinstance(float_rounding, bool) or not isinstance(float_rounding, int) or not 0 <= float_rounding <= 100:
        raise ValueError(f"float_rounding must be an int between 0 and 100, got {float_rounding!r}")
    if isinstance(numeric_precision, bool) or not isinstance(numeric_precision, int) or numeric_precision < 1:
        raise ValueError(f"numeric_precision must be a positive int, got {numeric_precision!r}")
    return json.dumps({"float_rounding": float_rounding, "numeric_precision": numeric_precision,
                       "strict": bool(strict), "allow_set_relation_comp": bool(allow_set_relation_comp),
                       **extra}).encode()


_OPTIONS_CACHE: dict[Any, bytes] = {}


def verify(
    gold: Any,
    target: Any,
    float_rounding: int = 6,
    numeric_precision: int = 15,
    strict: bool = True,
    allow_set_relation_comp: bool = False,
    timeout_seconds: float | None = 5,
    raise_on_error: bool = False,
) -> bool:
    """Whether ``target`` matches ``gold``, as math-verify's ``verify`` decides.

    ``gold`` and ``target`` are what :func:`parse` returns (lists), single :class:`MathValue`
    objects or strings (compared as text); any value of ``gold`` equal to any of ``target``
    is a match. The comparison is not symmetric: ``gold`` is the reference.
    ``timeout_seconds`` is accepted for compatibility (the Go budgets bound the work);
    with ``raise_on_error``, a comparison stopped by a budget raises ValueError.
    """
    g, p = _encodings(gold, "gold"), _encodings(target, "target")
    key = (float_rounding, numeric_precision, strict, allow_set_relation_comp, raise_on_error)
    opts = _OPTIONS_CACHE.get(key) if type(float_rounding) is int and type(numeric_precision) is int else None
    if opts is None:
        opts = _options(float_rounding, numeric_precision, strict, allow_set_relation_comp, reasons=raise_on_error)
        if len(_OPTIONS_CACHE) < 64:
            _OPTIONS_CACHE[key] = opts
    L = _native.lib()
    buf, offsets = _pack(g + p)  # the gold's strings, then the prediction's
    verdict = _native.ffi.new("uint8_t *")
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    rc = L.llenvs_math_verify(_VALUES, _VALUES, buf, offsets, len(g), len(p), opts, len(opts), verdict, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, data)
    if raise_on_error and data:  # the pair's reason, as plain text
        reason = data.decode("utf-8", "llenvs-surrogatepass-replace")
        if reason.startswith(("over budget", "internal error", "gold:", "prediction:")):
            raise ValueError(f"verify: {reason}")
    return bool(verdict[0])


_TEXT, _VALUES = 0, 1  # LLENVS_MATH_TEXT, LLENVS_MATH_VALUES


def _side(items: list[Any], what: str) -> tuple[Any, bytes, Any, Any]:
    """One side of a verify_batch call: item kinds, the strings' buffer and offsets, and the items' offsets.

    A str is a text to parse (one string); anything else is what :func:`parse` returns, sent as its
    encodings. When every item is a text, kinds and item offsets are NULL (item i is string i).
    """
    ffi = _native.ffi
    if all(type(x) is str for x in items):
        buf, offsets = _pack([_utf8(x) for x in items])
        return ffi.NULL, buf, offsets, ffi.NULL
    kinds: list[int] = []
    strs: list[bytes] = []
    ends = [0]
    for i, x in enumerate(items):
        if isinstance(x, str):
            kinds.append(_TEXT)
            strs.append(_utf8(x))
        else:
            kinds.append(_VALUES)
            strs.extend(_encodings(x, f"{what}[{i}]"))
        ends.append(len(strs))
    buf, offsets = _pack(strs)
    return ffi.new("uint8_t[]", kinds), buf, offsets, ffi.new("int64_t[]", ends)


def verify_batch(
    golds: Sequence[Any],
    preds: Sequence[Any],
    float_rounding: int = 6,
    numeric_precision: int = 15,
    strict: bool = True,
    allow_set_relation_comp: bool = False,
    extraction_config: Sequence[ExtractionTarget] = _DEFAULT_EXTRACTION,
    gold_extraction_config: Sequence[ExtractionTarget] | None = None,
    return_reasons: bool = False,
    pred_extraction_mode: Literal["first_match", "any_match"] = "any_match",
) -> list[bool] | tuple[list[bool], list[str]]:
    """``verify(parse(gold), parse(pred))`` for every pair, in one call into Go (in parallel).

    Each gold and pred is either a text (a ``str``, parsed here with ``extraction_config``;
    golds with ``gold_extraction_config``, by default the same) or what :func:`parse`
    returns (a list). Unlike :func:`verify`, a plain ``str`` is parsed, not compared as
    text. ``pred_extraction_mode`` is :func:`parse`'s ``extraction_mode`` for preds given
    as text (golds are parsed with ``"any_match"``, parse's default). Returns one bool per
    pair, and with ``return_reasons`` also one reason per pair ("equal", "not equal",
    "no answer", "over budget: ...").
    """
    if isinstance(golds, (str, bytes)) or isinstance(preds, (str, bytes)):
        raise TypeError("verify_batch takes lists of texts or parsed answers; use verify for one pair")
    golds, preds = list(golds), list(preds)
    if len(golds) != len(preds):
        raise ValueError(f"verify_batch needs as many golds as preds, got {len(golds)} and {len(preds)}")

    g_side = _side(golds, "golds")
    p_side = _side(preds, "preds")
    pred_cfg = _config_json(extraction_config, "first_match", pred_extraction_mode)
    gold_cfg = _config_json(extraction_config if gold_extraction_config is None else gold_extraction_config,
                            "first_match", "any_match")
    opts = _options(float_rounding, numeric_precision, strict, allow_set_relation_comp, reasons=return_reasons,
                    gold_extraction=gold_cfg, pred_extraction=pred_cfg)
    n = len(golds)
    verdicts = _native.ffi.new("uint8_t[]", max(n, 1))
    L = _native.lib()
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    reasons = BatchSlot() if return_reasons else None
    rc = L.llenvs_math_verify_batch(*g_side, *p_side, n, opts, len(opts), _native.ffi.NULL, verdicts,
                                    reasons.schema if reasons else _native.ffi.NULL,
                                    reasons.array if reasons else _native.ffi.NULL, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    result = [bool(v) for v in _native.ffi.unpack(verdicts, n)]
    if reasons is not None:
        return result, texts_of(reasons.take().column(0))  # type: ignore[return-value]
    return result
