"""The framework adapters in the processes frameworks put them in: cloudpickle, a fresh interpreter, Ray.

veRL's remote reward manager and Ray ship reward functions with cloudpickle (a file loaded by path is
pickled by value, verl/utils/import_utils.py 0.9.1); TRL runs them in every rank's process; OpenRLHF
loads the file in each vLLM Ray actor. Every function must give the same results after the trip.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import framework_mocks
import pytest
from framework_mocks import QEnvironment, answers

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import openrlhf, trl, verl

cloudpickle = pytest.importorskip("cloudpickle")
cloudpickle.register_pickle_by_value(framework_mocks)


def _load_by_path(module) -> object:
    spec = importlib.util.spec_from_file_location(f"custom_module_{hash(module.__file__)}", module.__file__)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _cases():
    """(name, function, call arguments) for every reward function, with the inputs to score."""
    import llenvs_go.integrations.openrlhf_reward as orl_file
    import llenvs_go.integrations.verl_reward as verl_file

    env = environment_registry.get(name="leg_counting", size=1000, seed=42)
    q = QEnvironment()
    rows = verl.make_verl_dataset(env, num_tasks=6)
    good = answers(env, range(6))
    responses = [g if k % 2 else "<answer>1</answer>" for k, g in enumerate(good)]
    verl_calls = [{"data_source": r["data_source"], "solution_str": t,
                   "ground_truth": r["reward_model"]["ground_truth"],
                   "extra_info": dict(r["extra_info"], num_turns=None, rollout_reward_scores={})}
                  for r, t in zip(rows, responses, strict=True)]
    trl_call = {"prompts": ["p"] * 6, "completions": [[{"role": "assistant", "content": t}] for t in responses],
                "completion_ids": [[1]] * 6, "task_index": list(range(6)),
                "ground_truth": [r["ground_truth"] for r in rows],
                "env_reference": [r["extra_info"]["env_reference"] for r in rows]}
    labels = [r["label"] for r in openrlhf.make_openrlhf_dataset(env, num_tasks=6)]
    orl_calls = [((t,), ("",), (lab,)) for t, lab in zip(responses, labels, strict=True)] + [(("x",), ("",), ("bad",))]
    return [
        ("verl", verl.make_verl_reward_fn(env), [((), c) for c in verl_calls]),
        ("verl_dict", verl.make_verl_reward_fn(env, return_dict=True), [((), c) for c in verl_calls]),
        ("verl_python_env", verl.make_verl_reward_fn(q), [(("qmock", "3", "3", {"task_index": 3}), {})]),
        ("verl_file", _load_by_path(verl_file).compute_score, [((), c) for c in verl_calls]),
        ("trl", trl.make_trl_reward_fn(env), [((), trl_call)]),
        ("trl_python_env", trl.make_trl_reward_fn(q), [((), {"completions": ["1", "2"], "task_index": [1, 1]})]),
        ("openrlhf", openrlhf.make_openrlhf_reward_fn(env), [(c, {}) for c in orl_calls]),
        ("openrlhf_file", _load_by_path(orl_file).reward_func, [(c, {}) for c in orl_calls]),
    ]


def _plain(value):
    """Results as plain data (tensors as lists) for comparison across processes."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def run_cases(cases) -> dict:
    """Every case's results."""
    return {name: [_plain(fn(*args, **kwargs)) for args, kwargs in calls] for name, fn, calls in cases}


@pytest.fixture(scope="module")
def cases():
    return _cases()


@pytest.fixture(scope="module")
def expected(cases):
    out = run_cases(cases)
    assert out["verl"] == [0.0, 1.0] * 3 and out["trl"] == [[0.0, 1.0] * 3]
    assert out["openrlhf"][-1]["extra_logs"]["llenvs/unscored"] == 1.0
    return out


def test_cloudpickle_round_trip(cases, expected):
    again = cloudpickle.loads(cloudpickle.dumps(cases))
    assert run_cases(again) == expected


def test_datasets_pickle(tmp_path):
    env = environment_registry.get(name="leg_counting", size=1000, seed=42)
    rows = verl.make_verl_dataset(env, num_tasks=5)
    assert cloudpickle.loads(cloudpickle.dumps(rows)) == rows
    orl = openrlhf.make_openrlhf_dataset(env, num_tasks=5)
    assert cloudpickle.loads(cloudpickle.dumps(orl)) == orl
    pytest.importorskip("datasets")
    ds = trl.make_trl_dataset(env, num_tasks=5)
    assert cloudpickle.loads(cloudpickle.dumps(ds))[:] == ds[:]


def test_fresh_process(cases, expected, tmp_path):
    payload = tmp_path / "cases.pkl"
    payload.write_bytes(cloudpickle.dumps((cases, run_cases)))
    out = tmp_path / "out.pkl"
    script = ("import sys, cloudpickle\n"
              "cases, run = cloudpickle.loads(open(sys.argv[1], 'rb').read())\n"
              "open(sys.argv[2], 'wb').write(cloudpickle.dumps(run(cases)))\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    subprocess.run([sys.executable, "-c", script, str(payload), str(out)], check=True, env=env, timeout=300)
    assert cloudpickle.loads(out.read_bytes()) == expected


def test_ray_tasks_and_actors(cases, expected):
    ray = pytest.importorskip("ray")
    ray_cloudpickle = pytest.importorskip("ray.cloudpickle")
    for module in (framework_mocks, sys.modules[__name__]):  # test code is not importable in Ray's workers
        ray_cloudpickle.register_pickle_by_value(module)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {k: v for k, v in os.environ.items() if k.startswith("LLENVS_GO")}})
    try:
        @ray.remote
        def score(case):
            name, fn, calls = case
            return run_cases([case])[name]

        @ray.remote
        class Scorer:
            def __init__(self, case):
                self.case = case

            def run(self):
                return run_cases([self.case])[self.case[0]]

        got = ray.get([score.remote(c) for c in cases])
        assert dict(zip([c[0] for c in cases], got, strict=True)) == expected
        actors = [Scorer.remote(c) for c in cases[:3] + cases[-2:]]
        got = ray.get([a.run.remote() for a in actors])
        assert got == [expected[c[0]] for c in cases[:3] + cases[-2:]]
    finally:
        if started:
            ray.shutdown()
