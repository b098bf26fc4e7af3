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


# -- from an episode to a Trajectory -------------------------------------------------------------------


LEG_ANSWERS = ["<answer>-1</answer>", "no tags", "<answer>-3</answer>"]


def leg_iterative():
    from llenvs_go.core.registry import environment_registry

    return environment_registry.get("leg_counting", size=20, seed=3, iterative={"max_turns": 3})


def scripted(texts):
    """A generate_fn that answers with ``texts`` in turn (a new iterator per call of scripted)."""
    it = iter(texts)
    return lambda messages: next(it)


def masked_tensors(result):
    return {k: result[k] for k in ("prompt_ids", "response_ids", "response_mask", "rewards", "token_rewards",
                                   "num_turns")}


def test_play_returns_the_result_of_run_and_the_trajectory():
    from llenvs_go.integrations.agent_loop import PlayedEpisode

    loop = LLEnvsAgentLoop(leg_iterative(), MockTokenizer(), max_steps=5)
    played = asyncio.run(loop.play(task_index=2, generate_fn=scripted(LEG_ANSWERS)))
    assert isinstance(played, PlayedEpisode)
    result = asyncio.run(loop.run(task_index=2, generate_fn=scripted(LEG_ANSWERS)))
    assert masked_tensors(played.result) == masked_tensors(result) and "trajectory" not in result
    assert played.result["messages"] == result["messages"]
    traj = played.trajectory
    assert len(traj) == played.result["num_turns"] == 3
    assert [t.action.text for t in traj.transitions] == LEG_ANSWERS
    assert masked_tensors(loop.masker.mask_trajectory(traj).to_dict()) == masked_tensors(played.result)
    assert traj.transitions[0].extracted_action == "-1" and traj.transitions[1].extracted_action is None


def test_episode_to_trajectory_is_what_the_agent_loop_records():
    """Played by hand with reset/step, the trajectory masks to what the loop returns for the same answers."""
    from llenvs_go.core.state import Action
    from llenvs_go.integrations import TrajectoryMasker, episode_to_trajectory

    env = leg_iterative()
    state, _ = env.reset(options={"task_index": 2})
    s0, steps = state, []
    for text in LEG_ANSWERS:
        result = env.step(state, Action.from_text(text))
        steps.append((text, result))  # a generate_fn's str is accepted as the action
        state = result.next_state
    traj = episode_to_trajectory(s0, steps)
    played = asyncio.run(LLEnvsAgentLoop(leg_iterative(), MockTokenizer(), max_steps=5)
                         .play(task_index=2, generate_fn=scripted(LEG_ANSWERS)))
    ref = played.trajectory.transitions
    for t, r, (_, result) in zip(traj.transitions, ref, steps, strict=True):
        assert t.action == r.action == Action.from_text(t.action.text)
        assert t.rewards == r.rewards == result.rewards
        assert (t.resolved_action, t.extracted_action) == (r.resolved_action, r.extracted_action)
        assert t.info == r.info == dict(result.info)
    masked = TrajectoryMasker(MockTokenizer()).mask_trajectory(traj).to_dict()
    assert masked_tensors(masked) == masked_tensors(played.result)
    # a mapping with token ids, as a generate_fn returns it, is an Action with those ids
    ids = episode_to_trajectory(s0, [({"text": "<answer>-1</answer>", "token_ids": [5, 6]}, steps[0][1])])
    assert ids.transitions[0].action.token_ids == (5, 6)


