"""Datasets built as Arrow columns in Go: the same rows as item by item, failures isolated, large builds."""

from __future__ import annotations

import pytest

from llenvs_go import _native
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import DatasetProvider

datasets = pytest.importorskip("datasets")


def _rows_from_items(provider, indices=None):
    return [{"task_index": it.task_index, "prompt": it.prompt, "ground_truth": it.ground_truth,
             "messages": [dict(m) for m in it.messages]} for it in provider.get_items(indices)]


@pytest.mark.parametrize("name,kwargs", [
    ("leg_counting", {}),
    ("basic_arithmetic", {"prompt_template": "Solve: {question}\nThen {{check}} {question}."}),
    ("number_sorting", {"system_prompt": None}),
    ("composite", {"datasets": [{"name": "chain_sum", "weight": 1}, {"name": "gcd", "weight": 2}]}),
])
def test_arrow_rows_equal_the_items(name, kwargs):
    env = environment_registry.get(name=name, size=300, seed=5, **kwargs)
    provider = DatasetProvider(env)
    ds = provider.to_hf_dataset(chunk_size=64)
    assert ds.column_names == ["task_index", "prompt", "ground_truth", "messages"]
    assert ds.to_list() == _rows_from_items(provider)
    subset = provider.to_hf_dataset([7, 3, 3, 299])
    assert subset["task_index"] == [7, 3, 3, 299]
    assert subset.to_list() == _rows_from_items(provider, [7, 3, 3, 299])


def test_arrow_rows_match_reasoning_gym():
    rg = pytest.importorskip("reasoning_gym")
    env = environment_registry.get(name="leg_counting", size=200, seed=11)
    ds = DatasetProvider(env).to_hf_dataset(chunk_size=50)
    ref = rg.create_dataset("leg_counting", size=200, seed=11)
    assert ds["prompt"] == [ref[i]["question"] for i in range(200)]
    assert ds["ground_truth"] == [str(ref[i]["answer"]) for i in range(200)]


def test_provider_system_prompt_and_a_template_conversion():
    # A conversion or format spec in the template is refused (see test_user_errors.py); a plain template and
    # a system prompt given to the provider build the same rows on both paths.
    with pytest.raises(ValueError, match=r"conversion !r"):
        environment_registry.get(name="leg_counting", size=20, seed=1, prompt_template="{question!r}")
    env = environment_registry.get(name="leg_counting", size=20, seed=1, prompt_template="<{question}>")
    provider = DatasetProvider(env, system_prompt="Be brief.")
    ds = provider.to_hf_dataset()
    assert ds.to_list() == _rows_from_items(provider)
    assert ds[0]["messages"][0] == {"role": "system", "content": "Be brief."}
    assert ds[0]["messages"][1]["content"] == f"<{ds[0]['prompt']}>"


def _failing_env():
    if not _native.call("info").get("test_hooks"):
        pytest.skip("library built without the test hooks")
    return NativeEnvironment({"name": "fails_on_odd_for_test", "adapter": "test_hooks"})


def test_a_task_that_cannot_be_generated_raises_or_is_skipped():
    provider = DatasetProvider(_failing_env())
    with pytest.raises(ValueError, match="task 1 could not be generated: task 1 is odd.*on_error='skip'"):
        provider.to_hf_dataset()
    with pytest.raises(ValueError, match="task 3 could not be generated"):
        provider.get_items([2, 3])
    ds = provider.to_hf_dataset(on_error="skip", chunk_size=3)
    assert ds["task_index"] == [0, 2, 4, 6, 8]
    assert provider.skipped == [(i, f"task {i} is odd") for i in (1, 3, 5, 7, 9)]
    items = provider.get_items(range(4), on_error="skip")
    assert [it.task_index for it in items] == [0, 2] and [i for i, _ in provider.skipped] == [1, 3]
    with pytest.raises(ValueError, match="on_error must be 'raise' or 'skip'"):
        provider.get_items(on_error="ignore")


def test_progress_bar_when_asked(capsys):
    env = environment_registry.get(name="leg_counting", size=100, seed=1)
    DatasetProvider(env).to_hf_dataset(progress=True, chunk_size=10)
    assert "100/100" in capsys.readouterr().err
    DatasetProvider(env).to_hf_dataset(chunk_size=10)  # not a terminal: no bar by default
    assert capsys.readouterr().err == ""
