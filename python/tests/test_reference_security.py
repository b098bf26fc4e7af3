"""Rows and labels are untrusted: a reference may select a configured environment or a procedural task, nothing else.

Each test is one attack vector against the shipped reward functions (veRL's
``compute_score``, OpenRLHF's ``reward_func``): a hub dataset with
``trust_remote_code``, a URL, a local file, a loader option, a reasoning-gym
data file outside its package, and a flood of distinct references.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from llenvs_go import _native
from llenvs_go.adapters.huggingface import hub as hf_hub
from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import _references, openrlhf, verl
from llenvs_go.integrations._references import RefusedReferenceError

ATTACK = {"name": "attacker/evil-dataset", "adapter": "huggingface",
          "params": {"trust_remote_code": True, "data_files": "https://attacker.example/x.jsonl", "revision": "main"}}


@pytest.fixture()
def no_loading(monkeypatch):
    """Fail the test if any dataset loader is reached (hub, file or URL)."""
    calls = []

    def refuse(*args, **kwargs):
        calls.append((args, kwargs))
        raise AssertionError(f"a dataset loader was called: {args} {kwargs}")

    monkeypatch.setattr(hf_hub, "load_hub_dataset", refuse)
    import datasets
    monkeypatch.setattr(datasets, "load_dataset", refuse)
    return calls


def _label(reference: dict | str, task: int = 0) -> str:
    text = reference if isinstance(reference, str) else json.dumps(reference)
    return f"llenvs:{task}::{text}"


def _both_refuse(reference: dict | str) -> str:
    """The veRL and OpenRLHF shipped functions refuse ``reference``; returns veRL's message."""
    text = reference if isinstance(reference, str) else json.dumps(reference)
    with pytest.raises(RefusedReferenceError) as e:
        verl.compute_score("x", "<answer>1</answer>", "1", {"task_index": 0, "env_reference": text})
    with pytest.raises(RefusedReferenceError):
        asyncio.run(verl.compute_score_async("x", "<answer>1</answer>", "1", {"task_index": 0, "env_reference": text}))
    out = openrlhf.reward_func(["<answer>1</answer>"], None, [_label(text)])
    assert [float(x) for x in out["rewards"]] == [0.0]
    assert out["extra_logs"][openrlhf.REFUSED_KEY] == 1.0 and out["extra_logs"][openrlhf.UNSCORED_KEY] == 1.0
    assert text not in _references._BUILT
    return str(e.value)


def test_hub_dataset_with_trust_remote_code_is_refused(no_loading):
    message = _both_refuse(ATTACK)
    assert "adapter 'huggingface' is not a procedural task family" in message
    assert "LLENVS_GO_ENVIRONMENTS" in message and "allow_environments" in message  # says how to configure
    assert no_loading == []


@pytest.mark.parametrize("params", [
    {"trust_remote_code": True},
    {"data_files": "https://attacker.example/x.jsonl"},
    {"revision": "main"},
    {"data_dir": "/etc"},
    {"cache_dir": "/tmp/x"},
])
def test_loader_options_are_refused_on_any_adapter(no_loading, params):
    for adapter in ("reasoning_gym", "huggingface"):
        message = _both_refuse({"name": "leg_counting", "adapter": adapter, "seed": 1, "size": 5, "params": params})
        if adapter == "reasoning_gym":
            assert repr(f"params.{next(iter(params))}") in message
    assert no_loading == []


@pytest.mark.parametrize("name", ["https://attacker.example/x.jsonl", "/etc/passwd", "rows.jsonl", "../data/x.parquet"])
def test_urls_and_local_paths_are_refused(no_loading, tmp_path, name):
    secret = tmp_path / "answers.jsonl"
    secret.write_text('{"problem": "q", "solution": "\\\\boxed{31337}"}\n')
    for n in (name, str(secret)):
        _both_refuse({"name": n, "adapter": "huggingface", "seed": 1, "size": 1})
        # As a reasoning_gym name the path is no task of the adapter.
        message = _both_refuse({"name": n, "seed": 1, "size": 1})
        assert "is not a task of the 'reasoning_gym' adapter" in message
    assert no_loading == []


def test_a_local_file_cannot_be_probed_through_rewards(tmp_path):
    # Before: a reference naming a file gave 1.0 exactly when a guess matched the file's answer.
    secret = tmp_path / "answers.jsonl"
    secret.write_text('{"problem": "q", "solution": "\\\\boxed{31337}"}\n')
    reference = json.dumps({"name": str(secret), "adapter": "huggingface", "seed": 1, "size": 1})
    rewards = [float(openrlhf.reward_func([f"<answer>{g}</answer>"], None, [_label(reference)])["rewards"][0])
               for g in ("1", "31337")]
    assert rewards == [0.0, 0.0]


def test_reasoning_gym_data_file_outside_its_package_is_refused():
    message = _both_refuse({"name": "spell_backward", "seed": 1, "size": 5,
                            "params": {"data_file": "../../../../../../etc/passwd"}})
    assert "'params.data_file' names a file" in message


