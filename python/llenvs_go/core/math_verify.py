"""MathVerifyRewardFunction: a Python reward that compares answers by value (llenvs' ``core/math_verify.py``).

The answer extractor picks the answer out of the response; the answer and the
state's ``hidden.expected_answer`` are then parsed and compared by
:mod:`llenvs_go.math_verify` (the Go verifier: ``1/2`` equals ``0.5`` and
``\\frac{1}{2}``). When either side has no mathematical reading (``"hello"``),
the two texts are compared with case and runs of whitespace ignored.

Every signal's metadata says how it was decided (``"method"``: ``"math_verify"``
or ``"string_normalized"``), with the extracted and the expected answer and the
extractor's own metadata (``"extraction"``).

This is the object form, for ``extra_rewards=(MathVerifyRewardFunction(...),)``
and environments written in Python; the string ``"math_verify"`` in
``extra_rewards`` (and ``scoring="math"``) runs the same verifier inside Go.
"""

from __future__ import annotations

from typing import Any

from llenvs_go.core.reward import AnswerExtractor, RewardType, Signal
from llenvs_go.core.state import Action, State

__all__ = ["MathVerifyRewardFunction"]


def _folded(text: str) -> str:
    """``text`` lower-cased with its whitespace runs turned into single spaces and its ends trimmed."""
    return " ".join(text.lower().split())


def _compare_by_value(answer: str, expected: str) -> bool | None:
    """True/False when both texts parse as mathematics and were compared; None when either does not."""
    from llenvs_go import math_verify

    try:
        gold = math_verify.parse(expected)
        target = math_verify.parse(answer)
    except (TypeError, ValueError):
        return None
    if not gold or not target:
        return None
    return math_verify.verify(gold, target)


class MathVerifyRewardFunction:
    """An outcome reward: 1.0 when the extracted answer equals the expected one in value, else 0.0.

    Args:
        answer_extractor: picks the answer out of the response text (any object with
            ``extract(text) -> (answer or None, metadata)``, e.g. ``TagBasedExtractor()``).
        name: the signal's name.

    A response the extractor finds no answer in scores 0.0 (``metadata["extracted"]`` None),
    and so does a state whose hidden part has no ``expected_answer``.
    """

    def __init__(self, answer_extractor: AnswerExtractor, name: str = "math_correctness") -> None:
        self._answer_extractor = answer_extractor
        self._name = name

    @property
    def name(self) -> str:
        """The signal's name (``"math_correctness"`` unless given)."""
        return self._name

    @property
    def reward_type(self) -> RewardType:
        """Always :attr:`RewardType.OUTCOME`."""
        return RewardType.OUTCOME

    def __repr__(self) -> str:
        return f"MathVerifyRewardFunction(answer_extractor={self._answer_extractor!r}, name={self._name!r})"

    def _signal(self, value: float, metadata: dict[str, Any]) -> Signal:
        return Signal(name=self._name, reward_type=RewardType.OUTCOME, reward=value, metadata=metadata)

    def compute(self, state: State[Any], action: Action, next_state: State[Any]) -> Signal:
        """Score ``action``'s answer against ``state.hidden.expected_answer``."""
        answer, extraction = self._answer_extractor.extract(action.text or "")
        if answer is None:
            return self._signal(0.0, {"extracted": None, "extraction": extraction})
        expected = getattr(state.hidden, "expected_answer", None)
        if expected is None:
            return self._signal(0.0, {"extracted": answer, "expected": None, "method": "no_expected_answer",
                                      "extraction": extraction})
        expected = str(expected)
        verdict = _compare_by_value(answer, expected)
        if verdict is None:
            verdict, method = _folded(answer) == _folded(expected), "string_normalized"
        else:
            method = "math_verify"
        return self._signal(1.0 if verdict else 0.0, {"extracted": answer, "expected": expected, "method": method,
                                                      "extraction": extraction})
