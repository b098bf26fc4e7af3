"""TRL adapter, called exactly as TRL 1.16.0's GRPOTrainer calls reward functions.

Call site (trl 1.16.0, installed from the package registry): trl/trainer/grpo_trainer.py,
GRPOTrainer._calculate_rewards:
    keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
    reward_kwargs["trainer_state"] = self.state; ["log_extra"] = ...; ["log_metric"] = ...
    reward_func(prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs)
A sync function runs in the main thread; `async def` functions are gathered on the trainer's event-loop
thread. Conversational datasets (trl.data_utils.is_conversational on `prompt`) give completions as lists
of messages ([{"role": "assistant", "content": ...}], more messages after a tool loop). The name logged
is get_callable_name(reward_func), i.e. its __name__.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from dataclasses import replace
from types import SimpleNamespace

import pytest
from framework_mocks import QEnvironment, answers
from multiturn_export import IDS, MULTI_TURN, answer, build, from_reference, other_task, solved, truth
from multiturn_export import qwen3 as qwen3  # noqa: F401 - a fixture

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations.chat_messages import initial_messages
from llenvs_go.integrations.trl import TRL_KEYWORDS, EnvironmentMismatchError, make_trl_dataset, make_trl_reward_fn

datasets = pytest.importorskip("datasets")


@pytest.fixture()
def env():
    return environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)


def _trl_call(fn, dataset, completions, num_generations: int = 2):
    """GRPOTrainer._calculate_rewards (1.16.0) on rows of `dataset`, each repeated num_generations times."""
    inputs = [dataset[i] for i in range(len(dataset)) for _ in range(num_generations)]
    prompts = [x["prompt"] for x in inputs]
    keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
    reward_kwargs["trainer_state"] = object()
    logged: dict = {}
    reward_kwargs["log_extra"] = lambda column, values: logged.__setitem__(column, values)
    reward_kwargs["log_metric"] = lambda name, value: logged.__setitem__(name, value)
    completion_ids = [[1, 2, 3] for _ in completions]
    out = fn(prompts=prompts, completions=completions, completion_ids=completion_ids, **reward_kwargs)
    if inspect.iscoroutine(out):  # async functions are awaited on the trainer's event-loop thread
        out = asyncio.run(out)
    assert len(out) == len(prompts)
    return out


def _conversational(texts):
    return [[{"role": "assistant", "content": t}] for t in texts]


def test_conversational_dataset_and_call(env):
    ds = make_trl_dataset(env, num_tasks=4)
    assert set(ds.column_names) == {"prompt", "task_index", "ground_truth", "env_reference"}
    assert not set(ds.column_names) & TRL_KEYWORDS
    p = ds[0]["prompt"]
    assert [m["role"] for m in p] == ["system", "user"] and "<answer>" in p[0]["content"]
    fn = make_trl_reward_fn(env)
    good = [t for t in answers(env, range(4)) for _ in range(2)]
    wrong = ["<answer>-5</answer>"] * 8
    assert _trl_call(fn, ds, _conversational(good)) == [1.0] * 8
    mixed = [g if k % 2 else w for k, (g, w) in enumerate(zip(good, wrong, strict=True))]
    assert _trl_call(fn, ds, _conversational(mixed)) == [0.0, 1.0] * 4
    assert all(type(x) is float for x in _trl_call(fn, ds, _conversational(good)))


def test_standard_dataset_and_call(env):
    ds = make_trl_dataset(env, num_tasks=3, conversational=False)
    assert isinstance(ds[0]["prompt"], str)
    assert ds[0]["prompt"].startswith("Given a problem") and "legs" in ds[0]["prompt"]
    fn = make_trl_reward_fn(env)
    good = [t for t in answers(env, range(3)) for _ in range(2)]
    assert _trl_call(fn, ds, good) == [1.0] * 6


def test_conversational_completions_after_a_tool_loop(env):
    ds = make_trl_dataset(env, num_tasks=2)
    fn = make_trl_reward_fn(env)
    g0, g1 = answers(env, range(2))
    completions = [
        [{"role": "assistant", "content": "", "tool_calls": [{"name": "count"}]},
         {"role": "tool", "name": "count", "content": "<answer>999</answer>"},
         {"role": "assistant", "content": g0}],
        [{"role": "assistant", "content": [{"type": "text", "text": "thinking "}, {"type": "text", "text": g0}]}],
        [{"role": "assistant", "content": g1}, {"role": "user", "content": "<answer>0</answer>"}],
        [{"role": "tool", "content": g1}],  # no assistant message: nothing to score
    ]
    assert _trl_call(fn, ds, completions) == [1.0, 1.0, 1.0, 0.0]


def test_page_snippet_task_indices():
    # llenvs tests/test_trl_integration.py: reward_func(prompts=[...], completions=[...], task_indices=[...])
    fn = make_trl_reward_fn(QEnvironment())
    assert callable(fn)
    assert fn(prompts=["Q0?", "Q1?"], completions=["0", "1"], task_indices=[0, 1]) == [1.0, 1.0]
    assert fn(prompts=["Q0?"], completions=["9"], task_indices=[0]) == [0.0]
    assert fn(["Q0?", "Q1?", "Q2?"], ["0", "x", "2"], task_indices=[0, 1, 2]) == [1.0, 0.0, 1.0]
    ds = make_trl_dataset(QEnvironment(), num_tasks=3, conversational=False)
    assert len(ds) == 3 and ds[0]["prompt"] == "Q0?" and ds[2]["prompt"] == "Q2?"
    assert _trl_call(fn, ds, ["0", "0", "1", "x", "2", "2"]) == [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]


def test_name_is_loggable(env):
    fn = make_trl_reward_fn(env)
    assert fn.__name__ == "leg_counting_reward"
    assert make_trl_reward_fn(env, asynchronous=True).__name__ == "leg_counting_reward"


def test_missing_task_index_and_length_mismatch(env):
    fn = make_trl_reward_fn(env)
    with pytest.raises(TypeError, match="task_index"):
        fn(prompts=["p"], completions=["x"], completion_ids=[[1]])
    with pytest.raises(ValueError, match="task_index has 1 entries but there are 2 completions"):
        fn(prompts=["p", "p"], completions=["x", "y"], task_index=[0])
    with pytest.raises(TypeError, match="completions must be a list"):
        fn(prompts=["p"], completions="x", task_index=[0])


def test_rows_of_another_environment_are_refused(env):
    ds = make_trl_dataset(env, num_tasks=2)
    good = _conversational([t for t in answers(env, range(2)) for _ in range(2)])
    other = environment_registry.get(name="leg_counting", size=1000, seed=43)
    with pytest.raises(EnvironmentMismatchError, match=r"seed \(row: 42, here: 43\)"):
        _trl_call(make_trl_reward_fn(other), ds, good)
    no_reference = ds.remove_columns(["env_reference"])
    with pytest.raises(EnvironmentMismatchError, match="ground truth"):
        _trl_call(make_trl_reward_fn(other), no_reference, good)
    # without either column, the page's own usage: nothing to check against
    bare = ds.remove_columns(["env_reference", "ground_truth"])
    assert len(_trl_call(make_trl_reward_fn(other), bare, good)) == 4


def test_async_variant(env):
    ds = make_trl_dataset(env, num_tasks=2)
    fn = make_trl_reward_fn(env, asynchronous=True)
    assert inspect.iscoroutinefunction(fn)
    good = _conversational([t for t in answers(env, range(2)) for _ in range(2)])
    assert _trl_call(fn, ds, good) == [1.0] * 4


def test_reward_function_takes_trl_column_types_and_refuses_others(env):
    # TRL hands dataset columns over as lists; numpy arrays and tuples come from users' own calls.
    import numpy as np

    fn = make_trl_reward_fn(env)
    good = answers(env, range(3))
    rows = make_trl_dataset(env, num_tasks=3)
    refs, truths = rows["env_reference"], rows["ground_truth"]
    for column in (list, tuple, np.array):
        out = fn(prompts=None, completions=good, task_index=column([0, 1, 2]), env_reference=column(refs),
                 ground_truth=column(truths))
        assert out == [1.0, 1.0, 1.0]
    assert fn(prompts=None, completions=[], task_index=[], env_reference=np.array([]), ground_truth=()) == []
    with pytest.raises(TypeError, match="env_reference must be a column"):
        fn(prompts=None, completions=[], task_index=[], env_reference={"": None})
    with pytest.raises(TypeError, match="task_index must be a column"):
        fn(prompts=None, completions=good[:1], task_index=0)
    with pytest.raises(TypeError, match="ground_truth must be a column"):
        fn(prompts=None, completions=good[:1], task_index=[0], ground_truth="7")
    with pytest.raises(TypeError, match="env_reference entries must be str"):
        fn(prompts=None, completions=good[:1], task_index=[0], env_reference=[{"x": 1}])


def test_a_mismatched_reference_after_an_empty_one_is_still_caught(env):
    fn = make_trl_reward_fn(env)
    other = make_trl_dataset(environment_registry.get("leg_counting", size=5, seed=999), num_tasks=1)
    good = answers(env, range(2))
    with pytest.raises(EnvironmentMismatchError):
        fn(prompts=None, completions=good, task_index=[0, 1], env_reference=["", other["env_reference"][0]])


# -- multi-turn rows: exported, read back, played by make_grpo_rollout_func ---------------------------------


def _play_trl_rows(rows, tok, reply):
    """Each row's prompt through make_grpo_rollout_func (as GRPOTrainer calls it: rollout_func(prompts,
    trainer)), built from the row's env_reference, with a model that always answers ``reply(row)``."""
    from llenvs_go.integrations.trl_rollout import make_grpo_rollout_func

    trainer = SimpleNamespace(args=SimpleNamespace(max_completion_length=512), processing_class=tok)
    outs = []
    for row in rows:
        text = answer(reply(row))
        func = make_grpo_rollout_func(json.loads(row["env_reference"]), lambda messages, text=text: text,
                                      max_steps=4)
        outs.append(func([row["prompt"]], trainer))
    return outs


