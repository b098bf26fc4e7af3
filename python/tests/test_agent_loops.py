"""LLEnvsAgentLoop and make_trl_rollout_fn (llenvs' tests/test_multi_turn_integration.py, plus the
fixed behaviour: full conversation, sync or async generate_fn, carried ids, truncation, concurrency)."""

from __future__ import annotations

import asyncio
import random

import pytest
from mask_helpers import MockTokenizer, MultiTurnMockEnv

from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop, action_from_output, environment_from
from llenvs_go.integrations.trl_rollout import environment_reward, make_grpo_rollout_func, make_trl_rollout_fn

KEYS = {"prompt_ids", "response_ids", "response_mask", "rewards", "num_turns", "truncated", "token_rewards"}


def counting_generate():
    calls: list[list[dict]] = []

    async def generate_fn(messages):
        calls.append(messages)
        return f"answer{len(calls)}"

    return generate_fn, calls


def test_loop_runs_to_the_end():
    gen, calls = counting_generate()
    result = asyncio.run(LLEnvsAgentLoop(MultiTurnMockEnv({0: 2}), MockTokenizer()).run(task_index=0, generate_fn=gen))
    assert len(calls) == 2 and KEYS <= set(result)
    assert len(result["response_ids"]) == len(result["response_mask"]) == len(result["token_rewards"])
    assert set(result["response_mask"]) == {0, 1}
    assert result["rewards"] == [0.0, 1.0] and result["num_turns"] == 2 and not result["truncated"]
    assert sum(result["token_rewards"]) == 1.0
    # the full conversation: the first user turn stays in the history
    assert calls[1] == [{"role": "user", "content": "Task 0: begin"}, {"role": "assistant", "content": "answer1"},
                        {"role": "user", "content": "Step 1 feedback"}]


def test_max_steps_truncates():
    gen, calls = counting_generate()
    result = asyncio.run(LLEnvsAgentLoop(MultiTurnMockEnv({0: 100}), MockTokenizer(), max_steps=3)
                         .run(task_index=0, generate_fn=gen))
    assert len(calls) == 3 and result["truncated"] and result["num_turns"] == 3 and not result["terminated"]


def test_environment_turn_budget_truncates():
    gen, calls = counting_generate()
    result = asyncio.run(LLEnvsAgentLoop(MultiTurnMockEnv({0: 100}, max_turns=2), MockTokenizer())
                         .run(task_index=0, generate_fn=gen))
    assert len(calls) == 2 and result["truncated"]


def test_three_steps_three_rewards_and_sync_generate():
    loop = LLEnvsAgentLoop(MultiTurnMockEnv({0: 3}), MockTokenizer())
    result = asyncio.run(loop.run(task_index=0, generate_fn=lambda messages: "x"))
    assert len(result["rewards"]) == 3


def test_carried_ids_and_logprobs():
    def gen(messages):
        return {"text": "hi", "token_ids": [1, 2, 3], "logprobs": [-1.0, -2.0, -3.0]}

    result = asyncio.run(LLEnvsAgentLoop(MultiTurnMockEnv({0: 2}), MockTokenizer()).run(task_index=0, generate_fn=gen))
    n = len("Step 1 feedback")
    assert result["response_ids"][:3] == [1, 2, 3] and result["response_ids"][-3:] == [1, 2, 3]
    assert result["response_mask"] == [1, 1, 1] + [0] * n + [1, 1, 1]
    assert result["response_logprobs"] == [-1.0, -2.0, -3.0] + [0.0] * n + [-1.0, -2.0, -3.0]


def test_max_length_cuts_the_response():
    loop = LLEnvsAgentLoop(MultiTurnMockEnv({0: 3}), MockTokenizer(), max_length=10)
    result = asyncio.run(loop.run(task_index=0, generate_fn=lambda m: "abcdef"))
    assert len(result["response_ids"]) == 10 and result["truncated"] and result["num_turns"] == 3


def test_generate_output_errors():
    with pytest.raises(TypeError, match="str or a mapping"):
        action_from_output(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="'text'"):
        action_from_output({"token_ids": [1]})
    with pytest.raises(ValueError, match="logprobs"):
        action_from_output({"text": "a", "token_ids": [1, 2], "logprobs": [0.0]})
    with pytest.raises(TypeError, match="environment"):
        environment_from(42)
    with pytest.raises(ValueError, match="max_steps"):
        LLEnvsAgentLoop(MultiTurnMockEnv(), MockTokenizer(), max_steps=0)


def test_concurrent_episodes_do_not_share_state():
    env = MultiTurnMockEnv({i: 1 + i % 4 for i in range(40)})
    loop = LLEnvsAgentLoop(env, MockTokenizer())

    def make_gen(i):
        async def gen(messages):
            await asyncio.sleep(random.random() / 1000)
            return f"task{i}turn{len(messages)}"
        return gen

    async def main():
        return await asyncio.gather(*(loop.run(task_index=i, generate_fn=make_gen(i)) for i in range(40)))

    results = asyncio.run(main())
    for i, r in enumerate(results):
        assert r["num_turns"] == 1 + i % 4 and r["rewards"][-1] == 1.0
        text = "".join(map(chr, r["response_ids"]))
        assert f"task{i}turn" in text and all(f"task{j}turn" not in text for j in range(40) if j != i)
        solo = asyncio.run(loop.run(task_index=i, generate_fn=make_gen(i)))
        assert solo["response_ids"] == r["response_ids"]


def test_trl_rollout_fn():
    rollout_fn = make_trl_rollout_fn(MultiTurnMockEnv({0: 2}), MockTokenizer(), max_steps=5)
    gen, calls = counting_generate()
    result = asyncio.run(rollout_fn(task_index=0, generate_fn=gen))
    assert callable(rollout_fn) and KEYS <= set(result)
    assert len(result["response_ids"]) == len(result["response_mask"])


def test_grpo_rollout_func_contract():
    """Driven as trl/trainer/grpo_trainer.py (1.16) _generate does: rollout_func(prompts, trainer), then the
    required keys, env_mask popped as the tool mask, and extra keys merged per row into reward inputs."""
    env = MultiTurnMockEnv({0: 2, 1: 3, 2: 1})

    class Args:
        max_completion_length = 64

    class Trainer:
        args = Args()
        processing_class = MockTokenizer()

    func = make_grpo_rollout_func(env, lambda m: {"text": "ok", "token_ids": [7, 8], "logprobs": [-0.5, -0.5]})
    prompts = [[{"role": "user", "content": "Task 1: begin"}], [{"role": "user", "content": "Task 0: begin"}],
               [{"role": "user", "content": "Task 1: begin"}]]
    out = func(prompts, Trainer())
    assert not {"prompt_ids", "completion_ids", "logprobs"} - out.keys()
    extra = {k: v for k, v in out.items() if k not in {"prompt_ids", "completion_ids", "logprobs"}}
    env_mask = extra.pop("env_mask")
    assert out["task_index"] == [1, 0, 1] and out["num_turns"] == [3, 2, 3]
    for ids, mask, lps in zip(out["completion_ids"], env_mask, out["logprobs"], strict=True):
        assert len(ids) == len(mask) == len(lps) and ids[-2:] == [7, 8] and mask[-2:] == [1, 1]
    assert environment_reward(["a", "b", "c"], **extra) == [1.0, 1.0, 1.0]
    with pytest.raises(KeyError, match="no task"):
        func(["unknown prompt"], Trainer())
