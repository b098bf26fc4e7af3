"""DatasetProvider behaviour beyond the seed snippet."""

from __future__ import annotations

import pytest

from llenvs_go.integrations import DatasetProvider, TaskItem


def test_iteration_ends_and_matches_indexing(rg_leg):
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get(name="leg_counting", size=2500, seed=42)
    provider = DatasetProvider(env)
    items = list(provider)
    assert [it.task_index for it in items] == list(range(2500))
    assert items[999].prompt == rg_leg[999]["question"]


def test_out_of_range_and_bad_indices(leg_env):
    provider = DatasetProvider(leg_env)
    for bad in (-1, 1000):
        with pytest.raises(IndexError) as e:
            provider[bad]
        assert isinstance(e.value, ValueError)
    with pytest.raises(TypeError):
        provider["3"]  # type: ignore[index]
    with pytest.raises(IndexError, match="task_index 5000"):
        provider.get_items([1, 5000])
    assert provider.get_items([]) == []


def test_task_item_is_frozen_and_carries_metadata(leg_env, rg_leg):
    item = DatasetProvider(leg_env)[9]
    assert isinstance(item, TaskItem)
    with pytest.raises(AttributeError):
        item.prompt = "x"  # type: ignore[misc]
    assert item.metadata == {"task_index": 9, "dataset_name": "leg_counting", "seed": 42, "size": 1000,
                             "backend": "native"}
    assert leg_env.entries([9])[0]["metadata"]["total_legs"] == rg_leg[9]["metadata"]["total_legs"]
    assert item.images == () and item.available_tools == ()
