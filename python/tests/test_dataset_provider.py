"""DatasetProvider behaviour beyond the seed snippet."""

from __future__ import annotations

import json
import uuid

import pytest

from llenvs_go.core.lazy_mapping import LazyMapping
from llenvs_go.core.state import ObservationImages
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
    episode_id = item.metadata.pop("episode_id")
    assert uuid.UUID(episode_id).version == 4 and str(uuid.UUID(episode_id)) == episode_id
    assert item.metadata == {"task_index": 9, "dataset_name": "leg_counting", "seed": 42, "size": 1000,
                             "backend": "native"}
    assert leg_env.entries([9])[0]["metadata"]["total_legs"] == rg_leg[9]["metadata"]["total_legs"]
    assert item.images == ObservationImages() and not item.images and item.available_tools == ()


def test_episode_ids_are_fresh_uuid4_strings(leg_env):
    items = DatasetProvider(leg_env).get_items(range(1000)) + DatasetProvider(leg_env).get_items([1, 2])
    ids = [it.metadata["episode_id"] for it in items]
    assert len(set(ids)) == len(ids)
    for s in ids:
        u = uuid.UUID(s)
        assert u.version == 4 and u.variant == uuid.RFC_4122 and str(u) == s


def test_metadata_is_built_when_first_read_and_behaves_as_a_field(leg_env):
    import copy
    import dataclasses
    import pickle

    a, b, c = DatasetProvider(leg_env).get_items([4, 5, 6])
    # A view over the batch: TaskItem is built by its own constructor and holds it as its metadata.
    assert isinstance(a.metadata, LazyMapping) and a.metadata is a.metadata
    assert a.metadata._dict is None  # get_items built no metadata dict
    first_id = a.metadata["episode_id"]  # drawn when first read, then kept
    assert a.metadata["episode_id"] == first_id and a.metadata["task_index"] == 4
    plain = dict(a.metadata)
    assert type(plain) is dict and plain == a.metadata and json.loads(json.dumps(plain)) == plain
    back = pickle.loads(pickle.dumps(b))  # pickles as the dict it views
    assert back == b and back.metadata == b.metadata and type(back.metadata) is dict
    assert copy.deepcopy(c) == c and dataclasses.replace(c, prompt="x").metadata == c.metadata
    assert repr(TaskItem(0, "p", (), None, {"k": 1})) == (
        "TaskItem(task_index=0, prompt='p', messages=(), ground_truth=None, metadata={'k': 1}, "
        "images=ObservationImages(task=(), state=()), available_tools=())")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.metadata = {}  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = a.nope  # type: ignore[attr-defined]
