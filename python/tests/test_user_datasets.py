"""ReasoningGymEnvironment over a dataset object of the user's own, as llenvs builds it:
``ReasoningGymEnvironment(dataset, answer_extractor=None, extra_rewards=())``."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from llenvs_go.adapters.reasoning_gym import ReasoningGymEnvironment, ReasoningGymHidden
from llenvs_go.core.extraction import NativeExtractor, RegexExtractor, TagBasedExtractor
from llenvs_go.core.reward import FormatReward
from llenvs_go.core.state import Action, Observation
from llenvs_go.integrations import DatasetProvider, Scorer
from llenvs_go.integrations.openrlhf import make_openrlhf_reward_fn
from llenvs_go.integrations.trl import make_trl_dataset, make_trl_reward_fn
from llenvs_go.integrations.verl import make_verl_dataset, make_verl_reward_fn


class ArithmeticDataset:
    """A stand-in for a reasoning-gym dataset: entries by index, exact-match ``score_answer``."""

    name = "arith"

    def __init__(self) -> None:
        self.entries = [{"question": "What is 2 + 2?", "answer": "4"},
                        {"question": "What is 3 * 3?", "answer": "9"},
                        {"question": "What is 10 / 2?", "answer": 5}]
        self.calls: list[tuple[str, str]] = []

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.entries[i]

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """1.0 for the answer, 0.25 for another number (a score only this dataset gives), else 0.0."""
        self.calls.append((answer, entry["question"]))
        if answer is None:
            return 0.0
        if answer.strip() == str(entry["answer"]):
            return 1.0
        return 0.25 if answer.strip().isdigit() else 0.0


def _last_word(text: str) -> str | None:
    words = text.split()
    return words[-1] if words else None


def test_dataset_keyword_builds_a_python_backed_reasoning_gym_environment():
    env = ReasoningGymEnvironment(dataset=ArithmeticDataset())
    assert isinstance(env, ReasoningGymEnvironment)
    assert env.backend == "python"
    spec = env.spec
    assert (spec.name, spec.adapter, spec.max_steps, spec.is_multi_turn, spec.pure_step) == \
        ("arith", "reasoning_gym", 1, False, True)
    assert spec.observation_type is Observation and spec.action_type is Action
    assert spec.metadata["dataset_size"] == 3 and len(env) == 3
    assert [r.name for r in env.reward_functions] == ["correctness"]
    state, info = env.reset(options={"task_index": 2, "episode_id": "e1"})
    assert state.observation.prompt == "What is 10 / 2?" == state.observation.task.text
    assert isinstance(state.hidden, ReasoningGymHidden)
    assert (state.hidden.expected_answer, state.hidden.task_index, state.metadata.episode_id) == ("5", 2, "e1")
    assert info == {"task_index": 2, "dataset_name": "arith", "question": "What is 10 / 2?"}
    with pytest.raises(ValueError, match=r"task_index 3 out of bounds \[0, 3\)"):
        env.reset(options={"task_index": 3})
    result = env.step(state, Action.from_text("so <answer>5</answer>"))
    assert result.terminated and result.next_state.metadata.is_terminal
    assert result.rewards.by_name("correctness").reward == 1.0
    assert (result.info["extracted_answer"], result.info["expected_answer"]) == ("5", "5")
    assert env.step(state, Action.from_text("no tags")).rewards.total == 0.0


def test_positional_dataset_go_extractor_and_python_extra_reward():
    ds = ArithmeticDataset()
    env = ReasoningGymEnvironment(ds, RegexExtractor(pattern=r"(\d+)"), (FormatReward(TagBasedExtractor()),))
    assert [r.name for r in env.reward_functions] == ["correctness", "format"]
    state, _ = env.reset(options={"task_index": 0})
    result = env.step(state, Action.from_text("The answer is 4"))
    assert result.info["extracted_answer"] == "4"
    assert result.rewards.by_name("correctness").reward == 1.0
    assert result.rewards.by_name("format").reward == 0.0
    result = env.step(state, Action.from_text("The answer is <answer>7</answer>"))
    assert result.rewards.by_name("correctness").reward == 0.25  # the dataset's own score_answer decided
    assert result.rewards.by_name("format").reward == 1.0


def test_python_extractor_runs_in_python_through_scorer():
    env = ReasoningGymEnvironment(dataset=ArithmeticDataset(), answer_extractor=NativeExtractor(fn=_last_word))
    assert env.python_extractor is not None
    totals = [r.total for r in Scorer(env).score_batch([0, 1, 2], ["it is 4", "it is 8", "five 5"])]
    assert totals == [1.0, 0.25, 1.0]
    assert Scorer(env).score(1, "nine 9").extracted_answer == "9"


def test_scorer_and_dataset_provider_and_pickle():
    env = ReasoningGymEnvironment(dataset=ArithmeticDataset())
    results = Scorer(env).score_batch([0, 1, 2], ["<answer>4</answer>", "<answer>8</answer>", "x"])
    assert [r.total for r in results] == [1.0, 0.25, 0.0]
    assert [r.extracted_answer for r in results] == ["4", "8", None]
    item = DatasetProvider(env)[1]
    assert (item.task_index, item.prompt, item.ground_truth) == (1, "What is 3 * 3?", "9")
    copy = pickle.loads(pickle.dumps(env))
    assert Scorer(copy).score(2, "<answer>5</answer>").total == 1.0


def test_scorer_timeout_runs_the_datasets_score_answer_in_a_worker():
    env = ReasoningGymEnvironment(dataset=ArithmeticDataset())
    scorer = Scorer(env, timeout=30)
    assert scorer.timeout == 30
    assert [r.total for r in scorer.score_batch([0, 1], ["<answer>4</answer>", "<answer>9</answer>"])] == [1.0, 1.0]
    assert env.dataset.calls == []  # scored by the worker's copy of the dataset, not in this process


def test_framework_adapters_score_a_user_dataset():
    env = ReasoningGymEnvironment(dataset=ArithmeticDataset())
    answers = ["<answer>4</answer>", "<answer>zero</answer>", "<answer>5</answer>"]
    rows = make_trl_dataset(env)
    columns = {k: rows[k] for k in rows.column_names if k != "prompt"}
    assert make_trl_reward_fn(env)(prompts=rows["prompt"], completions=answers, **columns) == [1.0, 0.0, 1.0]
    verl_rows = make_verl_dataset(env)
    compute = make_verl_reward_fn(env)
    assert [compute(r["data_source"], a, r["reward_model"]["ground_truth"], r["extra_info"])
            for r, a in zip(verl_rows, answers, strict=True)] == [1.0, 0.0, 1.0]
    out = make_openrlhf_reward_fn(env)(queries=["Q" + a for a in answers], prompts=["Q"] * 3, labels=["0", "1", "2"])
    assert list(map(float, out["rewards"])) == [1.0, 0.0, 1.0]


def test_a_real_reasoning_gym_dataset_is_named_by_its_task():
    rg = pytest.importorskip("reasoning_gym")
    ds = rg.create_dataset("knights_knaves", size=4, seed=3)
    env = ReasoningGymEnvironment(dataset=ds)
    assert env.spec.name == "knights_knaves"
    answers = [f"<answer>{ds[i]['answer']}</answer>" for i in range(4)]
    assert [r.total for r in Scorer(env).score_batch(list(range(4)), answers)] == [1.0] * 4


class UnpicklableDataset(ArithmeticDataset):
    """A dataset that cannot travel to a worker process (it holds a lock)."""

    def __init__(self) -> None:
        super().__init__()
        import threading

        self.lock = threading.Lock()


def test_a_dataset_that_cannot_be_pickled_is_scored_in_this_process():
    env = ReasoningGymEnvironment(dataset=UnpicklableDataset())
    with pytest.warns(RuntimeWarning, match="cannot be pickled"):
        results = Scorer(env).score_batch([0, 1], ["<answer>4</answer>", "<answer>9</answer>"])
    assert [r.total for r in results] == [1.0, 1.0]
    assert [q for _, q in env.dataset.calls] == ["What is 2 + 2?", "What is 3 * 3?"]


def test_an_object_without_score_answer_is_refused():
    with pytest.raises(TypeError, match="missing: score_answer"):
        ReasoningGymEnvironment(dataset=[{"question": "q", "answer": "a"}])
