"""Answer extractors, as in llenvs' ``core/extraction.py``, served by the Go core.

An extractor's ``extract(text)`` returns ``(answer, metadata)``: ``answer`` is
None when nothing was found (``""`` is a valid extraction), ``metadata`` is a
fresh dict describing the extraction. The classes take llenvs' constructor
parameters and defaults; each one runs the Go extractor an environment runs
when configured the same way, so for every text an extractor object and an
environment configured from it (:meth:`GoExtractor.to_config`) report the same
answer and metadata. ``docs/extractors.md`` lists where the Go extractors
differ from llenvs on purpose (e.g. ``numeric`` does not split ``1000``,
``multiple_choice`` reads "The answer is B", ``gsm8k`` reads negatives,
offsets are UTF-8 byte offsets, regular expressions use RE2 syntax).

:class:`NativeExtractor` calls a Python function; a :class:`CompositeExtractor`
or :class:`CleanedExtractor` containing one, or containing what a Go
configuration cannot express, composes its members in Python (with llenvs'
semantics), each member still served by Go where it can be.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from llenvs_go import _native
from llenvs_go.core import _surrogates
from llenvs_go.core.cleaning import Cleaner, apply_cleaners, cleaner_spec, resolve_cleaners

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


def _encode_texts(texts: Sequence[str]) -> tuple[bytes, bool]:
    for t in texts:
        if type(t) is not str:
            raise TypeError(f"extract needs a str, got {type(t).__name__}")
    return _surrogates.encode_texts(texts)


def _extract_batch(extractor: Any, texts: Sequence[str]) -> list[ExtractionResult]:
    """``extractor.extract`` over ``texts``; one call for the built-in classes, which can batch."""
    if type(extractor) in _BUILTIN:
        return extractor.extract_batch(texts)
    return [extractor.extract(t) for t in texts]


class GoExtractor:
    """Base of the extractor classes served by the Go core.

    Subclasses are frozen dataclasses; the Go request is built once per
    object, and each ``extract``/``extract_batch`` call is one crossing into
    Go with one JSON request.
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
        # (JSON prefix of the extract request up to the texts, whether to add the cleaned flags in Python)
        plan = self._plan_or_reason()
        if isinstance(plan, str):
            return None
        req = {"extractor": plan.extractor, "pre_cleaners": plan.pre or None, "post_cleaners": plan.post or None}
        prefix = json.dumps(req)[:-1].encode() + b', "texts": '
        return prefix, plan.cleaned and not plan.pre and not plan.post

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
        prefix, add_flags = req
        body, stood_in = _encode_texts(texts)
        items = json.loads(_native.call_raw("extract", prefix + body + b"}"))
        if stood_in:
            for it in items:
                it["answer"] = _surrogates.restore(it["answer"])
        if add_flags:
            return [(it["answer"], {**it["metadata"], **_CLEANED_FLAGS}) for it in items]
        return [(it["answer"], it["metadata"]) for it in items]

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
    the pattern does not have is a ValueError here, where llenvs reported
    ``error: "Group N not found in match"`` at extraction time. A group that
    did not take part in the last match gives None.
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


