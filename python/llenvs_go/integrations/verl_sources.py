"""veRL's own data sources: rows without an llenvs reference, scored as veRL's ``default_compute_score`` scores them.

veRL 0.9.1 routes each row by its ``data_source`` to a rule module
(``verl.utils.reward_score``): ``openai/gsm8k`` to gsm8k, the MATH sets to
math_reward, ``math_dapo``/``math``/``aime*`` to math_dapo, ``numina_*`` to
prime_math, ``hiyouga/geometry3k`` to geo3k, ``searchR1_*`` to the
search-R1 exact match, and the code sources (``codecontests``, ``apps``,
``codeforces``, ``taco``) to prime_code, which runs the response against
the row's test cases. The Go package ``recipes`` holds the text rules; code
rows run in the code sandbox (:mod:`llenvs_go.code_tests`);
:func:`default_compute_score` returns veRL's value and type for every
sample (a float, or math_dapo's ``{"score", "acc", "pred"}``), and
:func:`score_sources` scores a whole batch in one call into Go, with the
outcome of every item.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from llenvs_go import _native
from llenvs_go.core.columns import BatchSlot, texts_of

#: Sources veRL scores by running code (prime_code, ``continuous=True``); here in the code sandbox.
CODE_SOURCES = ("codecontests", "apps", "codeforces", "taco")
#: The rule family of the code sources.
CODE_FAMILY = "prime_code"
#: Names of the outcomes in a ScoredSources' ``statuses`` (the Go core's order).
STATUSES = ("correct", "incorrect", "no_answer", "timeout", "error")
_FLAG_ACC, _FLAG_DICT = 1, 2


_ROUTING: dict[str, str] = {}  # data_source -> family, the Go core's table (package recipes), read once


def verl_sources() -> dict[str, str]:
    """The data sources veRL 0.9.1's default_compute_score knows by name, and their rule families.

    Names starting with ``aime`` are routed to ``math_dapo`` too. The table is the Go core's (one copy).
    """
    if not _ROUTING:
        _ROUTING.update(_native.call("verl_sources")["sources"])
    return dict(_ROUTING)


def is_known_source(data_source: Any) -> bool:
    """Whether veRL's routing table names ``data_source`` (a cheap check; ``aime*`` names are left to family_of)."""
    return type(data_source) is str and (data_source in (_ROUTING or verl_sources()) or data_source in CODE_SOURCES)


