"""core/tools.py: tool calls, results and definitions (llenvs-spec §1.5)."""

from __future__ import annotations

import dataclasses

import pytest

from llenvs_go.core.tools import (
    ToolCall,
    ToolDefinition,
    ToolParameter,
    ToolParameterType,
    ToolResult,
    ToolResultStatus,
    oai_tools_to_definitions,
)


def test_tool_call_defaults_and_frozen():
    a, b = ToolCall(id="1", name="f"), ToolCall(id="1", name="f")
    assert a.arguments == {} and a.arguments is not b.arguments and a == b
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "g"  # type: ignore[misc]


def test_status_members_are_distinct():
    names = ["SUCCESS", "ERROR", "INVALID_TOOL", "INVALID_ARGUMENTS"]
    assert [m.name for m in ToolResultStatus] == names
    assert len({m.value for m in ToolResultStatus}) == 4


def test_success_builder():
    r = ToolResult.success("c1", "search", {"hits": 3})
    assert r == ToolResult(call_id="c1", tool_name="search", status=ToolResultStatus.SUCCESS, output={"hits": 3})
    assert r.error is None and r.is_success and not r.is_error


def test_from_error_builder_keeps_output_empty():
    r = ToolResult.from_error("c1", "search", "boom")
    assert r.status is ToolResultStatus.ERROR and r.output == "" and r.error == "boom"
    assert r.is_error and not r.is_success
    bad = ToolResult.from_error("c2", "nope", "Unknown tool: nope", status=ToolResultStatus.INVALID_TOOL)
    assert bad.status is ToolResultStatus.INVALID_TOOL and bad.is_error


def test_result_defaults_and_frozen():
    r = ToolResult(call_id="c", tool_name="t", status=ToolResultStatus.INVALID_ARGUMENTS)
    assert r.output == "" and r.error is None and r.is_error
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.output = "x"  # type: ignore[misc]


def test_parameter_type_accepts_string_and_schema():
    p = ToolParameter(name="unit", type="string", description="the unit", enum=["m", "km"])
    assert p.type is ToolParameterType.STRING and p.required and p.enum == ("m", "km")
    assert p.to_json_schema() == {"type": "string", "description": "the unit", "enum": ["m", "km"]}
    q = ToolParameter(name="n", type=ToolParameterType.INTEGER, description="count", required=False)
    assert q.to_json_schema() == {"type": "integer", "description": "count"}
    with pytest.raises(ValueError):
        ToolParameter(name="x", type="str", description="")


WEATHER = ToolDefinition(
    name="weather",
    description="Weather of a city",
    parameters=(
        ToolParameter(name="city", type="string", description="City"),
        ToolParameter(name="days", type="integer", description="Days ahead", required=False),
    ),
)
WEATHER_PARAMS = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City"},
        "days": {"type": "integer", "description": "Days ahead"},
    },
    "required": ["city"],
}


def test_definition_defaults():
    d = ToolDefinition(name="n", description="d")
    assert d.parameters == () and d.is_terminal is False and d.raw_schema is None
    assert d.to_openai_schema()["function"]["parameters"] == {"type": "object", "properties": {}, "required": []}


def test_openai_schema_from_parameters():
    assert WEATHER.to_openai_schema() == {
        "type": "function",
        "function": {"name": "weather", "description": "Weather of a city", "parameters": WEATHER_PARAMS},
    }


def test_anthropic_schema_from_parameters():
    assert WEATHER.to_anthropic_schema() == {
        "name": "weather", "description": "Weather of a city", "input_schema": WEATHER_PARAMS,
    }


NESTED = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}},
    "required": ["items"],
}


def test_raw_schema_is_the_parameters_schema():
    d = ToolDefinition(name="order", description="Place an order", parameters=WEATHER.parameters, raw_schema=NESTED)
    assert d.to_openai_schema() == {
        "type": "function", "function": {"name": "order", "description": "Place an order", "parameters": NESTED},
    }
    assert d.to_anthropic_schema() == {"name": "order", "description": "Place an order", "input_schema": NESTED}


@pytest.mark.parametrize(
    "raw",
    [
        {"name": "order2", "description": "From raw", "parameters": NESTED},
        {"type": "function", "function": {"name": "order2", "description": "From raw", "parameters": NESTED}},
    ],
)
def test_raw_schema_as_function_or_openai_tool(raw):
    d = ToolDefinition(name="order", description="Place an order", raw_schema=raw)
    assert d.to_openai_schema() == {
        "type": "function", "function": {"name": "order2", "description": "From raw", "parameters": NESTED},
    }
    assert d.to_anthropic_schema() == {"name": "order2", "description": "From raw", "input_schema": NESTED}


def test_definition_is_frozen_and_terminal_flag():
    d = ToolDefinition(name="submit", description="Submit", is_terminal=True)
    assert d.is_terminal
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.name = "x"  # type: ignore[misc]


