"""TRL's own reward functions (``trl.rewards``, TRL 1.16.0), served by the Go core.

:func:`accuracy_reward`, :func:`reasoning_accuracy_reward` and
:func:`think_format_reward` take the arguments of their namesakes in
``trl.rewards`` and return the same rewards: 1.0 or 0.0 per completion, and
``None`` where TRL returns ``None`` (a solution in which math-verify's
``parse`` finds nothing, so the trainer skips the example). The accuracy
functions read the answer exactly as TRL configures math-verify (the
solution with ``parse``'s defaults; the completion with LaTeX only, a
``\\boxed{}`` first, no answer without an anchor, units dropped,
``extraction_mode="first_match"``) and compare with ``verify``'s defaults,
through :mod:`llenvs_go.math_verify`, the whole batch at once.

What differs from TRL, on purpose:

- A completion may also be a plain ``str`` (what ``GRPOTrainer`` passes for a
  standard, non-conversational dataset); TRL's functions raise ``TypeError``
  on it, these score the text.
- No signal-based timeouts: the Go verifier's budgets bound the work, on any
  thread. What TRL does on its own timeouts, these do on a budget: a solution
  past a budget parses to nothing (``None``, as TRL's ``parse`` returns ``[]``
  on a timeout), a completion or a comparison past a budget scores 0.0 (as
  math-verify's ``verify`` returns False on a timeout).
- The ``gold_parsed``/``answer_parsed`` columns sent to ``log_extra`` print the
  parsed values in llenvs-go's notation (``1/3``, ``{1, 2}``, ``x = 3``)
  where TRL prints sympy's (``1/3``, ``{1, 2}``, ``Eq(x, 3)``).

Where the verdicts of math-verify and of the Go verifier differ is listed in
docs/math-verify.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from llenvs_go import math_verify as mv

__all__ = ["accuracy_reward", "reasoning_accuracy_reward", "think_format_reward"]

#: How TRL parses a solution: math-verify's ``parse`` defaults.
GOLD_EXTRACTION: tuple[mv.ExtractionTarget, ...] = (mv.LatexExtractionConfig(), mv.ExprExtractionConfig())

#: How TRL parses a completion: LaTeX, boxed answers first, only anchored answers, units dropped
#: (with ``extraction_mode="first_match"``).
ANSWER_EXTRACTION: tuple[mv.ExtractionTarget, ...] = (
    mv.LatexExtractionConfig(normalization_config=mv.NormalizationConfig(units=True), boxed_match_priority=0,
                             try_extract_without_anchor=False),
)

_THINK, _END_THINK = "<think>", "</think>"
#: TRL's pattern, for contents that are not str (where its errors are TRL's).
_THINK_FORMAT = re.compile(r"^<think>(?!.*<think>)(.*?)</think>.*$", re.DOTALL | re.MULTILINE)


def _contents(completions: Iterable[Any]) -> list[Any]:
    """The text TRL scores of each completion: the first message's content (or the str itself)."""
    return [c if type(c) is str else c[0]["content"] for c in completions]


def _display(parsed: list[Any]) -> str:
    """A parsed answer as TRL logs it, ``str(list)``: values plainly, texts quoted."""
    return "[" + ", ".join(repr(v) if isinstance(v, str) else str(v) for v in parsed) + "]"


def _score(contents: Sequence[Any], solutions: list[Any], log_extra: Callable[[str, list], None] | None,
           rewards: list[float | None], rows: list[int]) -> list[float | None]:
    """Math-verifies ``contents[i]`` against ``solutions[i]`` for each ``i`` in ``rows``, into ``rewards``.

    The rows' rewards are None on entry; the others keep theirs (and log as
    TRL logs an incomplete reasoning). Two calls into Go: one parses each
    distinct solution (a GRPO batch repeats each one per generation) and
    tells which parse to nothing, one parses and compares the completions.
    """
    # A solution that is not a str parses to nothing in math-verify (it catches the TypeError): None.
    golds = [solutions[i] if isinstance(solutions[i], str) else "" for i in rows]
    distinct = list(dict.fromkeys(golds))
    parsed = dict(zip(distinct, mv.parse_batch(distinct, GOLD_EXTRACTION), strict=True))
    keep = [k for k, g in enumerate(golds) if parsed[g]]
    gold_values = [parsed[golds[k]] for k in keep]
    # A content that is not a str parses to nothing: 0.0.
    texts = [c if isinstance(c, str) else "" for c in (contents[rows[k]] for k in keep)]
    # Completions cross as text (parsed in Go) unless their parsed answers are to be logged.
    answers: list[Any] = texts if log_extra is None else \
        mv.parse_batch(texts, ANSWER_EXTRACTION, extraction_mode="first_match")
    verdicts = mv.verify_batch(gold_values, answers, extraction_config=ANSWER_EXTRACTION,
                               pred_extraction_mode="first_match")
    for k, v in zip(keep, verdicts, strict=True):
        rewards[rows[k]] = 1.0 if v else 0.0
    if log_extra is not None:
        gold_strs = ["[incomplete reasoning]"] * len(solutions)
        answer_strs = ["[incomplete reasoning]"] * len(solutions)
        for i in rows:
            gold_strs[i], answer_strs[i] = "[unparseable]", "[skipped]"
        for k, g, a in zip(keep, gold_values, answers, strict=True):
            gold_strs[rows[k]] = _display(g)
            answer_strs[rows[k]] = _display(a) if a else "[unparseable]"
        log_extra("solution", list(solutions))
        log_extra("gold_parsed", gold_strs)
        log_extra("answer_parsed", answer_strs)
    return rewards


