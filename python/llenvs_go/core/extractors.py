"""The extractor classes served by the Go core: the ``GoExtractor`` base (its Go request, ``to_spec`` and
``to_config``) and the single extractors (tag-based, regex, GSM8K, multiple choice, boxed, numeric, last line,
code block, pattern answer, raw, tail), each one Go extractor configured as llenvs configures it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Protocol, runtime_checkable

from llenvs_go.core import columns as _columns

ExtractionResult = tuple[str | None, dict[str, Any]]
"""What ``extract`` returns: the answer (None when nothing was found) and its metadata."""


@runtime_checkable
class AnswerExtractor(Protocol):
    """Anything with llenvs' extractor protocol: ``extract(text) -> (answer | None, metadata)``."""

    def extract(self, text: str) -> tuple[str | None, dict[str, Any]]:
        """Extract the answer from ``text``."""
        ...


@dataclass(frozen=True)
class _Plan:
    """How a Go-served extractor is configured: the ``extract`` request without its texts."""

    extractor: dict[str, Any] | list[dict[str, Any]]
    pre: list[str | dict[str, Any]]
    post: list[str | dict[str, Any]]
    cleaned: bool  # a CleanedExtractor, whose metadata always carries the *_cleaners_applied flags


_CLEANED_FLAGS = {"pre_cleaners_applied": True, "post_cleaners_applied": True}


class GoExtractor:
    """Base of the extractor classes served by the Go core.

    Subclasses are frozen dataclasses; the Go request is built once per
    object, and each ``extract``/``extract_batch`` call is one crossing into
    Go (``llenvs_extract_texts``: the JSON spec, the texts as columns).
    """

    #: The Go extractor's registry name (for the single extractors).
    type_name: ClassVar[str] = ""

    def _go_config(self) -> dict[str, Any]:
        """The Go extractor's options (single extractors override this)."""
        return {}

    def _plan_or_reason(self) -> _Plan | str:
        """The Go configuration of this extractor, or why Go cannot serve it."""
        return _Plan({"type": self.type_name, "config": self._go_config()}, [], [], False)

    @cached_property
    def _request(self) -> tuple[bytes, bool] | None:
        # (JSON spec of llenvs_extract_texts, whether to add the cleaned flags in Python)
        plan = self._plan_or_reason()
        if isinstance(plan, str):
            return None
        spec = {"extractor": plan.extractor, "pre_cleaners": plan.pre or None, "post_cleaners": plan.post or None}
        return json.dumps(spec).encode(), plan.cleaned and not plan.pre and not plan.post

    def _validate(self) -> None:
        """Build the Go extractor once, so that a bad configuration fails at construction."""
        if self._request is not None:
            self.extract_batch([])

    def extract(self, text: str) -> ExtractionResult:
        """Extract the answer from ``text``: ``(answer, metadata)``, answer None when nothing was found."""
        return self.extract_batch([text])[0]

    def extract_batch(self, texts: Sequence[str]) -> list[ExtractionResult]:
        """``extract`` over many texts, in one call into Go."""
        req = self._request
        if req is None:
            return self._extract_python(texts)
        spec, add_flags = req
        answers, metas = _columns.call_texts("llenvs_extract_texts", spec, texts, "extract")
        # One JSON document for the whole batch: one parse, not one per text.
        metadata = json.loads("[" + ",".join(metas) + "]")  # type: ignore[arg-type]
        if add_flags:
            return [(a, {**m, **_CLEANED_FLAGS}) for a, m in zip(answers, metadata, strict=True)]
        return list(zip(answers, metadata, strict=True))

    def _extract_python(self, texts: Sequence[str]) -> list[ExtractionResult]:
        raise NotImplementedError  # pragma: no cover - only composites compose in Python

    def to_spec(self) -> dict[str, Any] | list[dict[str, Any]]:
        """The extractor as the Go core is configured with it.

        ``{"type": name, "config": {...}}`` (what ``answer_extractor`` and
        ``answer_extractor_config`` carry) for a single extractor, a list of
        those (``answer_extractors``) for a :class:`CompositeExtractor`; a
        :class:`CleanedExtractor` gives its inner extractor's spec, its
        cleaners being separate settings (:meth:`to_config` gives all).

        Raises:
            ValueError: the extractor runs Python code (a
                :class:`NativeExtractor`, a custom cleaner, ...) or has a
                shape a Go configuration cannot express.
        """
        return self._checked_plan().extractor

    def to_config(self) -> dict[str, Any]:
        """The ``EnvironmentConfig`` / ``environment_registry.get`` settings that select this extractor.

        ``answer_extractor`` and ``answer_extractor_config``, or
        ``answer_extractors``, plus ``pre_cleaners``/``post_cleaners`` when
        there are cleaners. Raises ValueError as :meth:`to_spec` does.
        """
        plan = self._checked_plan()
        cfg: dict[str, Any]
        if isinstance(plan.extractor, list):
            cfg = {"answer_extractors": plan.extractor}
        else:
            cfg = {"answer_extractor": plan.extractor["type"], "answer_extractor_config": plan.extractor["config"]}
        if plan.pre:
            cfg["pre_cleaners"] = plan.pre
        if plan.post:
            cfg["post_cleaners"] = plan.post
        return cfg

    def _checked_plan(self) -> _Plan:
        plan = self._plan_or_reason()
        if isinstance(plan, str):
            raise ValueError(f"{self!r} cannot be configured into a Go environment: {plan}")
        return plan


