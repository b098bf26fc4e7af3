"""Registering adapters as llenvs does: lazy probes, adapters built by a factory, adapters that only have
llenvs' create_environment, and ReasoningGymAdapter's overridable hook for the reasoning-gym module."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any
from unittest.mock import Mock

import pytest

from llenvs_go.adapters.reasoning_gym import ReasoningGymAdapter, ReasoningGymEnvironment
from llenvs_go.core.registry import EnvironmentRegistry
from llenvs_go.core.state import Action
from llenvs_go.integrations import Scorer


class EchoEnvironment:
    """A minimal environment: its name is what it was built for."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        self.name, self.kwargs = name, kwargs


def test_probe_runs_once_and_only_when_the_adapter_is_selected():
    registry = EnvironmentRegistry()
    probe = Mock()
    adapter = SimpleNamespace(name="fixture", get_environment=EchoEnvironment)
    registry.register_adapter(adapter, probe=probe)
    probe.assert_not_called()
    assert registry.get_adapter("fixture") is adapter
    assert registry.get_adapter("fixture") is adapter
    assert registry.get("x", adapter="fixture").name == "x"
    probe.assert_called_once_with()


def test_unregister_drops_a_probe_not_run():
    registry = EnvironmentRegistry()
    probe = Mock()
    registry.register_adapter(SimpleNamespace(name="fixture", get_environment=EchoEnvironment), probe=probe)
    registry.unregister_adapter("fixture")
    assert "fixture" not in registry.list_adapters()
    probe.assert_not_called()


def test_a_failed_probe_excludes_the_adapter_is_logged_and_not_retried(caplog):
    registry = EnvironmentRegistry()
    probe = Mock(side_effect=RuntimeError("broken install"))
    registry.register_adapter(SimpleNamespace(name="broken", list_environments=lambda: ["task"],
                                              get_environment=EchoEnvironment), probe=probe)
    with caplog.at_level(logging.WARNING, logger="llenvs_go.adapters"):
        with pytest.raises(KeyError, match="broken"):
            registry.get_adapter("broken")
    assert "broken install" in caplog.text and "'broken'" in caplog.text
    assert "broken" not in registry.list_adapters()
    assert ("broken", "task") not in registry
    with pytest.raises(KeyError, match="not registered"):
        registry.get("task", adapter="broken")
    probe.assert_called_once_with()


def test_listing_adapters_runs_pending_probes():
    registry = EnvironmentRegistry()
    registry.register_adapter(SimpleNamespace(name="ok", get_environment=EchoEnvironment), probe=lambda: None)
    registry.register_adapter(SimpleNamespace(name="missing", get_environment=EchoEnvironment),
                              probe=Mock(side_effect=ImportError("no module named 'x'")))
    names = registry.list_adapters()
    assert "ok" in names and "missing" not in names


def test_register_by_name_and_factory_builds_the_adapter_once_when_selected():
    registry = EnvironmentRegistry()
    made = []

    def factory() -> Any:
        made.append(1)
        return SimpleNamespace(name="lazy", get_environment=EchoEnvironment, list_environments=lambda: ["a"])

    probe = Mock()
    registry.register_adapter("lazy", factory, probe=probe)
    assert made == [] and probe.call_count == 0
    with pytest.raises(ValueError, match="already registered"):
        registry.register_adapter("lazy", factory)
    assert registry.get("a", adapter="lazy", size=3).kwargs == {"size": 3}
    assert ("lazy", "a") in registry
    assert made == [1] and probe.call_count == 1


def test_an_adapter_with_only_llenvs_create_environment_is_accepted():
    class LlenvsStyleAdapter:
        name = "old_style"

        def list_environments(self) -> list[str]:
            return ["echo"]

        def create_environment(self, name: str, **kwargs: Any) -> EchoEnvironment:
            return EchoEnvironment(name, **kwargs)

    registry = EnvironmentRegistry()
    registry.register_adapter(LlenvsStyleAdapter())
    env = registry.get(name="echo", adapter="old_style", seed=1)
    assert (env.name, env.kwargs) == ("echo", {"seed": 1})
    assert ("old_style", "echo") in registry


class CountingDataset:
    """A dataset another reasoning-gym-like module builds: task i asks for i + 1."""

    def __init__(self, size: int = 4, seed: int | None = None) -> None:
        self.size, self.seed = size, seed

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> dict[str, Any]:
        return {"question": f"What follows {i}?", "answer": str(i + 1), "metadata": {}}

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        return 1.0 if answer == entry["answer"] else 0.0


class FakeModule:
    """What llenvs' hook may return instead of reasoning_gym: create_dataset and list_datasets."""

    def __init__(self) -> None:
        self.created: list[tuple[str, dict[str, Any]]] = []

    def list_datasets(self) -> list[str]:
        return ["counting"]

    def create_dataset(self, name: str, **kwargs: Any) -> CountingDataset:
        if name != "counting":
            raise ValueError(f"Dataset '{name}' not registered")
        self.created.append((name, kwargs))
        return CountingDataset(**kwargs)


def test_reasoning_gym_adapter_hook_serves_another_module():
    module = FakeModule()

    class MyAdapter(ReasoningGymAdapter):
        def _get_reasoning_gym(self) -> Any:
            return module

    adapter = MyAdapter()
    assert "counting" in adapter.list_environments()
    assert "leg_counting" in adapter.list_environments()  # the native ports stay
    env = adapter.get_environment("counting", size=3, seed=7)
    assert isinstance(env, ReasoningGymEnvironment)
    assert module.created == [("counting", {"seed": 7, "size": 3})]
    assert (env.spec.name, len(env)) == ("counting", 3)
    state, _ = env.reset(options={"task_index": 2})
    assert env.step(state, Action.from_text("<answer>3</answer>")).rewards.total == 1.0
    assert [r.total for r in Scorer(env).score_batch([0, 1], ["<answer>1</answer>", "<answer>5</answer>"])] == \
        [1.0, 0.0]
    with pytest.raises(KeyError, match="Unknown reasoning_gym task"):
        adapter.get_environment("nothing_like_it", seed=1)


def test_hook_set_on_an_instance_is_used_for_listing():
    adapter = ReasoningGymAdapter()
    adapter._get_reasoning_gym = FakeModule  # type: ignore[method-assign]
    assert "counting" in adapter.list_environments()
    assert adapter.get_environment_info("counting")["backend"] == "python"


def test_a_dataset_made_by_a_patched_create_dataset_is_served(monkeypatch):
    rg = pytest.importorskip("reasoning_gym")
    monkeypatch.setattr(rg, "create_dataset", lambda name, **kwargs: CountingDataset(size=2))
    env = ReasoningGymAdapter().get_environment("my_own_task", seed=3)
    assert isinstance(env, ReasoningGymEnvironment)
    assert (env.spec.name, env.spec.adapter, len(env)) == ("my_own_task", "reasoning_gym", 2)
