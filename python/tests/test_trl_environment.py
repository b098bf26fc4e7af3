"""make_environment_factory: an llenvs environment as the object TRL's GRPOTrainer(environment_factory=...)
makes per rollout, driven the way TRL 1.16 drives it (its tool discovery, transformers' schema reader, the
reward call with environments=). The real trainer runs it in scripts/frameworks_check.py."""

from __future__ import annotations

import inspect
import re

import pytest

from llenvs_go.core.registry import environment_registry
from llenvs_go.core.tools import ToolDefinition
from llenvs_go.integrations import DatasetProvider
from llenvs_go.integrations.trl import make_trl_dataset
from llenvs_go.integrations.trl_environment import make_environment_factory

transformers = pytest.importorskip("transformers")


def trl_tools(instance):
    """The methods TRL exposes as tools: public functions of the class other than reset and get_reward."""
    return {n: getattr(instance, n) for n, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction)
            if n not in ("reset", "get_reward") and not n.startswith("_")}


def calculator():
    return environment_registry.get("calculator_arithmetic", adapter="native", seed=5, size=8, max_turns=4)


def test_tools_are_methods_with_the_environments_schema():
    env = calculator()
    instance = make_environment_factory(env)()
    tools = trl_tools(instance)
    assert list(tools) == ["calculator"]
    schema = transformers.utils.get_json_schema(tools["calculator"])
    want = env.available_tools[0].to_openai_schema()["function"]
    assert schema["function"]["name"] == "calculator"
    assert schema["function"]["parameters"]["required"] == ["expression"]
    assert schema["function"]["parameters"]["properties"]["expression"]["type"] == "string"
    assert schema["function"]["description"] == want["description"]
    assert not hasattr(type(instance), "get_reward")  # the reward needs the completion: reward_func has it


@pytest.mark.parametrize("right", [True, False])
def test_a_rollout_as_trl_drives_it(right):
    env = calculator()
    factory = make_environment_factory(env)
    item = DatasetProvider(env)[3]
    a, b = factory(), factory()
    row = {"prompt": list(item.messages), "task_index": 3}
    assert a.reset(**row) is None and b.reset(**row) is None
    assert trl_tools(a)["calculator"](expression="2*21") == "42"
    assert "error" in trl_tools(a)["calculator"](expression="1/").lower()  # a bad call is the model's tool error
    answer = item.ground_truth if right else "-999999"
    completions = [[{"role": "assistant", "content": "", "tool_calls": []}, {"role": "tool", "content": "42"},
                    {"role": "assistant", "content": f"<answer>{answer}</answer>"}],
                   [{"role": "assistant", "content": "no idea"}]]
    rewards = factory.reward_func(completions=completions, environments=[a, b], prompts=[row["prompt"]] * 2)
    assert rewards == [1.0 if right else 0.0, 0.0]
    assert a.done and a.steps == 3 and b.done is False  # b had no answer: told to answer, not ended
    assert factory.reward_func(completions=completions, environments=[a, b]) == rewards  # scored once


def test_feedback_environments_get_a_submit_tool():
    env = environment_registry.get("leg_counting", size=6, seed=2, iterative={"max_turns": 3})
    factory = make_environment_factory(env)
    e = factory()
    assert list(trl_tools(e)) == ["submit"]
    assert transformers.utils.get_json_schema(e.submit)["function"]["parameters"]["required"] == ["response"]
    e.reset(prompt=[], task_index=4)
    assert e.submit(response="<answer>-1</answer>") == "Incorrect, 2 attempts left."
    truth = e.state.hidden.expected_answer
    assert factory.reward_func(completions=[f"<answer>{truth}</answer>"], environments=[e]) == [1.0]


def test_bad_use_is_a_clear_error():
    env = calculator()
    factory = make_environment_factory(env)
    e = factory()
    with pytest.raises(ValueError, match="no 'task_index' column"):
        e.reset(prompt="x")
    with pytest.raises(RuntimeError, match="reset"):
        factory.reward_func(completions=["x"], environments=[e])
    with pytest.raises(TypeError, match="environments="):
        factory.reward_func(completions=["x"])
    with pytest.raises(ValueError, match="1 completions but 2 environments"):
        factory.reward_func(completions=["x"], environments=[e, e])

    class Reserved:
        spec = env.spec
        available_tools = (ToolDefinition(name="reset", description="d"),)

        def reset(self, **_):
            raise AssertionError

        def step(self, *_):
            raise AssertionError

    with pytest.raises(ValueError, match="'reset' cannot be a method"):
        make_environment_factory(Reserved())


