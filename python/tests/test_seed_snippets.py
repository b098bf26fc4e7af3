"""The snippets of the llenvs "RL Training" page, with ``llenvs`` -> ``llenvs_go``.

Expected values come from the real reasoning-gym package, not from llenvs-go.
"""

from __future__ import annotations

import pytest


def test_single_turn_scoring_snippet(rg_leg):
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import Scorer

    env = environment_registry.get(
        name="leg_counting",
        adapter="reasoning_gym",
        size=1000,
        seed=42,
    )
    scorer = Scorer(env)
    result = scorer.score(task_index=0, response="<answer>4</answer>")
    truth0 = rg_leg[0]["answer"]
    assert result.signals == {"correctness": rg_leg.score_answer("4", rg_leg[0])}
    assert result.total == result.signals["correctness"]
    assert result.extracted_answer == "4"

    right = scorer.score(task_index=0, response=f"<answer>{truth0}</answer>")
    assert right.total == 1.0 and right.signals == {"correctness": 1.0} and right.extracted_answer == truth0
    assert right.metadata["correctness"]["expected"] == truth0

    responses = ["<answer>4</answer>", "<answer>wrong</answer>", "<answer>6</answer>"]
    results = scorer.score_batch(task_indices=[0, 1, 2], responses=responses)
    assert len(results) == 3
    for i, (res, resp) in enumerate(zip(results, responses, strict=False)):
        expected = rg_leg.score_answer(resp[len("<answer>"):-len("</answer>")], rg_leg[i])
        assert res.total == expected
        assert res.extracted_answer == resp[len("<answer>"):-len("</answer>")]
        assert res.metadata["correctness"]["expected"] == rg_leg[i]["answer"]


def test_scoring_result_is_frozen(leg_env):
    from llenvs_go.integrations import Scorer

    r = Scorer(leg_env).score(0, "no tags")
    assert r.extracted_answer is None and r.total == 0.0
    with pytest.raises(AttributeError):
        r.total = 1.0  # type: ignore[misc]


def test_dataset_provider_snippet(rg_leg):
    pytest.importorskip("datasets")
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider

    env = environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)
    provider = DatasetProvider(env)
    assert len(provider) == 1000
    seen = 0
    for i in range(len(provider)):
        item = provider[i]
        assert item.task_index == i
        assert item.prompt == rg_leg[i]["question"]
        assert item.ground_truth == rg_leg[i]["answer"]
        seen += 1
        if i == 20:
            break
    assert seen == 21

    items = provider.get_items(indices=[0, 5, 10])
    assert [it.task_index for it in items] == [0, 5, 10]
    assert [it.ground_truth for it in items] == [rg_leg[i]["answer"] for i in (0, 5, 10)]

    hf_dataset = provider.to_hf_dataset()
    assert set(hf_dataset.column_names) == {"task_index", "prompt", "ground_truth", "messages"}
    assert len(hf_dataset) == 1000
    assert hf_dataset[7]["prompt"] == rg_leg[7]["question"]
    assert hf_dataset[7]["ground_truth"] == rg_leg[7]["answer"]
    assert hf_dataset[7]["messages"][-1] == {"role": "user", "content": rg_leg[7]["question"]}


def test_configuration_driven_snippet(rg_leg):
    from llenvs_go.core.config import EnvironmentConfig
    from llenvs_go.integrations import DatasetProvider, Scorer

    config = EnvironmentConfig(
        name="leg_counting",
        adapter="reasoning_gym",
        size=1000,
        seed=42,
        answer_extractor="tag_based",
    )
    scorer = Scorer.from_config(config)
    provider = DatasetProvider.from_config(config)
    assert len(provider) == 1000
    assert provider[3].ground_truth == rg_leg[3]["answer"]
    assert scorer.score(3, f"<answer>{rg_leg[3]['answer']}</answer>").total == 1.0
    assert scorer.environment.spec.name == "leg_counting"


class _CharTokenizer:
    """One token per character, no chat template: the page's 'any tokenizer with encode(str) -> list[int]'."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(chr(i) for i in ids)


def test_multi_turn_recipes_of_the_page():
    import asyncio

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import TrajectoryMasker  # noqa: F401 - the page's import
    from llenvs_go.integrations.trl import make_trl_rollout_fn
    from llenvs_go.integrations.verl import LLEnvsAgentLoop

    multi_turn_env = environment_registry.get(name="guess_number", adapter="native", seed=1, size=10)
    tokenizer = _CharTokenizer()
    loop = LLEnvsAgentLoop(multi_turn_env, tokenizer, max_steps=20)
    guesses = iter(range(1, 101))

    async def generate_fn(messages):
        return f"<answer>{next(guesses)}</answer>"

    result = asyncio.run(loop.run(task_index=0, generate_fn=generate_fn))
    assert {"prompt_ids", "response_ids", "response_mask", "rewards"} <= set(result)
    assert len(result["response_ids"]) == len(result["response_mask"])
    assert 1 in result["response_mask"] and 0 in result["response_mask"]

    rollout_fn = make_trl_rollout_fn(multi_turn_env, tokenizer, max_steps=20)
    guesses = iter(range(1, 101))
    result = asyncio.run(rollout_fn(task_index=0, generate_fn=generate_fn))
    assert len(result["rewards"]) == result["num_turns"] >= 1
