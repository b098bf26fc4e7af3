"""The masker's output: ``MaskedTrajectory`` (one trajectory's token ids, mask, spans and rewards) and
``TokenSpan`` (one piece of the response), with the limits of what the Go core lays out."""

from __future__ import annotations

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


@dataclass(frozen=True, init=False)
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

    The ``spans`` of a result of :meth:`TrajectoryMasker.mask_batch` are built when first read.
    """

    prompt_ids: tuple[int, ...]
    response_ids: tuple[int, ...]
    response_mask: tuple[int, ...]
    spans: tuple[TokenSpan, ...]
    rewards: tuple[float, ...]
    num_turns: int = 0
    truncated: bool = False
    token_rewards: tuple[float, ...] = ()
    response_logprobs: tuple[float, ...] | None = None

    def __init__(self, prompt_ids: tuple[int, ...], response_ids: tuple[int, ...], response_mask: tuple[int, ...],
                 spans: tuple[TokenSpan, ...], rewards: tuple[float, ...], num_turns: int = 0,
                 truncated: bool = False, token_rewards: tuple[float, ...] = (),
                 response_logprobs: tuple[float, ...] | None = None) -> None:
        # The dataclass's own __init__, except that ``spans`` may be a _PendingSpans (mask_batch's
        # results), which is kept aside and turned into the spans when they are first read.
        setattr_ = object.__setattr__
        setattr_(self, "prompt_ids", prompt_ids)
        setattr_(self, "response_ids", response_ids)
        setattr_(self, "response_mask", response_mask)
        setattr_(self, "_spans_pending" if spans.__class__ is _PendingSpans else "spans", spans)
        setattr_(self, "rewards", rewards)
        setattr_(self, "num_turns", num_turns)
        setattr_(self, "truncated", truncated)
        setattr_(self, "token_rewards", token_rewards)
        setattr_(self, "response_logprobs", response_logprobs)

    def __getattr__(self, name: str) -> Any:
        # Only reached when ``spans`` is not built yet: mask_batch's results build them when first read.
        if name == "spans":
            d = vars(self)
            pending = d.get("_spans_pending")
            if pending is not None:
                # Cached as functools.cached_property does; setdefault keeps the first of two threads' reads.
                spans = d.setdefault("spans", pending.source.spans(pending.start, pending.stop, self.response_ids,
                                                                   self.truncated))
                d.pop("_spans_pending", None)
                return spans
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in _MASKED_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Pickles hold every field (spans built): set them as __init__ does.
        for name, value in state.items():
            object.__setattr__(self, name, value)

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


_MASKED_FIELDS = ("prompt_ids", "response_ids", "response_mask", "spans", "rewards", "num_turns", "truncated",
                  "token_rewards", "response_logprobs")


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

    def spans(self, start: int, stop: int, response: tuple[int, ...], truncated: bool) -> tuple[TokenSpan, ...]:
        """The spans ``start .. stop`` of the batch over ``response``."""
        texts, names = self.texts, _SOURCES
        out = [TokenSpan(texts[f], response[a:b], names[src], step)
               for a, b, src, step, f in zip(self.starts[start:stop], self.ends[start:stop], self.sources[start:stop],
                                              self.steps[start:stop], self.fragments[start:stop], strict=True)]
        if truncated and self.decode is not None and out:  # the last span may be cut at max_length
            cut = out[-1]
            out[-1] = TokenSpan(self.decode(list(cut.token_ids)), cut.token_ids, cut.source, cut.step_index)
        return tuple(out)


class _PendingSpans:
    """The spans of one trajectory of a batch, not built yet: rows ``start .. stop`` of its span source.
    Passed as ``spans`` to :class:`MaskedTrajectory`, which builds them when they are first read."""

    __slots__ = ("source", "start", "stop")

    def __init__(self, source: _SpanSource, start: int, stop: int):
        self.source, self.start, self.stop = source, start, stop


# The classes are public at llenvs_go.integrations.token_mask, and pickles name them there.
TokenSpan.__module__ = MaskedTrajectory.__module__ = "llenvs_go.integrations.token_mask"
