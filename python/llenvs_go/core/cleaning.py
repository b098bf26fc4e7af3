"""Text cleaners, as in llenvs' ``core/cleaning.py``, served by the Go core.

A pre-cleaner transforms a response before an answer is extracted from it; a
post-cleaner transforms an extracted answer. Each cleaner here is a function
``str -> str`` that runs the same Go code an environment runs for the same
cleaner name, so a cleaner called by hand and a configured environment agree.

Cleaners run only when configured. An environment applies the cleaners named
in ``pre_cleaners`` / ``post_cleaners`` and none otherwise: llenvs applied
:data:`DEFAULT_PRE_CLEANERS` and :data:`DEFAULT_POST_CLEANERS` by default on
its config path (and nothing on its direct path), so the same response could
score differently depending on how the environment was built. The defaults
are kept here for :func:`resolve_cleaners`, which follows llenvs.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go.core import columns as _columns

Cleaner = Callable[[str], str]
"""A cleaner: a function from text to text."""

DEFAULT_PRE_CLEANERS: list[str] = ["strip_special_tokens"]
"""llenvs' default pre-cleaners (llenvs-go environments apply them only when configured)."""

DEFAULT_POST_CLEANERS: list[str] = ["strip_trailing_punctuation"]
"""llenvs' default post-cleaners (llenvs-go environments apply them only when configured)."""


def _request_prefix(kind: str, spec: str | dict[str, Any]) -> bytes:
    """The JSON spec of ``llenvs_clean_texts`` for one cleaner: ``{"kind": ..., "cleaners": [spec]}``."""
    return json.dumps({"kind": kind, "cleaners": [spec]}).encode()


def _clean(spec: bytes, texts: list[str]) -> list[str]:
    """Run one Go ``llenvs_clean_texts`` call on ``texts``."""
    return _columns.call_texts("llenvs_clean_texts", spec, texts, "a cleaner")[0]  # type: ignore[return-value]


_SPECIAL = _request_prefix("pre", "strip_special_tokens")
_THINKING = _request_prefix("pre", "strip_thinking_tokens")
_PUNCTUATION = _request_prefix("post", "strip_trailing_punctuation")
_QUOTES = _request_prefix("post", "strip_surrounding_quotes")
_DOLLARS = _request_prefix("post", "strip_latex_dollars")


def strip_special_tokens(text: str) -> str:
    """Remove ``<|endoftext|>``, ``<|im_end|>``, ``<|im_start|>``, ``<pad>``, ``</s>`` and ``<s>``.

    A pre-cleaner. Other tokens, such as ``<|eot_id|>``, stay.
    """
    return _clean(_SPECIAL, [text])[0]


def strip_thinking_tokens(text: str) -> str:
    """Remove reasoning blocks: closed ``<think>…</think>`` blocks, then an unclosed ``<think>…`` to the end.

    A pre-cleaner. When a ``</think>`` remains without any ``<think>`` (the
    opening tag was in the prompt), everything up to and including the first
    ``</think>`` is removed.
    """
    return _clean(_THINKING, [text])[0]


def strip_trailing_punctuation(text: str) -> str:
    """Remove one trailing ``.`` or ``,`` (``"42."`` gives ``"42"``; ``"3.14"`` stays). A post-cleaner."""
    return _clean(_PUNCTUATION, [text])[0]


def strip_surrounding_quotes(text: str) -> str:
    """Remove one pair of matching ``"`` or ``'`` quotes around a text of at least two characters. A post-cleaner."""
    return _clean(_QUOTES, [text])[0]


def strip_latex_dollars(text: str) -> str:
    """Unwrap ``$$x$$``, else ``$x$`` when ``x`` holds no ``$``. A post-cleaner."""
    return _clean(_DOLLARS, [text])[0]