def test_unknown_keys_and_adapters_are_refused():
    _both_refuse({"name": "leg_counting", "seed": 1, "size": 5, "iterative": {"max_turns": 2}})
    _both_refuse({"name": "leg_counting", "adapter": "my_adapter", "seed": 1, "size": 5})
    _both_refuse({"name": "leg_counting", "seed": 1, "size": 5, "params": {"x": [{"nested_path": "/etc"}]}})
    _both_refuse("[" * 100_000 + "]" * 100_000)  # over the length bound, before json.loads


def test_procedural_references_still_score():
    env = environment_registry.get("leg_counting", size=20, seed=3)
    rows = verl.make_verl_dataset(env, num_tasks=3)
    for row in rows:
        truth = row["reward_model"]["ground_truth"]
        assert verl.compute_score(row["data_source"], f"<answer>{truth}</answer>", truth, row["extra_info"]) == 1.0
    labels = [r["label"] for r in openrlhf.make_openrlhf_dataset(env, num_tasks=3)]
    truths = [r["reward_model"]["ground_truth"] for r in rows]
    out = openrlhf.reward_func([f"<answer>{t}</answer>" for t in truths], None, labels)
    assert [float(x) for x in out["rewards"]] == [1.0, 1.0, 1.0]


def test_a_flood_of_distinct_references_stays_bounded():
    _references._BUILT.clear()
    before = _native.live_handles(_native.KIND_ENVIRONMENT)
    labels = [_label({"name": "leg_counting", "seed": s, "size": 5}) for s in range(500)]
    labels += [_label(dict(ATTACK, name=f"attacker/d{s}")) for s in range(500)]
    out = openrlhf.reward_func(["<answer>1</answer>"] * len(labels), None, labels)
    assert out["extra_logs"][openrlhf.REFUSED_KEY] == 500.0
    assert len(_references._BUILT) <= _references.REFERENCE_CACHE_SIZE
    import gc
    gc.collect()
    assert _native.live_handles(_native.KIND_ENVIRONMENT) - before <= _references.REFERENCE_CACHE_SIZE


def test_configured_environments_are_selected(tmp_path, monkeypatch, no_loading):
    rows_file = tmp_path / "qa.jsonl"
    rows_file.write_text("".join(json.dumps({"problem": f"q{i}", "solution": f"\\boxed{{{i + 10}}}"}) + "\n"
                                 for i in range(4)))
    config = {"name": str(rows_file), "adapter": "huggingface", "size": 4, "seed": 0}
    from llenvs_go.core.config import EnvironmentConfig
    monkeypatch.undo()  # the user's own configuration may load its file
    env = EnvironmentConfig.from_dict(config).build()
    row = verl.make_verl_dataset(env, num_tasks=1)[0]
    truth = row["reward_model"]["ground_truth"]
    with pytest.raises(RefusedReferenceError):
        verl.compute_score("x", f"<answer>{truth}</answer>", truth, row["extra_info"])
    # veRL's reward_kwargs: +reward.custom_reward_function.reward_kwargs.environments=<file>
    cfg_file = tmp_path / "envs.json"
    cfg_file.write_text(json.dumps({"environments": [config]}))
    assert verl.compute_score("x", f"<answer>{truth}</answer>", truth, row["extra_info"],
                              environments=str(cfg_file)) == 1.0
    _references._ALLOWED.clear()
    _references._LOADED_FILES.clear()
    # The environment variable, as a Ray worker would see it.
    monkeypatch.setenv(_references.ENVIRONMENTS_VAR, str(cfg_file))
    label = openrlhf.make_openrlhf_dataset(env, num_tasks=1)[0]["label"]
    out = openrlhf.reward_func([f"<answer>{truth}</answer>", "<answer>-1</answer>"], None, [label, label])
    assert [float(x) for x in out["rewards"]] == [1.0, 0.0]


def test_allow_environments_refuses_what_no_reference_names():
    rows = [{"problem": "q", "solution": "\\boxed{1}"}]
    with pytest.raises(ValueError, match="cannot be named by a reference"):
        verl.allow_environments(environment_registry.get(rows, adapter="huggingface"))
    with pytest.raises(ValueError, match="cannot read the environment configuration file"):
        verl.allow_environments("/nonexistent/envs.yaml")


@pytest.mark.parametrize("reference", [{"a": 1}, ["x"], 5, '{"name": 1}', "[" * 5000, "{" * 100_000])
def test_odd_references_are_row_errors_not_crashes(reference):
    env = environment_registry.get("leg_counting", size=5, seed=1)
    fn = verl.make_verl_reward_fn(env)
    with pytest.raises(ValueError):  # UnscorableRowError or EnvironmentMismatchError, both ValueErrors
        fn("x", "<answer>1</answer>", "", {"task_index": 0, "env_reference": reference})
    with pytest.raises(ValueError):
        verl.compute_score("x", "<answer>1</answer>", "", {"task_index": 0, "env_reference": reference})
