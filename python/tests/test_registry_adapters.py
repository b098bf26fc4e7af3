"""environment_registry's adapter API (llenvs tests/test_reasoning_gym_adapter.py, registry part) and the
reasoning_gym adapter."""

from __future__ import annotations

import pytest
from test_python_envs import MockEnvironment

from llenvs_go.adapters import ReasoningGymAdapter, ReasoningGymEnvironment
from llenvs_go.core.registry import EnvironmentRegistry, environment_registry
from llenvs_go.integrations import DatasetProvider, Scorer


class MockAdapter:
    """An adapter written in Python: environments "small" (3 tasks) and "large" (10 tasks)."""

    name = "mock"

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def list_environments(self) -> list[str]:
        return ["large", "small"]

    def get_environment(self, name: str, **kwargs) -> MockEnvironment:
        self.calls.append((name, kwargs))
        return MockEnvironment(n={"small": 3, "large": 10}[name])


@pytest.fixture()
def registry() -> EnvironmentRegistry:
    return EnvironmentRegistry()


def test_register_and_get_adapter(registry):
    adapter = MockAdapter()
    registry.register_adapter(adapter)
    assert registry.get_adapter("mock") is adapter
    assert registry.list_adapters() == ["mock"]  # a new registry starts empty, as llenvs'
    assert environment_registry.list_adapters() == ["huggingface", "native", "reasoning_gym"]


def test_duplicate_registration_is_refused(registry):
    registry.register_adapter(MockAdapter())
    with pytest.raises(ValueError, match="Adapter 'mock' is already registered"):
        registry.register_adapter(MockAdapter())


def test_unknown_adapter_is_a_key_error(registry):
    with pytest.raises(KeyError,
                       match=r"Adapter 'nope' not registered. Available: \[\]"):
        registry.get_adapter("nope")
    with pytest.raises(KeyError, match="not registered"):
        registry.get("small", adapter="nope")
    with pytest.raises(KeyError, match="not registered"):
        registry.list_environments("nope")


def test_unregister_is_silent_when_missing(registry):
    registry.register_adapter(MockAdapter())
    registry.unregister_adapter("mock")
    registry.unregister_adapter("mock")
    with pytest.raises(KeyError):
        registry.get_adapter("mock")


def test_get_goes_through_the_adapter(registry):
    adapter = MockAdapter()
    registry.register_adapter(adapter)
    env = registry.get("small", adapter="mock", seed=3, extra="x")
    assert len(env) == 3 and adapter.calls == [("small", {"seed": 3, "extra": "x"})]
    assert registry.get(name="large", adapter="mock") is not registry.get(name="large", adapter="mock")


def test_list_environments_and_contains(registry):
    registry.register_adapter(MockAdapter())
    assert registry.list_environments("mock") == [("mock", "large"), ("mock", "small")]
    pairs = registry.list_environments()
    assert pairs == [("mock", "large"), ("mock", "small")]
    assert ("mock", "small") in registry and ("reasoning_gym", "leg_counting") in environment_registry
    assert ("reasoning_gym", "leg_counting") not in registry  # a new registry has only what it was given
    assert ("mock", "medium") not in registry and ("nope", "small") not in registry
    assert "mock" not in registry  # not a pair


def test_adapters_must_have_a_name_and_get_environment(registry):
    class Nameless:
        def get_environment(self, name, **kw): ...

    class NoGet:
        name = "x"

    with pytest.raises(TypeError, match="'name'"):
        registry.register_adapter(Nameless())
    with pytest.raises(TypeError, match="get_environment"):
        registry.register_adapter(NoGet())


def test_a_user_adapter_works_end_to_end():
    environment_registry.register_adapter(MockAdapter())
    try:
        env = environment_registry.get(name="small", adapter="mock")
        assert Scorer(env).score_batch([0, 2], ["Answer:0", "20"]).totals == [2.0, 1.0]
        assert [it.ground_truth for it in DatasetProvider(env)] == ["0", "10", "20"]
        assert {"adapter": "mock", "name": "small", "backend": "python"} in \
            environment_registry.describe_environments("mock")
    finally:
        environment_registry.unregister_adapter("mock")
    assert environment_registry.list_adapters() == ["huggingface", "native", "reasoning_gym"]


def test_internal_adapter_is_never_shown():
    assert "external" not in environment_registry.list_adapters()
    assert all(a != "external" for a, _ in environment_registry.list_environments())
    assert all(r["adapter"] != "external" for r in environment_registry.describe_environments())
    with pytest.raises(KeyError) as e:
        environment_registry.get(name="leg_counting", adapter="reasoning-gym")
    assert "external" not in str(e.value) and "did you mean 'reasoning_gym'" in str(e.value)


# -- the reasoning_gym adapter ---------------------------------------------------------


def test_reasoning_gym_adapter_describes_its_tasks():
    adapter = environment_registry.get_adapter("reasoning_gym")
    assert isinstance(adapter, ReasoningGymAdapter) and adapter.name == "reasoning_gym"
    names = adapter.list_environments()
    assert "leg_counting" in names and names == sorted(names)
    assert adapter.get_environment_info("leg_counting") == {
        "name": "leg_counting", "adapter": "reasoning_gym", "type": "single_turn",
        "description": "reasoning-gym dataset: leg_counting", "backend": "native"}
    with pytest.raises(KeyError, match="leg_counting"):
        adapter.get_environment_info("leg_countin")
    assert "<answer>" in adapter.get_default_system_prompt("leg_counting")
    assert adapter.get_prompt_template("leg_counting") is None


def test_reasoning_gym_adapter_builds_environments(rg_leg):
    env = ReasoningGymAdapter().get_environment("leg_counting", size=1000, seed=42)
    assert isinstance(env, ReasoningGymEnvironment)
    assert DatasetProvider(env)[7].prompt == rg_leg[7]["question"]


def test_python_backed_tasks_are_reasoning_gym_environments():
    rg = pytest.importorskip("reasoning_gym")
    env = environment_registry.get(name="knights_knaves", size=5, seed=1)
    assert isinstance(env, ReasoningGymEnvironment) and env.backend == "python"
    assert environment_registry.get_adapter("reasoning_gym").get_environment_info("knights_knaves")["backend"] \
        == "python"
    entry = rg.create_dataset("knights_knaves", size=5, seed=1)[2]
    assert DatasetProvider(env)[2].ground_truth == entry["answer"]
    state, _ = env.reset(options={"task_index": 2})
    assert state.hidden.entry == entry and state.hidden.expected_answer == entry["answer"]