@dataclass(frozen=True)
class CompositeExtractor(GoExtractor):
    """Tries ``extractors`` in order; the first answer that is not None wins.

    The winner's metadata gains ``extractor_index`` and ``extractor_type``
    (its class name); when none finds anything the metadata is
    ``{found: False, tried_extractors: [class names]}``. An empty list finds
    nothing. ``extractors`` is stored as a tuple. Served by one Go call when
    every member is one of this module's single extractors (not a subclass);
    otherwise composed in Python, each member asked in turn.
    """

    extractors: Sequence[Any] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if isinstance(self.extractors, (str, bytes)) or not isinstance(self.extractors, Sequence):
            raise TypeError(f"CompositeExtractor: extractors must be a list of extractors, "
                            f"got {type(self.extractors).__name__}")
        object.__setattr__(self, "extractors", tuple(self.extractors))
        for i, ex in enumerate(self.extractors):
            if not callable(getattr(ex, "extract", None)):
                raise TypeError(f"CompositeExtractor: extractors[{i}] has no extract method: {ex!r}")
        self._validate()

    def _plan_or_reason(self) -> _Plan | str:
        if not self.extractors:
            return "an empty CompositeExtractor never finds anything (a Go chain needs at least one extractor)"
        specs = []
        for i, ex in enumerate(self.extractors):
            if type(ex) not in _SINGLE:
                return (f"extractors[{i}] is a {type(ex).__name__}; a Go chain (answer_extractors) "
                        "holds the single extractors of llenvs_go.core.extraction only")
            plan = ex._plan_or_reason()
            if isinstance(plan, str):
                return f"extractors[{i}]: {plan}"
            specs.append(plan.extractor)
        return _Plan(specs, [], [], False)

    def _extract_python(self, texts: Sequence[str]) -> list[ExtractionResult]:
        results: list[ExtractionResult | None] = [None] * len(texts)
        pending = list(range(len(texts)))
        for i, ex in enumerate(self.extractors):
            if not pending:
                break
            got = _extract_batch(ex, [texts[k] for k in pending])
            still = []
            for k, (answer, meta) in zip(pending, got, strict=True):
                if answer is None:
                    still.append(k)
                    continue
                meta["extractor_index"] = i
                meta["extractor_type"] = type(ex).__name__
                results[k] = (answer, meta)
            pending = still
        tried = [type(ex).__name__ for ex in self.extractors]
        for k in pending:
            results[k] = (None, {"found": False, "tried_extractors": list(tried)})
        return results  # type: ignore[return-value]


def _as_cleaners(owner: str, kind: str, cleaners: Any) -> tuple[Cleaner, ...]:
    if isinstance(cleaners, (str, dict)) or not isinstance(cleaners, Sequence):
        raise TypeError(f"{owner}: {kind}_cleaners must be a list of cleaners, got {type(cleaners).__name__}")
    out = []
    for c in cleaners:
        if isinstance(c, (str, dict)):
            out.extend(resolve_cleaners([c], kind))
        elif callable(c):
            out.append(c)
        else:
            raise TypeError(f"{owner}: a {kind}-cleaner must be a function, a cleaner name or a "
                            f"{{'type': ..., 'config': ...}} mapping, got {type(c).__name__}")
    return tuple(out)


