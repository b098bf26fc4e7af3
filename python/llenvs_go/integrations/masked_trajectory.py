"""The masker's output: ``MaskedTrajectory`` (one trajectory's token ids, mask, spans and rewards) and
``TokenSpan`` (one piece of the response), with the limits of what the Go core lays out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

_PROMPT, _MODEL, _ENV = 0, 1, 2
#: The largest token id and ``max_length`` the Go core takes (they travel as int32).
MAX_TOKEN_ID = 2**31 - 1
MAX_LENGTH = 2**31 - 1
_SOURCES: tuple[Literal["model", "environment"], ...] = ("model", "model", "environment")


@dataclass(frozen=True)
class TokenSpan:
    """One piece of the response: its text, its token ids, who produced it and its step (from 0)."""

    text: str
    token_ids: tuple[int, ...]
    source: Literal["model", "environment"]
    step_index: int


@dataclass(frozen=True)
class MaskedTrajectory:
    """A trajectory as training tensors.

    Attributes:
        prompt_ids: the prompt's tokens (never cut).
        response_ids: every response token, model and environment, in order.
        response_mask: 1 for a model token, 0 for an environment token; as long as ``response_ids``.
        spans: the response's pieces, in order.
        rewards: one reward total per step (transition).
        num_turns: the number of steps.
        truncated: whether the response was cut at the masker's ``max_length``.
        token_rewards: one float per response token: each step's reward on the last model token of
            that step, 0.0 elsewhere.
        response_logprobs: per response token, the carried logprob of a model token and 0.0 elsewhere;
            None when no action carried logprobs.

    The ``spans`` of a result of :meth:`TrajectoryMasker.mask_batch` are a
    :class:`~llenvs_go.core.lazy_mapping.LazyTuple`: a view that builds them when first read and then
    behaves as that tuple (it compares with it, hashes and pickles as it). ``tuple(m.spans)`` is the
    plain tuple, for ``isinstance`` checks and for ``dataclasses.asdict``, which leaves a view's items
    as ``TokenSpan`` objects.
    """

    prompt_ids: tuple[int, ...]
    response_ids: tuple[int, ...]
    response_mask: tuple[int, ...]
    spans: Sequence[TokenSpan]
    rewards: tuple[float, ...]
    num_turns: int = 0
    truncated: bool = False
    token_rewards: tuple[float, ...] = ()
    response_logprobs: tuple[float, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The tensors as lists: ``prompt_ids``, ``response_ids``, ``response_mask``, ``rewards``,
        ``num_turns``, ``truncated``, ``token_rewards`` and ``response_logprobs``."""
        return {
            "prompt_ids": list(self.prompt_ids),
            "response_ids": list(self.response_ids),
            "response_mask": list(self.response_mask),
            "rewards": list(self.rewards),
            "num_turns": self.num_turns,
            "truncated": self.truncated,
            "token_rewards": list(self.token_rewards),
            "response_logprobs": None if self.response_logprobs is None else list(self.response_logprobs),
        }


class _SpanSource:
    """What the spans of a batch's trajectories are built from, when first read: the fragments' texts and
    the span columns of the Go core's record batch, as lists (no reference to the trajectories themselves)."""

    __slots__ = ("texts", "starts", "ends", "sources", "steps", "fragments", "decode")

    def __init__(self, texts: list[str], records: tuple[list[int], list[int], list[int], list[int], list[int]],
                 decode: Any):
        self.texts = texts
        # One entry per span of the batch in each: start, end (in its response), source, step, fragment.
        self.starts, self.ends, self.sources, self.steps, self.fragments = records
        self.decode = decode

    def sequence_of(self, key: tuple[int, int, tuple[int, ...], bool]) -> tuple[TokenSpan, ...]:
        """The spans ``start .. stop`` of the batch over ``response`` (``key``: start, stop, response, whether
        it was truncated), for a trajectory's :class:`~llenvs_go.core.lazy_mapping.LazyTuple`."""
        start, stop, response, truncated = key
        texts, names = self.texts, _SOURCES
        out = [TokenSpan(texts[f], response[a:b], names[src], step)
               for a, b, src, step, f in zip(self.starts[start:stop], self.ends[start:stop], self.sources[start:stop],
                                              self.steps[start:stop], self.fragments[start:stop], strict=True)]
        if truncated and self.decode is not None and out:  # the last span may be cut at max_length
            cut = out[-1]
            out[-1] = TokenSpan(self.decode(list(cut.token_ids)), cut.token_ids, cut.source, cut.step_index)
        return tuple(out)


# The classes are public at llenvs_go.integrations.token_mask, and pickles name them there.
TokenSpan.__module__ = MaskedTrajectory.__module__ = "llenvs_go.integrations.token_mask"
