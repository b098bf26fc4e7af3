"""What the README and docs/cli.md say about the package is true of it: where it comes from, its native tasks,
which classes have from_config."""

from __future__ import annotations

import re

import pytest

from llenvs_go.core.config import EnvironmentConfig
from llenvs_go.core.registry import environment_registry


def _readme(repo) -> str:
    return (repo / "README.md").read_text(encoding="utf-8")


def test_native_task_count_is_the_registrys(repo):
    native = sorted(r["name"] for r in environment_registry.describe_environments("reasoning_gym")
                    if r["backend"] == "native")
    counts = [int(n) for n in re.findall(r"(\d+) ported natively", _readme(repo))]
    assert counts == [len(native)], f"README says {counts} ported natively; the registry serves {native}"
    listed = re.search(r"Native tasks: (.*?)\.\n", (repo / "docs" / "reasoning-gym.md").read_text(), re.S)
    assert listed is not None
    assert sorted(re.findall(r"`(\w+)`", listed.group(1))) == native


def test_from_config_claims_are_true(repo):
    import llenvs_go.integrations as integrations
    from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop

    text = _readme(repo)
    claimed = set(re.findall(r"`?(\w+)\.from_config\(", text))
    assert {"Scorer", "DatasetProvider", "LLEnvsAgentLoop"} <= claimed
    for name in claimed:
        cls = LLEnvsAgentLoop if name == "LLEnvsAgentLoop" else getattr(integrations, name)
        assert callable(getattr(cls, "from_config", None)), f"README claims {name}.from_config"
    # The README says which class has none, and it has none.
    assert "`TrajectoryMasker` has none" in text
    assert not hasattr(integrations.TrajectoryMasker, "from_config")
    assert "All integration classes support from_config" not in text


def test_agent_loop_from_config_builds_the_configured_environment():
    from mask_helpers import MockTokenizer

    from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop

    config = EnvironmentConfig(name="guess_number", adapter="native", size=4, seed=3)
    loop = LLEnvsAgentLoop.from_config(config, MockTokenizer(), max_steps=5)
    assert loop.max_steps == 5 and len(loop.env) == 4
    assert loop.env.config["seed"] == 3 and loop.env.spec.name == "guess_number"
    with pytest.raises(TypeError, match="from_config takes an EnvironmentConfig"):
        LLEnvsAgentLoop.from_config({"name": "guess_number"}, MockTokenizer())


def test_docs_say_where_the_package_comes_from_today(repo):
    readme = _readme(repo)
    cli = (repo / "docs" / "cli.md").read_text(encoding="utf-8")
    install = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    assert "not on PyPI yet" in install and "make wheel" in install and "make sdist" in install
    assert 'pip install "./python[cli]"' in install and "will be the PyPI package `llenvs-go`" in install
    for doc in (readme, cli):
        # Every bare `pip install "llenvs-go[...]"` stands beside a word that it is for once the package is published.
        for m in re.finditer(r'pip install\s+"llenvs-go\[', doc):
            context = doc[max(0, m.start() - 200): m.end() + 40]
            assert re.search(r"[Oo]nce (it is )?published|once the\s+package is on PyPI|not on PyPI yet", context), \
                context
    flat = " ".join(cli.split())
    assert "not on PyPI yet" in flat and 'pip install "./python[cli]"' in flat
