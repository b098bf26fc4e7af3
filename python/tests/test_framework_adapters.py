"""The multi-turn adapters driven the way the frameworks' installed sources drive them. Each test skips when
its framework (or the Qwen3 tokenizer) is not installed. Checked with verl 0.9.1, trl 1.16.0 and
openrlhf 0.11.2 (transformers 5.9.0, torch 2.11.0)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import types

import pytest
from mask_helpers import MultiTurnMockEnv, qwen3_tokenizer

from llenvs_go.integrations import TrajectoryMasker


@pytest.fixture(scope="module")
def tok():
    return qwen3_tokenizer()


def scripted_ids(tok, turn: int) -> list[int]:
    text = f"guess {turn}" if turn % 2 else "<answer>4</answer>"
    return tok.encode(text, add_special_tokens=False) + [tok.convert_tokens_to_ids("<|im_end|>")]


def check_sequence(tok, prompt_ids, response_ids, response_mask, generated):
    """The model tokens are exactly the generated ids, in order; the rest is the template's turn markup."""
    assert len(response_ids) == len(response_mask)
    assert [t for t, m in zip(response_ids, response_mask, strict=True) if m] == [i for g in generated for i in g]
    text = tok.decode(list(prompt_ids) + list(response_ids), skip_special_tokens=False)
    assert text.startswith("<|im_start|>user\n") and text.count("<|im_start|>assistant\n") == len(generated)


# -- veRL ---------------------------------------------------------------------------------------------------


def test_verl_agent_loop(tok, tmp_path):
    """As verl/experimental/agent_loop/agent_loop.py (0.9.1) does: the YAML of agent_loop_config_path loaded
    with OmegaConf, the loop built by hydra.utils.instantiate with the worker's keyword arguments, then
    ``await agent_loop.run(sampling_params, **row)`` returning an AgentLoopOutput."""
    pytest.importorskip("verl.experimental.agent_loop.agent_loop")
    import hydra
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import AgentLoopOutput, DictConfigWrap, ToolListWrap
    from verl.workers.rollout.replica import TokenOutput

    cfg_file = tmp_path / "agent_loops.yaml"
    cfg_file.write_text(
        "- name: llenvs\n"
        "  _target_: llenvs_go.integrations.verl_agent_loop.LLEnvsVerlAgentLoop\n"
        "  env: {name: leg_counting, adapter: reasoning_gym, size: 10, seed: 1}\n"
        "  max_steps: 4\n")
    entry = OmegaConf.load(cfg_file)[0]
    config = OmegaConf.create({"actor_rollout_ref": {"rollout": {"prompt_length": 1024, "response_length": 512,
                                                                 "agent": {}, "multi_turn": {}}}, "data": {}})
    requests: list[tuple[str, list[int]]] = []
    generated: list[list[int]] = []

    class ServerManager:
        async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs):
            requests.append((request_id, list(prompt_ids)))
            ids = scripted_ids(tok, len(generated))
            generated.append(ids)
            return TokenOutput(token_ids=ids, log_probs=[-0.25] * len(ids))

    def build(**override):
        return hydra.utils.instantiate(config=entry, trainer_config=DictConfigWrap(config=config),
                                       server_manager=ServerManager(), tokenizer=tok, processor=None,
                                       hf_model_type=None, dataset_cls=None, data_config=DictConfigWrap(config.data),
                                       tools=ToolListWrap([]), **override)

    row = {"raw_prompt": [], "data_source": "leg_counting", "extra_info": {"task_index": 2, "split": "train"},
           "index": 2, "tools_kwargs": {}, "interaction_kwargs": {}}
    out = asyncio.run(build().run({"temperature": 1.0, "logprobs": True}, **row))
    assert isinstance(out, AgentLoopOutput) and out.num_turns == 1
    check_sequence(tok, out.prompt_ids, out.response_ids, out.response_mask, generated)
    assert out.response_logprobs == [-0.25] * len(out.response_ids)
    assert out.reward_score == out.extra_fields["turn_scores"][0]
    assert {"prompts", "responses", "response_mask", "rollout_log_probs"} <= set(out.as_dict())

    # a multi-turn environment (passed as an object instead of the YAML's env): one request id per episode
    requests.clear()
    generated.clear()
    loop = build(env=MultiTurnMockEnv({0: 3}))
    out = asyncio.run(loop.run({"temperature": 1.0, "logprobs": False}, **{**row, "extra_info": {"task_index": 0}}))
    assert out.num_turns == 3 and len({r for r, _ in requests}) == 1 and out.response_logprobs is None
    check_sequence(tok, out.prompt_ids, out.response_ids, out.response_mask, generated)
    assert out.extra_fields["turn_scores"] == [0.0, 0.0, 1.0] and out.reward_score == 1.0
    full = list(out.prompt_ids) + list(out.response_ids)
    assert all(full[:len(c)] == c for _, c in requests)  # each turn's context extends the one before


def test_verl_row_without_task_index(tok):
    pytest.importorskip("verl.experimental.agent_loop.agent_loop")
    from llenvs_go.integrations.verl_agent_loop import task_index_of

    assert task_index_of({"extra_info": {"index": 3}}) == 3 and task_index_of({"index": 4}) == 4
    with pytest.raises(KeyError, match="task_index"):
        task_index_of({"extra_info": None})


# -- OpenRLHF -----------------------------------------------------------------------------------------------


