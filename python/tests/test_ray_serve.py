"""llenvs_go.integrations.ray_serve: a real local Ray Serve deployment with 2 replicas, OpenRLHF's HTTP client."""

from __future__ import annotations

import asyncio
import socket

import pytest
from test_serving import _as_reward_func, _plain, _post, _queries, openrlhf_agent  # noqa: F401  (openrlhf_agent is a fixture)

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import Scorer
from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, reward_func

serve = pytest.importorskip("ray.serve", reason="ray[serve] is not installed (make install puts it in .venv)")
ray = pytest.importorskip("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def legs():
    return environment_registry.get("leg_counting", seed=5, size=48)


@pytest.fixture(scope="module")
def route(legs):
    """The URL of a local Ray Serve application of 2 reward replicas, at /rewards."""
    from llenvs_go.integrations.ray_serve import reward_app

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    port = _free_port()
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(reward_app(legs, num_replicas=2, ray_actor_options={"num_cpus": 0.5}), name="llenvs",
                  route_prefix="/rewards")
        yield f"http://127.0.0.1:{port}/rewards"
    finally:
        serve.shutdown()
        ray.shutdown()


def test_two_replicas_are_running(route):
    deployments = serve.status().applications["llenvs"].deployments
    assert {name: d.replica_states.get("RUNNING", 0) for name, d in deployments.items()} == {"llenvs_rewards": 2}


def test_openrlhf_client_through_the_route_gets_what_reward_func_gives(route, legs, openrlhf_agent):  # noqa: F811
    rows = make_openrlhf_dataset(legs)
    queries, prompts, labels = _queries(legs, rows)
    want = reward_func(queries, prompts, labels)
    executor = openrlhf_agent.SingleTurnAgentExecutor(route + "/get_reward")
    (whole,) = asyncio.run(executor._fetch_rewards_via_http(queries, prompts, labels))
    assert _as_reward_func(whole["rewards"], want["rewards"]) == _plain(want["rewards"])
    assert _as_reward_func(whole["scores"], want["scores"]) == _plain(want["scores"])
    assert sum(whole["rewards"]) > 0 and 0.0 in whole["rewards"]

    async def one_each():  # OpenRLHF's rollout pattern: one request per sample, many at once
        return await asyncio.gather(*(executor._fetch_rewards_via_http([q], [p], [lab])
                                      for q, p, lab in zip(queries, prompts, labels, strict=True)))

    got = [g[0]["rewards"][0] for g in asyncio.run(one_each())]
    assert _as_reward_func(got, want["rewards"]) == _plain(want["rewards"])


def test_score_endpoint_through_the_route_equals_the_scorer(route, legs):
    _, truths = legs.task_texts(range(8))
    responses = [f"<answer>{t}</answer>" if i % 2 else "<answer>-1</answer>" for i, t in enumerate(truths)]
    code, got = _post(route + "/score", {"task_indices": list(range(8)), "responses": responses})
    want = Scorer(legs).score_batch(list(range(8)), responses)
    assert code == 200
    assert got["totals"] == [r.total for r in want] and got["statuses"] == want.statuses
    assert sum(got["totals"]) == 4


def test_errors_and_health_pass_through_unchanged(route):
    code, got = _post(route + "/score", {"responses": ["a"], "ground_truth": ["1"]})
    assert code == 400 and 'unknown field "ground_truth"' in got["error"]
    code, got = _post(route + "/get_reward", {"query": ["a", "b"], "labels": ["1"]})
    assert code == 400 and "same length" in got["error"]
    import urllib.request

    with urllib.request.urlopen(route + "/ready", timeout=30) as r:
        assert r.status == 200 and b"leg_counting" in r.read()


def test_reward_app_refuses_unbounded_queues_and_conflicting_scaling(legs):
    from llenvs_go.integrations.ray_serve import reward_app

    with pytest.raises(ValueError, match="bounded queue"):
        reward_app(legs, max_queued_requests=-1)
    with pytest.raises(ValueError, match="not both"):
        reward_app(legs, num_replicas=2, autoscaling_config={"min_replicas": 1, "max_replicas": 4})
