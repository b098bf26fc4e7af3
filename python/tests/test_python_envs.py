"""Environments written in Python, and Go-backed ones whose lifecycle is overridden, through Scorer and
DatasetProvider: llenvs' own tests (tests/test_scoring.py, tests/test_dataset_provider.py) with its mocks."""

from __future__ import annotations

import dataclasses
import pickle
import uuid
from typing import Any

import pytest

from llenvs_go.adapters import CorrectnessRewardFunction, ReasoningGymEnvironment, ReasoningGymHidden
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import (
    Action,
    ImageContent,
    Observation,
    ObservationContent,
    ObservationImages,
    State,
    StateMetadata,
)
from llenvs_go.core.tools import ToolDefinition
from llenvs_go.integrations import DatasetProvider, Scorer, ScoringResult, ScoringResults, TaskItem


@dataclasses.dataclass(frozen=True)
class MockHidden:
    expected_answer: str
    task_index: int


class SubstringCorrectness:
    """1.0 when the expected answer occurs in the text; metadata {"extracted", "expected"}."""

    name = "correctness"
    reward_type = RewardType.OUTCOME

    def compute(self, state: State, action: Action, next_state: State) -> Signal:
        expected = state.hidden.expected_answer
        found = action.text is not None and expected in action.text
        return Signal(name=self.name, reward_type=self.reward_type, reward=1.0 if found else 0.0,
                      metadata={"extracted": action.text if found else None, "expected": expected})


class StartsWithAnswer:
    """1.0 when the text starts with "Answer:"; no metadata."""

    name = "format"
    reward_type = RewardType.FORMAT

    def compute(self, state: State, action: Action, next_state: State) -> Signal:
        return Signal(name=self.name, reward_type=self.reward_type,
                      reward=1.0 if (action.text or "").startswith("Answer:") else 0.0)


class MockEnvironment:
    """llenvs' single-turn mock: task i asks "What is {i} * 10?" and expects str(i * 10)."""

    def __init__(self, n: int = 5, observation_extra: dict[str, Any] | None = None, spec_extra: dict | None = None):
        self.n = n
        self.observation_extra = observation_extra or {}
        self.spec_extra = spec_extra or {}
        self.reward_functions = (SubstringCorrectness(), StartsWithAnswer())
        self.resets = 0

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="mock", adapter="mock", max_steps=1, pure_step=True, **self.spec_extra)

    @property
    def prompts(self) -> dict[str, str]:
        return {}

    @property
    def available_tools(self) -> tuple:
        return ()

    def __len__(self) -> int:
        return self.n

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        options = options or {}
        if "task_index" not in options:
            raise ValueError("options must contain 'task_index'")
        i = options["task_index"]
        if i < 0 or i >= self.n:
            raise ValueError(f"task_index {i} out of bounds [0, {self.n})")
        self.resets += 1
        prompt = f"What is {i} * 10?"
        obs = Observation(prompt=prompt, messages=({"role": "user", "content": prompt},), **self.observation_extra)
        state = State(observation=obs, hidden=MockHidden(expected_answer=str(i * 10), task_index=i),
                      metadata=StateMetadata(step=0, episode_id=options.get("episode_id") or str(uuid.uuid4()),
                                             info={"task_index": i}))
        return state, {"task_index": i}

    def compute_rewards(self, state: State, action: Action, next_state: State) -> SignalBundle:
        return SignalBundle(tuple(rf.compute(state, action, next_state) for rf in self.reward_functions))

    def step(self, state: State, action: Action) -> StepResult:
        if action.text == "boom":
            raise RuntimeError("the environment failed on this response")
        rewards = self.compute_rewards(state, action, state)
        next_state = state.with_metadata(step=state.metadata.step + 1, is_terminal=True)
        return StepResult(next_state=next_state, rewards=rewards, terminated=True)


class MultiTurnMock(MockEnvironment):
    """A multi-turn environment whose hidden state is a dict (no expected_answer)."""

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="chat", adapter="mock", is_multi_turn=True, max_steps=3)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        i = (options or {})["task_index"]
        prompt = f"Talk about {i}"
        state = State(observation=Observation(prompt=prompt, messages=({"role": "user", "content": prompt},)),
                      hidden={"turns": i}, metadata=StateMetadata(step=0, episode_id=f"ep-{i}"))
        return state, {"task_index": i, "kind": "chat"}


# -- Scorer (llenvs tests/test_scoring.py) -------------------------------------------