def family_of(data_source: Any) -> str:
    """The rule family veRL applies to ``data_source``; NotImplementedError, as veRL raises, for an unknown one."""
    if isinstance(data_source, str):
        family = (_ROUTING or verl_sources()).get(data_source)
        if family is not None:
            return family
        if data_source.startswith("aime"):
            return "math_dapo"
        if data_source in CODE_SOURCES:
            return CODE_FAMILY
    known = sorted(verl_sources()) + list(CODE_SOURCES)
    close = [k for k in known if str(data_source) and str(data_source).lower() in k.lower()][:1] or \
        difflib.get_close_matches(str(data_source), known, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise NotImplementedError(
        f"Reward function is not implemented for data_source={data_source!r}{hint} (veRL's default_compute_score "
        f"knows {', '.join(known)} and any name starting with 'aime'; rows built by make_verl_dataset carry an "
        "llenvs reference in extra_info instead)")


def _text(value: Any, what: str, k: int) -> str:
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str(value)
    raise TypeError(f"{what}[{k}] must be a str, got {type(value).__name__}")


def _truth_text(value: Any, k: int) -> str:
    # veRL's searchR1 rows carry {"target": [...]}; the rules read a non-str ground truth as its JSON.
    if isinstance(value, str):
        return str(value)
    if hasattr(value, "tolist"):
        value = value.tolist()
    try:  # parquet gives numpy arrays inside dicts too ({"target": array([...])})
        return json.dumps(value, ensure_ascii=False, default=_plain)
    except (TypeError, ValueError) as e:
        raise TypeError(f"ground_truths[{k}] must be a str or JSON data, got {type(value).__name__}") from e


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _pack(texts: Sequence[str]) -> tuple[bytes, Any]:
    items = [t.encode("utf-8", "surrogatepass") for t in texts]
    return b"".join(items), _native.ffi.new("int64_t[]", [0, *accumulate(len(b) for b in items)])


@dataclass(frozen=True)
class ScoredSources:
    """A batch scored by veRL's rules: one entry per item in every field.

    ``scores`` are veRL's values (a dict family's ``"score"``), ``statuses``
    the outcome of each item (one of :data:`STATUSES`), ``accs`` and
    ``preds`` the ``"acc"`` and ``"pred"`` of dict families (False and None
    otherwise), ``dicts`` whether veRL returns a dict for the item, and
    ``reasons`` why an item has no verdict ("" when it has one).
    """

    scores: list[float]
    statuses: list[str]
    accs: list[bool]
    dicts: list[bool]
    preds: list[str | None]
    reasons: list[str]

    def value(self, k: int) -> float | dict[str, Any]:
        """Item ``k`` as veRL's default_compute_score returns it: a float, or ``{"score", "acc", "pred"}``."""
        if self.dicts[k]:
            return {"score": self.scores[k], "acc": self.accs[k], "pred": self.preds[k]}
        return self.scores[k]


def _check_sources(data_sources: Sequence[Any]) -> None:
    routing = _ROUTING or verl_sources()
    for source in set(data_sources) if all(type(s) is str for s in data_sources) else data_sources:
        if source not in routing:
            family_of(source)


def _score_code(solutions: Sequence[Any], ground_truths: Sequence[Any]) -> list[tuple[float, str, bool, str]]:
    """prime_code's continuous score of code rows, all their tests run in parallel in the sandbox:
    (score, status, all passed, reason) per row."""
    from llenvs_go.code_tests import check_tests_batch

    texts = [_text(s, "solution_strs", k) for k, s in enumerate(solutions)]
    out = []
    for r in check_tests_batch(texts, list(ground_truths)):
        passed = sum(v == "passed" for v in r.results)
        kinds = ", ".join(sorted(set(r.results)))
        reason = "" if r.all_passed else f"{passed} of {len(r.results)} tests run passed ({kinds})"
        out.append((r.fraction, r.status, r.all_passed, reason))
    return out


def score_sources(data_sources: Sequence[Any], solutions: Sequence[Any], ground_truths: Sequence[Any]) -> ScoredSources:
    """Score a batch of veRL rows by their data sources' rules, in one call into Go (in parallel).

    Raises:
        NotImplementedError: a data source veRL's default_compute_score does
            not know either (the message names the closest one).
        TypeError / ValueError: a response is not a str, or the lengths differ.
    """
    n = len(solutions)
    if len(data_sources) != n or len(ground_truths) != n:
        raise ValueError(f"data_sources, solution_strs and ground_truths must have one entry per sample, got "
                         f"{len(data_sources)}, {n} and {len(ground_truths)}")
    _check_sources(data_sources)
    code_rows = [k for k, s in enumerate(data_sources) if type(s) is str and s in CODE_SOURCES]
    if code_rows:
        return _with_code_rows(data_sources, solutions, ground_truths, code_rows)
    sbuf, soffs = _pack([_text(s, "data_sources", k) for k, s in enumerate(data_sources)])
    rbuf, roffs = _pack([_text(s, "solution_strs", k) for k, s in enumerate(solutions)])
    tbuf, toffs = _pack([t if type(t) is str else _truth_text(t, k) for k, t in enumerate(ground_truths)])
    ffi = _native.ffi
    scores = ffi.new("double[]", max(n, 1))
    statuses = ffi.new("uint8_t[]", max(n, 1))
    flags = ffi.new("uint8_t[]", max(n, 1))
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    details = BatchSlot()
    rc = _native.lib().llenvs_recipe_score_batch(sbuf, soffs, rbuf, roffs, tbuf, toffs, n, scores, statuses, flags,
                                                 details.schema, details.array, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    status_codes = ffi.unpack(statuses, n)
    flag_codes = ffi.unpack(flags, n)
    dicts = [bool(f & _FLAG_DICT) for f in flag_codes]
    preds: list[str | None]
    reasons: list[str]
    if details.array.release != ffi.NULL:  # filled only when an item is a dict or has a reason
        batch = details.take()
        preds, reasons = texts_of(batch.column(0)), texts_of(batch.column(1))  # type: ignore[assignment]
    else:
        preds, reasons = [None] * n, [""] * n
    for k, code in enumerate(status_codes):
        if code == 4 and reasons[k].endswith("is not built in"):
            raise NotImplementedError(f"sample {k}: {reasons[k]}")
    return ScoredSources(scores=ffi.unpack(scores, n), statuses=[STATUSES[c] for c in status_codes],
                         accs=[bool(f & _FLAG_ACC) for f in flag_codes], dicts=dicts, preds=preds, reasons=reasons)


def _with_code_rows(data_sources: Sequence[Any], solutions: Sequence[Any], ground_truths: Sequence[Any],
                    code_rows: list[int]) -> ScoredSources:
    """score_sources of a batch holding code rows: those in the sandbox, the rest in one call into Go."""
    n = len(solutions)
    code = set(code_rows)
    rest = [k for k in range(n) if k not in code]
    scores, statuses, accs = [0.0] * n, ["error"] * n, [False] * n
    dicts, preds, reasons = [False] * n, [None] * n, [""] * n
    if rest:
        text = score_sources([data_sources[k] for k in rest], [solutions[k] for k in rest],
                             [ground_truths[k] for k in rest])
        for j, k in enumerate(rest):
            scores[k], statuses[k], accs[k] = text.scores[j], text.statuses[j], text.accs[j]
            dicts[k], preds[k], reasons[k] = text.dicts[j], text.preds[j], text.reasons[j]
    for k, (score, status, acc, reason) in zip(code_rows, _score_code([solutions[k] for k in code_rows],
                                                                      [ground_truths[k] for k in code_rows]),
                                               strict=True):
        scores[k], statuses[k], accs[k], reasons[k] = score, status, acc, reason
    return ScoredSources(scores=scores, statuses=statuses, accs=accs, dicts=dicts, preds=preds, reasons=reasons)


def default_compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                          **kwargs: Any) -> float | dict[str, Any]:
    """veRL 0.9.1's ``default_compute_score`` for one sample, computed in Go: the same value and type.

    The one-row form of :func:`score_sources` (``llenvs_recipe_score``):
    veRL's naive reward manager calls once per sample, and the lists,
    offsets and record batch of details of a batch would cost several times the
    scoring itself. The outputs come back in one caller-sized struct, the
    pred of a dict family in a buffer allocated here.
    """
    if type(data_source) is not str or data_source not in (_ROUTING or verl_sources()):
        if family_of(data_source) == CODE_FAMILY:
            return _score_code([solution_str], [ground_truth])[0][0]
    src = data_source.encode("utf-8", "surrogatepass")
    sol = (solution_str if type(solution_str) is str else _text(solution_str, "solution_strs", 0)).encode(
        "utf-8", "surrogatepass")
    gt = (ground_truth if type(ground_truth) is str else _truth_text(ground_truth, 0)).encode("utf-8", "surrogatepass")
    ffi = _native.ffi
    res = ffi.new("llenvs_recipe_result *")
    family = _ROUTING.get(data_source)
    pred = None
    if family is None or family == "math_dapo":  # dict families: a buffer for the pred
        res.pred_cap = 2 * len(sol) + len(gt) + 64
        res.pred = pred = ffi.new("char[]", res.pred_cap)
    rc = _native.lib().llenvs_recipe_score(src, len(src), sol, len(sol), gt, len(gt), res)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(ffi.addressof(res, "out"), ffi.addressof(res, "out_len")))
    if not res.flags & _FLAG_DICT:
        return res.score
    if pred is None or res.pred_len > res.pred_cap:  # a longer pred than foreseen: once more, with room
        res.pred_cap = res.pred_len
        res.pred = pred = ffi.new("char[]", max(res.pred_cap, 1))
        rc = _native.lib().llenvs_recipe_score(src, len(src), sol, len(sol), gt, len(gt), res)
        if rc != _native.OK:
            _native.raise_for(rc, _native.take_buffer(ffi.addressof(res, "out"), ffi.addressof(res, "out_len")))
    return {"score": res.score, "acc": bool(res.flags & _FLAG_ACC),
            "pred": ffi.unpack(pred, res.pred_len).decode("utf-8", "surrogatepass")}

