"""veRL adapter, called exactly as veRL 0.9.1 calls a custom reward function and reads a dataset.

Call sites (veRL 0.9.1, installed from the package registry):
- verl/experimental/reward_loop/reward_manager/naive.py (NaiveRewardManager.run_single): keywords
  data_source, solution_str, ground_truth (= row["reward_model"]["ground_truth"]), extra_info (the row's
  dict, mutated in place: num_turns, rollout_reward_scores, tool_extra_fields), plus
  reward_router_address / reward_model_tokenizer with a reward model; sync functions run through
  loop.run_in_executor (a thread pool), async ones are awaited.
- verl/trainer/ppo/reward.py (get_custom_reward_fn, _call_with_kwargs): the function is wrapped in a
  partial that merges reward.custom_reward_function.reward_kwargs into the call's keywords.
- verl/utils/import_utils.py (load_module): a file path is executed as module
  "custom_module_<hash(abspath)>", not registered in sys.modules; "pkg://a.b" imports a.b.
- verl/utils/dataset/rl_dataset.py (RLHFDataset): datasets.load_dataset("parquet"), prompt = chat
  messages, extra_info None -> {}.
- Older managers (verl/workers/reward_manager/prime.py) and llenvs call it positionally.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from framework_mocks import QEnvironment, answers
from mask_helpers import MockTokenizer
from multiturn_export import IDS, MULTI_TURN, answer, build, export_rows, from_reference, other_task, solved, truth
from multiturn_export import qwen3 as qwen3  # noqa: F401 - a fixture

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop
from llenvs_go.integrations.chat_messages import initial_messages
from llenvs_go.integrations.verl import (
    EnvironmentMismatchError,
    UnscorableRowError,
    compute_score,
    make_verl_dataset,
    make_verl_reward_fn,
    write_verl_parquet,
)


@pytest.fixture()
def env():
    return environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)


def _call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):
    # verl/trainer/ppo/reward.py::_call_with_kwargs (0.9.1): config reward_kwargs win on a clash.
    return raw_fn(*args, **{**kwargs, **extra_kwargs})


def _naive_call(fn, row: dict, response: str, *, reward_model: bool = False, reward_kwargs: dict | None = None):
    """What NaiveRewardManager.run_single (0.9.1) does with one row of the batch."""
    fn = functools.partial(_call_with_kwargs, fn, reward_kwargs or {})
    extra_info = row.get("extra_info", {})
    extra_info["num_turns"] = None
    extra_info["rollout_reward_scores"] = {}
    extra = {"reward_router_address": "127.0.0.1:8000", "reward_model_tokenizer": object()} if reward_model else {}
    return fn(data_source=row["data_source"], solution_str=response,
              ground_truth=row["reward_model"]["ground_truth"], extra_info=extra_info, **extra)


def test_rows_have_rlhf_dataset_schema(env):
    rows = make_verl_dataset(env, num_tasks=5)
    assert len(rows) == 5
    r = rows[2]
    assert set(r) == {"data_source", "prompt", "ability", "reward_model", "extra_info", "ground_truth"}
    assert r["data_source"] == "leg_counting" and isinstance(r["ability"], str)
    assert [m["role"] for m in r["prompt"]] == ["system", "user"]
    assert "<answer>" in r["prompt"][0]["content"]
    assert "legs" in r["prompt"][1]["content"]
    assert r["reward_model"] == {"style": "rule", "ground_truth": env.task_texts([2])[1][0]}
    assert r["ground_truth"] == r["reward_model"]["ground_truth"]
    info = r["extra_info"]
    assert (info["index"], info["task_index"], info["split"]) == (2, 2, "train")
    assert '"seed":42' in info["env_reference"] and '"size":1000' in info["env_reference"]
    assert make_verl_dataset(env, num_tasks=-1) == [] and len(make_verl_dataset(env, num_tasks=3)) == 3


def test_parquet_round_trip_through_datasets(env, tmp_path):
    datasets = pytest.importorskip("datasets")
    rows = make_verl_dataset(env, num_tasks=20, split="test")
    path = write_verl_parquet(rows, tmp_path / "train.parquet")
    # rl_dataset.py (0.9.1) reads it this way.
    frame = datasets.load_dataset("parquet", data_files=path)["train"]
    assert len(frame) == 20
    assert frame[7] == rows[7]
    fn = make_verl_reward_fn(env)
    responses = answers(env, range(20))
    assert [_naive_call(fn, frame[i], responses[i]) for i in range(20)] == [1.0] * 20


def test_parquet_refuses_an_empty_dict(tmp_path):
    with pytest.raises(ValueError, match=r"rows\[1\]\['extra_info'\]\['tools_kwargs'\] is an empty dict"):
        write_verl_parquet([{"a": 1, "extra_info": {"x": 1}}, {"a": 2, "extra_info": {"x": 1, "tools_kwargs": {}}}],
                           tmp_path / "x.parquet")


def test_naive_manager_call_with_mutated_extra_info(env):
    rows = make_verl_dataset(env, num_tasks=8)
    fn = make_verl_reward_fn(env)
    good = answers(env, range(8))
    assert [_naive_call(fn, rows[i], good[i]) for i in range(8)] == [1.0] * 8
    assert _naive_call(fn, rows[0], "<answer>-1</answer>") == 0.0
    assert rows[0]["extra_info"]["num_turns"] is None  # the manager's mutation stays; scoring ignores it
    # with a reward model and config reward_kwargs
    assert _naive_call(fn, rows[3], good[3], reward_model=True, reward_kwargs={"foo": 1}) == 1.0
    assert isinstance(_naive_call(fn, rows[3], good[3]), float)


def test_positional_call_and_llenvs_rows(env):
    fn = make_verl_reward_fn(env)
    good = answers(env, [4])[0]
    truth = env.task_texts([4])[1][0]
    # the legacy prime manager and llenvs: (data_source, solution_str, ground_truth, extra_info)
    assert fn("leg_counting", good, truth, {"task_index": 4}) == 1.0
    # llenvs' rows: top-level ground_truth, extra_info {"task_index", **metadata}
    assert fn("leg_counting", good, "", {"task_index": 4, "episode_id": "x", "dataset_name": "leg_counting"}) == 1.0


def test_page_snippet_mock_environment():
    # llenvs tests/test_verl_integration.py with its mock: compute_score("mock", "0", "0", {"task_index": 0})
    fn = make_verl_reward_fn(QEnvironment())
    assert callable(fn)
    assert fn("mock", "0", "0", {"task_index": 0}) == 1.0
    assert fn("mock", "wrong", "0", {"task_index": 0}) == 0.0
    assert fn("mock", "3", "3", {"task_index": 3}) == 1.0
    rows = make_verl_dataset(QEnvironment(), num_tasks=3)
    assert len(rows) == 3 and rows[2]["extra_info"]["task_index"] == 2
    assert {"prompt", "ground_truth", "data_source", "extra_info"} <= set(rows[0])
    assert rows[0]["prompt"] == [{"role": "user", "content": "Q0?"}] and rows[0]["extra_info"]["env_reference"] == ""
    assert _naive_call(fn, rows[1], "1") == 1.0


@pytest.mark.parametrize("extra_info", [None, {}, {"num_turns": 1, "rollout_reward_scores": {}}])
def test_missing_task_index_is_a_clear_error(env, extra_info):
    fn = make_verl_reward_fn(env)
    with pytest.raises(UnscorableRowError, match="extra_info\\['task_index'\\].*make_verl_dataset"):
        fn(data_source="leg_counting", solution_str="<answer>1</answer>", ground_truth="1", extra_info=extra_info)
    with pytest.raises(UnscorableRowError):
        compute_score(data_source="leg_counting", solution_str="x", ground_truth="1", extra_info=extra_info)


def test_return_dict_has_the_same_numeric_keys_for_every_sample(env):
    np = pytest.importorskip("numpy")
    rows = make_verl_dataset(env, num_tasks=6)
    fn = make_verl_reward_fn(env, return_dict=True)
    responses = answers(env, range(3)) + ["no answer", "<answer>x</answer>", "<answer>0</answer>"]
    infos = [_naive_call(fn, rows[i], responses[i]) for i in range(6)]
    keys = list(infos[0])
    assert keys == ["score", "correctness", "answer_found", "llenvs/timeout", "llenvs/error"]
    # agent_loop.py::_postprocess stacks by the first sample's keys
    stacked = {k: np.array([info[k] for info in infos]) for k in keys}
    assert all(v.dtype.kind == "f" for v in stacked.values())
    assert stacked["score"].tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert stacked["answer_found"].tolist() == [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]


def test_rows_of_another_environment_are_refused(env):
    rows = make_verl_dataset(env, num_tasks=3)
    good = answers(env, range(3))
    other_seed = environment_registry.get(name="leg_counting", size=1000, seed=7)
    with pytest.raises(EnvironmentMismatchError, match=r"seed \(row: 42, here: 7\)"):
        _naive_call(make_verl_reward_fn(other_seed), rows[0], good[0])
    other_size = environment_registry.get(name="leg_counting", size=500, seed=42)
    with pytest.raises(EnvironmentMismatchError, match=r"size \(row: 1000, here: 500\)"):
        _naive_call(make_verl_reward_fn(other_size), rows[0], good[0])
    # a row without a reference is checked by its ground truth
    bare = {**rows[1], "extra_info": {"task_index": 1}}
    with pytest.raises(EnvironmentMismatchError, match="ground truth"):
        _naive_call(make_verl_reward_fn(other_seed), bare, good[1])
    # the shipped function rebuilds the row's environment: a tampered ground truth is caught
    tampered = {**rows[2], "reward_model": {"style": "rule", "ground_truth": "123456"}}
    with pytest.raises(EnvironmentMismatchError, match="ground truth '123456'"):
        _naive_call(compute_score, tampered, good[2])
    # a Go-backed row scored against a Python environment
    with pytest.raises(EnvironmentMismatchError, match="written in Python"):
        _naive_call(make_verl_reward_fn(QEnvironment(2000)), rows[0], good[0])


def _load_like_verl(path: str):
    # verl/utils/import_utils.py::load_module (0.9.1) for a file path
    spec = importlib.util.spec_from_file_location(f"custom_module_{hash(os.path.abspath(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_file_scores_a_batch_that_mixes_environments(env):
    import llenvs_go.integrations.verl_reward as shipped

    module = _load_like_verl(shipped.__file__)
    assert module.__name__ not in importlib.sys.modules
    fn = module.compute_score
    assert not inspect.iscoroutinefunction(fn)  # the remote manager asserts a plain def
    other = environment_registry.get(name="leg_counting", size=300, seed=5, min_animals=2)
    rows = make_verl_dataset(env, num_tasks=4) + make_verl_dataset(other, num_tasks=4)
    responses = answers(env, range(4)) + answers(other, range(4))
    assert [_naive_call(fn, r, t) for r, t in zip(rows, responses, strict=True)] == [1.0] * 8
    # each row is scored against its own environment: swapping the responses scores 0 where answers differ
    swapped = [_naive_call(fn, rows[k], responses[(k + 4) % 8]) for k in range(8)]
    assert swapped == [float(responses[k] == responses[(k + 4) % 8]) for k in range(8)]
    # pkg:// imports the module normally
    assert importlib.import_module("llenvs_go.integrations.verl_reward").compute_score is fn


def test_shipped_file_has_no_unpicklable_state():
    import llenvs_go.integrations.verl_reward as shipped

    source = open(shipped.__file__, encoding="utf-8").read()
    assert "from ." not in source and "import threading" not in source
    assert hashlib.sha256(source.encode()).hexdigest()  # readable as text: veRL executes it by path


def test_thread_pool_calls_agree_with_serial(env):
    rows = make_verl_dataset(env, num_tasks=200)
    responses = [r if k % 3 else "<answer>7</answer>" for k, r in enumerate(answers(env, range(200)))]
    fn = make_verl_reward_fn(env)
    serial = [_naive_call(fn, rows[k], responses[k]) for k in range(200)]

    async def manager() -> list[float]:
        # run_in_executor(None, ...) on the event loop's default pool, many at once (naive.py)
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(8))
        calls = [loop.run_in_executor(None, functools.partial(_naive_call, fn, rows[k], responses[k]))
                 for k in range(200)]
        return list(await asyncio.gather(*calls))

    assert asyncio.run(manager()) == serial


def test_async_variant_is_awaited_by_the_naive_manager(env):
    rows = make_verl_dataset(env, num_tasks=3)
    fn = make_verl_reward_fn(env, asynchronous=True, return_dict=True)
    assert inspect.iscoroutinefunction(fn)
    assert not inspect.iscoroutinefunction(make_verl_reward_fn(env))
    good = answers(env, [1])[0]
    row = rows[1]

    async def run() -> dict:
        return await fn(data_source=row["data_source"], solution_str=good,
                        ground_truth=row["reward_model"]["ground_truth"], extra_info=row["extra_info"])

    assert asyncio.run(run())["score"] == 1.0


async def _naive_manager(fn, rows: list[dict], responses: list[str]) -> list:
    # NaiveRewardManager.run_single (0.9.1): an async compute_score (is_async_reward_score) is awaited
    # on the manager's loop, wrapped by get_custom_reward_fn in partial(_call_with_kwargs_async, ...);
    # RewardLoopWorker gathers one run_single task per sample.
    async def call_with_kwargs_async(raw_fn, extra_kwargs, *args, **kwargs):
        return await raw_fn(*args, **{**kwargs, **extra_kwargs})

    wrapped = functools.partial(call_with_kwargs_async, fn, {})
    assert inspect.iscoroutinefunction(wrapped)  # how the manager decides to await it

    async def one(row: dict, response: str):
        extra_info = row.get("extra_info", {})
        extra_info["num_turns"] = None
        extra_info["rollout_reward_scores"] = {}
        return await wrapped(data_source=row["data_source"], solution_str=response,
                             ground_truth=row["reward_model"]["ground_truth"], extra_info=extra_info)

    return list(await asyncio.gather(*[asyncio.create_task(one(r, t)) for r, t in zip(rows, responses, strict=True)]))


def test_async_variant_scores_go_environments_on_the_event_loop(env, monkeypatch):
    import llenvs_go.integrations.verl as verl

    rows = make_verl_dataset(env, num_tasks=60)
    responses = [r if k % 3 else "<answer>7</answer>" for k, r in enumerate(answers(env, range(60)))]
    serial = [_naive_call(make_verl_reward_fn(env), rows[k], responses[k]) for k in range(60)]

    def no_thread(*args, **kwargs):
        raise AssertionError("a Go-scored sample was sent to a worker thread")

    monkeypatch.setattr(verl.asyncio, "to_thread", no_thread)
    fn = make_verl_reward_fn(env, asynchronous=True)
    assert asyncio.run(_naive_manager(fn, rows, responses)) == serial
    # the shipped async function, rebuilding the environment from each row's reference
    assert asyncio.run(_naive_manager(verl.compute_score_async, rows, responses)) == serial


def test_async_variant_sends_python_work_to_a_thread(monkeypatch):
    import llenvs_go.integrations.verl as verl

    qenv = QEnvironment(20)
    rows = make_verl_dataset(qenv, num_tasks=20)
    responses = [str(k if k % 2 else -1) for k in range(20)]
    hops: list[str] = []
    real = asyncio.to_thread

    async def counting(func, *args, **kwargs):
        hops.append(func.__name__)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(verl.asyncio, "to_thread", counting)
    scores = asyncio.run(_naive_manager(make_verl_reward_fn(qenv, asynchronous=True), rows, responses))
    assert scores == [float(k % 2) for k in range(20)]
    assert len(hops) == 20  # an environment written in Python never runs on the event loop


def test_async_variant_sends_huge_responses_to_a_thread(env, monkeypatch):
    import llenvs_go.integrations.verl as verl

    rows = make_verl_dataset(env, num_tasks=2)
    huge = "x" * (verl._INLINE_MAX_CHARS + 1) + answers(env, [0])[0]
    hops: list[str] = []
    real = asyncio.to_thread

    async def counting(func, *args, **kwargs):
        hops.append(func.__name__)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(verl.asyncio, "to_thread", counting)
    fn = make_verl_reward_fn(env, asynchronous=True)
    assert asyncio.run(_naive_manager(fn, rows[:1], [huge])) == [1.0]
    assert asyncio.run(_naive_manager(verl.compute_score_async, rows[:1], [huge])) == [1.0]
    assert len(hops) == 2


def test_shipped_async_function_refuses_rows_without_a_task():
    import llenvs_go.integrations.verl as verl

    # An llenvs task without its extra_info says what the row lacks; any other source is veRL's error.
    with pytest.raises(UnscorableRowError, match="extra_info"):
        asyncio.run(verl.compute_score_async(data_source="leg_counting", solution_str="y", ground_truth="",
                                             extra_info={}))
    with pytest.raises(NotImplementedError, match="data_source='x'"):
        asyncio.run(verl.compute_score_async(data_source="x", solution_str="y", ground_truth="", extra_info={}))


def test_bad_solution_type_is_a_type_error(env):
    rows = make_verl_dataset(env, num_tasks=1)
    with pytest.raises(TypeError, match="solution_str must be the decoded response"):
        make_verl_reward_fn(env)(solution_str=b"x", ground_truth="", extra_info=rows[0]["extra_info"])


# -- multi-turn rows: exported, read back, played by LLEnvsVerlAgentLoop ------------------------------------


def _export_verl(route: str, entry: tuple, tmp_path) -> tuple[str, Any]:
    """A multi-turn environment exported to parquet by make_verl_dataset or by the export command; the
    path and the environment the rows were made from."""
    path = str(tmp_path / "train.parquet")

    def reference(p: str) -> str:
        import pyarrow.parquet as pq

        return pq.read_table(p).to_pylist()[0]["extra_info"]["env_reference"]

    return path, export_rows(route, entry, path, "verl", write_verl_parquet, make_verl_dataset, reference)


@pytest.mark.parametrize("route", ["function", "cli"])
@pytest.mark.parametrize("entry", MULTI_TURN, ids=IDS)
def test_multi_turn_rows_carry_what_the_agent_loop_reads(entry, route, tmp_path):
    pa = pytest.importorskip("pyarrow.parquet")
    path, env = _export_verl(route, entry, tmp_path)
    rows = pa.read_table(path).to_pylist()
    assert len(rows) == len(env)
    for k, row in enumerate(rows):
        state, _ = env.reset(options={"task_index": k})
        assert row["agent_name"] == "llenvs" and row["data_source"] == env.spec.name
        assert row["prompt"] == [{"role": m["role"], "content": m["content"]} for m in initial_messages(state)]
        assert row["extra_info"]["task_index"] == row["extra_info"]["index"] == k
        assert row["ground_truth"] == row["reward_model"]["ground_truth"] == truth(env, k)
        tools = [t.to_openai_schema() for t in state.observation.available_tools]
        assert json.loads(row["extra_info"].get("tools") or "[]") == tools
    assert (entry[0] == "calculator") == bool(rows[0]["extra_info"].get("tools"))
    # the reference rebuilds the environment the rows were made from: same tasks, same first turn
    rebuilt = from_reference(rows[0]["extra_info"]["env_reference"])
    assert len(rebuilt) == len(env) and truth(rebuilt, 3) == truth(env, 3)
    # the episode of a row's task index is the row's task: its answer solves it, another's does not
    loop = LLEnvsAgentLoop(rebuilt, MockTokenizer(), max_steps=4)
    k = rows[2]["extra_info"]["task_index"]
    right = asyncio.run(loop.run(k, lambda m: answer(truth(env, k))))
    wrong = asyncio.run(loop.run(k, lambda m: answer(truth(env, other_task(env, k)))))
    assert solved(right["rewards"], right["num_turns"]) and not solved(wrong["rewards"], wrong["num_turns"])


@pytest.mark.parametrize("route", ["function", "cli"])
@pytest.mark.parametrize("entry", MULTI_TURN, ids=IDS)
def test_multi_turn_rows_play_in_the_verl_agent_loop(entry, route, qwen3, tmp_path):
    """The parquet read by veRL's RLHFDataset, each item's fields passed to LLEnvsVerlAgentLoop.run as
    verl/experimental/agent_loop/agent_loop.py (0.9.1) passes them (agent_name taken out to pick the loop),
    the loop built by hydra from a YAML entry whose env is the rows' env_reference."""
    pytest.importorskip("verl.experimental.agent_loop.agent_loop")
    import hydra
    import torch
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset
    from verl.workers.rollout.replica import TokenOutput

    path, env = _export_verl(route, entry, tmp_path)
    # (scripts/frameworks_check.py runs the overlong-prompt filter on these rows; here it would cost ~20 s a test)
    config = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 1024, "filter_overlong_prompts": False,
                               "cache_dir": str(tmp_path / "cache")})
    dataset = RLHFDataset(data_files=[path], tokenizer=qwen3, config=config)
    assert len(dataset) == len(env)
    item = dataset[2]
    kwargs = {k: v for k, v in item.items() if not isinstance(v, torch.Tensor)}
    agent_name = kwargs.pop("agent_name")
    cfg_file = tmp_path / "agent_loops.yaml"
    cfg_file.write_text(f"- name: {agent_name}\n"
                        "  _target_: llenvs_go.integrations.verl_agent_loop.LLEnvsVerlAgentLoop\n"
                        f"  env: {kwargs['extra_info']['env_reference']}\n"
                        "  max_steps: 4\n")
    entry_cfg = OmegaConf.load(cfg_file)[0]
    trainer_cfg = OmegaConf.create({"actor_rollout_ref": {"rollout": {"prompt_length": 1024, "response_length": 1024,
                                                                      "agent": {}, "multi_turn": {}}}, "data": {}})

    def play(text: str) -> Any:
        ids = qwen3.encode(text, add_special_tokens=False) + [qwen3.convert_tokens_to_ids("<|im_end|>")]

        class ServerManager:
            async def generate(self, request_id, *, prompt_ids, sampling_params, **kw):
                return TokenOutput(token_ids=ids, log_probs=None)

        loop = hydra.utils.instantiate(config=entry_cfg, trainer_config=DictConfigWrap(config=trainer_cfg),
                                       server_manager=ServerManager(), tokenizer=qwen3, processor=None,
                                       hf_model_type=None, dataset_cls=None,
                                       data_config=DictConfigWrap(trainer_cfg.data), tools=ToolListWrap([]))
        return asyncio.run(loop.run({"temperature": 1.0, "logprobs": False}, **kwargs))

    k = kwargs["extra_info"]["task_index"]
    assert k == 2 and kwargs["raw_prompt"] == [{"role": m["role"], "content": m["content"]}
                                               for m in initial_messages(env.reset(options={"task_index": 2})[0])]
    right, wrong = play(answer(truth(env, k))), play(answer(truth(env, other_task(env, k))))
    assert right.extra_fields["task_index"] == wrong.extra_fields["task_index"] == 2
    assert solved(right.extra_fields["turn_scores"], right.num_turns)
    assert not solved(wrong.extra_fields["turn_scores"], wrong.num_turns)
    assert right.reward_score == sum(right.extra_fields["turn_scores"])
    # the conversation the loop opened with is the row's prompt
    assert qwen3.decode(right.prompt_ids).endswith("<|im_start|>assistant\n")
    assert kwargs["raw_prompt"][-1]["content"] in qwen3.decode(right.prompt_ids)


def test_multi_turn_rows_refuse_another_system_prompt_and_a_bad_agent_name():
    env = build(MULTI_TURN[0][1])
    with pytest.raises(ValueError, match="multi-turn.*system_prompt"):
        make_verl_dataset(env, system_prompt="Be brief.")
    with pytest.raises(ValueError, match="agent_name"):
        make_verl_dataset(env, agent_name="")
    assert [r["agent_name"] for r in make_verl_dataset(env, 2, agent_name="mine")] == ["mine", "mine"]
    assert [r["extra_info"]["task_index"] for r in make_verl_dataset(env, indices=[5, 0])] == [5, 0]
    with pytest.raises(IndexError, match="task index -1 is out of range"):
        make_verl_dataset(env, indices=[-1])