def test_episode_to_trajectory_errors():
    from llenvs_go.core.state import Action
    from llenvs_go.integrations import episode_to_trajectory

    env = leg_iterative()
    reset = env.reset(options={"task_index": 0})
    result = env.step(reset[0], Action.from_text("x"))
    with pytest.raises(TypeError, match=r"initial_state must be .*State, got a tuple \(env.reset returns"):
        episode_to_trajectory(reset, [("x", result)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"the action of step 0 must be an Action, a str or a mapping.*got int"):
        episode_to_trajectory(reset[0], [(3, result)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"step 0 must be an \(Action, StepResult\) pair.*got \(Action, dict\)"):
        episode_to_trajectory(reset[0], [("x", {"next_state": result.next_state})])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"step 0 must be an \(action, step_result\) pair, got StepResult"):
        episode_to_trajectory(reset[0], [result])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"step 0 must be an \(action, step_result\) pair, got tuple of length 1"):
        episode_to_trajectory(reset[0], [(result,)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="steps must be an iterable of .action, step_result. pairs, got dict"):
        episode_to_trajectory(reset[0], {"x": result})  # type: ignore[arg-type]


def test_trajectory_recorder_records_while_passing_through():
    from llenvs_go.core.environment import Environment
    from llenvs_go.core.state import Action
    from llenvs_go.core.trajectory import Trajectory
    from llenvs_go.integrations import TrajectoryRecorder

    env = leg_iterative()
    rec = TrajectoryRecorder(env)
    assert rec.spec == env.spec and len(rec) == len(env) and rec.available_tools == env.available_tools
    assert isinstance(rec, Environment)
    with pytest.raises(RuntimeError, match="call reset"):
        _ = rec.trajectory
    state, _ = rec.reset(options={"task_index": 2})
    first = state
    pairs = []
    for text in LEG_ANSWERS[:2]:
        action = Action.from_text(text)
        result = rec.step(state, action)
        pairs.append((action, result))
        state = result.next_state
    assert rec.trajectory.transitions == Trajectory.from_steps(first, pairs).transitions
    with pytest.raises(ValueError, match=r"current state \(after 2 step\(s\).*got a state at step 0"):
        rec.step(first, Action.from_text("<answer>1</answer>"))
    with pytest.raises(TypeError, match="action must be .*Action.*got str"):
        rec.step(state, "<answer>1</answer>")  # type: ignore[arg-type]
    assert len(rec.trajectory) == 2  # refused steps are not recorded
    s2, _ = rec.reset(options={"task_index": 3})
    assert len(rec.trajectory) == 0 and rec.trajectory.initial_state is s2
    with pytest.raises(TypeError, match="needs an environment"):
        TrajectoryRecorder(42)


# -- generate_fn gets the tools ------------------------------------------------------------------------


def test_accepts_tools_reads_the_signature():
    import functools

    from llenvs_go.integrations.agent_loop import accepts_tools

    def plain(messages): ...
    def kw(messages, tools=None): ...
    def kwonly(messages, *, tools): ...
    def var(messages, **kwargs): ...
    async def async_kw(messages, tools=None): ...
    def other(messages, *, temperature=1.0): ...

    class Engine:
        def __call__(self, messages, tools=None): ...

    class Plain:
        def __call__(self, messages): ...

    assert [accepts_tools(f) for f in (plain, kw, kwonly, var, async_kw, other, Engine(), Plain())] == [
        False, True, True, True, True, False, True, False]
    assert accepts_tools(functools.partial(kw))
    assert not accepts_tools(functools.partial(kw, tools=[]))  # the partial's own tools are kept
    assert not accepts_tools(functools.partial(plain))
    assert not accepts_tools(lambda m: m)


def calculator():
    from llenvs_go.core.registry import environment_registry

    return environment_registry.get("calculator_arithmetic", adapter="native", seed=1, max_turns=4)


CALC_TURNS = ['<tool_call>{"name": "calculator", "arguments": {"expression": "6 * 7"}}</tool_call>',
              "still thinking", "<answer>42</answer>"]


def test_generate_fn_gets_the_tools_of_the_template():
    from llenvs_go.integrations.chat_messages import _tools

    env = calculator()
    expected = [t.to_openai_schema() for t in env.available_tools]
    assert expected and expected[0]["function"]["name"] == "calculator"
    seen: list = []

    async def with_tools(messages, tools=None):
        seen.append(tools)
        return CALC_TURNS[len(seen) - 1]

    played = asyncio.run(LLEnvsAgentLoop(env, MockTokenizer()).play(task_index=0, generate_fn=with_tools))
    assert len(seen) == played.result["num_turns"] == 3
    assert all(t == expected for t in seen)
    assert seen[0] == _tools(played.trajectory.initial_state)  # what the masker gives the template

    calls = []

    def without(messages):  # called with the messages only, as before
        calls.append(len(messages))
        return CALC_TURNS[len(calls) - 1]

    other = asyncio.run(LLEnvsAgentLoop(env, MockTokenizer()).run(task_index=0, generate_fn=without))
    assert len(calls) == 3 and other["response_ids"] == played.result["response_ids"]

    got = []

    class Engine:
        def __call__(self, messages, **kwargs):
            got.append(kwargs)
            return CALC_TURNS[len(got) - 1]

    asyncio.run(LLEnvsAgentLoop(env, MockTokenizer()).run(task_index=0, generate_fn=Engine()))
    assert got and all(k == {"tools": expected} for k in got)


def test_generate_fn_gets_no_tools_from_an_environment_without_them():
    seen = []

    def gen(messages, tools="unset"):
        seen.append(tools)
        return LEG_ANSWERS[len(seen) - 1]

    asyncio.run(LLEnvsAgentLoop(leg_iterative(), MockTokenizer()).run(task_index=2, generate_fn=gen))
    assert seen == [None, None, None]
    with pytest.raises(TypeError, match="generate_fn must be a function of the conversation"):
        asyncio.run(LLEnvsAgentLoop(leg_iterative(), MockTokenizer()).run(task_index=2, generate_fn="gpt"))


def test_grpo_rollout_func_and_trl_rollout_fn_pass_the_tools():
    env = calculator()
    expected = [t.to_openai_schema() for t in env.available_tools]
    seen = []

    def gen(messages, tools=None):
        seen.append(tools)
        return "<answer>1</answer>"

    class Args:
        max_completion_length = 256

    class Trainer:
        args = Args()
        processing_class = MockTokenizer()

    from llenvs_go.integrations.token_mask import initial_messages

    prompt = initial_messages(env.reset(options={"task_index": 1})[0])
    out = make_grpo_rollout_func(env, gen, num_tasks=3)([prompt], Trainer())
    assert out["task_index"] == [1]
    assert seen == [expected] * out["num_turns"][0]
    seen.clear()
    asyncio.run(make_trl_rollout_fn(env, MockTokenizer())(task_index=0, generate_fn=gen))
    assert seen == [expected]
