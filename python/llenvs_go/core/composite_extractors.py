"""Extractors made of other extractors or of Python code: ``CompositeExtractor`` (the first answer of several),
``CleanedExtractor`` (cleaners around one) and ``NativeExtractor`` (a Python function). Go serves a composite
whose members it can express; otherwise its members are composed here, with llenvs' semantics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go.core.cleaning import Cleaner, apply_cleaners, cleaner_spec, resolve_cleaners
from llenvs_go.core.extractors import (
    SINGLE_EXTRACTORS,
    ExtractionResult,
    GoExtractor,
    _Plan,
)


def _extract_batch(extractor: Any, texts: Sequence[str]) -> list[ExtractionResult]:
    """``extractor.extract`` over ``texts``; one call for the built-in classes, which can batch."""
    if type(extractor) in _BUILTIN:
        return extractor.extract_batch(texts)
    return [extractor.extract(t) for t in texts]

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


_SINGLE = frozenset(SINGLE_EXTRACTORS)
_BUILTIN = frozenset({*_SINGLE, CompositeExtractor, CleanedExtractor, NativeExtractor})