def test_scoring_result_is_frozen_and_round_trips():
    r = ScoringResult(total=1.0, signals={"a": 1.0}, extracted_answer="x", metadata={"a": {}})
    assert (r.total, r.signals, r.extracted_answer, r.metadata) == (1.0, {"a": 1.0}, "x", {"a": {}})
    with pytest.raises(AttributeError):
        r.total = 2.0  # type: ignore[misc]


def test_correct_response_scores_both_signals():
    r = Scorer(MockEnvironment()).score(0, "Answer:0")
    assert r.total == 2.0 and r.signals == {"correctness": 1.0, "format": 1.0}


@pytest.mark.parametrize(("index", "response", "correctness", "fmt"), [
    (1, "Answer: 7", 0.0, 1.0),   # well formatted, wrong
    (2, "20", 1.0, 0.0),          # right, wrong format
    (3, "no idea", 0.0, 0.0),     # all wrong
])
def test_signals_are_independent(index, response, correctness, fmt):
    r = Scorer(MockEnvironment()).score(index, response)
    assert r.signals == {"correctness": correctness, "format": fmt}
    assert r.total == correctness + fmt


def test_extracted_answer_falls_back_to_signal_metadata():
    scorer = Scorer(MockEnvironment())
    assert scorer.score(2, "it is 20").extracted_answer == "it is 20"
    assert scorer.score(2, "no").extracted_answer is None
    assert "format" not in scorer.score(2, "20").metadata  # signals without metadata are left out


def test_extracted_answer_prefers_step_info():
    class WithInfo(MockEnvironment):
        def step(self, state, action):
            r = super().step(state, action)
            return dataclasses.replace(r, info={"extracted_answer": "from info"})

    assert Scorer(WithInfo()).score(2, "20").extracted_answer == "from info"


def test_score_batch_in_order_and_length_mismatch():
    scorer = Scorer(MockEnvironment())
    results = scorer.score_batch([0, 1, 2], ["Answer:0", "Answer:5", "20"])
    assert isinstance(results, ScoringResults) and len(results) == 3
    assert [r.total for r in results] == [2.0, 1.0, 1.0] == results.totals
    assert scorer.totals([2, 0], ["20", "x"]) == [1.0, 0.0]
    with pytest.raises(ValueError, match="must have the same length, got 2 and 1"):
        scorer.score_batch([0, 1], ["a"])


def test_multi_turn_environment_is_refused():
    with pytest.raises(TypeError, match="multi-turn"):
        Scorer(MultiTurnMock())


def test_expected_answer_in_metadata_per_task():
    scorer = Scorer(MockEnvironment())
    assert scorer.score(0, "Answer:0").metadata["correctness"]["expected"] == "0"
    assert scorer.score(3, "x").metadata["correctness"]["expected"] == "30"


def test_capability_errors_are_llenvs_messages():
    with pytest.raises(TypeError) as e:
        Scorer(MockEnvironment(spec_extra={"supports_task_index": False}))
    assert str(e.value) == ("Scorer requires an environment that supports task indexing, but 'mock' does not "
                            "(supports_task_index=False).")
    with pytest.raises(TypeError) as e:
        DatasetProvider(MockEnvironment(spec_extra={"supports_len": False}))
    assert str(e.value) == ("DatasetProvider requires an environment that supports len(), but 'mock' does not "
                            "(supports_len=False).")
    with pytest.raises(TypeError, match=r"needs an environment.*got NoneType"):
        Scorer(None)  # type: ignore[arg-type]

    class NoLen:
        spec = EnvironmentSpec(name="x")

        def reset(self, **kw): ...

        def step(self, state, action): ...

    Scorer(NoLen())  # Scorer does not need len()
    with pytest.raises(TypeError, match=r"missing: __len__"):
        DatasetProvider(NoLen())


def test_reset_errors_propagate():
    scorer = Scorer(MockEnvironment())
    with pytest.raises(ValueError, match=r"task_index 9 out of bounds \[0, 5\)"):
        scorer.score(9, "x")
    with pytest.raises(ValueError, match=r"task_index 9 out of bounds"):
        scorer.score_batch([0, 9], ["x", "y"])


def test_step_failure_is_that_items_result_in_a_batch():
    scorer = Scorer(MockEnvironment())
    results = scorer.score_batch([0, 1, 2], ["Answer:0", "boom", "20"])
    assert results.totals == [2.0, 0.0, 1.0]
    assert results[1].metadata["error"] == "RuntimeError: the environment failed on this response"
    assert results[1].signals == {"correctness": 0.0, "format": 0.0}
    with pytest.raises(RuntimeError, match="failed on this response"):
        scorer.score(1, "boom")  # one score() raises what step raises


