"""The Go crossing of a masking batch: its fragments, its tables, the call and the results.

:class:`~llenvs_go.integrations.token_mask.TrajectoryMasker` renders the turns into
:class:`Fragments` (distinct texts, carried token ids) and segments; the functions here hand
them to the Go core (``llenvs_mask_batch``, or ``llenvs_mask_pytexts`` when Go tokenizes) and
build a :class:`MaskedTrajectory` per row of the record batch that comes back.
"""

from __future__ import annotations

import operator
import struct
import sys
import threading
from array import array
from collections.abc import Sequence
from itertools import accumulate, chain
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot
from llenvs_go.core.lazy_mapping import LazyTuple
from llenvs_go.integrations.masked_trajectory import MAX_TOKEN_ID, MaskedTrajectory, _SpanSource
from llenvs_go.integrations.tokenization import _GoTokenizer, _nfc, encode_many


class Fragments:
    """The batch's fragments: distinct texts to tokenise (indices from 0, in order) and carried id lists
    (indices -1, -2, ...: the Go core numbers them after the texts)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.special: list[bool] = []
        self.carried_texts: list[str] = []
        self.carried_ids: list[Sequence[int]] = []
        self.carried_logprobs: list[Sequence[float] | None] = []
        self.trajectory = 0  # the trajectory whose segments are being laid out
        self.prompt_special = False  # whether the prompt takes the tokenizer's special tokens (prompt)
        self.prefix: int | None = None  # the carried fragments of those tokens (wrap_with)
        self.suffix: int | None = None
        self._index: dict[str, int] = {}  # text -> fragment, one table per value of special
        self._special_index: dict[str, int] = {}

    def text(self, text: str, special: bool = False) -> int:
        index = self._special_index if special else self._index
        i = index.get(text)
        if i is None:
            i = index[text] = len(self.texts)
            self.texts.append(text)
            self.special.append(special)
        return i

    def carried(self, text: str, ids: Sequence[int], logprobs: Sequence[float] | None, step: int) -> int:
        _check_ids(ids, lambda: f"trajectories[{self.trajectory}], step {step}: Action.token_ids")
        self.carried_texts.append(text)
        self.carried_ids.append(ids)
        self.carried_logprobs.append(logprobs)
        return -len(self.carried_ids)

    def wrap_with(self, prefix: Sequence[int], suffix: Sequence[int]) -> None:
        """Lay out a prompt that takes the tokenizer's special tokens from here on as the ``prefix`` ids, the
        text without special tokens and the ``suffix`` ids: what ``encode(text)`` gives a tokenizer that adds
        them around the text, for a tokenizer that adds none (the Go one)."""
        self.prefix = self.carried("", prefix, None, 0) if prefix else None
        self.suffix = self.carried("", suffix, None, 0) if suffix else None

    def prompt(self, segs: list[int], text: str, source: int, step: int) -> None:
        """Add the segments of the plain layout's prompt, with the tokenizer's special tokens when it takes
        them (``prompt_special``): as a special fragment, or around it as set by :meth:`wrap_with`."""
        if not self.prompt_special:
            segs += (self.text(text), source, step)
        elif self.prefix is None and self.suffix is None:
            segs += (self.text(text, special=True), source, step)
        else:
            if self.prefix is not None:
                segs += (self.prefix, source, step)
            segs += (self.text(text), source, step)
            if self.suffix is not None:
                segs += (self.suffix, source, step)

    def tokenize(self, tokenizer: Any) -> list[Sequence[int]]:
        """The ids of every fragment, texts then carried ones (the Go core's numbering)."""
        ids: list[Sequence[int]] = [()] * len(self.texts)
        for special in (False, True):
            todo = [i for i, sp in enumerate(self.special) if sp == special]
            for i, got in zip(todo, encode_many(tokenizer, [self.texts[i] for i in todo], special=special),
                              strict=True):
                ids[i] = got
        return ids + self.carried_ids

    def check_tokenized(self, ids: list[Sequence[int]]) -> None:
        """Raise the ValueError that names the first token id the tokenizer gave out of range, and for which
        text (the carried ids were checked when they were added)."""
        for f, got in enumerate(ids[:len(self.texts)]):
            text = self.texts[f]
            _check_ids(got, lambda t=text: f"the tokenizer's encoding of {_excerpt(t)}")


def _excerpt(text: str) -> str:
    return repr(text) if len(text) <= 60 else f"{text[:57]!r}... ({len(text)} characters)"


def _check_ids(ids: Sequence[int], where: Any) -> None:
    """Refuse token ids outside ``[0, MAX_TOKEN_ID]``: a ValueError naming ``where()``, the position and the id."""
    if not ids:
        return
    try:
        ok = min(ids) >= 0 and max(ids) <= MAX_TOKEN_ID
    except TypeError:
        ok = False
    if ok:
        return
    for p, v in enumerate(ids):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"{where()}[{p}] is {v!r} ({type(v).__name__}); token ids must be ints")
        if not 0 <= operator.index(v) <= MAX_TOKEN_ID:
            raise ValueError(f"{where()}[{p}] = {v} is out of range; token ids must be from 0 to {MAX_TOKEN_ID} "
                             "(2**31 - 1)")


