"""Calling tokenizers in batches: ``encode_many``, and the Go core's own copy of a fast Hugging Face byte-level
BPE tokenizer, loaded once per tokenizer and process."""

from __future__ import annotations

import os
import threading
import unicodedata
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go import _native


def _backend(tokenizer: Any) -> Any:
    """The Rust tokenizer of a fast Hugging Face tokenizer, or None."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    return backend if backend is not None and hasattr(backend, "encode_batch") else None


def _is_hf(tokenizer: Any) -> bool:
    return _backend(tokenizer) is not None or hasattr(tokenizer, "apply_chat_template")


def encode_many(tokenizer: Any, texts: Sequence[str], *, special: bool = False) -> list[list[int]]:
    """Token ids of many texts in as few tokenizer calls as the tokenizer allows.

    A fast Hugging Face tokenizer encodes the whole list in one call (``special`` adds its
    special tokens, e.g. a BOS); any other tokenizer is called as ``encode(text)`` once per text.
    """
    if not texts:
        return []
    backend = _backend(tokenizer)
    if backend is not None:
        fn = getattr(backend, "encode_batch_fast", None) or backend.encode_batch
        return [e.ids for e in fn(list(texts), add_special_tokens=special)]
    if hasattr(tokenizer, "apply_chat_template") and callable(tokenizer):
        return [list(x) for x in tokenizer(list(texts), add_special_tokens=special)["input_ids"]]
    return [list(tokenizer.encode(t)) for t in texts]


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


@dataclass
class _GoTokenizer:
    """A tokenizer loaded into the Go core, for the process that loaded it."""

    handle: int
    nfc: bool
    special_prefix: list[int]
    special_suffix: list[int]
    pid: int

    def __post_init__(self) -> None:
        weakref.finalize(self, _native.tokenizer_close, self.handle, self.pid)


_go_tokenizers: weakref.WeakKeyDictionary[Any, _GoTokenizer | None] = weakref.WeakKeyDictionary()
_go_lock = threading.Lock()


def _go_tokenizer(tokenizer: Any) -> _GoTokenizer | None:
    """The Go core's copy of a fast Hugging Face byte-level BPE tokenizer (Qwen2/3, Llama 3, Mistral Tekken,
    gpt-oss, DeepSeek V3 style), loaded once per tokenizer and process; None for a tokenizer the core does not
    implement (it is then called from Python, in batches)."""
    backend = _backend(tokenizer)
    if backend is None or os.environ.get("LLENVS_GO_NATIVE_TOKENIZER", "1") == "0":
        return None
    try:
        cached = _go_tokenizers.get(tokenizer, False)
    except TypeError:  # not weakly referenceable
        return None
    if cached is not False and (cached is None or cached.pid == os.getpid()):
        return cached
    with _go_lock:
        go: _GoTokenizer | None = None
        try:
            handle, info = _native.tokenizer_new(backend.to_str().encode())
        except ValueError:
            handle = None
        if handle is not None:
            with_special = encode_many(tokenizer, ["x"], special=True)[0]
            plain = encode_many(tokenizer, ["x"])[0]
            k = _find(with_special, plain)
            go = _GoTokenizer(handle, bool(info.get("nfc")), with_special[:k], with_special[k + len(plain):],
                              os.getpid())
        _go_tokenizers[tokenizer] = go
        return go


def _find(seq: list[int], sub: list[int]) -> int:
    for i in range(len(seq) - len(sub) + 1):
        if seq[i:i + len(sub)] == sub:
            return i
    return 0