@dataclass(frozen=True)
class TruncateTail:
    """The cleaner :func:`truncate_tail` returns: strip, then keep the last ``max_chars`` characters."""

    max_chars: int = 256

    def __post_init__(self) -> None:
        if isinstance(self.max_chars, bool) or not isinstance(self.max_chars, int):
            raise TypeError(f"truncate_tail: max_chars must be an int, got {type(self.max_chars).__name__}")
        if self.max_chars < 1:
            raise ValueError(f"truncate_tail: max_chars must be at least 1, got {self.max_chars}")

    @property
    def spec(self) -> dict[str, Any]:
        """How this cleaner is written in a ``pre_cleaners`` or ``post_cleaners`` list."""
        return {"type": "truncate_tail", "config": {"max_chars": self.max_chars}}

    def __call__(self, text: str) -> str:
        return _clean(_parameterized_prefix("truncate_tail", self.max_chars), [text])[0]


@dataclass(frozen=True)
class TakeFirstNonemptyLine:
    """The cleaner :func:`take_first_nonempty_line` returns: the first non-blank line, stripped, cut."""

    max_chars: int | None = None

    def __post_init__(self) -> None:
        if self.max_chars is None:
            return
        if isinstance(self.max_chars, bool) or not isinstance(self.max_chars, int):
            raise TypeError(f"take_first_nonempty_line: max_chars must be an int or None, "
                            f"got {type(self.max_chars).__name__}")
        if self.max_chars < 1:
            raise ValueError(f"take_first_nonempty_line: max_chars must be at least 1 (None keeps the whole line), "
                             f"got {self.max_chars}")

    @property
    def spec(self) -> dict[str, Any]:
        """How this cleaner is written in a ``pre_cleaners`` or ``post_cleaners`` list."""
        return {"type": "take_first_nonempty_line", "config": {"max_chars": self.max_chars}}

    def __call__(self, text: str) -> str:
        return _clean(_parameterized_prefix("take_first_nonempty_line", self.max_chars), [text])[0]


def take_first_nonempty_line(max_chars: int | None = None) -> TakeFirstNonemptyLine:
    """A cleaner that keeps the first line that is not blank, stripped (``""`` when every line is blank).

    Lines are split as ``str.splitlines`` splits them; with ``max_chars``,
    the line is cut to its first ``max_chars`` characters. It turns a chatty
    response into the one command a text environment reads. Usable in either
    list; in a config it is written ``{"type": "take_first_nonempty_line",
    "config": {"max_chars": N}}``.
    """
    return TakeFirstNonemptyLine(max_chars)


@functools.lru_cache(maxsize=64)
def _parameterized_prefix(name: str, max_chars: int | None) -> bytes:
    """The ``llenvs_clean_texts`` spec of one parameterized cleaner (made once per setting)."""
    return _request_prefix("pre", {"type": name, "config": {"max_chars": max_chars}})


def truncate_tail(max_chars: int = 256) -> TruncateTail:
    """A cleaner that strips whitespace, then keeps the last ``max_chars`` characters.

    Usable in either list; in a config it is written
    ``{"type": "truncate_tail", "config": {"max_chars": N}}``. ``max_chars``
    must be at least 1 (llenvs' ``0`` kept the whole text).
    """
    return TruncateTail(max_chars)


PRE_CLEANERS: dict[str, Cleaner] = {
    "strip_special_tokens": strip_special_tokens,
    "strip_thinking_tokens": strip_thinking_tokens,
}
"""The pre-cleaners by name."""

POST_CLEANERS: dict[str, Cleaner] = {
    "strip_trailing_punctuation": strip_trailing_punctuation,
    "strip_surrounding_quotes": strip_surrounding_quotes,
    "strip_latex_dollars": strip_latex_dollars,
}
"""The post-cleaners by name."""

PARAMETERIZED_CLEANERS: dict[str, Callable[..., Cleaner]] = {
    "truncate_tail": truncate_tail,
    "take_first_nonempty_line": take_first_nonempty_line,
}
"""Cleaner factories, written ``{"type": name, "config": {...}}`` in either list."""

