"""llenvs' prompt library and math reward at llenvs' paths: ``llenvs_go.inference.prompts`` (fragments, system
prompts, templates, profiles) and ``llenvs_go.core.math_verify.MathVerifyRewardFunction``; and llenvs' prompt names
accepted wherever a ``system_prompt`` is configured."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from llenvs_go.core.extraction import TagBasedExtractor
from llenvs_go.core.math_verify import MathVerifyRewardFunction
from llenvs_go.core.prompts import resolve_system_prompt as configured_prompt
from llenvs_go.core.reward import RewardType
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.inference import prompts as lib


def test_fragment_and_system_prompt_names_resolve_to_llenvs_texts() -> None:
    assert lib.resolve_system_prompt("math_boxed") == (
        "You are an expert mathematician. Solve problems rigorously and precisely.\n\n"
        "Show your work and reasoning before providing the answer.\n\nPut your final answer in \\boxed{}.")
    assert lib.resolve_system_prompt(["math_expert", "Custom."]) == (
        "You are an expert mathematician. Solve problems rigorously and precisely.\n\nCustom.")
    assert lib.resolve_system_prompt("direct_answer") == lib.SYSTEM_PROMPT_REGISTRY["direct_answer"].content
    assert lib.resolve_system_prompt("Be brief.") == "Be brief."
    assert lib.FRAGMENT_REGISTRY["xml_answer"].category == "format"
    assert lib.compose_system_prompt("A", lib.FRAGMENT_REGISTRY["be_concise"], separator=" | ") == (
        "A | Be concise and avoid unnecessary verbosity.")


def test_a_configured_system_prompt_takes_llenvs_names() -> None:
    # Before: a fragment list gave "math_expert\n\nthink_step_by_step" as the system message.
    assert configured_prompt(["math_expert", "think_step_by_step"]) == lib.resolve_system_prompt(
        ["math_expert", "think_step_by_step"])
    assert configured_prompt("math_reasoning") == lib.SYSTEM_PROMPT_REGISTRY["math_reasoning"].content
    assert configured_prompt("default").startswith("Given a problem")
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider

    env = environment_registry.get(name="leg_counting", size=2, seed=1, system_prompt=["math_expert", "xml_answer"])
    assert DatasetProvider(env)[0].messages[0]["content"] == lib.resolve_system_prompt(["math_expert", "xml_answer"])


def test_templates_profiles_and_their_resolution() -> None:
    assert lib.TEMPLATE_REGISTRY["math"].apply("1+1?") == "Solve the following math problem.\n\n1+1?"
    assert lib.PromptTemplate("[{s}] {question}").apply("q", s="x") == "[x] q"
    assert lib.detect_model_profile("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B").name == "deepseek_r1"
    assert lib.detect_model_profile("Qwen/Qwen2.5-7B") is lib.PROFILE_REGISTRY["qwen_chat"]
    assert lib.detect_model_profile("some-model") is None
    with pytest.raises(NotImplementedError):
        lib.ModelProfile("x").build_transformers()
    evaluation = SimpleNamespace(system_prompt=None, prompt_template="reasoning", model_profile="auto",
                                 model=SimpleNamespace(model="o1-mini"))
    environment = SimpleNamespace(system_prompt=None, prompt_template="math")
    system, template, profile = lib.resolve_prompt_config(evaluation, environment)
    assert system == lib.SYSTEM_PROMPT_REGISTRY["general_reasoning"].content
    assert template is lib.TEMPLATE_REGISTRY["math"] and profile.name == "o1"
    assert lib.resolve_prompt_config(evaluation, environment, is_multi_turn=True)[0] is None


def _state(expected: str) -> State[Any]:
    return State(observation=Observation(prompt="q"), hidden=SimpleNamespace(expected_answer=expected),
                 metadata=StateMetadata(step=0, episode_id="e"))


@pytest.mark.parametrize(("response", "expected", "reward", "method"), [
    ("<answer>\\frac{1}{2}</answer>", "0.5", 1.0, "math_verify"),
    ("<answer>2/4</answer>", "1/2", 1.0, "math_verify"),
    ("<answer>7</answer>", "42", 0.0, "math_verify"),
    ("<answer>  Hello   World </answer>", "hello world", 1.0, "string_normalized"),
    ("<answer>dog</answer>", "cat", 0.0, "string_normalized"),
])
def test_math_verify_reward_compares_values(response: str, expected: str, reward: float, method: str) -> None:
    fn = MathVerifyRewardFunction(answer_extractor=TagBasedExtractor())
    assert fn.name == "math_correctness" and fn.reward_type is RewardType.OUTCOME
    signal = fn.compute(_state(expected), Action(text=response), _state(expected))
    assert (signal.reward, signal.metadata["method"]) == (reward, method)


def test_math_verify_reward_without_an_answer_scores_zero() -> None:
    fn = MathVerifyRewardFunction(answer_extractor=TagBasedExtractor(), name="m")
    signal = fn.compute(_state("42"), Action(text="no tags"), _state("42"))
    assert signal.name == "m" and signal.reward == 0.0 and signal.metadata["extracted"] is None
