"""Texts with lone surrogates through the library's JSON requests, unchanged.

A Python str may hold lone surrogates (``"\\ud800"``), which UTF-8 cannot encode and JSON decoders replace.
For the requests that carry texts as JSON (extraction and cleaning), each lone surrogate is stood in for by
a code point of the Private Use Area (U+E000 + its offset from U+D800): one code point for one, three UTF-8
bytes for the three that ``"surrogatepass"`` writes, so that Go sees a character that is neither a space, a
digit nor punctuation, exactly as Python's str methods see a surrogate, and offsets (UTF-8 byte offsets, as
in scoring) stay the same. The results are mapped back. Texts without
surrogates (the common case) take the plain path at no extra cost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

_BASE = 0xE000
_TO_PUA = {c: _BASE + c - 0xD800 for c in range(0xD800, 0xE000)}
_FROM_PUA = {v: k for k, v in _TO_PUA.items()}
_PUA = re.compile("[\ue000-\ue7ff]")


def encode_texts(texts: Sequence[str]) -> tuple[bytes, bool]:
    """The JSON list of ``texts`` as UTF-8, and whether lone surrogates were stood in for (then the results
    must go through :func:`restore`). A text that holds both lone surrogates and code points U+E000 to
    U+E7FF is a ValueError: the two could not be told apart."""
    items = texts if isinstance(texts, list) else list(texts)
    try:
        return json.dumps(items, ensure_ascii=False).encode(), False
    except UnicodeEncodeError:
        pass
    if any(_PUA.search(t) for t in items):
        raise ValueError("a text holds both lone surrogates and private-use code points U+E000 to U+E7FF; "
                         "llenvs-go cannot pass it through unchanged: encode the surrogates first, e.g. "
                         "text.encode('utf-8', 'replace').decode()")
    return json.dumps([t.translate(_TO_PUA) for t in items], ensure_ascii=False).encode(), True


def restore(text: str | None) -> str | None:
    """A result text with the stood-in surrogates put back."""
    return None if text is None else text.translate(_FROM_PUA)
