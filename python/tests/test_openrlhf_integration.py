"""OpenRLHF adapter, called exactly as OpenRLHF 0.11.2 calls a reward file.

Call sites (openrlhf 0.11.2, installed from the package registry):
- openrlhf/utils/agent.py, SingleTurnAgentExecutor.__init__: spec_from_file_location("reward_func", path),
  exec_module, reward_module.reward_func; execute(): query = hf_tokenizer.decode(prompt + response tokens,
  skip_special_tokens=False), then asyncio.to_thread(self.reward_func, [query], [prompt], [label]): three
  positional lists of one sample; any exception is logged at INFO level and swallowed (reward None).
- openrlhf/trainer/ppo_utils/samples_generator.py, _process_response_into_experience:
  torch.tensor([reward_val]); extra_logs values: a tensor -> value.flatten()[0].item(), anything else ->
  torch.tensor([value]) (a dict or str fails); openrlhf/trainer/ppo_utils/experience.py merges info dicts
  key by key, so every sample must carry the same extra_logs keys.
- openrlhf/datasets/prompts_dataset.py, preprocess_data: input = data[input_key] (messages with
  --data.apply_chat_template), label = data[label_key] (any type, "" without --data.label_key).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from types import SimpleNamespace
from typing import Any

import pytest
from framework_mocks import QEnvironment, answers
from mask_helpers import MockTokenizer
from multiturn_export import IDS, MULTI_TURN, answer, export_rows, from_reference, other_task, solved, truth
from multiturn_export import qwen3 as qwen3  # noqa: F401 - a fixture

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop
from llenvs_go.integrations.chat_messages import initial_messages
from llenvs_go.integrations.openrlhf import (
    ERROR_KEY,
    MISMATCH_KEY,
    REFUSED_KEY,
    TIMEOUT_KEY,
    UNSCORED_KEY,
    make_openrlhf_dataset,
    make_openrlhf_reward_fn,
    response_of,
    reward_func,
    write_openrlhf_jsonl,
)

TEMPLATE = "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture()
def env():
    return environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)


def _prompt(row) -> str:
    """What PromptDataset gives with --data.apply_chat_template and a Qwen-style template."""
    system, user = row["input"]
    return TEMPLATE.format(system=system["content"], user=user["content"])


def _executor_call(fn, row, response: str):
    """SingleTurnAgentExecutor.execute (0.11.2): one sample per call, from a worker thread."""
    prompt = _prompt(row)
    query = prompt + response + "<|im_end|>"

    async def execute():
        return await asyncio.gather(asyncio.to_thread(fn, [query], [prompt], [row["label"]]))

    return asyncio.run(execute())[0]


def _values(x) -> list[float]:
    return x.tolist() if hasattr(x, "tolist") else list(x)


def _check_shape(out, n: int) -> None:
    assert set(out) == {"rewards", "scores", "extra_logs"}
    assert len(_values(out["rewards"])) == n and len(_values(out["scores"])) == n
    assert set(out["extra_logs"]) == {UNSCORED_KEY, MISMATCH_KEY, REFUSED_KEY, TIMEOUT_KEY, ERROR_KEY}
    for v in out["extra_logs"].values():  # numbers only: samples_generator.py wraps them in tensors
        assert isinstance(v, float)


def test_rows_and_labels(env, tmp_path):
    rows = make_openrlhf_dataset(env, num_tasks=4)
    assert len(rows) == 4 and set(rows[0]) == {"input", "label", "datasource"}
    assert [m["role"] for m in rows[0]["input"]] == ["system", "user"]
    assert rows[2]["label"].startswith("llenvs:2:") and '"seed":42' in rows[2]["label"]
    path = write_openrlhf_jsonl(rows, tmp_path / "train.jsonl")
    back = [json.loads(line) for line in open(path, encoding="utf-8")]
    assert back == rows
    text_rows = make_openrlhf_dataset(env, num_tasks=2, conversational=False)
    assert isinstance(text_rows[0]["input"], str) and "<answer>" in text_rows[0]["input"]


def test_executor_call_scores_one_sample(env):
    rows = make_openrlhf_dataset(env, num_tasks=3)
    fn = make_openrlhf_reward_fn(env)
    good = answers(env, range(3))
    for k in range(3):
        out = _executor_call(fn, rows[k], good[k])
        _check_shape(out, 1)
        assert _values(out["rewards"]) == [1.0] and out["extra_logs"][UNSCORED_KEY] == 0.0
    assert _values(_executor_call(fn, rows[0], "<answer>-3</answer>")["rewards"]) == [0.0]


def test_returns_tensors_with_torch(env):
    torch = pytest.importorskip("torch")
    rows = make_openrlhf_dataset(env, num_tasks=1)
    out = _executor_call(make_openrlhf_reward_fn(env), rows[0], answers(env, [0])[0])
    for v in (out["rewards"], out["scores"]):
        assert isinstance(v, torch.Tensor) and v.dtype == torch.float32 and v.dim() == 1
    assert out["rewards"] is not out["scores"]
    # samples_generator.py (0.11.2)
    assert torch.tensor([out["rewards"]]).flatten().tolist() == [1.0]
    assert {k: torch.tensor([v]).tolist() for k, v in out["extra_logs"].items()} == {UNSCORED_KEY: [0.0],
                                                                                      MISMATCH_KEY: [0.0],
                                                                                      REFUSED_KEY: [0.0],
                                                                                      TIMEOUT_KEY: [0.0],
                                                                                      ERROR_KEY: [0.0]}
    assert make_openrlhf_reward_fn(env)([], [], [])["rewards"].shape == (0,)


@pytest.mark.parametrize("label", ["", None, "garbage", "llenvs:x:y:z", "llenvs:5000::", 5000, -1, 2.5, {"a": 1},
                                   "llenvs:1:00000000:", "\u0661", "\uff11", "llenvs:\u0661::", " \u0967 "])
def test_unscorable_samples_get_zero_and_are_counted(env, label):
    fn = make_openrlhf_reward_fn(env)
    rows = make_openrlhf_dataset(env, num_tasks=2)
    good = answers(env, range(2))
    # a batch of three: the bad sample between two good ones
    out = fn([good[0], good[1], good[1]], ["", "", ""], [rows[0]["label"], label, rows[1]["label"]])
    _check_shape(out, 3)
    assert _values(out["rewards"]) == [1.0, 0.0, 1.0]
    assert out["extra_logs"][UNSCORED_KEY] == 1.0
    # the shipped function too
    out = reward_func([good[0], good[1]], ["", ""], [label, rows[1]["label"]])
    assert _values(out["rewards"]) == [0.0, 1.0]


def test_none_and_odd_inputs_never_raise(env):
    fn = make_openrlhf_reward_fn(env)
    label = make_openrlhf_dataset(env, num_tasks=1)[0]["label"]
    for queries, prompts, labels in [([None], [None], [label]), ([b"x"], ["p"], [label]), ([], [], []),
                                     (["x"], None, None), (["x"], ["p"], []), (None, None, None)]:
        out = fn(queries, prompts, labels)
        assert set(out) == {"rewards", "scores", "extra_logs"}


def test_rows_of_another_environment_are_counted_as_mismatches(env):
    rows = make_openrlhf_dataset(env, num_tasks=1)
    good = answers(env, [0])[0]
    other = environment_registry.get(name="leg_counting", size=1000, seed=8)
    out = _executor_call(make_openrlhf_reward_fn(other), rows[0], good)
    assert _values(out["rewards"]) == [0.0] and out["extra_logs"][MISMATCH_KEY] == 1.0
    # a label whose ground-truth fingerprint is wrong (the environment changed between building and scoring)
    forged = rows[0]["label"].replace(rows[0]["label"].split(":")[2], "deadbeef", 1)
    out = reward_func([good], [""], [forged])
    assert out["extra_logs"][MISMATCH_KEY] == 1.0


def test_shipped_file_loaded_as_openrlhf_loads_it(env):
    import llenvs_go.integrations.openrlhf_reward as shipped

    spec = importlib.util.spec_from_file_location("reward_func", shipped.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = module.reward_func
    other = environment_registry.get(name="leg_counting", size=200, seed=3)
    rows = make_openrlhf_dataset(env, num_tasks=3) + make_openrlhf_dataset(other, num_tasks=3)
    good = answers(env, range(3)) + answers(other, range(3))
    assert [_values(_executor_call(fn, r, g)["rewards"])[0] for r, g in zip(rows, good, strict=True)] == [1.0] * 6


def test_page_snippet_task_indices_and_prefix_stripping():
    # llenvs tests/test_openrlhf_integration.py
    fn = make_openrlhf_reward_fn(QEnvironment())
    out = fn(["Q0?0"], ["Q0?"], [""], task_indices=[0])
    assert len(_values(out["rewards"])) == 1 and len(_values(out["scores"])) == 1
    out = fn(["Q0?0", "Q1?wrong"], ["Q0?", "Q1?"], ["", ""], task_indices=[0, 1])
    assert _values(out["rewards"]) == [1.0, 0.0] and _values(out["scores"]) == [1.0, 0.0]
    assert isinstance(out["extra_logs"], dict)
    # labels made from a Python environment: the task index and the ground-truth fingerprint
    rows = make_openrlhf_dataset(QEnvironment(), num_tasks=3, conversational=False)
    assert rows[1]["input"] == "Q1?"
    assert _values(fn(["Q1?1"], ["Q1?"], [rows[1]["label"]])["rewards"]) == [1.0]
    assert make_openrlhf_reward_fn(QEnvironment(offset=1))(["Q1?1"], ["Q1?"], [rows[1]["label"]]) \
        ["extra_logs"][MISMATCH_KEY] == 1.0


def test_response_when_the_prompt_is_not_a_prefix():
    prompt = "<|im_start|>user\nHow many legs?<|im_end|>\n<|im_start|>assistant\n"
    # decode(encode(prompt)) may differ at the start, and long prompts are truncated on the left
    assert response_of("legs?<|im_end|>\n<|im_start|>assistant\n<answer>4</answer>", prompt) == "<answer>4</answer>"
    assert response_of(prompt + "<answer>4</answer>", prompt) == "<answer>4</answer>"
    assert response_of("no prompt here <answer>4</answer>", prompt) == "no prompt here <answer>4</answer>"


def test_shipped_reward_func_scores_plain_ground_truth_labels(monkeypatch):
    # OpenRLHF's math recipes write the ground truth itself as the label; the verdict is math-verify's on the
    # response's last \boxed{} (checked against the real package on generated responses).
    math_verify = pytest.importorskip("math_verify")
    golds = ["2", "\\frac{1}{2}", "0.5", "-3", "\\sqrt{2}", "x+1", "(1,2)", "12"]
    answers = ["2", "\\frac{2}{4}", "1/2", "-3.0", "2^{1/2}", "1+x", "(1, 2)", "13", "x+2", "\\frac{\\frac{1}{2}}{3}"]
    queries, labels, want = [], [], []
    for g in golds:
        for a in answers:
            for wrap in ("So the answer is \\boxed{%s}.", "\\boxed{9} first, then \\boxed{%s}", "no box: %s"):
                response = wrap.replace("%s", a)
                queries.append("PROMPT " + response)
                labels.append(g)
                boxed = "\\boxed" in response
                last = response[response.rfind("\\boxed{"):] if boxed else ""
                want.append(1.0 if boxed and math_verify.verify(math_verify.parse(f"\\boxed{{{g}}}"),
                                                                 math_verify.parse(last)) else 0.0)
    out = reward_func(queries, ["PROMPT "] * len(queries), labels)
    got = _values(out["rewards"])
    disagree = [(labels[k], queries[k], got[k], want[k]) for k in range(len(got)) if got[k] != want[k]]
    assert not disagree, disagree[:5]
    assert sum(want) >= 10  # the corpus holds right answers as well as wrong ones
    assert out["extra_logs"][UNSCORED_KEY] == 0.0


def test_plain_labels_beside_references_and_the_exact_rule(env, monkeypatch):
    rows = make_openrlhf_dataset(env, num_tasks=2)
    good = answers(env, range(2))
    out = reward_func([good[0], "\\boxed{7}", good[1], "\\boxed{7}", "x"], None,
                      [rows[0]["label"], "7", rows[1]["label"], 7, ""])
    assert _values(out["rewards"]) == [1.0, 1.0, 1.0, 1.0, 0.0]
    assert out["extra_logs"][UNSCORED_KEY] == 1.0  # the empty label
    monkeypatch.setenv("LLENVS_GO_LABEL_SCORING", "exact")
    assert _values(reward_func(["\\boxed{0.5}", "\\boxed{0.5}"], None, ["0.5", "\\frac12"])["rewards"]) == [1.0, 0.0]
    monkeypatch.setenv("LLENVS_GO_LABEL_SCORING", "fuzzy")
    with pytest.raises(ValueError, match="'fuzzy' is not one of math, exact"):
        reward_func(["\\boxed{1}"], None, ["1"])


# -- multi-turn rows: exported, read back, played by the agent executor (openrlhf_agent.py) ------------------


def _export_openrlhf(route: str, entry: tuple, tmp_path) -> tuple[str, Any]:
    """A multi-turn environment exported to JSONL by make_openrlhf_dataset or by the export command; the
    path and the environment the rows were made from."""
    path = str(tmp_path / "train.jsonl")

    def reference(p: str) -> str:
        with open(p, encoding="utf-8") as f:
            return json.loads(json.loads(f.readline())["label"])["env_reference"]

    return path, export_rows(route, entry, path, "openrlhf", write_openrlhf_jsonl, make_openrlhf_dataset, reference)


def _read_jsonl(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("route", ["function", "cli"])
@pytest.mark.parametrize("entry", MULTI_TURN, ids=IDS)
def test_multi_turn_rows_carry_what_the_agent_executor_reads(entry, route, tmp_path):
    path, env = _export_openrlhf(route, entry, tmp_path)
    rows = _read_jsonl(path)
    assert len(rows) == len(env)
    references = set()
    for k, row in enumerate(rows):
        state, _ = env.reset(options={"task_index": k})
        assert row["input"] == [{"role": m["role"], "content": m["content"]} for m in initial_messages(state)]
        assert row["datasource"] == env.spec.name
        label = json.loads(row["label"])
        assert label["task_index"] == k
        references.add(label["env_reference"])
    reference, = references
    rebuilt = from_reference(reference)
    assert len(rebuilt) == len(env) and truth(rebuilt, 4) == truth(env, 4)
    loop = LLEnvsAgentLoop(rebuilt, MockTokenizer(), max_steps=4)
    k = json.loads(rows[3]["label"])["task_index"]
    right = asyncio.run(loop.run(k, lambda m: answer(truth(env, k))))
    wrong = asyncio.run(loop.run(k, lambda m: answer(truth(env, other_task(env, k)))))
    assert solved(right["rewards"], right["num_turns"]) and not solved(wrong["rewards"], wrong["num_turns"])


@pytest.mark.parametrize("route", ["function", "cli"])
@pytest.mark.parametrize("entry", MULTI_TURN, ids=IDS)
def test_multi_turn_rows_play_in_the_agent_executor(entry, route, qwen3, tmp_path, monkeypatch):
    """The JSONL read by OpenRLHF's PromptDataset (--data.input_key input --data.label_key label
    --data.apply_chat_template), the agent file loaded as openrlhf/trainer/ray/vllm_engine.py (0.11.2) loads
    it, with $LLENVS_GO_AGENT_ENV set to the labels' env_reference, executing a sample's label."""
    pytest.importorskip("openrlhf.utils.agent")
    datasets = pytest.importorskip("datasets")
    from openrlhf.datasets import PromptDataset
    from openrlhf.utils.agent import AgentExecutorBase

    import llenvs_go.integrations.openrlhf_agent as agent

    path, env = _export_openrlhf(route, entry, tmp_path)
    strategy = SimpleNamespace(args=SimpleNamespace(data=SimpleNamespace(input_key="input", label_key="label",
                                                                         apply_chat_template=True,
                                                                         image_key="images")),
                               is_rank_0=lambda: True)
    dataset = PromptDataset(datasets.load_dataset("json", data_files=path)["train"], qwen3, strategy)
    assert len(dataset) == len(env)
    _, prompt, label, _ = dataset[4]
    monkeypatch.setenv("LLENVS_GO_AGENT_ENV", json.loads(label)["env_reference"])
    spec = importlib.util.spec_from_file_location("agent_module", agent.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    executor = module.AgentExecutor()

    class Engine:
        """RolloutRayActor as the executor sees it, with a model that always says ``text``."""

        def __init__(self, text: str):
            self.ids = qwen3.encode(text, add_special_tokens=False) + [qwen3.convert_tokens_to_ids("<|im_end|>")]
            self.contexts: list[list[int]] = []

        async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
            self.contexts.append(list(prompt_token_ids))
            out = SimpleNamespace(token_ids=self.ids, text=qwen3.decode(self.ids, skip_special_tokens=True),
                                  finish_reason="stop", logprobs=None)
            return SimpleNamespace(outputs=[out])

    def play(text: str) -> tuple[dict[str, Any], Engine]:
        engine = Engine(text)
        params = SimpleNamespace(max_tokens=256, logprobs=None)
        res = asyncio.run(executor.execute(prompt=prompt, label=label, sampling_params=params, max_length=4096,
                                           hf_tokenizer=qwen3, llm_engine=engine))
        return res, engine

    k = json.loads(label)["task_index"]
    assert k == 4
    (right, engine), (wrong, _) = play(answer(truth(env, k))), play(answer(truth(env, other_task(env, k))))
    assert len(right["action_ranges"]) == 1 and right["reward"] > 0 and not right["truncated"]
    assert len(wrong["action_ranges"]) > 1 or wrong["reward"] <= 0
    # the episode opened with the row's conversation: the first context is PromptDataset's prompt, tokenized
    # (with the environment's tools rendered in too: OpenRLHF's template call has none)
    first = qwen3.decode(engine.contexts[0])
    if entry[0] == "calculator":
        assert "# Tools" in first and "# Tools" not in prompt and first.endswith(prompt.split("<|im_start|>user")[-1])
    else:
        assert first == prompt
