"""Record batches read back from the Go core: in place (read_texts) and through pyarrow (texts_of)."""

from __future__ import annotations

import pyarrow as pa
import pytest

from llenvs_go import math_verify
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot, read_offsets, read_texts, release, texts_of
from llenvs_go.integrations.verl_sources import score_sources

SURROGATE = "\ud800".encode("utf-8", "surrogatepass")


def _exported(array: pa.Array) -> BatchSlot:
    """A pyarrow array exported into a caller's C structs, as a record batch of one column."""
    slot = BatchSlot()
    batch = pa.RecordBatch.from_arrays([array], names=["text"])
    batch._export_to_c(int(ffi.cast("uintptr_t", slot.array)), int(ffi.cast("uintptr_t", slot.schema)))
    return slot


@pytest.mark.parametrize("sliced", [False, True])
def test_read_texts_matches_pyarrow(sliced: bool) -> None:
    values = ["a", None, "", "héllo", None, "zz"]
    array = pa.array(["skip", *values] if sliced else values, pa.string())
    if sliced:
        array = array.slice(1)
    slot = _exported(array)
    try:
        assert read_texts(slot.array.children[0]) == values
        assert read_offsets(slot.array.children[0])[-1] - read_offsets(slot.array.children[0])[0] == 9  # bytes
    finally:
        release(slot)
    assert slot.array.release == ffi.NULL and slot.schema.release == ffi.NULL


def test_lone_surrogates_and_invalid_bytes_decode_back() -> None:
    raw = [b"x" + SURROGATE, b"ok", b"bad\xff", None]
    want = ["x\ud800", "ok", "bad\ufffd", None]
    column = pa.array(raw, pa.binary()).view(pa.string())
    assert texts_of(column) == want
    slot = _exported(column)
    try:
        assert read_texts(slot.array.children[0]) == want
    finally:
        release(slot)


def test_empty_and_all_null_columns() -> None:
    for values in ([], [None, None]):
        slot = _exported(pa.array(values, pa.string()))
        try:
            assert read_texts(slot.array.children[0]) == values
        finally:
            release(slot)


def test_parse_batch_matches_parse_with_failed_rows() -> None:
    texts = [r"so \boxed{\frac{1}{2}}", "", r"\boxed{10^{10^{10^{10^{10}}}}}" * 3, "x = 3 and $\\{1, 2\\}$", "B"]
    batch = math_verify.parse_batch(texts)
    assert batch == [math_verify.parse(t) for t in texts]
    assert batch[1] == []
    assert [str(v) for v in batch[0]] == ["1/2", "\\frac{1}{2}"]


def test_verify_batch_mixes_texts_and_parsed_items() -> None:
    half = math_verify.parse(r"\boxed{\frac{1}{2}}")
    golds = [half, r"\boxed{2}", [], "3", half]
    preds = ["0.5", math_verify.parse("2"), "1", [], "x\x1ey"]
    verdicts, reasons = math_verify.verify_batch(golds, preds, return_reasons=True)
    assert verdicts == [True, True, False, False, False]
    assert reasons[:4] == ["equal", "equal", "no answer", "no answer"]
    assert math_verify.verify_batch(golds, preds) == verdicts


def test_verify_compares_strings_holding_any_byte_as_text() -> None:
    # No byte is a marker any more: a string with a record separator is compared as itself.
    assert math_verify.verify("a\x1eb", "a\x1eb")
    assert not math_verify.verify("a\x1eb", "a\ufffdb")


def test_score_sources_details_hold_surrogates_and_nulls() -> None:
    scored = score_sources(["math_dapo", "openai/gsm8k", "openai/gsm8k"], ["Answer: \ud800x", "#### 72", "zz"],
                           ["1", "72", "3"])
    assert scored.preds == ["\ud800x", None, None]
    assert scored.reasons[:2] == ["", ""] and scored.reasons[2] != ""
    plain = score_sources(["openai/gsm8k"], ["#### 72"], ["72"])
    assert plain.preds == [None] and plain.reasons == [""] and plain.scores == [1.0]