def test_feedback_only_and_weighted_signals():
    class Weighted(MockEnvironment):
        def compute_rewards(self, state, action, next_state):
            base = super().compute_rewards(state, action, next_state)
            return SignalBundle((
                dataclasses.replace(base.signals[0], weight=0.5),
                Signal(name="note", reward_type=RewardType.PROCESS, feedback="try harder"),
            ))

    r = Scorer(Weighted()).score(2, "20")
    assert r.total == 0.5 and r.signals == {"correctness": 1.0, "note": None}
    assert Scorer(Weighted()).signal_names == ["correctness", "format"]  # the reward functions' names


def test_scorer_of_a_python_environment_pickles():
    scorer = pickle.loads(pickle.dumps(Scorer(MockEnvironment())))
    assert scorer.score_batch([0, 2], ["Answer:0", "20"]).totals == [2.0, 1.0]


# -- DatasetProvider (llenvs tests/test_dataset_provider.py) ---------------------------


def test_task_item_is_frozen_with_llenvs_defaults():
    item = TaskItem(task_index=0, prompt="p", messages=(), ground_truth=None, metadata={})
    assert item.images == ObservationImages() and item.available_tools == ()
    with pytest.raises(AttributeError):
        item.prompt = "q"  # type: ignore[misc]
    tool = ToolDefinition(name="calc", description="adds")
    assert TaskItem(0, "p", (), None, {}, available_tools=(tool,)).available_tools == (tool,)


def test_provider_reads_items_through_reset():
    env = MockEnvironment()
    provider = DatasetProvider(env)
    assert len(provider) == 5
    item = provider[2]
    assert (item.task_index, item.prompt, item.ground_truth) == (2, "What is 2 * 10?", "20")
    assert item.messages == ({"role": "user", "content": "What is 2 * 10?"},)
    assert set(item.metadata) == {"episode_id", "task_index"} and item.metadata["task_index"] == 2
    assert item.images == ObservationImages() and item.available_tools == ()
    assert [(it.task_index, it.ground_truth) for it in provider] == [(i, str(i * 10)) for i in range(5)]
    assert [it.task_index for it in provider.get_items()] == [0, 1, 2, 3, 4]
    assert [it.task_index for it in provider.get_items([1, 3])] == [1, 3]
    with pytest.raises(ValueError, match="out of bounds"):
        provider[5]


def test_multi_turn_environment_is_served_without_ground_truth():
    item = DatasetProvider(MultiTurnMock())[1]
    assert item.ground_truth is None and item.prompt == "Talk about 1"
    assert item.messages == ({"role": "user", "content": "Talk about 1"},)
    assert item.metadata == {"episode_id": "ep-1", "task_index": 1, "kind": "chat"}


def test_system_prompt_given_to_the_provider_comes_first():
    item = DatasetProvider(MockEnvironment(), system_prompt="Be brief.")[1]
    assert item.messages == ({"role": "system", "content": "Be brief."},
                             {"role": "user", "content": "What is 1 * 10?"})


def test_tools_and_images_pass_through():
    tool = ToolDefinition(name="calc", description="adds")
    img = ImageContent(data="aGk=", media_type="image/jpeg")
    env = MockEnvironment(observation_extra={"available_tools": (tool,),
                                             "task": ObservationContent(text="t", images=(img,))})
    item = DatasetProvider(env)[0]
    assert item.available_tools == (tool,)
    assert item.images.task == (dataclasses.replace(img, source="task"),)
    datasets = pytest.importorskip("datasets")
    ds = DatasetProvider(env).to_hf_dataset([0, 1])
    assert isinstance(ds, datasets.Dataset)
    assert set(ds.column_names) == {"task_index", "prompt", "ground_truth", "messages", "images"}
    assert ds[0]["images"] == [{"data": "aGk=", "media_type": "image/jpeg"}]


def test_hf_dataset_columns_of_a_python_environment():
    pytest.importorskip("datasets")
    tool = ToolDefinition(name="calc", description="adds")
    ds = DatasetProvider(MockEnvironment(observation_extra={"available_tools": (tool,)})).to_hf_dataset()
    assert set(ds.column_names) == {"task_index", "prompt", "ground_truth", "messages"}
    assert len(ds) == 5 and ds[0]["prompt"] == "What is 0 * 10?"
    assert DatasetProvider(MockEnvironment()).to_hf_dataset([1, 3])[0]["task_index"] == 1