def _check_trl_rows(rows, env):
    """The rows' prompts find their own tasks, and the episodes play those tasks: the task's answer (from
    ``env``, not from the row) solves it in one turn, another task's does not."""
    assert len(rows) == len(env)
    for k, row in enumerate(rows):
        assert row["task_index"] == k and row["ground_truth"] == truth(env, k)
        state, _ = env.reset(options={"task_index": k})
        # the episode's first messages; the last user message holds the task index too (guess_number's
        # tasks all open with the same text)
        assert [{"role": m["role"], "content": m["content"]} for m in row["prompt"]] == \
            [{"role": m["role"], "content": m["content"]} for m in initial_messages(state)]
        assert [m.get("llenvs_task_index") for m in row["prompt"]][-1] == k
    return rows


@pytest.mark.parametrize("arguments", [m[1] for m in MULTI_TURN], ids=IDS)
def test_multi_turn_rows_round_trip_through_the_rollout_function(arguments, qwen3, tmp_path):
    env = build(arguments)
    path = str(tmp_path / "train.parquet")
    make_trl_dataset(env).to_parquet(path)
    rows = _check_trl_rows(datasets.load_dataset("parquet", data_files=path)["train"].to_list(), env)
    picked = rows[1:4]
    for row, out in zip(picked, _play_trl_rows(picked, qwen3, lambda r: truth(env, r["task_index"])), strict=True):
        assert out["task_index"] == [row["task_index"]]
        assert solved([out["env_reward"][0]], out["num_turns"][0]), (row["task_index"], out)
    wrong = _play_trl_rows(picked, qwen3, lambda r: truth(env, other_task(env, r["task_index"])))
    assert not any(solved([o["env_reward"][0]], o["num_turns"][0]) for o in wrong)