@pytest.fixture(scope="module")
def qwen3_for_trl():
    """The Qwen3 tokenizer with TRL's copy of Qwen3's template and the response parser TRL sets for it."""
    chat_template_utils = pytest.importorskip("trl.chat_template_utils")
    from mask_helpers import qwen3_tokenizer

    tok = qwen3_tokenizer()
    tok.chat_template = chat_template_utils.qwen3_chat_template  # TRL knows response parsers by template text
    return chat_template_utils.add_response_schema(tok)


@pytest.mark.parametrize("right", [True, False])
def test_a_tool_call_through_trls_parser(qwen3_for_trl, right):
    """One rollout as GRPOTrainer's tool loop runs it: the prompt rendered with the methods as tools, the model's
    call read by TRL's parse_response, the method called with the parsed arguments, the tool message in the next
    turn's prompt, and the reward of the final answer. (The real trainer: scripts/frameworks_check.py.)"""
    from trl.chat_template_utils import parse_response

    tok = qwen3_for_trl
    env = calculator()
    factory = make_environment_factory(env)
    row = make_trl_dataset(env, num_tasks=4)[2]
    instance = factory()
    assert instance.reset(**row) is None
    tools = list(trl_tools(instance).values())
    prompt_ids = tok.apply_chat_template(conversation=[row["prompt"]], tools=tools, add_generation_prompt=True,
                                         tokenize=True, return_dict=True)["input_ids"][0]
    assert '"name": "calculator"' in tok.decode(prompt_ids)  # the schema TRL renders from the method
    expression = re.search(r"Calculate (.+?)\.\n", row["prompt"][-1]["content"]).group(1)
    call_text = f'<tool_call>\n{{"name": "calculator", "arguments": {{"expression": "{expression}"}}}}\n</tool_call>'
    ids = tok.encode(call_text + "<|im_end|>", add_special_tokens=False)
    turn = parse_response(tok, ids, prefix=prompt_ids, tools=tools)
    calls = turn["tool_calls"]
    assert calls == [{"type": "function", "function": {"name": "calculator", "arguments": {"expression": expression}}}]
    by_name = {t.__name__: t for t in tools}
    function = calls[0]["function"]
    result = by_name[function["name"]](**function["arguments"])  # TRL's call
    assert result == row["ground_truth"] and instance.steps == 1 and not instance.done
    tool_message = {"role": "tool", "name": "calculator", "content": str(result)}
    conversation = [*row["prompt"], turn, tool_message]
    next_prompt = tok.apply_chat_template(conversation, tools=tools, add_generation_prompt=True, tokenize=False)
    assert next_prompt.endswith(f"<tool_response>\n{result}\n</tool_response><|im_end|>\n<|im_start|>assistant\n")
    answer = result if right else str(int(result) + 1)  # (a longer number holding it would get partial credit)
    final = parse_response(tok, tok.encode(f"<answer>{answer}</answer><|im_end|>", add_special_tokens=False),
                           prefix=tok.encode(next_prompt, add_special_tokens=False), tools=tools)
    assert final == {"role": "assistant", "content": f"<answer>{answer}</answer>"}
    rewards = factory.reward_func(completions=[[turn, tool_message, final]], environments=[instance])
    assert rewards == [1.0 if right else 0.0]
    assert instance.done and instance.steps == 2


def test_out_of_turns_is_said_and_not_scored():
    """A call after the episode ran out of turns is not run, and the model is not told to answer: its answer
    is not scored (each call is one of the episode's turns; TRL does not say which calls share a turn)."""
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=5, size=8, max_turns=2)
    factory = make_environment_factory(env)
    e = factory()
    e.reset(task_index=1)
    assert e.calculator(expression="1+1") == "2" and not e.done
    last = e.calculator(expression="2+2")
    assert e.done  # the second turn was the last: its result says so, not waiting for an answer
    assert last.startswith("4\n\n") and "episode is over" in last and "last turn" in last
    over = e.calculator(expression="3+3")
    assert "over" in over and "not run" in over and "answer" not in over and e.steps == 2
    truth = e.state.hidden.expected_answer
    assert factory.reward_func(completions=[f"<answer>{truth}</answer>"], environments=[e]) == [0.0]
    assert e.steps == 2