def _load_agent_file(path):
    """openrlhf/trainer/ray/vllm_engine.py::_load_agent_executor (0.11.2): the file runs as module
    ``agent_module``, its AgentExecutor must subclass AgentExecutorBase and is built with no arguments."""
    from openrlhf.utils.agent import AgentExecutorBase

    spec = importlib.util.spec_from_file_location("agent_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    return module


class FakeVLLM:
    """What the executor sees of RolloutRayActor: ``await generate(prompt_token_ids, sampling_params,
    multi_modal_data=None)`` returning a vLLM RequestOutput."""

    def __init__(self, tok):
        self.tok = tok
        self.generated: list[list[int]] = []
        self.contexts: list[list[int]] = []

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        self.contexts.append(list(prompt_token_ids))
        ids = scripted_ids(self.tok, len(self.generated))[: sampling_params.max_tokens]
        self.generated.append(ids)
        lps = [{t: types.SimpleNamespace(logprob=-0.5)} for t in ids]
        out = types.SimpleNamespace(token_ids=ids, text=self.tok.decode(ids, skip_special_tokens=True),
                                    finish_reason="stop", logprobs=lps)
        return types.SimpleNamespace(outputs=[out])


def test_openrlhf_agent_file(tok, monkeypatch):
    pytest.importorskip("openrlhf.utils.agent")
    import llenvs_go.integrations.openrlhf_agent as agent

    monkeypatch.setenv("LLENVS_GO_AGENT_ENV", json.dumps({"name": "leg_counting", "adapter": "reasoning_gym",
                                                          "size": 10, "seed": 1}))
    module = _load_agent_file(agent.__file__)
    executor = module.AgentExecutor()
    engine = FakeVLLM(tok)
    params = types.SimpleNamespace(max_tokens=64, logprobs=1)
    res = asyncio.run(executor.execute(prompt="p", label="3", sampling_params=params, max_length=1024,
                                       hf_tokenizer=tok, llm_engine=engine))
    assert set(res) >= {"prompt", "label", "reward", "scores", "observation_tokens", "action_ranges",
                        "rollout_log_probs", "truncated", "extra_logs"}
    (start, end), = res["action_ranges"]
    assert res["observation_tokens"][start:end] == engine.generated[0]
    assert len(res["rollout_log_probs"]) == len(res["observation_tokens"])
    assert all(isinstance(v, float) for v in res["extra_logs"].values())

    # a multi-turn environment: one action range per turn, each exactly the generated ids
    executor = module.AgentExecutor(env=MultiTurnMockEnv({0: 3}))
    engine = FakeVLLM(tok)
    res = asyncio.run(executor.execute(prompt="p", label=json.dumps({"task_index": 0}), sampling_params=params,
                                       max_length=2048, hf_tokenizer=tok, llm_engine=engine))
    tokens = res["observation_tokens"]
    assert [tokens[s:e] for s, e in res["action_ranges"]] == engine.generated
    assert res["reward"] == 1.0 and not res["truncated"]
    lps = res["rollout_log_probs"]
    assert [lps[i] for s, e in res["action_ranges"] for i in range(s, e)] == [-0.5] * sum(map(len, engine.generated))
    assert all(tokens[:len(c)] == c for c in engine.contexts)
    masker = TrajectoryMasker(tok)
    assert tok.decode(engine.contexts[0]) == masker.render([{"role": "user", "content": "Task 0: begin"}],
                                                           generation_prompt=True)

    # a token budget that runs out: truncated, every range inside the budget
    engine = FakeVLLM(tok)
    budget = len(engine.contexts) + 40
    res = asyncio.run(executor.execute(prompt="p", label=0, sampling_params=params, max_length=budget,
                                       hf_tokenizer=tok, llm_engine=engine))
    assert res["truncated"] and len(res["observation_tokens"]) <= budget


def test_openrlhf_label_errors():
    pytest.importorskip("openrlhf.utils.agent")
    from llenvs_go.integrations.openrlhf_agent import task_index_of

    assert task_index_of(" 7 ") == 7 and task_index_of({"task_index": 2}) == 2
    with pytest.raises(ValueError, match="task index"):
        task_index_of([1])


# -- TRL ----------------------------------------------------------------------------------------------------


def test_trl_grpo_trainer_with_rollout_func(tok, tmp_path):
    """A real GRPOTrainer (trl 1.16.0) step on CPU with a tiny Qwen2 model: the trainer calls
    rollout_func(prompts, trainer) (grpo_trainer.py ``_generate``), uses env_mask as the tool mask and passes
    the forwarded env_reward to the reward function."""
    trl = pytest.importorskip("trl")
    torch = pytest.importorskip("torch")
    datasets = pytest.importorskip("datasets")
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from llenvs_go.integrations.trl_rollout import environment_reward, make_grpo_rollout_func

    torch.manual_seed(0)
    model = Qwen2ForCausalLM(Qwen2Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128,
                                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                         max_position_embeddings=512, tie_word_embeddings=True))
    env = MultiTurnMockEnv({i: 1 + i % 3 for i in range(4)})
    ds = datasets.Dataset.from_list([{"prompt": [{"role": "user", "content": f"Task {i}: begin"}], "task_index": i}
                                     for i in range(4)])
    seen: dict[str, list] = {}

    def reward(completions, **kwargs):
        seen.setdefault("task_index", []).extend(kwargs["task_index"])
        return environment_reward(completions, **kwargs)

    args = trl.GRPOConfig(output_dir=str(tmp_path), use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=24, max_steps=1, beta=0.0, report_to=[], logging_steps=1,
                          save_strategy="no")
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[reward], args=args, train_dataset=ds, processing_class=tok,
                              rollout_func=make_grpo_rollout_func(env, max_steps=3))
    trainer.train()
    assert seen["task_index"] and set(seen["task_index"]) <= {0, 1, 2, 3}
