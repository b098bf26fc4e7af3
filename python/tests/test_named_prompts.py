"""EnvironmentConfig.prompts: llenvs' named prompt overrides, accepted and applied."""

from __future__ import annotations

from typing import Any

import pytest

from llenvs_go.core.config import EnvironmentConfig, IterativeConfig
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action

PROMPTS = {"initial": "Solve: {task} [{turns} tries, {submit_keyword} to stop]",
           "feedback": "Wrong; {attempts_left} left.{feedback}"}


@pytest.mark.parametrize("name", ["leg_counting", "knights_knaves"])  # the loop in Go, and in Python
def test_prompts_override_the_iterative_user_turns(name):
    if name == "knights_knaves":
        pytest.importorskip("reasoning_gym")
    config = EnvironmentConfig(name=name, size=4, seed=3, iterative={"max_turns": 3}, prompts=PROMPTS)
    env = config.build()
    assert env.prompts == PROMPTS
    plain = EnvironmentConfig(name=name, size=4, seed=3).build()
    question = plain.reset(options={"task_index": 1})[0].observation.prompt
    state, _ = env.reset(options={"task_index": 1})
    assert state.observation.prompt == f"Solve: {question} [3 tries, SUBMIT to stop]"
    assert state.observation.messages[-1] == {"role": "user", "content": state.observation.prompt}
    result = env.step(state, Action.from_text("<answer>surely not</answer>"))
    assert result.next_state.observation.prompt == "Wrong; 2 left."
    result = env.step(result.next_state, Action.from_text("<answer>no</answer>"))
    assert result.next_state.observation.prompt == "Wrong; 1 left."


def test_a_prompt_left_out_keeps_its_default_text():
    env = EnvironmentConfig(name="leg_counting", size=4, seed=3, iterative={"max_turns": 2},
                            prompts={"feedback": "Try again ({attempts_left})"}).build()
    state, _ = env.reset(options={"task_index": 0})
    assert "You have 2 turn(s) to solve this task." in state.observation.prompt
    assert env.step(state, Action.from_text("x")).next_state.observation.prompt == "Try again (1)"


def test_prompts_round_trip_and_merge_with_the_iterative_section():
    config = EnvironmentConfig(name="leg_counting", iterative=IterativeConfig(prompts={"initial": "I: {task}"}),
                               prompts={"feedback": "F"})
    assert EnvironmentConfig.from_dict(config.to_dict()) == config
    env = config.build()
    assert env.prompts == {"initial": "I: {task}", "feedback": "F"}


def test_unknown_prompt_names_are_errors_naming_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown prompt 'intial'; did you mean 'initial'\?"):
        EnvironmentConfig(name="leg_counting", iterative={}, prompts={"intial": "x"})
    with pytest.raises(TypeError, match=r"prompts\['feedback'\] must be a str"):
        IterativeConfig(prompts={"feedback": 3})


def test_prompts_without_iterative_reach_an_adapter_of_your_own():
    seen: dict[str, Any] = {}

    class PromptedAdapter:
        name = "prompted"

        def get_environment(self, name: str, **kwargs: Any) -> Any:
            seen.update(kwargs)
            return environment_registry.get("leg_counting", size=2, seed=1)

    environment_registry.register_adapter(PromptedAdapter())
    try:
        EnvironmentConfig(name="anything", adapter="prompted", prompts={"judge": "Rate it"}).build()
    finally:
        environment_registry.unregister_adapter("prompted")
    assert seen["prompts"] == {"judge": "Rate it"}


def test_prompts_for_a_built_in_environment_without_named_prompts_say_what_they_apply_to():
    with pytest.raises(ValueError, match="no named prompts.*initial, feedback.*set iterative"):
        EnvironmentConfig(name="leg_counting", prompts={"initial": "x"}).build()