class FailsOnOdd(MockEnvironment):
    """A Python environment whose reset fails on odd task indices."""

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        i = (options or {}).get("task_index")
        if isinstance(i, int) and 0 <= i < self.n and i % 2:
            raise ValueError(f"task {i} cannot be generated")
        return super().reset(seed=seed, options=options)


def test_on_error_skip_leaves_out_python_tasks_that_fail():
    # Found under attack: on_error="skip" was ignored for environments written in Python.
    provider = DatasetProvider(FailsOnOdd(n=6))
    items = provider.get_items(on_error="skip")
    assert [it.task_index for it in items] == [0, 2, 4]
    assert provider.skipped == [(1, "task 1 cannot be generated"), (3, "task 3 cannot be generated"),
                                (5, "task 5 cannot be generated")]
    assert [it.task_index for it in provider.get_items([4, 5], on_error="skip")] == [4]
    assert provider.skipped == [(5, "task 5 cannot be generated")]
    with pytest.raises(ValueError, match="task 1 cannot be generated"):
        provider.get_items([0, 1])
    assert provider.skipped == []
    with pytest.raises(IndexError, match=r"indices\[1\]: task_index 6 out of bounds \[0, 6\)"):
        provider.get_items([0, 6], on_error="skip")  # an index out of range is not a failed task
    pytest.importorskip("datasets")
    ds = provider.to_hf_dataset(on_error="skip")
    assert ds["task_index"] == [0, 2, 4] and [i for i, _ in provider.skipped] == [1, 3, 5]
    with pytest.raises(ValueError, match="task 1 cannot be generated"):
        provider.to_hf_dataset()


def test_provider_of_a_python_environment_pickles():
    provider = pickle.loads(pickle.dumps(DatasetProvider(MockEnvironment(), system_prompt=None)))
    assert provider[4].ground_truth == "40"


# -- Go-backed environments whose lifecycle is overridden -------------------------------


class BonusStep(ReasoningGymEnvironment):
    """Adds a Python signal in an overridden step."""

    def step(self, state: State, action: Action) -> StepResult:
        r = super().step(state, action)
        bonus = Signal(name="bonus", reward_type=RewardType.PROCESS, reward=0.25, weight=2.0)
        return dataclasses.replace(r, rewards=SignalBundle((*r.rewards, bonus)))


class ShoutingReset(ReasoningGymEnvironment):
    """Upper-cases the prompt in an overridden reset."""

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[State, dict]:
        state, info = super().reset(seed=seed, options=options)
        obs = dataclasses.replace(state.observation, prompt=state.observation.prompt.upper())
        return State(observation=obs, hidden=state.hidden, metadata=state.metadata), {**info, "shouted": True}


def test_overridden_step_is_what_scores(leg_env, rg_leg):
    env = BonusStep(leg_env.config)
    scorer = Scorer(env)
    truth = rg_leg[0]["answer"]
    r = scorer.score(0, f"<answer>{truth}</answer>")
    assert r.signals["correctness"] == 1.0 and r.signals["bonus"] == 0.25 and r.total == 1.5
    assert r.extracted_answer == truth and r.metadata["correctness"]["expected"] == truth
    assert scorer.totals([0, 1], [f"<answer>{truth}</answer>", "x"]) == [1.5, 0.5]
    assert Scorer(leg_env).score(0, f"<answer>{truth}</answer>").total == 1.0  # the base class is unchanged
    assert pickle.loads(pickle.dumps(scorer)).score(1, "x").total == 0.5


def test_overridden_reset_is_what_builds_items(leg_env, rg_leg):
    env = ShoutingReset(leg_env.config, system_prompt=None)
    item = DatasetProvider(env)[3]
    assert item.prompt == rg_leg[3]["question"].upper() and item.ground_truth == rg_leg[3]["answer"]
    assert item.metadata["shouted"] is True and item.metadata["task_index"] == 3
    assert item.messages == ({"role": "user", "content": item.prompt},)
    assert DatasetProvider(leg_env)[3].prompt == rg_leg[3]["question"]


def test_python_reward_function_in_extra_rewards(rg_leg):
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get(name="leg_counting", size=1000, seed=42, extra_rewards=(StartsWithAnswer(),))
    assert [rf.name for rf in env.reward_functions] == ["correctness", "format"]
    scorer = Scorer(env)
    assert scorer.signal_names == ["correctness", "format"]
    truth = rg_leg[0]["answer"]
    r = scorer.score(0, f"Answer: <answer>{truth}</answer>")
    assert r.signals == {"correctness": 1.0, "format": 1.0} and r.total == 2.0
    assert r.extracted_answer == truth and r.metadata["correctness"]["expected"] == truth
    assert scorer.totals([0, 0], [f"<answer>{truth}</answer>", "Answer: no"]) == [1.0, 1.0]
    assert pickle.loads(pickle.dumps(scorer)).score(0, "Answer: x").total == 1.0