@pytest.mark.parametrize("command_line", [m[2] for m in MULTI_TURN], ids=IDS)
def test_multi_turn_cli_export_round_trips_through_the_rollout_function(command_line, qwen3, tmp_path):
    click = pytest.importorskip("click")
    from click.testing import CliRunner

    from llenvs_go.cli import cli

    path = str(tmp_path / "train.jsonl")
    result = CliRunner().invoke(cli, ["export", *command_line, "--format", "trl", "-o", path],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert click  # the command ran through click
    rows = datasets.load_dataset("json", data_files=path)["train"].to_list()
    env = from_reference(rows[0]["env_reference"])  # the command line's environment (its system prompt too)
    rows = _check_trl_rows(rows, env)
    out, = _play_trl_rows(rows[2:3], qwen3, lambda r: truth(env, r["task_index"]))
    assert out["task_index"] == [2] and solved([out["env_reward"][0]], out["num_turns"][0])


def test_multi_turn_rows_refuse_text_prompts_and_another_system_prompt():
    env = build(MULTI_TURN[0][1])
    with pytest.raises(ValueError, match="multi-turn.*conversational=True"):
        make_trl_dataset(env, conversational=False)
    with pytest.raises(ValueError, match="multi-turn.*system_prompt"):
        make_trl_dataset(env, system_prompt="Be brief.")
    with pytest.raises(IndexError, match="task index 6 is out of range"):
        make_trl_dataset(env, indices=[0, 6])
    assert make_trl_dataset(env, num_tasks=2)["task_index"] == [0, 1]
    assert make_trl_dataset(env, indices=[4, 1])["task_index"] == [4, 1]


class _NoMessagesEnvironment(QEnvironment):
    """llenvs' single-turn shape: the observation has a prompt and no messages."""

    def reset(self, *, seed=None, options=None):
        state, info = super().reset(seed=seed, options=options)
        return replace(state, observation=replace(state.observation, messages=())), info


def test_conversational_prompt_of_an_environment_without_messages_is_its_question():
    ds = make_trl_dataset(_NoMessagesEnvironment(), num_tasks=2)
    assert ds[1]["prompt"] == [{"role": "user", "content": "Q1?"}]