def test_simple_tool_executor_runs_calls_and_reports_failures_as_results():
    from llenvs_go.core.tools import SimpleToolExecutor, ToolExecutor

    def add(a: int, b: int) -> str:
        return str(a + b)

    def broken() -> str:
        raise ValueError("no luck")

    ex = SimpleToolExecutor({"add": add, "broken": broken})
    assert isinstance(ex, ToolExecutor)
    ok, unknown, bad_args, failed = ex.execute_batch((
        ToolCall(id="1", name="add", arguments={"a": 2, "b": 3}), ToolCall(id="2", name="nope"),
        ToolCall(id="3", name="add", arguments={"x": 1}), ToolCall(id="4", name="broken")))
    assert (ok.status, ok.output, ok.call_id) == (ToolResultStatus.SUCCESS, "5", "1")
    assert (unknown.status, unknown.error) == (ToolResultStatus.INVALID_TOOL, "Unknown tool: nope")
    assert bad_args.status is ToolResultStatus.INVALID_ARGUMENTS and "add" in bad_args.error
    assert failed.status is ToolResultStatus.ERROR and "no luck" in failed.error and failed.output == ""


def _fetch(url: str, timeout: int = 30, retries: int | None = None, headers: dict[str, str] | None = None,
           verbose: bool = False, scale: float = 1.0, tags: list[str] | None = None) -> str:
    """Fetch a URL.

    Args:
        url: The URL to fetch,
            with its scheme.
        timeout (int): Request timeout in seconds.
        retries: How many times to retry.
        headers: Extra request headers.
        verbose: Whether to log.
        scale: A factor.
        tags: Labels for the request.

    Returns:
        The response body.
    """
    return url


def test_from_callable_reads_signature_and_docstring():
    tool = ToolDefinition.from_callable(_fetch, is_terminal=True)
    assert (tool.name, tool.description, tool.is_terminal) == ("_fetch", "Fetch a URL.", True)
    by_name = {p.name: p for p in tool.parameters}
    assert [p.name for p in tool.parameters] == ["url", "timeout", "retries", "headers", "verbose", "scale", "tags"]
    assert by_name["url"].description == "The URL to fetch, with its scheme."
    assert by_name["timeout"].description == "Request timeout in seconds."
    assert [p.required for p in tool.parameters] == [True] + [False] * 6


def test_from_callable_types_agree_with_transformers_json_schema():
    # transformers renders a tool's schema from the same annotations for chat templates.
    get_json_schema = pytest.importorskip("transformers.utils").get_json_schema
    theirs = get_json_schema(_fetch)["function"]["parameters"]["properties"]
    ours = ToolDefinition.from_callable(_fetch).parameters_schema()["properties"]
    assert {k: v["type"] for k, v in ours.items()} == {k: v["type"] for k, v in theirs.items()}
    assert {k: v["description"] for k, v in ours.items()} == {k: v["description"] for k, v in theirs.items()}


def test_from_callable_errors_and_overrides():
    with pytest.raises(ValueError, match="pass name="):
        ToolDefinition.from_callable(lambda x: x)
    with pytest.raises(TypeError, match="needs a callable"):
        ToolDefinition.from_callable("not a function")  # type: ignore[arg-type]
    tool = ToolDefinition.from_callable(lambda x: x, name="identity", description="Return input")
    assert (tool.name, tool.description, [p.type for p in tool.parameters]) == (
        "identity", "Return input", [ToolParameterType.STRING])


def test_oai_tools_round_trip_and_flat_parameters():
    tool = {"type": "function", "function": {
        "name": "order", "description": "Place an order",
        "parameters": {"type": "object", "required": ["items"], "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}},
            "size": {"type": "string", "enum": ["s", "m"], "description": "Size"},
            "note": {"type": "null"}}}}}
    (d,) = oai_tools_to_definitions([tool])
    assert d.to_openai_schema() == tool
    assert d.to_anthropic_schema()["input_schema"] == tool["function"]["parameters"]
    assert [(p.name, p.type, p.required) for p in d.parameters] == [
        ("items", ToolParameterType.ARRAY, True), ("size", ToolParameterType.STRING, False),
        ("note", ToolParameterType.STRING, False)]
    assert d.parameters[1].enum == ("s", "m")
    tool["function"]["name"] = "changed"  # the definition keeps its own copy
    assert d.to_openai_schema()["function"]["name"] == "order"
    (bare,) = oai_tools_to_definitions([{"name": "f", "parameters": {"type": "object", "properties": {}}}])
    assert bare.to_openai_schema()["function"]["name"] == "f"
    with pytest.raises(ValueError, match="no function name"):
        oai_tools_to_definitions([{"type": "function", "function": {}}])
    with pytest.raises(TypeError, match=r"tools\[0\] must be a mapping"):
        oai_tools_to_definitions(["x"])  # type: ignore[list-item]