def test_python_reward_function_on_a_task_served_by_reasoning_gym():
    from llenvs_go.core.registry import environment_registry

    rg = pytest.importorskip("reasoning_gym")
    env = environment_registry.get(name="knights_knaves", size=5, seed=1, extra_rewards=(StartsWithAnswer(),))
    truth = rg.create_dataset("knights_knaves", size=5, seed=1)[0]["answer"]
    r = Scorer(env).score(0, f"Answer: <answer>{truth}</answer>")
    assert r.signals == {"correctness": 1.0, "format": 1.0} and r.total == 2.0


# -- reasoning-gym hidden state and correctness reward ----------------------------------


def test_registry_builds_reasoning_gym_environments(leg_env, rg_leg):
    assert isinstance(leg_env, ReasoningGymEnvironment)
    state, info = leg_env.reset(options={"task_index": 4})
    assert isinstance(state.hidden, ReasoningGymHidden)
    assert state.hidden.entry == leg_env.entries([4])[0] and state.hidden.entry["question"] == rg_leg[4]["question"]
    assert (state.hidden.expected_answer, state.hidden.task_index, state.hidden.dataset_name) == \
        (rg_leg[4]["answer"], 4, "leg_counting")
    hidden = leg_env._make_hidden(4, None, None, episode=None)
    assert hidden == ReasoningGymHidden(entry=leg_env.entries([4])[0], expected_answer=rg_leg[4]["answer"],
                                        task_index=4, dataset_name="leg_counting")
    assert hidden.entry["question"] == rg_leg[4]["question"]
    assert dataclasses.replace(hidden, episode=object()) == hidden and "episode" not in repr(hidden)
    with pytest.raises(AttributeError):
        hidden.task_index = 5  # type: ignore[misc]


def test_correctness_reward_function_over_the_environment(leg_env, rg_leg):
    rf = CorrectnessRewardFunction(leg_env, None)
    assert rf.name == "correctness" and rf.reward_type == RewardType.OUTCOME
    state, _ = leg_env.reset(options={"task_index": 5})
    truth = rg_leg[5]["answer"]
    right = rf.compute(state, Action.from_text(f"<answer>{truth}</answer>"), state)
    assert right.reward == 1.0 and right.metadata["extracted"] == truth and right.metadata["expected"] == truth
    assert right.metadata["extraction"]["found"] is True
    miss = rf.compute(state, Action.from_text("no tags"), state)
    assert miss.reward == 0.0 and miss.metadata["extracted"] is None and "expected" not in miss.metadata


class ExactDataset:
    """A dataset with reasoning-gym's score_answer(answer, entry) (exact match)."""

    def score_answer(self, answer: str | None, entry: dict) -> float:
        return 1.0 if answer == entry["answer"] else 0.0


class LastWord:
    def extract(self, text: str | None) -> tuple[str | None, dict]:
        words = (text or "").split()
        return (words[-1], {"found": True}) if words else (None, {"found": False})


def test_correctness_reward_function_over_a_dataset():
    rf = CorrectnessRewardFunction(ExactDataset(), LastWord())
    hidden = ReasoningGymHidden(entry={"question": "2+2?", "answer": "4", "metadata": {}}, expected_answer="4",
                                task_index=0, dataset_name="mock_dataset")
    state = State(observation=Observation(prompt="2+2?"), hidden=hidden, metadata=StateMetadata(0, "e"))
    ok = rf.compute(state, Action.from_text("it is 4"), state)
    assert ok.reward == 1.0 and ok.metadata == {"extracted": "4", "expected": "4", "extraction": {"found": True}}
    none = rf.compute(state, Action.from_text(""), state)
    assert none.reward == 0.0 and none.metadata == {"extracted": None, "extraction": {"found": False}}
    assert rf.compute(state, Action(text=None), state).metadata == {"extracted": None, "extraction": {"found": False}}
    tagged = CorrectnessRewardFunction(ExactDataset(), None)  # llenvs' default extractor: tag_based
    assert tagged.compute(state, Action.from_text("<ANSWER> 4 </answer>"), state).reward == 1.0
    assert tagged.compute(state, Action.from_text("4"), state).metadata["extracted"] is None
    with pytest.raises(TypeError, match="score_answer"):
        CorrectnessRewardFunction(object(), LastWord())