def _check_bool(owner: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{owner}: {name} must be a bool, got {type(value).__name__}")


@dataclass(frozen=True)
class TagBasedExtractor(GoExtractor):
    """The content of the last complete ``<tag>…</tag>`` pair; tags match case-insensitively.

    The default extractor. ``<answer></answer>`` gives ``""``; an unclosed tag
    gives None. Metadata: ``found``, ``tag_name`` and, when found,
    ``match_start``, ``match_end`` (UTF-8 byte offsets) and ``num_matches``.
    """

    tag_name: str = "answer"
    strip_whitespace: bool = True
    type_name: ClassVar[str] = "tag_based"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"tag_name": self.tag_name, "strip_whitespace": self.strip_whitespace}


_SUPPORTED_FLAGS = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.UNICODE | re.ASCII


@dataclass(frozen=True)
class RegexExtractor(GoExtractor):
    """Group ``group_index`` of the last match of ``pattern``.

    Patterns use Go's RE2 syntax (no lookarounds or backreferences; ``\\d``,
    ``\\w``, ``\\s``, ``\\b`` are ASCII). ``flags`` takes ``re.IGNORECASE``,
    ``re.MULTILINE``, ``re.DOTALL``, ``re.UNICODE`` and ``re.ASCII``
    (default ``re.DOTALL``); other flags are a ValueError. A ``group_index``
    the pattern does not have gives, as in llenvs, None whenever the pattern
    matches, with metadata ``{"found": False, "pattern": ..., "error": "Group
    N not found in match"}``. A group that did not take part in the last
    match gives None.
    """

    pattern: str
    group_index: int = 1
    strip_whitespace: bool = True
    flags: int = re.DOTALL
    type_name: ClassVar[str] = "regex"

    def __post_init__(self) -> None:
        if not isinstance(self.pattern, str):
            raise TypeError(f"RegexExtractor: pattern must be a str, got {type(self.pattern).__name__}")
        if isinstance(self.flags, bool) or not isinstance(self.flags, int):
            raise TypeError(f"RegexExtractor: flags must be re flags (an int), got {type(self.flags).__name__}")
        bad = int(self.flags) & ~int(_SUPPORTED_FLAGS)
        if bad:
            raise ValueError(f"RegexExtractor: unsupported flags {re.RegexFlag(bad)!r}; the Go core supports "
                             "re.IGNORECASE, re.MULTILINE, re.DOTALL, re.UNICODE and re.ASCII")
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"pattern": self.pattern, "group_index": self.group_index,
                "strip_whitespace": self.strip_whitespace, "flags": int(self.flags)}


@dataclass(frozen=True)
class GSM8KExtractor(GoExtractor):
    """The number after the last ``####`` (``$`` and commas removed; negatives too). Metadata ``format: "gsm8k"``."""

    strip_whitespace: bool = True
    type_name: ClassVar[str] = "gsm8k"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"strip_whitespace": self.strip_whitespace}


