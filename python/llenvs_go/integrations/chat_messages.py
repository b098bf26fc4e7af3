"""An episode as chat messages: the messages the agent loops send to the model and the masker renders, so
that the two always agree."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from llenvs_go.core.state import Action, State
from llenvs_go.core.tools import ToolCall, ToolResult
from llenvs_go.core.trajectory import Transition


def tool_calls_text(calls: Iterable[ToolCall]) -> str:
    """Tool calls as llenvs' masker writes them: one ``json.dumps({"id", "name", "arguments"})`` a line."""
    return "\n".join(json.dumps({"id": c.id, "name": c.name, "arguments": c.arguments}) for c in calls)


def tool_result_text(result: ToolResult) -> str:
    """What the model is shown of a tool result: the output (a dict as JSON), or the error message."""
    if result.is_error and result.error is not None:
        return result.error
    return json.dumps(result.output) if isinstance(result.output, dict) else str(result.output)


def initial_messages(state: State[Any]) -> list[dict[str, Any]]:
    """The first messages of an episode: the observation's messages, or the prompt as one user message."""
    msgs = state.observation.messages
    if msgs:
        return [dict(m) for m in msgs]
    return [{"role": "user", "content": state.observation.prompt}]


def assistant_message(action: Action) -> dict[str, Any]:
    """The assistant message of an action: its text as content, its tool calls in the OpenAI form."""
    msg: dict[str, Any] = {"role": "assistant", "content": action.text or ""}
    if action.tool_calls:
        msg["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                             for c in action.tool_calls]
    return msg


def environment_messages(transition: Transition[Any]) -> list[dict[str, Any]]:
    """What the environment said after a step, each thing once.

    An environment that keeps the conversation (its observation's messages hold the model's turn) said
    the messages after the model's last turn there, in its own roles: a tool result is one ``tool``
    message, never repeated as user text. Otherwise: one tool message per tool result, then the next
    prompt as a user message when it changed (or when there was no tool result and it is not empty).
    """
    nxt = transition.next_state.observation
    own = _after_last_assistant(nxt.messages)
    if own is not None:
        return own
    msgs: list[dict[str, Any]] = [
        {"role": "tool", "tool_call_id": r.call_id, "name": r.tool_name, "content": tool_result_text(r)}
        for r in nxt.tool_results]
    if nxt.prompt != transition.state.observation.prompt or (not msgs and nxt.prompt):
        msgs.append({"role": "user", "content": nxt.prompt})
    return msgs


def _after_last_assistant(messages: Any) -> list[dict[str, Any]] | None:
    """Copies of the messages after the last assistant message; None when there is none."""
    for k in range(len(messages) - 1, -1, -1):
        if messages[k].get("role") == "assistant":
            return [dict(m) for m in messages[k + 1:]]
    return None


def _tools(state: State[Any]) -> list[dict[str, Any]] | None:
    tools = state.observation.available_tools
    return [t.to_openai_schema() for t in tools] if tools else None