@dataclass(frozen=True)
class CleanedExtractor(GoExtractor):
    """``inner`` with pre-cleaners applied to the response and post-cleaners to a found answer.

    The cleaners are functions ``str -> str`` (those of
    :mod:`llenvs_go.core.cleaning`, or any other), cleaner names, or
    ``{"type": "truncate_tail", "config": {...}}`` mappings; they are stored
    as a tuple of functions. The metadata always carries
    ``pre_cleaners_applied`` and ``post_cleaners_applied`` (True), even with
    empty lists, as in llenvs; an environment configured with empty cleaner
    lists does not clean and reports neither. Served by one Go call when
    ``inner`` and every cleaner are Go's; otherwise composed in Python.
    """

    inner: Any
    pre_cleaners: Sequence[Cleaner] = field(default_factory=tuple)
    post_cleaners: Sequence[Cleaner] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not callable(getattr(self.inner, "extract", None)):
            raise TypeError(f"CleanedExtractor: inner has no extract method: {self.inner!r}")
        object.__setattr__(self, "pre_cleaners", _as_cleaners("CleanedExtractor", "pre", self.pre_cleaners))
        object.__setattr__(self, "post_cleaners", _as_cleaners("CleanedExtractor", "post", self.post_cleaners))
        self._validate()

    def _plan_or_reason(self) -> _Plan | str:
        if type(self.inner) not in _BUILTIN or not isinstance(self.inner, GoExtractor):
            return f"its inner extractor is a {type(self.inner).__name__}, which only Python can run"
        inner = self.inner._plan_or_reason()
        if isinstance(inner, str):
            return f"inner: {inner}"
        specs: dict[str, list[Any]] = {"pre": [], "post": []}
        for kind, cleaners in (("pre", self.pre_cleaners), ("post", self.post_cleaners)):
            for c in cleaners:
                spec = cleaner_spec(c, kind)
                if spec is None:
                    return (f"{kind}-cleaner {getattr(c, '__name__', c)!r} is not a {kind}-cleaner of "
                            "llenvs_go.core.cleaning, so only Python can run it")
                specs[kind].append(spec)
        # An outer cleaner runs before the inner pre-cleaners and after the inner post-cleaners.
        return _Plan(inner.extractor, specs["pre"] + inner.pre, inner.post + specs["post"], True)

    def _extract_python(self, texts: Sequence[str]) -> list[ExtractionResult]:
        got = _extract_batch(self.inner, apply_cleaners(self.pre_cleaners, texts))
        found = [k for k, (answer, _) in enumerate(got) if answer is not None]
        cleaned = apply_cleaners(self.post_cleaners, [got[k][0] for k in found])  # type: ignore[misc]
        answers: list[str | None] = [answer for answer, _ in got]
        for k, a in zip(found, cleaned, strict=True):
            answers[k] = a
        out = []
        for answer, (_, meta) in zip(answers, got, strict=True):
            meta["pre_cleaners_applied"] = True
            meta["post_cleaners_applied"] = True
            out.append((answer, meta))
        return out


@dataclass(frozen=True)
class NativeExtractor:
    """Wraps a Python function ``fn(text) -> answer | None``; a non-None result is converted with ``str()``.

    Metadata ``{found, format: "native", native_name: name}``. It runs in
    Python and cannot configure a Go environment.
    """

    fn: Callable[[str], Any]
    name: str = "native"

    def extract(self, text: str) -> ExtractionResult:
        """Call ``fn`` on ``text``."""
        result = self.fn(text)
        answer = None if result is None else str(result)
        return answer, {"found": answer is not None, "format": "native", "native_name": self.name}

    def extract_batch(self, texts: Sequence[str]) -> list[ExtractionResult]:
        """``extract`` over many texts."""
        return [self.extract(t) for t in texts]


T = TypeVar("T")


class Registry(Generic[T]):
    """A registry of factories by name, with llenvs' ``Registry`` semantics.

    ``create(name, **kw)`` always builds a new object; ``get(name, **kw)``
    builds it on first use and caches it. An unknown name is a KeyError
    that lists the registered names.
    """

    def __init__(self, kind: str):
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}
        self._instances: dict[str, T] = {}

    def register(self, name: str, factory: Callable[..., T] | None = None) -> Any:
        """Register ``factory`` under ``name``; without ``factory``, a decorator. A duplicate is a ValueError."""
        def add(f: Callable[..., T]) -> Callable[..., T]:
            if name in self._factories or name in self._instances:
                raise ValueError(f"{self.kind} '{name}' is already registered")
            self._factories[name] = f
            return f

        return add if factory is None else add(factory)

    def register_instance(self, name: str, obj: T) -> None:
        """Register a ready object under ``name``; a duplicate is a ValueError."""
        if name in self._factories or name in self._instances:
            raise ValueError(f"{self.kind} '{name}' is already registered")
        self._instances[name] = obj

    def _not_found(self, name: str) -> KeyError:
        return _native.UnknownNameError(f"{self.kind} '{name}' not found. Available: {self.keys()}")

    def get(self, name: str, **kwargs: Any) -> T:
        """The object registered as ``name``, built with ``kwargs`` on first use and cached."""
        if name in self._instances:
            return self._instances[name]
        if name not in self._factories:
            raise self._not_found(name)
        obj = self._factories[name](**kwargs)
        self._instances[name] = obj
        return obj

    def create(self, name: str, **kwargs: Any) -> T:
        """A new object from the factory registered as ``name``."""
        if name not in self._factories:
            if name in self._instances:
                raise KeyError(f"{self.kind} '{name}' was registered as instance, not factory")
            raise self._not_found(name)
        return self._factories[name](**kwargs)

    def keys(self) -> list[str]:
        """The registered names."""
        return [*self._factories, *(n for n in self._instances if n not in self._factories)]

    def clear(self) -> None:
        """Forget every registration."""
        self._factories.clear()
        self._instances.clear()

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self._instances

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())


