"""Tasks without a native port (Python backend) and composite datasets."""

from __future__ import annotations

import json
import pickle

import pytest

rg = pytest.importorskip("reasoning_gym")

from llenvs_go.core.registry import environment_registry  # noqa: E402
from llenvs_go.core.state import Action  # noqa: E402
from llenvs_go.integrations import DatasetProvider, Scorer  # noqa: E402

UNPORTED = "knights_knaves"


def test_unported_task_is_served_by_reasoning_gym_and_says_so():
    env = environment_registry.get(name=UNPORTED, size=40, seed=5)
    assert env.spec.name == UNPORTED and env.spec.metadata["backend"] == "python"
    ds = rg.create_dataset(UNPORTED, size=40, seed=5)
    provider = DatasetProvider(env)
    assert [it.prompt for it in provider.get_items(range(40))] == [ds[i]["question"] for i in range(40)]
    assert provider[3].ground_truth == ds[3]["answer"] and provider[3].metadata["backend"] == "python"

    scorer = Scorer(env)
    answers = [ds[i]["answer"] for i in range(40)]
    responses = [f"<answer>{a}</answer>" if i % 2 else f"<answer>{a[: len(a) // 2]}</answer>"
                 for i, a in enumerate(answers)]
    results = scorer.score_batch(list(range(40)), responses)
    want = [float(ds.score_answer(r[8:-9], ds[i])) for i, r in enumerate(responses)]
    assert results.totals == want
    assert results[1].metadata["backend"] == "python"
    assert results[1].metadata["correctness"]["expected"] == answers[1]
    assert scorer.score(0, "no tags").total == 0.0

    clone = pickle.loads(pickle.dumps(scorer))
    assert clone.score_batch(list(range(40)), responses).totals == want


def test_native_results_say_native(leg_env):
    assert Scorer(leg_env).score(0, "x").metadata["backend"] == "native"
    assert leg_env.spec.metadata["backend"] == "native"


def test_listing_has_backends():
    rows = environment_registry.describe_environments()
    backends = {r["name"]: r["backend"] for r in rows}
    assert backends["leg_counting"] == "native"
    assert backends[UNPORTED] == "python"
    assert set(backends) >= set(rg.factory.DATASETS)
    assert ("reasoning_gym", UNPORTED) in environment_registry


def test_unknown_task_lists_close_matches():
    with pytest.raises(KeyError) as e:
        environment_registry.get(name="knights_knavez", seed=1)
    assert "knights_knaves" in str(e.value) and isinstance(e.value, ValueError)


def test_bad_config_of_unported_task_is_value_error():
    with pytest.raises(ValueError, match="invalid knights_knaves config"):
        environment_registry.get(name=UNPORTED, seed=1, no_such_field=3)



COMPOSITES = [
    [{"name": "leg_counting", "weight": 2, "config": {}},
     {"name": "chain_sum", "weight": 1, "config": {"min_terms": 3, "max_terms": 4}},
     {"name": "gcd", "weight": 0.5, "config": {"seed": 99}}],
    [{"name": "basic_arithmetic", "weight": 1.5, "config": {}}, {"name": "spell_backward", "weight": 1, "config": {}},
     {"name": "shortest_path", "weight": 3, "config": {"size": 7}}],
]


@pytest.mark.parametrize("specs", COMPOSITES)
@pytest.mark.parametrize("seed", [42, 2**33 + 17])
def test_composite_matches_reasoning_gym(specs, seed):
    from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

    n = 300
    ds = CompositeDataset(CompositeConfig(size=n, seed=seed, datasets=[DatasetSpec(**s) for s in specs]))
    env = environment_registry.get(name="composite", size=n, seed=seed, datasets=specs)
    ours = env.entries(list(range(n)))
    for i in range(n):
        assert ours[i] == json.loads(json.dumps(ds[i])), f"item {i}"
    scorer = Scorer(env)
    responses = [f"<answer>{ds[i]['answer']}</answer>" if i % 3 else "<answer>7</answer>" for i in range(n)]
    want = [float(ds.score_answer(r[8:-9], ds[i])) for i, r in enumerate(responses)]
    assert scorer.score_batch(list(range(n)), responses).totals == want


def test_composite_config_errors():
    with pytest.raises(ValueError, match="duplicate dataset name"):
        environment_registry.get(name="composite", seed=1, datasets=[{"name": "gcd", "weight": 1}] * 2)
    with pytest.raises(ValueError, match="weight must be positive"):
        environment_registry.get(name="composite", seed=1, datasets=[{"name": "gcd", "weight": 0}])
    with pytest.raises(KeyError, match="no native port"):
        environment_registry.get(name="composite", seed=1, datasets=[{"name": UNPORTED, "weight": 1}])


def test_data_file_tasks_say_what_is_missing(tmp_path):
    with pytest.raises(ValueError, match=r"words3to10\.txt.*pip install reasoning-gym"):
        environment_registry.get(name="spell_backward", seed=1, data_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"in_the_year_2889\.txt"):
        environment_registry.get(name="letter_counting", seed=1, data_dir=str(tmp_path))


def test_python_backend_reset_gives_the_states_of_the_native_backend():
    """A task served by the reasoning-gym package starts episodes built from its entries, equal to the Go port's."""
    from llenvs_go.adapters.reasoning_gym import ReasoningGymAdapter

    native = environment_registry.get("leg_counting", size=12, seed=9)
    python = ReasoningGymAdapter._python_environment(
        {"name": "leg_counting", "size": 12, "seed": 9, "params": {}}, "default", None)
    assert native.backend == "native" and python.backend == "python"
    ds = rg.create_dataset("leg_counting", size=12, seed=9)
    for i in (0, 5, 11):
        (n_state, n_info), (p_state, p_info) = (env.reset(options={"task_index": i, "episode_id": "e"})
                                                for env in (native, python))
        assert p_state.observation == n_state.observation
        assert p_state.observation.prompt == ds[i]["question"]
        # the Go port's entry crossed as JSON (its tuples are lists); the package's is reasoning-gym's own
        assert p_state.hidden.entry == ds[i] and json.loads(json.dumps(ds[i])) == n_state.hidden.entry
        assert (p_state.hidden.expected_answer, p_state.hidden.task_index, p_state.hidden.dataset_name) == (
            n_state.hidden.expected_answer, n_state.hidden.task_index, n_state.hidden.dataset_name)
        assert type(p_state.hidden) is type(n_state.hidden)
        assert p_state.metadata == n_state.metadata and p_info == n_info
        step = python.step(p_state, Action.from_text(f"<answer>{ds[i]['answer']}</answer>"))
        assert step.rewards.total == 1.0 and step.done
