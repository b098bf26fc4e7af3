"""Reward signals and reward functions (llenvs' ``core/reward.py``).

A step yields a :class:`SignalBundle` of named :class:`Signal` values; its ``total`` is
the weighted sum of the numeric ones. A signal whose ``reward`` is ``None`` carries only
feedback and adds nothing to the total.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any, Protocol, runtime_checkable

from llenvs_go.core.state import Action, State


class RewardType(Enum):
    """The kind of a reward signal.

    The values are llenvs' ``auto()`` integers. The stable string form, used wherever a
    type crosses a process or language boundary, is ``rt.name.lower()`` (``"outcome"``,
    ``"step"``, ``"format"``, ``"process"``); :meth:`from_name` reads it back.
    """

    OUTCOME = auto()
    STEP = auto()
    FORMAT = auto()
    PROCESS = auto()

    @classmethod
    def from_name(cls, name: str | RewardType) -> RewardType:
        """The member named ``name``, in any case (``"outcome"`` -> OUTCOME); a member is returned as is.

        Raises ValueError for an unknown name.
        """
        if isinstance(name, cls):
            return name
        if isinstance(name, str):
            member = cls.__members__.get(name.upper())
            if member is not None:
                return member
        valid = ", ".join(repr(m.name.lower()) for m in cls)
        raise ValueError(f"unknown reward type {name!r}; expected one of {valid}")


@dataclass(frozen=True)
class Signal:
    """One named reward.

    Attributes:
        name: identifies the signal (``"correctness"``, ``"format"``, ...).
        reward_type: its kind; a string name (``"outcome"``) is turned into the :class:`RewardType`.
        reward: the unweighted value, or ``None`` for a feedback-only signal.
        feedback: text feedback, if any.
        metadata: how the value was reached (extracted answer and such); for a step served by the
            library, a mapping fetched from it when first read (it compares, copies and pickles as a dict).
        weight: the factor the value counts with in :attr:`SignalBundle.total`.
    """

    name: str
    reward_type: RewardType
    reward: float | None = None
    feedback: str | None = None
    metadata: dict[str, Any] | None = None
    weight: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.reward_type, RewardType):
            object.__setattr__(self, "reward_type", RewardType.from_name(self.reward_type))


@dataclass(frozen=True)
class SignalBundle:
    """The signals of one transition, in order. Iterating yields the signals; ``len`` counts them.

    ``signals`` may be given as any iterable; it is stored as a tuple.
    """

    signals: tuple[Signal, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.signals, tuple):
            object.__setattr__(self, "signals", tuple(self.signals))

    @property
    def total(self) -> float:
        """The sum of ``reward * weight`` over the numeric signals; 0.0 when there are none."""
        total = 0.0  # a plain loop: this is read for every step of every trajectory
        for s in self.signals:
            r = s.reward
            if r is not None:
                total += r * s.weight
        return float(total)

    def by_name(self, name: str, required: bool = False) -> Signal | None:
        """The first signal named ``name``; None when there is none, unless ``required``.

        Raises:
            ValueError: ``required`` and no signal is named ``name`` (the message lists the names there are).
        """
        for s in self.signals:
            if s.name == name:
                return s
        if required:
            raise ValueError(f"Signal {name!r} not found; the bundle has {[s.name for s in self.signals]}")
        return None

    def by_type(self, reward_type: RewardType) -> tuple[Signal, ...]:
        """The signals of type ``reward_type``, in order."""
        return tuple(s for s in self.signals if s.reward_type == reward_type)

    def numeric_signals(self) -> tuple[Signal, ...]:
        """The signals whose reward is not None, in order."""
        return tuple(s for s in self.signals if s.reward is not None)

    def feedback_texts(self) -> tuple[str, ...]:
        """The feedback strings that are not None, in signal order."""
        return tuple(s.feedback for s in self.signals if s.feedback is not None)

    @classmethod
    def single(
        cls, reward: float, name: str = "reward", reward_type: RewardType = RewardType.OUTCOME
    ) -> SignalBundle:
        """A bundle of one signal with weight 1.0."""
        return cls(signals=(Signal(name=name, reward_type=reward_type, reward=reward),))

    @classmethod
    def empty(cls) -> SignalBundle:
        """A bundle with no signal (total 0.0)."""
        return cls(signals=())

    def __iter__(self) -> Iterator[Signal]:
        return iter(self.signals)

    def __len__(self) -> int:
        return len(self.signals)


def as_bundle(rewards: SignalBundle | Iterable[Signal]) -> SignalBundle:
    """``rewards`` as a :class:`SignalBundle` (a bundle is returned as is)."""
    return rewards if isinstance(rewards, SignalBundle) else SignalBundle(tuple(rewards))


@runtime_checkable
class RewardFunction(Protocol):
    """What computes one reward signal for a transition.

    An environment has a sequence of these; their signals make up a step's :class:`SignalBundle`.
    """

    @property
    def name(self) -> str:
        """The name of the signals it produces."""
        ...

    @property
    def reward_type(self) -> RewardType:
        """The type of the signals it produces."""
        ...

    def compute(self, state: State[Any], action: Action, next_state: State[Any]) -> Signal:
        """The signal for the transition ``state --action--> next_state``."""
        ...


class AnswerExtractor(Protocol):
    """Anything with ``extract(text) -> (answer or None, metadata)``; ``None`` means nothing was extracted."""

    def extract(self, text: str | None) -> tuple[str | None, dict[str, Any]]:
        """The answer found in ``text`` (``""`` is an answer) and how it was found."""
        ...


@dataclass(eq=False)
class FormatReward:
    """1.0 when the extractor finds an answer in the action's text (``""`` included), else 0.0.

    The signal is named ``"format"``, of type FORMAT, with metadata ``{"extraction": meta}``
    where ``meta`` is the extractor's metadata. The action's text is passed to the extractor
    as is, ``None`` included.
    """

    answer_extractor: AnswerExtractor
    weight: float = 1.0

    @property
    def name(self) -> str:
        """``"format"``."""
        return "format"

    @property
    def reward_type(self) -> RewardType:
        """FORMAT."""
        return RewardType.FORMAT

    def compute(self, state: State[Any], action: Action, next_state: State[Any]) -> Signal:
        """The format signal of ``action``."""
        extracted, meta = self.answer_extractor.extract(action.text)
        return Signal(name=self.name, reward_type=self.reward_type, reward=1.0 if extracted is not None else 0.0,
                      metadata={"extraction": meta}, weight=self.weight)


@dataclass
class StepPenalty:
    """``-penalty`` on every step: a signal named ``"step_penalty"`` (STEP) with metadata
    ``{"step": next_state.metadata.step}``.

    The leading-underscore fields keep llenvs' constructor keywords (``_name``, ``_reward_type``,
    ``_weight``); read them through :attr:`name`, :attr:`reward_type` and :attr:`weight`.
    """

    penalty: float = 0.1
    _name: str = "step_penalty"
    _reward_type: RewardType = RewardType.STEP
    _weight: float = 1.0

    @property
    def name(self) -> str:
        """The signal's name (``"step_penalty"`` by default)."""
        return self._name

    @property
    def reward_type(self) -> RewardType:
        """The signal's type (STEP by default)."""
        return self._reward_type

    @property
    def weight(self) -> float:
        """The signal's weight (1.0 by default)."""
        return self._weight

    def compute(self, state: State[Any], action: Action, next_state: State[Any]) -> Signal:
        """The penalty signal for one step."""
        return Signal(name=self._name, reward_type=self._reward_type, reward=-self.penalty,
                      metadata={"step": next_state.metadata.step}, weight=self._weight)

