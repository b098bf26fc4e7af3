"""Tool-call formats: calculator_arithmetic episodes with text calls in each model family's format, and
the detection of a format from a chat template."""

from __future__ import annotations

from typing import Any

import pytest

from llenvs_go import _native
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action
from llenvs_go.core.tool_call_formats import TOOL_CALL_FORMATS, tool_call_format_for
from llenvs_go.core.tools import ToolResultStatus

# A call of the calculator on "6 * 7" as each family writes it, and the example the prompt shows,
# written from each format's definition.
CALLS = {
    "hermes": ('Let me compute. <tool_call>{"name": "calculator", "arguments": {"expression": "6 * 7"}}</tool_call>',
               '<tool_call>\n{"name": "calculator", "arguments": {"expression": "12 * (3 + 4)"}}\n</tool_call>'),
    "qwen3_coder": ("Let me compute.\n<tool_call>\n<function=calculator>\n<parameter=expression>\n6 * 7\n"
                    "</parameter>\n</function>\n</tool_call>",
                    "<tool_call>\n<function=calculator>\n<parameter=expression>\n12 * (3 + 4)\n</parameter>\n"
                    "</function>\n</tool_call>"),
    "llama3_json": ('<|python_tag|>{"name": "calculator", "parameters": {"expression": "6 * 7"}}',
                    '{"name": "calculator", "parameters": {"expression": "12 * (3 + 4)"}}'),
    "mistral": ('[TOOL_CALLS]calculator[ARGS]{"expression": "6 * 7"}',
                '[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "12 * (3 + 4)"}}]'),
    "gpt_oss": ('<|start|>assistant<|channel|>commentary to=functions.calculator <|constrain|>json'
                '<|message|>{"expression": "6 * 7"}<|call|>',
                '<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>'
                '{"expression":"12 * (3 + 4)"}<|call|>'),
    "deepseek": ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>calculator<｜tool▁sep｜>{"expression": "6 * 7"}'
                 "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
                 "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n"
                 '{"expression": "12 * (3 + 4)"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'),
}


def calculator(**kw: Any) -> Any:
    return environment_registry.get("calculator_arithmetic", adapter="native", size=10, seed=1, max_turns=5, **kw)


def test_formats_are_go_s():
    assert tuple(_native.call("tool_call_formats")["formats"]) == TOOL_CALL_FORMATS
    assert sorted(CALLS) == list(TOOL_CALL_FORMATS)


@pytest.mark.parametrize("fmt", TOOL_CALL_FORMATS)
def test_calculator_episode_in_each_format(fmt):
    text, example = CALLS[fmt]
    env = calculator(tool_call_format=fmt)
    state, _ = env.reset(options={"task_index": 2})
    assert f"To call it, write\n{example}\nand its result comes back" in state.observation.prompt
    r = env.step(state, Action.from_text(text))
    (res,) = r.next_state.observation.tool_results
    assert res.status == ToolResultStatus.SUCCESS and res.output == "42" and res.call_id == "call_1_0"
    assert r.next_state.observation.prompt == "<tool_response>\n42\n</tool_response>"
    assert not r.terminated and r.total == 0.0
    assert r.next_state.observation.messages[-2]["tool_calls"] == [
        {"id": "call_1_0", "name": "calculator", "arguments": {"expression": "6 * 7"}}]
    r = env.step(r.next_state, Action.from_text(f"<answer>{state.hidden.expected_answer}</answer>"))
    assert r.terminated and r.total == 1.0


@pytest.mark.parametrize("fmt", TOOL_CALL_FORMATS)
def test_malformed_call_is_a_tool_error(fmt):
    text, _ = CALLS[fmt]
    cut = text[: text.index("6 * 7") + 3]  # truncated inside the arguments
    env = calculator(tool_call_format=fmt)
    state, _ = env.reset(options={"task_index": 0})
    r = env.step(state, Action.from_text(cut))
    (res,) = r.next_state.observation.tool_results
    assert res.status == ToolResultStatus.ERROR and res.error.startswith("malformed tool call")
    assert f"Error: {res.error}" in r.next_state.observation.prompt and not r.terminated