def accuracy_reward(
    completions: list[list[dict[str, str]]],
    solution: list[str],
    log_extra: Callable[[str, list], None] | None = None,
    **kwargs: Any,
) -> list[float | None]:
    r"""Whether each completion's answer equals its solution, as ``trl.rewards.accuracy_reward`` decides.

    1.0 or 0.0 per completion, or ``None`` where the solution has no
    answer math-verify can find (TRL skips such examples). The completion's
    answer must be LaTeX: a ``\boxed{}`` (tried first) or an anchored answer
    ("the final answer is $...$"). The batch takes two calls into Go: its
    distinct solutions, then its completions.

    Args:
        completions: one completion per row: a list of messages (the first
            message's ``"content"`` is scored, as in TRL) or a str.
        solution: the raw-text solution of each row (the dataset column
            ``solution``).
        log_extra: TRL's callback for extra completion-table columns; called
            with ``solution``, ``gold_parsed`` and ``answer_parsed``, as TRL does.
        **kwargs: the other columns and keywords the trainer passes (unused).

    Example:
        >>> accuracy_reward([[{"content": r"\boxed{\frac{1}{3}}"}], [{"content": r"\boxed{\frac{1}{2}}"}]],
        ...                 [r"\frac{1}{3}", r"\frac{1}{3}"])
        [1.0, 0.0]
    """
    contents = _contents(completions)
    solutions = [s for _, s in zip(contents, solution, strict=True)]
    return _score(contents, solutions, log_extra, [None] * len(solutions), list(range(len(solutions))))


def reasoning_accuracy_reward(
    completions: list[list[dict[str, str]]],
    solution: list[str],
    reasoning_delimiters: list[str] | None = None,
    log_extra: Callable[[str, list], None] | None = None,
    **kwargs: Any,
) -> list[float | None]:
    r"""``accuracy_reward`` on the text after the reasoning, as ``trl.rewards.reasoning_accuracy_reward`` does.

    The answer is read after the last occurrence of the first delimiter of
    ``reasoning_delimiters`` that the completion contains; a completion that
    contains none scores 0.0 (incomplete reasoning), whatever its solution.
    Otherwise as :func:`accuracy_reward`, ``None`` included.

    Args:
        completions: one completion per row: a list of messages (the first
            message's ``"content"``) or a str.
        solution: the raw-text solution of each row.
        reasoning_delimiters: where the reasoning ends; ``["</think>"]`` when None.
        log_extra: TRL's callback for extra completion-table columns (``solution``,
            ``gold_parsed``, ``answer_parsed``).
        **kwargs: the other columns and keywords the trainer passes (unused).

    Example:
        >>> reasoning_accuracy_reward([[{"content": r"<think>...</think> \boxed{7}"}],
        ...                            [{"content": r"<think>... \boxed{7}"}]], ["7", "7"])
        [1.0, 0.0]
    """
    if reasoning_delimiters is None:
        reasoning_delimiters = [_END_THINK]
    contents = _contents(completions)
    solutions: list[Any] = []
    rewards: list[float | None] = []
    rows: list[int] = []
    for i, (content, sol) in enumerate(zip(contents, solution, strict=True)):
        solutions.append(sol)
        for delim in reasoning_delimiters:
            if delim in content:
                # For a str, rsplit(d, 1)[-1] is split(d)[-1] without the list of every part.
                contents[i] = content.rsplit(delim, 1)[-1] if type(content) is str else content.split(delim)[-1]
                rows.append(i)
                rewards.append(None)
                break
        else:
            rewards.append(0.0)  # incomplete reasoning, whatever the solution
    return _score(contents, solutions, log_extra, rewards, rows)


def think_format_reward(completions: list[list[dict[str, str]]], **kwargs: Any) -> list[float]:
    """1.0 where the completion opens with one ``<think>`` block that is closed, as ``trl.rewards.think_format_reward``.

    TRL matches ``^<think>(?!.*<think>)(.*?)</think>.*$`` (DOTALL, MULTILINE)
    from the start: the text starts with ``<think>``, has no other
    ``<think>`` and has a ``</think>`` after it. That is three substring
    tests, done here with ``str.startswith``/``str.find`` (no regex and no
    crossing into Go: RE2 has no look-ahead, and the tests cost less than
    handing the texts over).

    Args:
        completions: one completion per row: a list of messages (the first
            message's ``"content"``) or a str.
        **kwargs: the other columns and keywords the trainer passes (unused).

    Example:
        >>> think_format_reward([[{"content": "<think>\\nreasoning\\n</think>\\nanswer"}], [{"content": "<think>x"}]])
        [1.0, 0.0]
    """
    out = []
    for c in _contents(completions):
        if not isinstance(c, str):
            out.append(1.0 if _THINK_FORMAT.match(c) else 0.0)  # what TRL's re.match does (it raises on most)
        else:
            out.append(1.0 if c.startswith(_THINK) and c.find(_THINK, 7) < 0 and c.find(_END_THINK, 7) >= 0 else 0.0)
    return out
