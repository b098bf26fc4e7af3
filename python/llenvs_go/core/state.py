"""What an environment state is made of: observation, hidden part, metadata, and the action taken on it.

These are llenvs' ``core/state.py`` types. All are frozen: assigning to a field raises
``dataclasses.FrozenInstanceError`` (an ``AttributeError``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from llenvs_go.core.tools import ToolCall, ToolDefinition, ToolResult

HiddenT = TypeVar("HiddenT")


@dataclass(frozen=True)
class StateMetadata:
    """Step counter (0 after ``reset``, +1 per ``step``), episode id, terminal flag and environment info."""

    step: int
    episode_id: str
    is_terminal: bool = False
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ImageContent:
    """One image: base64 ``data``, its media type, and where it came from (``"task"``, ``"state"`` or ``""``)."""

    data: str
    media_type: str = "image/png"
    source: str = ""


@dataclass(frozen=True)
class ObservationContent:
    """One part of an observation: text, images and optional structured data."""

    text: str = ""
    images: tuple[ImageContent, ...] = ()
    data: dict[str, Any] | None = None


@dataclass(frozen=True)
class ObservationImages:
    """The images of an observation, split by origin; falsy when there are none."""

    task: tuple[ImageContent, ...] = ()
    state: tuple[ImageContent, ...] = ()

    @property
    def all(self) -> tuple[ImageContent, ...]:
        """The task images followed by the state images."""
        return self.task + self.state

    def __bool__(self) -> bool:
        return bool(self.task or self.state)


def _marked(content: ObservationContent | None, source: str) -> tuple[ImageContent, ...]:
    if content is None:
        return ()
    return tuple(dataclasses.replace(img, source=source) for img in content.images)


@dataclass(frozen=True)
class Observation:
    """What the model sees.

    Attributes:
        prompt: the prompt text.
        messages: the chat history (empty for text-only single-turn environments).
        tool_results: the results of the most recent tool calls only.
        available_tools: the tools the model may call now.
        task: the static task description; ``None`` when the environment does not provide one.
        state: the dynamic, per-turn observation; ``None`` when there is none.
    """

    prompt: str
    messages: tuple[dict[str, Any], ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    available_tools: tuple[ToolDefinition, ...] = ()
    task: ObservationContent | None = None
    state: ObservationContent | None = None

    def get_images(self) -> ObservationImages:
        """Copies of the images of ``task`` and ``state``, each marked with ``source="task"``/``"state"``."""
        return ObservationImages(task=_marked(self.task, "task"), state=_marked(self.state, "state"))


@dataclass(frozen=True)
class State(Generic[HiddenT]):
    """An environment state: what the model sees, what it does not (ground truth and such), and metadata."""

    observation: Observation
    hidden: HiddenT
    metadata: StateMetadata

    def with_metadata(self, **kwargs: Any) -> State[HiddenT]:
        """A new state with the same observation and hidden part and the named metadata fields replaced.

        The fields are ``step``, ``episode_id``, ``is_terminal`` and ``info``; any other name raises TypeError.
        """
        return State(observation=self.observation, hidden=self.hidden,
                     metadata=dataclasses.replace(self.metadata, **kwargs))


@dataclass(frozen=True)
class Action:
    """What the model did: its text (``None`` when it produced none) and its tool calls.

    ``token_ids`` and ``logprobs`` (optional, not in llenvs) are the ids the model
    generated for this action and their log-probabilities, as the inference engine
    returned them. :class:`~llenvs_go.integrations.TrajectoryMasker` uses carried ids
    as they are (never re-tokenising the text), a final end-of-turn token included.
    """

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    token_ids: tuple[int, ...] | None = None
    logprobs: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.token_ids is not None and not isinstance(self.token_ids, tuple):
            object.__setattr__(self, "token_ids", tuple(self.token_ids))
        if self.logprobs is not None and not isinstance(self.logprobs, tuple):
            object.__setattr__(self, "logprobs", tuple(self.logprobs))

    @classmethod
    def from_text(cls, text: str, token_ids: Sequence[int] | None = None,
                  logprobs: Sequence[float] | None = None) -> Action:
        """An action made of text only, with the generated ids and their logprobs when known."""
        return cls(text=text, token_ids=None if token_ids is None else tuple(token_ids),
                   logprobs=None if logprobs is None else tuple(logprobs))

    @classmethod
    def from_tool_call(cls, call: ToolCall) -> Action:
        """An action made of one tool call and no text."""
        return cls(text=None, tool_calls=(call,))

    @classmethod
    def from_tool_calls(cls, calls: tuple[ToolCall, ...] | list[ToolCall]) -> Action:
        """An action made of tool calls and no text."""
        return cls(text=None, tool_calls=tuple(calls))

    @property
    def is_text_only(self) -> bool:
        """Whether there is text (``""`` counts) and no tool call."""
        return self.text is not None and not self.tool_calls

    @property
    def has_tool_calls(self) -> bool:
        """Whether there is at least one tool call."""
        return bool(self.tool_calls)

    @property
    def has_text(self) -> bool:
        """Whether there is text; ``""`` counts as text, ``None`` does not."""
        return self.text is not None
