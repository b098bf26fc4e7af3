"""The tool-call formats of model families, and which one a chat template implies.

A format is how a model family writes a tool call in its text (``hermes``: ``<tool_call>{json}</tool_call>``,
``qwen3_coder``, ``llama3_json``, ``mistral``, ``gpt_oss``, ``deepseek``; see docs/multi-turn.md). Tool
environments such as ``calculator_arithmetic`` read text calls in the format named by their
``tool_call_format`` setting; :func:`tool_call_format_for` picks it from a tokenizer's chat template. Both
the parsing and the detection run in Go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llenvs_go import _native

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
