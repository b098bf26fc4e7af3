"""The tool-call formats of model families, and which one a chat template implies.

A format is how a model family writes a tool call in its text (``hermes``: ``<tool_call>{json}</tool_call>``,
``qwen3_coder``, ``llama3_json``, ``mistral``, ``gpt_oss``, ``deepseek``; see docs/multi-turn.md). Tool
environments such as ``calculator_arithmetic`` read text calls in the format named by their
``tool_call_format`` setting; :func:`tool_call_format_for` picks it from a tokenizer's chat template. Both
the parsing and the detection run in Go.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go import _native
from llenvs_go.core import columns as _columns
from llenvs_go.core.tools import ToolCall, ToolResult, ToolResultStatus

TOOL_CALL_FORMATS: tuple[str, ...] = ("deepseek", "gpt_oss", "hermes", "llama3_json", "mistral", "qwen3_coder")
"""The names of the formats, sorted; ``"hermes"`` is the default of the environments."""


def _templates(source: Any) -> list[str]:
    """The chat templates of ``source``: a str, a tokenizer with ``.chat_template``, or the named
    templates some tokenizers hold (a dict name -> template, or a list of ``{"name", "template"}``),
    the ``tool_use`` one first."""
    template = source if isinstance(source, str) else getattr(source, "chat_template", None)
    if template is None or isinstance(template, str):
        return [] if template is None else [template]
    if isinstance(template, Mapping):
        named = dict(template)
    elif isinstance(template, Sequence):
        named = {}
        for entry in template:
            if not isinstance(entry, Mapping) or not isinstance(entry.get("template"), str):
                raise TypeError(f"a named chat template must be a dict with a str 'template', got {entry!r}")
            named[str(entry.get("name"))] = entry["template"]
    else:
        kind = type(template).__name__
        raise TypeError(f"chat_template must be a str, a dict or a list of named templates, got {kind}")
    for name, text in named.items():
        if not isinstance(text, str):
            raise TypeError(f"chat template {name!r} must be a str, got {type(text).__name__}")
    order = sorted(named, key=lambda n: n != "tool_use")
    return [named[n] for n in order]


def tool_call_format_for(tokenizer_or_template: Any) -> str | None:
    """The tool-call format a chat template implies, from the markers it holds.

    Args:
        tokenizer_or_template: a chat template (str), or a tokenizer (anything with ``.chat_template``, e.g.
            a Hugging Face tokenizer; a dict or list of named templates is searched ``tool_use`` first).

    Returns:
        One of :data:`TOOL_CALL_FORMATS` (e.g. ``"qwen3_coder"`` for a template that writes
        ``<function=...>``, ``"hermes"`` for one that writes plain ``<tool_call>``), or None when the
        template (or the tokenizer's lack of one) shows no tool-call format.

    Raises:
        TypeError: ``chat_template`` is neither a str nor named templates.
    """
    for template in _templates(tokenizer_or_template):
        detected = _native.call("tool_call_formats", {"chat_template": template})["detected"]
        if detected is not None:
            return str(detected)
    return None


@dataclass(frozen=True)
class ParsedToolCalls:
    """The tool calls one text holds in a format.

    Attributes:
        calls: every call, in order, malformed ones included (their arguments are what could be read).
        errors: ``{call id: why it is malformed}`` of the malformed calls.
        more: the text holds calls beyond the limit, left unread.
    """

    calls: tuple[ToolCall, ...]
    errors: Mapping[str, str]
    more: bool

    def error_results(self) -> tuple[ToolResult, ...]:
        """A ToolResult (status ERROR) per malformed call: what a tool environment shows the model for them."""
        return tuple(ToolResult.from_error(c.id, c.name, self.errors[c.id]) for c in self.calls if c.id in self.errors)


def parse_tool_calls(texts: str | Sequence[str], format: str = "hermes", *, id_prefix: str = "call_",  # noqa: A002
                     limit: int = 64) -> ParsedToolCalls | list[ParsedToolCalls]:
    """Read the tool calls a model wrote, in one of :data:`TOOL_CALL_FORMATS`, in Go.

    For a tool environment written in Python that takes text actions: a malformed call comes back as a call
    with an entry in ``errors`` (never an exception), to answer as a tool error the model sees. The texts
    cross as columns (``llenvs_parse_tool_calls``, one call into Go for the batch), and so do the calls: their
    ids, names, arguments (one JSON object each, decoded in one ``json.loads``) and errors.

    Args:
        texts: one text (gives one result) or a list of them (gives a list, read in one call into Go).
        format: the format's name (e.g. from :func:`tool_call_format_for`).
        id_prefix: call ids are ``id_prefix`` + the text's position + ``"_"`` + the call's position.
        limit: the most calls read from one text (1 to 4096); ``more`` says when there were others.

    Raises:
        KeyError: an unknown format (the message suggests the nearest name).
        TypeError: a text that is not a str.
    """
    one = isinstance(texts, str)
    items = [texts] if one else list(texts)
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    spec = json.dumps({"format": format, "id_prefix": str(id_prefix), "limit": limit}).encode()
    batch = _columns.call_on_texts("llenvs_parse_tool_calls", spec, items, "parse_tool_calls").take(_parsed_schema())
    listed, more = batch.column(0), batch.column(1).to_pylist()
    fields = listed.values
    ids, errs = fields.field(0).to_pylist(), fields.field(3)
    # All the calls' arguments in one json.loads: the column holds one JSON object per call.
    arguments = json.loads("[" + ",".join(fields.field(2).to_pylist()) + "]")
    calls = list(map(ToolCall, ids, fields.field(1).to_pylist(), arguments))
    ends = listed.offsets.to_pylist()
    errors: list[dict[str, str]] = [{} for _ in items]
    if errs.null_count < len(errs):  # the malformed calls: an error is never empty
        messages = errs.to_pylist()
        for j in itertools.compress(range(len(messages)), messages):
            errors[bisect.bisect_right(ends, j) - 1][ids[j]] = messages[j]
    grouped = [tuple(calls[a:b]) for a, b in zip(ends, ends[1:], strict=False)]
    out = list(map(ParsedToolCalls, grouped, errors, map(bool, more)))
    return out[0] if one else out


def render_tool_call(call: ToolCall, format: str = "hermes") -> str:  # noqa: A002
    """The text a model of the format's family writes for ``call``, as the Go environments write it.

    For a tool environment written in Python that shows the model an example call (``calculator_arithmetic``
    shows one in its first prompt). Rendered in Go; :func:`parse_tool_calls` reads the call back with its
    name and arguments (a format may write a string value holding its own markers escaped, and numbers
    cross as JSON numbers, so an integer beyond 2**53 loses precision). Argument keys are written sorted.

    Raises:
        KeyError: an unknown format (the message suggests the nearest name).
        TypeError: ``call`` is not a ToolCall, or its arguments are not a mapping.
        ValueError: the call's name is not 1 to 64 letters, digits, ``_`` or ``-`` (a name every format
            writes and reads back).
    """
    if not isinstance(call, ToolCall):
        raise TypeError(f"call must be a ToolCall, got {type(call).__name__}")
    if not isinstance(call.arguments, Mapping):
        raise TypeError(f"call.arguments must be a mapping, got {type(call.arguments).__name__}")
    request = {"format": format, "call": {"id": call.id, "name": call.name, "arguments": dict(call.arguments)}}
    return str(_native.call("render_tool_text", request)["text"])


def render_tool_results(results: Sequence[ToolResult], format: str = "hermes") -> str:  # noqa: A002
    """One turn's tool results as the format's family writes its tool messages (``""`` for none).

    What a tool environment puts in the next prompt (``observation.prompt``, the text form), as the Go
    environments do: ``<tool_response>`` blocks for ``hermes`` and ``qwen3_coder``, ``[TOOL_RESULTS]`` for
    ``mistral``, the ``functions.NAME`` commentary message for ``gpt_oss``, the tool-output markers for
    ``deepseek``, the bare content for ``llama3_json`` (docs/multi-turn.md, *Tool results*). Each result's
    content is what a Go tool environment's ``tool`` message holds for it: the output (a dict as JSON) on
    success, else ``"Error: "`` and the error (``"Error"`` without one). llenvs' own span layout of the
    masker writes an error without the prefix; these texts are the prompt's, not the masker's.

    Raises:
        KeyError: an unknown format (the message suggests the nearest name).
        TypeError: an item that is not a ToolResult, or whose status is not a ToolResultStatus.
        ValueError: a dict output holding NaN or an infinity (not JSON).
    """
    items = []
    for k, r in enumerate(results):
        if not isinstance(r, ToolResult):
            raise TypeError(f"results[{k}] must be a ToolResult, got {type(r).__name__}")
        if not isinstance(r.status, ToolResultStatus):
            raise TypeError(f"results[{k}].status must be a ToolResultStatus, got {r.status!r}")
        try:
            output = json.dumps(r.output, allow_nan=False) if isinstance(r.output, dict) else str(r.output)
        except ValueError as e:
            raise ValueError(f"results[{k}].output: {e} (a dict output must be JSON)") from None
        items.append({"call_id": r.call_id, "tool_name": r.tool_name, "status": r.status.name.lower(),
                      "output": output, "error": r.error})
    return str(_native.call("render_tool_text", {"format": format, "results": items})["text"])


@functools.cache
def _parsed_schema() -> Any:
    """The schema of ``llenvs_parse_tool_calls``' batch (``capi/extract_call.go``, ``parsedBatch``)."""
    import pyarrow as pa

    call = pa.struct([("id", pa.utf8()), ("name", pa.utf8()), ("arguments", pa.utf8()), ("error", pa.utf8())])
    return pa.schema([("calls", pa.list_(call)), ("more", pa.uint8())])