@dataclass(frozen=True)
class MultipleChoiceExtractor(GoExtractor):
    """A choice letter, upper-cased: after "answer"/"choice" (also "the answer is B"), or ``(B)``, or a line ``B.``.

    The three forms are tried in that order; the first with a match wins and
    its last match is used. Letters outside ``choices`` are ignored; a letter
    followed by a word character (``"Answer: Because"``) is not an answer.
    Metadata includes ``pattern_used``.
    """

    choices: str = "ABCDE"
    case_sensitive: bool = False
    type_name: ClassVar[str] = "multiple_choice"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"choices": self.choices, "case_sensitive": self.case_sensitive}


@dataclass(frozen=True)
class BoxedExtractor(GoExtractor):
    """The content of the last ``\\boxed{…}`` with balanced braces (``\\boxed {x}`` too).

    ``\\boxed{}`` gives ``""``; an unbalanced box is skipped. Metadata ``format: "boxed"``.
    """

    strip_whitespace: bool = True
    type_name: ClassVar[str] = "boxed"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"strip_whitespace": self.strip_whitespace}


@dataclass(frozen=True)
class NumericExtractor(GoExtractor):
    """The last number, commas of well-formed groups removed; a run of digits is never split (``1000`` stays)."""

    strip_whitespace: bool = True
    type_name: ClassVar[str] = "numeric"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"strip_whitespace": self.strip_whitespace}


@dataclass(frozen=True)
class LastLineExtractor(GoExtractor):
    """The last non-empty line, stripped; None for empty or whitespace-only text. Metadata ``num_lines``."""

    type_name: ClassVar[str] = "last_line"

    def __post_init__(self) -> None:
        self._validate()


@dataclass(frozen=True)
class CodeBlockExtractor(GoExtractor):
    """The stripped body of the last fenced code block (```` ```lang ````, a newline, the body, ```` ``` ````).

    With ``language`` only blocks tagged exactly so count (metadata then
    carries ``language``). A fence on a single line does not count.
    """

    language: str | None = None
    type_name: ClassVar[str] = "code_block"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {} if self.language is None else {"language": self.language}


@dataclass(frozen=True)
class PatternAnswerExtractor(GoExtractor):
    """The text after the last prefix match ("the answer is", "therefore", ``"= "`` by default), stripped.

    Each pattern (a regular expression, RE2 syntax) is followed by a capture
    that ends before ``". "``, a final ``"."``, a newline or the end; the
    match that starts last wins. Metadata ``pattern_index`` and ``pattern``.
    ``patterns`` is stored as a tuple; an empty list is a ValueError.
    """

    patterns: Sequence[str] | None = None
    type_name: ClassVar[str] = "pattern_answer"

    def __post_init__(self) -> None:
        if self.patterns is not None:
            if isinstance(self.patterns, str):
                raise TypeError("PatternAnswerExtractor: patterns must be a list of str, not a str")
            object.__setattr__(self, "patterns", tuple(self.patterns))
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {} if self.patterns is None else {"patterns": list(self.patterns)}


@dataclass(frozen=True)
class RawGenerationExtractor(GoExtractor):
    """The whole response (stripped by default); always succeeds. Metadata ``format: "raw"``, ``is_full_response``."""

    strip_whitespace: bool = True
    type_name: ClassVar[str] = "raw"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"strip_whitespace": self.strip_whitespace}


@dataclass(frozen=True)
class TailExtractor(GoExtractor):
    """The last ``max_chars`` characters of the (stripped) response; always succeeds.

    Metadata ``truncated``, ``max_chars`` and ``original_length`` (of the
    unstripped response, in characters). ``max_chars`` must be at least 1.
    """

    max_chars: int = 256
    strip_whitespace: bool = True
    type_name: ClassVar[str] = "tail"

    def __post_init__(self) -> None:
        self._validate()

    def _go_config(self) -> dict[str, Any]:
        return {"max_chars": self.max_chars, "strip_whitespace": self.strip_whitespace}


#: The single extractors, one per Go extractor.
SINGLE_EXTRACTORS = (TagBasedExtractor, RegexExtractor, GSM8KExtractor, MultipleChoiceExtractor, BoxedExtractor,
                     NumericExtractor, LastLineExtractor, CodeBlockExtractor, PatternAnswerExtractor,
                     RawGenerationExtractor, TailExtractor)