_NAMES: dict[Any, tuple[str, str]] = {
    **{fn: ("pre", name) for name, fn in PRE_CLEANERS.items()},
    **{fn: ("post", name) for name, fn in POST_CLEANERS.items()},
}
_PREFIXES: dict[Any, bytes] = {fn: _request_prefix(kind, name) for fn, (kind, name) in _NAMES.items()}


def cleaner_spec(cleaner: Any, kind: str | None = None) -> str | dict[str, Any] | None:
    """How ``cleaner`` is written in a config: a name, or a ``{"type", "config"}`` mapping.

    None for a callable this module did not make (only Python can run it),
    and, when ``kind`` (``"pre"`` or ``"post"``) is given, for a named
    cleaner of the other kind, which that list does not accept.
    """
    if isinstance(cleaner, (TruncateTail, TakeFirstNonemptyLine)):
        return cleaner.spec
    try:
        known = _NAMES.get(cleaner)
    except TypeError:  # unhashable
        return None
    if known is None or (kind is not None and known[0] != kind):
        return None
    return known[1]


def apply_cleaners(cleaners: Sequence[Cleaner], texts: Sequence[str]) -> list[str]:
    """``texts``, each passed through ``cleaners`` in order; one Go call per cleaner of this module."""
    out = list(texts)
    for c in cleaners:
        if not out:
            break
        if isinstance(c, (TruncateTail, TakeFirstNonemptyLine)):
            prefix: bytes | None = _parameterized_prefix(c.spec["type"], c.max_chars)
        else:
            try:
                prefix = _PREFIXES.get(c)
            except TypeError:  # unhashable: not one of ours
                prefix = None
        out = _clean(prefix, out) if prefix is not None else [c(t) for t in out]
    return out


def resolve_cleaners(names: Sequence[str | dict[str, Any]] | None, kind: str) -> list[Cleaner]:
    """The cleaner functions a ``pre_cleaners`` (``kind="pre"``) or ``post_cleaners`` (``"post"``) list names.

    ``None`` gives llenvs' defaults (:data:`DEFAULT_PRE_CLEANERS` or
    :data:`DEFAULT_POST_CLEANERS`) and ``[]`` none. Entries are cleaner
    names or mappings ``{"type": "truncate_tail", "config": {...}}``.

    Raises:
        ValueError: ``kind`` is not ``"pre"`` or ``"post"``.
        KeyError: an unknown name or parameterized type (the message lists
            the available ones).
        TypeError: an entry that is neither a str nor a mapping.
    """
    if kind == "pre":
        registry, defaults = PRE_CLEANERS, DEFAULT_PRE_CLEANERS
    elif kind == "post":
        registry, defaults = POST_CLEANERS, DEFAULT_POST_CLEANERS
    else:
        raise ValueError(f"Invalid cleaner kind: {kind!r}. Must be 'pre' or 'post'")
    if names is None:
        names = defaults
    out: list[Cleaner] = []
    for entry in names:
        if isinstance(entry, str):
            if entry not in registry:
                raise KeyError(f"Unknown {kind}-cleaner: {entry!r}. Available: {sorted(registry)}")
            out.append(registry[entry])
        elif isinstance(entry, dict):
            if "type" not in entry:
                raise KeyError(f"A parameterized cleaner needs a 'type'. Available: {sorted(PARAMETERIZED_CLEANERS)}")
            factory = PARAMETERIZED_CLEANERS.get(entry["type"])
            if factory is None:
                raise KeyError(f"Unknown parameterized cleaner: {entry['type']!r}. "
                               f"Available: {sorted(PARAMETERIZED_CLEANERS)}")
            out.append(factory(**entry.get("config", {})))
        else:
            raise TypeError(f"Cleaner entry must be a str or a dict, got {type(entry).__name__}")
    return out