answer_extractor_registry: Registry[Any] = Registry("extractor")
"""The extractors by name: ``answer_extractor_registry.create("regex", pattern=r"(\\d+)")``."""

_DEFAULTS: dict[str, type[GoExtractor]] = {
    "tag_based": TagBasedExtractor,
    "regex": RegexExtractor,
    "gsm8k": GSM8KExtractor,
    "multiple_choice": MultipleChoiceExtractor,
    "boxed": BoxedExtractor,
    "numeric": NumericExtractor,
    "last_line": LastLineExtractor,
    "code_block": CodeBlockExtractor,
    "pattern_answer": PatternAnswerExtractor,
    "raw": RawGenerationExtractor,
    "tail": TailExtractor,
}


_SINGLE = frozenset(_DEFAULTS.values())
_BUILTIN = frozenset({*_SINGLE, CompositeExtractor, CleanedExtractor, NativeExtractor})


def register_defaults() -> None:
    """Clear the extractor registry and register the built-in extractors again."""
    answer_extractor_registry.clear()
    for name, cls in _DEFAULTS.items():
        answer_extractor_registry.register(name, cls)


register_defaults()


def extractor_settings(extractor: Any, what: str = "answer_extractor") -> dict[str, Any]:
    """The environment settings an extractor object stands for (:meth:`GoExtractor.to_config`).

    Raises:
        TypeError: ``extractor`` is not an extractor of this module.
        ValueError: the extractor runs Python code, which a Go environment
            cannot call (a :class:`NativeExtractor`, a custom cleaner, ...).
    """
    if isinstance(extractor, GoExtractor):
        return extractor.to_config()
    if isinstance(extractor, NativeExtractor):
        raise ValueError(f"{what}: a NativeExtractor runs a Python function, which a Go environment cannot call; "
                         "use one of the extractors of llenvs_go.core.extraction, e.g. TagBasedExtractor()")
    raise TypeError(f"{what} must be an extractor name or an extractor of llenvs_go.core.extraction, "
                    f"got {type(extractor).__name__}")


def extractor_from_spec(spec: dict[str, Any] | list[dict[str, Any]]) -> GoExtractor:
    """The extractor object a spec describes (the inverse of :meth:`GoExtractor.to_spec`).

    ``{"type": name, "config": {...}}`` builds ``answer_extractor_registry.create(name, **config)``;
    a list builds a :class:`CompositeExtractor`.
    """
    if isinstance(spec, list):
        return CompositeExtractor([extractor_from_spec(s) for s in spec])
    if not isinstance(spec, dict) or "type" not in spec:
        raise TypeError(f"an extractor spec is {{'type': name, 'config': {{...}}}} or a list of them, got {spec!r}")
    return answer_extractor_registry.create(spec["type"], **(spec.get("config") or {}))


__all__ = [
    "AnswerExtractor", "BoxedExtractor", "CleanedExtractor", "CodeBlockExtractor", "CompositeExtractor",
    "ExtractionResult", "GSM8KExtractor", "GoExtractor", "LastLineExtractor", "MultipleChoiceExtractor",
    "NativeExtractor", "NumericExtractor", "PatternAnswerExtractor", "RawGenerationExtractor", "RegexExtractor",
    "Registry", "TagBasedExtractor", "TailExtractor", "answer_extractor_registry", "extractor_from_spec",
    "extractor_settings", "register_defaults",
]
