"""Reading tool calls from model texts, per format: llenvs-go's Go parsers against a Python design, in one run.

    python scripts/bench_tool_calls.py                 # 20,000 texts per format
    python scripts/bench_tool_calls.py --texts 5000 --repeats 7 --clock cpu

Each format gets the same texts on both sides: a sentence of prose, then one or two calls of a
calculator-like tool written as that family writes them (every tenth text has no call, every
twentieth a malformed one). The Python design is what a Python tool environment does today: a compiled
regular expression per format and ``json.loads`` per call, building llenvs' ``ToolCall`` objects.
llenvs-go's side is ``parse_tool_calls(texts, format)``: one call into Go for the batch, results read
into the same ``ToolCall`` objects. The two are checked to find the same calls before timing.

Prints, per format, the median seconds of each side over the repeats, the ratio of the medians, and its
range (slowest Python run over fastest llenvs-go run, to fastest over slowest).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

from llenvs_go.core.tool_call_formats import parse_tool_calls
from llenvs_go.core.tools import ToolCall

clock = time.perf_counter


def render(fmt: str, name: str, args: dict[str, Any]) -> str:
    """One call as the family writes it."""
    a = json.dumps(args)
    if fmt == "hermes":
        return f'<tool_call>\n{{"name": "{name}", "arguments": {a}}}\n</tool_call>'
    if fmt == "qwen3_coder":
        params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
        return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>"
    if fmt == "llama3_json":
        return f'<|python_tag|>{{"name": "{name}", "parameters": {a}}}'
    if fmt == "mistral":
        return f'[TOOL_CALLS][{{"name": "{name}", "arguments": {a}}}]'
    if fmt == "gpt_oss":
        return f"<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>{a}<|call|>"
    if fmt == "deepseek":
        return (f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}\n```json\n{a}\n```"
                "<｜tool▁call▁end｜><｜tool▁calls▁end｜>")
    raise ValueError(fmt)


def render_results(fmt: str, results: list[tuple[str, str, str]]) -> str:
    """One turn's tool results, ``(call id, tool name, content)`` each, in the family's result syntax
    (docs/multi-turn.md, "Tool results")."""
    if fmt in ("hermes", "qwen3_coder"):
        return "\n".join(f"<tool_response>\n{c}\n</tool_response>" for _, _, c in results)
    if fmt == "llama3_json":
        return "\n".join(c for _, _, c in results)
    if fmt == "mistral":
        out = []
        for i, _, c in results:
            try:
                json.loads(c)
                body = c
            except ValueError:
                body = json.dumps(c, ensure_ascii=False)
            out.append(f'[TOOL_RESULTS]{{"content": {body}, "call_id": {json.dumps(i)}}}[/TOOL_RESULTS]')
        return "".join(out)
    if fmt == "gpt_oss":
        return "".join(f"<|start|>functions.{n} to=assistant<|channel|>commentary<|message|>{c}<|end|>"
                       for _, n, c in results)
    if fmt == "deepseek":
        outputs = "\n".join(f"<｜tool▁output▁begin｜>{c}<｜tool▁output▁end｜>" for _, _, c in results)
        return f"<｜tool▁outputs▁begin｜>{outputs}<｜tool▁outputs▁end｜>"
    raise ValueError(fmt)


def corpus(fmt: str, n: int) -> list[str]:
    texts = []
    for k in range(n):
        prose = f"Let me work this out step by step; first the product of {k} and {k % 13}."
        if k % 10 == 0:
            texts.append(prose + " The answer is <answer>12</answer>.")
            continue
        calls = [render(fmt, "calculator", {"expression": f"{k} * {k % 13} + 7"})]
        if k % 3 == 0 and fmt not in ("llama3_json", "gpt_oss"):  # two calls in one message
            calls.append(render(fmt, "calculator", {"expression": f"({k} - 1) / 2"}))
        text = prose + "\n" + "\n".join(calls)
        if k % 20 == 1:  # a malformed call: its JSON cut short
            text = text.replace('"}', '"', 1) if "}" in text else text[:-3]
        texts.append(text)
    return texts


# ---------------------------------------------------------------------------
# The Python design: a regular expression per format, json.loads per call.
# ---------------------------------------------------------------------------

_HERMES = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
_QWEN3_CODER = re.compile(r"<function=([^>\n]+)>(.*?)</function>", re.DOTALL)
_QWEN3_PARAM = re.compile(r"<parameter=([^>\n]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
_LLAMA3 = re.compile(r"<\|python_tag\|>(.*?)(?:<\|eom_id\|>|<\|eot_id\|>|$)", re.DOTALL)
_DECODER = json.JSONDecoder()
_GPT_OSS = re.compile(r"to=functions\.([\w.-]+).*?<\|message\|>(.*?)(?:<\|call\|>|$)", re.DOTALL)
_DEEPSEEK = re.compile(r"<｜tool▁call▁begin｜>function<｜tool▁sep｜>([^\n]+)\n```json\n(.*?)\n```<｜tool▁call▁end｜>",
                       re.DOTALL)


def _call(k: int, j: int, name: Any, args: Any) -> tuple[ToolCall, str | None]:
    cid = f"call_{k}_{j}"
    if not isinstance(name, str) or not isinstance(args, dict):
        return ToolCall(id=cid, name=name if isinstance(name, str) else "", arguments={}), "malformed tool call"
    return ToolCall(id=cid, name=name, arguments=args), None


def _loads(s: str) -> Any:
    try:
        return json.loads(s)
    except ValueError:
        return None


def python_parse(fmt: str, k: int, text: str) -> list[tuple[ToolCall, str | None]]:
    """The calls of one text, as a Python tool environment reads them."""
    out: list[tuple[ToolCall, str | None]] = []
    if fmt == "hermes":
        for j, body in enumerate(_HERMES.findall(text)):
            o = _loads(body)
            o = o if isinstance(o, dict) else {}
            out.append(_call(k, j, o.get("name"), o.get("arguments")))
    elif fmt == "qwen3_coder":
        for j, (name, body) in enumerate(_QWEN3_CODER.findall(text)):
            args = {}
            for p, v in _QWEN3_PARAM.findall(body):
                parsed = _loads(v)
                args[p] = v if parsed is None else parsed
            out.append(_call(k, j, name, args))
    elif fmt == "llama3_json":
        for j, body in enumerate(_LLAMA3.findall(text)):
            o = _loads(body)
            o = o if isinstance(o, dict) else {}
            out.append(_call(k, j, o.get("name"), o.get("parameters", o.get("arguments"))))
    elif fmt == "mistral":
        for body in text.split("[TOOL_CALLS]")[1:]:
            try:
                arr, _ = _DECODER.raw_decode(body.lstrip())
            except ValueError:
                arr = None
            for o in arr if isinstance(arr, list) else [None]:
                o = o if isinstance(o, dict) else {}
                out.append(_call(k, len(out), o.get("name"), o.get("arguments")))
    elif fmt == "gpt_oss":
        for j, (name, body) in enumerate(_GPT_OSS.findall(text)):
            out.append(_call(k, j, name, _loads(body)))
    elif fmt == "deepseek":
        for j, (name, body) in enumerate(_DEEPSEEK.findall(text)):
            out.append(_call(k, j, name, _loads(body)))
    return out


def run_python(fmt: str, texts: list[str]) -> list[list[tuple[ToolCall, str | None]]]:
    return [python_parse(fmt, k, t) for k, t in enumerate(texts)]


def run_go(fmt: str, texts: list[str]) -> list[list[tuple[ToolCall, str | None]]]:
    return [[(c, p.errors.get(c.id)) for c in p.calls] for p in parse_tool_calls(texts, fmt)]


def well_formed(results: list[list[tuple[ToolCall, str | None]]]) -> list[list[tuple[str, dict[str, Any]]]]:
    """What both sides must agree on: the well-formed calls of each text (malformed ones are reported by
    each in its own words)."""
    return [[(c.name, dict(c.arguments)) for c, err in r if err is None] for r in results]


def timed(fn: Callable[[str, list[str]], Any], fmt: str, texts: list[str], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn(fmt, texts)
        times.append(clock() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    global clock
    if args.clock == "cpu":
        clock = time.process_time
    formats = ("hermes", "qwen3_coder", "llama3_json", "mistral", "gpt_oss", "deepseek")
    print(f"{args.texts} texts per format, median of {args.repeats} runs, {args.clock} clock")
    print(f"{'format':14} {'Python design s':>16} {'llenvs-go s':>12} {'x':>6}   x range")
    for fmt in formats:
        texts = corpus(fmt, args.texts)
        py, go = run_python(fmt, texts), run_go(fmt, texts)
        agree = [k for k in range(len(texts)) if k % 20 != 1]  # a cut-short call is each side's own judgement
        wp, wg = well_formed(py), well_formed(go)
        assert [wp[k] for k in agree] == [wg[k] for k in agree], f"{fmt}: the two sides read different calls"
        assert sum(len(r) for r in go) > args.texts // 2, f"{fmt}: too few calls read"
        tp, tg = timed(run_python, fmt, texts, args.repeats), timed(run_go, fmt, texts, args.repeats)
        mp, mg = statistics.median(tp), statistics.median(tg)
        print(f"{fmt:14} {mp:>16.4f} {mg:>12.4f} {mp / mg:>6.1f}   {min(tp) / max(tg):.1f}-{max(tp) / min(tg):.1f}")


if __name__ == "__main__":
    main()