def test_other_format_is_not_a_call_and_config_is_checked():
    env = calculator()  # hermes by default: a Mistral call is text without a call
    state, _ = env.reset(options={"task_index": 0})
    r = env.step(state, Action.from_text(CALLS["mistral"][0]))
    assert not r.next_state.observation.tool_results
    assert r.next_state.observation.prompt.startswith("No answer found")
    with pytest.raises(KeyError, match="tool_call_format 'qwen3coder' is not a known tool-call format; "
                                       "did you mean 'qwen3_coder'"):
        calculator(tool_call_format="qwen3coder")


class _Tokenizer:
    def __init__(self, chat_template: Any) -> None:
        self.chat_template = chat_template


@pytest.mark.parametrize("template,want", [
    ("{{- '<tool_call>\\n' + tool_call | tojson + '\\n</tool_call>' }}", "hermes"),
    ("{{- '<tool_call>\\n<function=' + tool_call.name + '>\\n' }}", "qwen3_coder"),
    ("{%- if message.role == 'ipython' %}{{- '<|python_tag|>' }}{%- endif %}", "llama3_json"),
    ("{{- '[TOOL_CALLS][' }}{{- tool_calls | tojson }}", "mistral"),
    ("{{- '<|start|>assistant to=functions.' + name + '<|channel|>commentary json<|message|>' }}", "gpt_oss"),
    ("{{'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + tool['type'] + '<｜tool▁sep｜>'}}", "deepseek"),
    ("{% for m in messages %}{{ m['content'] }}{% endfor %}", None),
    ("", None),
])
def test_tool_call_format_for(template, want):
    assert tool_call_format_for(template) == want
    assert tool_call_format_for(_Tokenizer(template)) == want


def test_tool_call_format_for_tokenizer_shapes():
    assert tool_call_format_for(_Tokenizer(None)) is None
    assert tool_call_format_for(object()) is None
    named = {"default": "{{ m }}", "tool_use": "[TOOL_CALLS]"}
    assert tool_call_format_for(_Tokenizer(named)) == "mistral"
    assert tool_call_format_for(_Tokenizer([{"name": "default", "template": "<|python_tag|>"}])) == "llama3_json"
    with pytest.raises(TypeError, match="chat_template must be"):
        tool_call_format_for(_Tokenizer(3))
    with pytest.raises(TypeError, match="'template'"):
        tool_call_format_for(_Tokenizer([{"name": "x"}]))


def test_detection_request_is_checked():
    assert _native.call("tool_call_formats", {"chat_template": "[TOOL_CALLS]"})["detected"] == "mistral"
    assert _native.call("tool_call_formats", {"chat_template": None})["detected"] is None
    with pytest.raises(ValueError, match='"chat_template" must be a string'):
        _native.call("tool_call_formats", {"chat_template": 3})


def test_parse_tool_calls_for_a_python_tool_environment():
    from llenvs_go.core.tool_call_formats import parse_tool_calls
    from llenvs_go.core.tools import ToolResultStatus

    texts = ['I will call it.\n<tool_call>\n{"name": "lookup", "arguments": {"key": "a", "n": 2}}\n</tool_call>',
             "no call", '<tool_call>{"name": "lookup", "arguments": [1]}</tool_call>', "\ud800 <tool_call>"]
    got = parse_tool_calls(texts, "hermes")
    assert [len(p.calls) for p in got] == [1, 0, 1, 1]
    first = got[0].calls[0]
    assert (first.id, first.name, dict(first.arguments)) == ("call_0_0", "lookup", {"key": "a", "n": 2})
    assert got[0].errors == {} and got[1].errors == {} and not got[0].more
    assert list(got[2].errors) == ["call_2_0"] and "must be a JSON object" in got[2].errors["call_2_0"]
    (err,) = got[2].error_results()
    assert err.status is ToolResultStatus.ERROR and err.call_id == "call_2_0"
    assert got[3].errors["call_3_0"].startswith("malformed tool call")  # unclosed, after a lone surrogate
    one = parse_tool_calls('[TOOL_CALLS][{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]',
                           "mistral", id_prefix="t", limit=1)
    assert [c.name for c in one.calls] == ["f"] and one.more and one.calls[0].id == "t0_0"
    with pytest.raises(KeyError, match="qwen3_coder"):
        parse_tool_calls("x", "qwen3coder")
    with pytest.raises(TypeError, match=r"texts\[1\] must be a str"):
        parse_tool_calls(["a", 3], "hermes")
    with pytest.raises(ValueError, match="limit must be from 1"):
        parse_tool_calls("x", "hermes", limit=0)