def assemble_ids(fr: Fragments, ids: list[Sequence[int]], seg_lists: list[list[int]], rewards: list[list[float]],
                 limit: int, decode: Any) -> list[MaskedTrajectory]:
    """Lay out a batch whose fragments were tokenized in Python (``ids``, texts then carried ones):
    ``llenvs_mask_batch``."""
    if fr.carried_ids:
        n_texts = len(fr.texts)
        for segs in seg_lists:
            segs[0::3] = [f if f >= 0 else n_texts - 1 - f for f in segs[0::3]]
    try:
        tokens = array("i", chain.from_iterable(ids))
        bad = bool(tokens) and min(tokens) < 0
    except OverflowError:
        bad = True
    if bad:
        fr.check_tokenized(ids)
        raise ValueError(f"token ids must be from 0 to {MAX_TOKEN_ID} (2**31 - 1)")  # not reached
    tok_offs = array("q", accumulate(map(len, ids), initial=0))
    segments, seg_offs, rews, rew_offs = _tables(seg_lists, rewards)
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    slot = BatchSlot()
    rc = _native.lib().llenvs_mask_batch(
        ffi.from_buffer("int32_t[]", tokens), ffi.from_buffer("int64_t[]", tok_offs), len(ids),
        ffi.from_buffer("int32_t[]", segments), ffi.from_buffer("int64_t[]", seg_offs),
        ffi.from_buffer("double[]", rews), ffi.from_buffer("int64_t[]", rew_offs), len(seg_lists), limit,
        slot.schema, slot.array, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    return masked_from_batch(slot.take(), fr, rewards, decode)


def assemble_texts(go: _GoTokenizer, fr: Fragments, seg_lists: list[list[int]], rewards: list[list[float]],
                   limit: int, decode: Any) -> list[MaskedTrajectory]:
    """Tokenize in Go: the texts go over as the str objects themselves, carried ids as int32 arrays."""
    texts = tuple(map(_nfc, fr.texts)) if go.nfc else tuple(fr.texts)
    carried = array("i", chain.from_iterable(fr.carried_ids))
    carried_offs = array("q", accumulate(map(len, fr.carried_ids), initial=0))
    segments, seg_offs, rews, rew_offs = _tables(seg_lists, rewards)
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    slot = BatchSlot()
    rc = _native.lib().llenvs_mask_pytexts(
        go.handle, ffi.cast("void *", id(texts)), len(texts), ffi.from_buffer("int32_t[]", carried),
        ffi.from_buffer("int64_t[]", carried_offs), len(fr.carried_ids), ffi.from_buffer("int32_t[]", segments),
        ffi.from_buffer("int64_t[]", seg_offs), ffi.from_buffer("double[]", rews),
        ffi.from_buffer("int64_t[]", rew_offs), len(seg_lists), limit, slot.schema, slot.array, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    return masked_from_batch(slot.take(), fr, rewards, decode)


def masked_from_batch(batch: Any, fr: Fragments, rewards: list[list[float]], decode: Any) -> list[MaskedTrajectory]:
    """MaskedTrajectories from the Go core's record batch (one row per trajectory; capi/masking.go)."""
    n = len(rewards)
    col = batch.column
    # Whole columns to lists at once (C loops over the Arrow buffers); per trajectory only slices of them.
    # token_rewards (dense) are rebuilt from reward_at: one shared 0.0 rather than a float per token.
    po, ro = _values(col("prompt_ids").offsets), _values(col("response_ids").offsets)
    so, to = _values(col("spans").offsets), _values(col("reward_at").offsets)
    pids, rids = _token_ids(col("prompt_ids").values), _token_ids(col("response_ids").values)
    span_cols = col("spans").values
    recs = (_values(span_cols.field(0)), _values(span_cols.field(1)), _values(span_cols.field(2)),
            _values(span_cols.field(3)), _values(span_cols.field(4)))
    reward_at = _values(col("reward_at").values)
    trunc = _bytes(col("truncated"))
    mask = _bytes(col("response_mask").values)
    del batch, col, span_cols  # the C buffers go as soon as the columns are lists
    any_logprobs = any(lp is not None for lp in fr.carried_logprobs)
    all_texts = fr.texts + fr.carried_texts  # fragment f's text, carried ones numbered after the texts
    all_logprobs = [None] * len(fr.texts) + fr.carried_logprobs if any_logprobs else None
    # The spans are a view, built when first read (MaskedTrajectory.spans): most training code reads only
    # the tensors.
    span_source = _SpanSource(all_texts, recs, decode)
    out = []
    unpack = struct.unpack_from
    for i in range(n):
        r0, r1 = ro[i], ro[i + 1]
        response = tuple(rids[r0:r1])
        truncated = bool(trunc[i])
        token_rewards = [0.0] * (r1 - r0)
        for r, pos in zip(rewards[i], reward_at[to[i]:to[i + 1]], strict=True):
            if pos >= 0:
                token_rewards[pos] += r
        logprobs: list[float] | None = None
        if all_logprobs is not None:
            logprobs = [0.0] * (r1 - r0)
            starts, ends, frags = recs[0], recs[1], recs[4]
            for k in range(so[i], so[i + 1]):
                start, end = starts[k], ends[k]
                lp = all_logprobs[frags[k]]
                if lp is not None:
                    logprobs[start:end] = [float(x) for x in lp[:end - start]]
        out.append(MaskedTrajectory(
            tuple(pids[po[i]:po[i + 1]]), response, unpack(f"{r1 - r0}B", mask, r0),
            LazyTuple(span_source, (so[i], so[i + 1], response, truncated)), tuple(rewards[i]), len(rewards[i]),
            truncated, tuple(token_rewards), None if logprobs is None else tuple(logprobs)))
    return out


def _values(arr: Any) -> list[int]:
    """The values of a non-null int32 Arrow array as a list, read from its buffer in one C loop (far faster
    than ``to_pylist``, which makes a scalar per value)."""
    if not len(arr):
        return []
    return memoryview(arr.buffers()[1]).cast("B")[4 * arr.offset:4 * (arr.offset + len(arr))].cast("i").tolist()


# One int object per token id, shared by every result (index i holds i), grown to the largest id seen
# below _MAX_SHARED_ID (2**19 covers every vocabulary in use; the table then holds about 19 MB): a
# batch's ids are then references to these rather than ~500k new ints, made and later freed. Other
# ids are made as they come.
_INT_OBJECTS: Any = None
_MAX_SHARED_ID = 1 << 19
_INT_OBJECTS_LOCK = threading.Lock()


def _token_ids(arr: Any) -> list[int]:
    """The values of a non-null int32 Arrow array of token ids as a list. With numpy (which transformers
    and torch bring), each id from 0 to ``_MAX_SHARED_ID`` is the shared int object of ``_INT_OBJECTS``;
    otherwise as :func:`_values`."""
    if not len(arr):
        return []
    try:
        np = sys.modules["numpy"]
        ids = np.frombuffer(arr.buffers()[1], dtype=np.int32, count=len(arr), offset=4 * arr.offset)
    except (KeyError, AttributeError):  # no numpy, or one still being imported by another thread
        return _values(arr)
    top = int(ids.max())
    if top >= _MAX_SHARED_ID or int(ids.min()) < 0:
        return ids.tolist()
    table = _INT_OBJECTS
    if table is None or top >= len(table):
        table = _grow_int_objects(np, top)
    return table.take(ids).tolist()


def _grow_int_objects(np: Any, top: int) -> Any:
    """The shared table, made to hold ``top``: replaced by a larger one, never changed in place (a thread
    that holds the old table still reads it whole)."""
    global _INT_OBJECTS
    with _INT_OBJECTS_LOCK:
        table = _INT_OBJECTS
        if table is None or top >= len(table):
            table = _INT_OBJECTS = np.array(range(1 << max(top.bit_length(), 16)), dtype=object)
        return table


def _bytes(arr: Any) -> bytes:
    """The values of a non-null uint8 Arrow array as bytes (a tuple of a slice of it is a tuple of ints)."""
    return memoryview(arr.buffers()[1]).cast("B")[arr.offset:arr.offset + len(arr)].tobytes() if len(arr) else b""


def _tables(seg_lists: list[list[int]], rewards: list[list[float]]) -> tuple[array, array, array, array]:
    """The segment and reward tables of a batch as the C ABI takes them."""
    return (array("i", chain.from_iterable(seg_lists)),
            array("q", accumulate((len(s) // 3 for s in seg_lists), initial=0)),
            array("d", chain.from_iterable(rewards)),
            array("q", accumulate(map(len, rewards), initial=0)))
