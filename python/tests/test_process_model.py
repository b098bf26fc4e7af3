"""Pickling, threads, fork and spawn: the process model training jobs put us in."""

from __future__ import annotations

import dataclasses
import multiprocessing as mp
import pickle
import threading

import pytest

from llenvs_go.integrations import DatasetProvider, Scorer


def _responses(n: int) -> tuple[list[int], list[str]]:
    idx = [i % 50 for i in range(n)]
    resp = [f"thinking {i}... <answer>{(i * 7) % 300}</answer>" for i in range(n)]
    return idx, resp


def _without_episode(item):
    """An item with its random episode_id left out, for comparing items built twice."""
    return dataclasses.replace(item, metadata={k: v for k, v in item.metadata.items() if k != "episode_id"})


def test_objects_pickle_by_configuration(leg_env):
    scorer = Scorer(leg_env)
    provider = DatasetProvider(leg_env, system_prompt=None)
    s2 = pickle.loads(pickle.dumps(scorer))
    p2 = pickle.loads(pickle.dumps(provider))
    assert s2.environment.handle != 0
    idx, resp = _responses(200)
    assert s2.score_batch(idx, resp).totals == scorer.score_batch(idx, resp).totals
    assert _without_episode(p2[3]) == _without_episode(provider[3])
    assert p2[3].messages == ({"role": "user", "content": provider[3].prompt},)


def test_unseeded_environment_pickles_with_its_seed():
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get(name="leg_counting", size=100)
    env2 = pickle.loads(pickle.dumps(env))
    assert env.config["seed"] == env2.config["seed"]
    assert _without_episode(DatasetProvider(env)[5]) == _without_episode(DatasetProvider(env2)[5])


def test_eight_threads_agree_with_serial(leg_env):
    scorer = Scorer(leg_env)
    idx, resp = _responses(3000)
    serial = scorer.score_batch(idx, resp).totals
    results: dict[int, list[float]] = {}
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for _ in range(5):
                results[k] = scorer.score_batch(idx, resp).totals
            assert scorer.score(idx[k], resp[k]).total == serial[k]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(results[k] == serial for k in range(8))


def _fork_child(q):
    from llenvs_go.core.registry import environment_registry

    try:
        environment_registry.get(name="leg_counting", seed=1, size=10)
        q.put("no error")
    except RuntimeError as e:
        q.put(str(e))


def test_fork_after_load_raises_clear_error(leg_env):
    len(leg_env)  # make sure the library is loaded in the parent
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_fork_child, args=(q,))
    p.start()
    p.join(60)
    if p.is_alive():
        p.kill()
        pytest.fail("forked child hung")
    msg = q.get(timeout=5)
    assert "spawn" in msg and "forkserver" in msg


_STEPPED: dict = {}


def _details_child(q):
    unread, read = _STEPPED["unread"], _STEPPED["read"]
    try:
        q.put(("read", dict(read.info)))
        dict(unread.info)
        q.put(("unread", "no error"))
    except RuntimeError as e:
        q.put(("unread", str(e)))


def test_step_details_unread_before_fork_raise_in_the_child():
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.core.state import Action

    env = environment_registry.get("leg_counting", size=4, seed=3, iterative={"max_turns": 3})
    steps = []
    for k in range(2):
        state, _ = env.reset(options={"task_index": k})
        steps.append(env.step(state, Action.from_text("<answer>-1</answer>")))
    read_info = dict(steps[1].info)  # read in the parent: the child keeps the values
    _STEPPED.update(unread=steps[0], read=steps[1])
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_details_child, args=(q,))
    p.start()
    p.join(60)
    if p.is_alive():
        p.kill()
        pytest.fail("forked child hung")
    got = dict(q.get(timeout=5) for _ in range(2))
    assert got["read"] == read_info and read_info["turn"] == 1
    assert "before the process forked" in got["unread"]
    assert dict(steps[0].info)["turn"] == 1  # the parent can still read what the child could not


def _spawn_child(scorer, q):
    q.put(scorer.score_batch([0, 1], ["<answer>100</answer>", "x"]).totals)


def test_spawned_worker_rebuilds_the_handle(leg_env):
    scorer = Scorer(leg_env)
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_spawn_child, args=(scorer, q))
    p.start()
    got = q.get(timeout=120)
    p.join(60)
    assert got == scorer.score_batch([0, 1], ["<answer>100</answer>", "x"]).totals
