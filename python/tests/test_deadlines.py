"""Deadlines for Python scoring code: an item that runs past its timeout is stopped and reported.

Python code that scoring runs (environments and reward functions written in
Python, reasoning-gym's own ``score_answer`` for tasks without a Go port) runs
in a worker process when it has a timeout; the worker is killed when an item
overruns, that item is ``timeout``, one that kills the worker is ``error``, and
the other items are scored as in process. Timeouts here are short (0.5-1 s);
the bounds asserted are generous (the machine is shared), never benchmarks.
"""

from __future__ import annotations

import concurrent.futures
import gc
import multiprocessing
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import pytest
from framework_mocks import QEnvironment

from llenvs_go import _deadline
from llenvs_go.adapters.reasoning_gym_package import PythonReasoningGymEnvironment, ScoreAnswer
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import RewardType, Signal
from llenvs_go.integrations import Scorer
from llenvs_go.integrations.scoring import STATUSES, ScoringFailureWarning

SLACK = 10.0  # seconds on top of a documented bound: worker starts on a loaded two-core machine


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _gone(pids, within: float = 5.0) -> bool:
    end = time.monotonic() + within
    while any(_alive(p) for p in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


class Misbehaving(QEnvironment):
    """QEnvironment whose step sleeps forever on "sleep", ends its process on "exit" and raises on "raise"."""

    def step(self, state, action):
        if action.text == "sleep":
            time.sleep(10_000)
        if action.text == "exit":
            os._exit(3)
        if action.text == "raise":
            raise RuntimeError("reward bug")
        if action.text and action.text.startswith("spawn:"):  # a child of the worker, then a hang
            child = subprocess.Popen(["sleep", "600"])
            pathlib.Path(action.text[6:]).write_text(str(child.pid))
            time.sleep(10_000)
        return super().step(state, action)


class SleepyFormat:
    """A Python reward function: 1.0 for text that starts with "Answer:", and it never returns on "sleep"."""

    name = "format"
    reward_type = RewardType.FORMAT

    def compute(self, state, action, next_state):
        if "sleep" in (action.text or ""):
            while True:
                time.sleep(1)
        return Signal(name=self.name, reward_type=self.reward_type,
                      reward=1.0 if (action.text or "").startswith("Answer:") else 0.0)


class SlowScoreAnswer(ScoreAnswer):
    """reasoning-gym's score_answer, but it never returns for the answer "sleep" and fails for "raise"."""

    def __call__(self, item):
        if item[1] == "sleep":
            time.sleep(10_000)
        if item[1] == "raise":
            raise ValueError("scorer bug")
        return super().__call__(item)


class SlowFallback(PythonReasoningGymEnvironment):
    score_answer_job = SlowScoreAnswer


def _python_backend_task() -> str:
    pytest.importorskip("reasoning_gym")
    backends = {r["name"]: r["backend"] for r in environment_registry.describe_environments()}
    assert backends["knights_knaves"] == "python"
    return "knights_knaves"


# -- environments and reward functions written in Python ------------------------


def test_a_step_that_sleeps_forever_is_a_timeout_and_the_rest_are_scored():
    scorer = Scorer(Misbehaving(), timeout=0.5)
    assert scorer.timeout == 0.5
    start = time.monotonic()
    results = scorer.score_batch([0, 1, 2, 3], ["0", "sleep", "2", "x"])
    assert time.monotonic() - start < 0.5 + SLACK
    assert results.statuses == ["correct", "timeout", "correct", "no_answer"]
    assert results.totals == [1.0, 0.0, 1.0, 0.0]
    assert "ran past 0.5 s" in results.errors[1] and results[1].metadata["status"] == "timeout"
    assert set(results.errors) == {1}


def test_the_timed_out_item_is_stopped_within_its_bound():
    scorer = Scorer(Misbehaving(), timeout=0.5)
    scorer.score_batch([0], ["0"])  # the worker is started and warm
    start = time.monotonic()
    results = scorer.score_batch([0], ["sleep"])
    elapsed = time.monotonic() - start
    assert results.statuses == ["timeout"]
    assert 0.5 <= elapsed < 0.5 + 0.5 + SLACK / 4  # documented: the timeout plus 0.5 s at most


def test_a_python_reward_function_that_sleeps_forever_does_not_hang_score_batch(leg_env):
    env = environment_registry.get(name="leg_counting", size=1000, seed=42, extra_rewards=(SleepyFormat(),))
    truths = env.task_texts([0, 1, 2])[1]
    scorer = Scorer(env, timeout=1.0)
    start = time.monotonic()
    results = scorer.score_batch([0, 1, 2], [f"Answer: <answer>{truths[0]}</answer>", "sleep <answer>1</answer>",
                                             f"<answer>{truths[2]}</answer>"])
    assert time.monotonic() - start < 1.0 + SLACK
    assert results.statuses == ["correct", "timeout", "correct"]
    assert results.totals == [2.0, 0.0, 1.0]
    assert results[0].signals == {"correctness": 1.0, "format": 1.0}
    with pytest.warns(ScoringFailureWarning, match="timeout"):
        assert scorer.total(1, "sleep") == 0.0


def test_a_worker_that_exits_is_an_error_and_the_rest_are_scored():
    results = Scorer(Misbehaving(), timeout=1.0).score_batch([0, 1, 2, 3], ["0", "exit", "raise", "3"])
    assert results.statuses == ["correct", "error", "error", "correct"]
    assert "exit status 3" in results.errors[1]
    assert results.errors[2] == "RuntimeError: reward bug"  # as in process
    assert Scorer(Misbehaving(), timeout=None).score_batch([2], ["raise"]).errors == {0: "RuntimeError: reward bug"}


def test_the_workers_process_group_is_killed(tmp_path):
    marker = tmp_path / "child.pid"
    results = Scorer(Misbehaving(), timeout=1.0).score_batch([0], [f"spawn:{marker}"])
    assert results.statuses == ["timeout"]
    assert _gone([int(marker.read_text())])


def test_supervised_results_equal_the_in_process_ones():
    env = Misbehaving(n=20)
    indices = list(range(20))
    responses = [str(i) if i % 3 else "wrong" for i in indices]
    here = Scorer(env, timeout=None).score_batch(indices, responses)
    there = Scorer(env, timeout=5.0).score_batch(indices, responses)
    assert there == here and there.statuses == here.statuses and there.totals == here.totals
    assert Scorer(env, timeout=5.0).score(4, "4") == Scorer(env).score(4, "4")


def test_errors_of_the_call_are_raised_as_in_process():
    scorer = Scorer(Misbehaving(n=3), timeout=1.0)
    with pytest.raises(ValueError, match="out of bounds"):  # QEnvironment.reset's own error
        scorer.score_batch([0, 7], ["0", "x"])
    with pytest.raises(RuntimeError, match="reward bug"):  # score() raises what step raises, as in process
        scorer.score(0, "raise")
    assert scorer.score_batch([1], ["1"]).statuses == ["correct"]  # the same worker goes on


def test_an_environment_that_cannot_be_pickled_is_a_type_error():
    env = Misbehaving()
    env.lock = threading.Lock()
    with pytest.raises(TypeError) as e:
        Scorer(env, timeout=1.0)
    message = str(e.value)
    assert "environment.lock" in message and "lock" in message and "timeout=None" in message
    assert Scorer(env, timeout=None).score_batch([0], ["0"]).statuses == ["correct"]


class CannotBeRebuilt(QEnvironment):
    def __setstate__(self, state):
        raise OSError("the data is not on this machine")


def test_an_environment_that_cannot_be_rebuilt_in_the_worker_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="could not be set up in a worker process: OSError: the data") as e:
        Scorer(CannotBeRebuilt(), timeout=1.0).score_batch([0], ["0"])
    assert "timeout=None" in str(e.value)


def test_timeout_values_and_the_environment_variable(monkeypatch):
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            Scorer(QEnvironment(), timeout=bad)
    for bad in ("1", True):
        with pytest.raises(TypeError):
            Scorer(QEnvironment(), timeout=bad)
    assert Scorer(QEnvironment()).timeout is None  # Python code runs in process unless asked
    monkeypatch.setenv(_deadline.TIMEOUT_ENV, "0.5")
    scorer = Scorer(Misbehaving())
    assert scorer.timeout == 0.5
    assert scorer.score_batch([0, 1], ["0", "sleep"]).statuses == ["correct", "timeout"]
    monkeypatch.setenv(_deadline.TIMEOUT_ENV, "none")
    assert Scorer(QEnvironment()).timeout is None
    monkeypatch.setenv(_deadline.TIMEOUT_ENV, "soon")
    with pytest.raises(ValueError, match=_deadline.TIMEOUT_ENV):
        Scorer(QEnvironment())


def test_a_pickled_scorer_keeps_its_timeout():
    import pickle

    clone = pickle.loads(pickle.dumps(Scorer(Misbehaving(), timeout=0.5)))
    assert clone.timeout == 0.5
    assert clone.score_batch([0, 1], ["0", "sleep"]).statuses == ["correct", "timeout"]


def test_threads_score_at_once():
    scorer = Scorer(Misbehaving(n=50), timeout=1.0)

    def one(k: int):
        responses = [str(i) for i in range(50)]
        if k == 0:
            responses[10] = "sleep"
        return scorer.score_batch(list(range(50)), responses).statuses

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        got = list(pool.map(one, range(3)))
    assert got[0] == ["correct"] * 10 + ["timeout"] + ["correct"] * 39
    assert got[1] == got[2] == ["correct"] * 50


# -- reasoning-gym's own score_answer (tasks without a Go port) ------------------


def test_the_fallback_has_a_timeout_by_default_and_equals_the_in_process_scores():
    name = _python_backend_task()
    env = environment_registry.get(name=name, size=30, seed=3)
    assert Scorer(env).timeout == _deadline.FALLBACK_TIMEOUT
    truths = [env.entry(i)["answer"] for i in range(30)]
    responses = [f"<answer>{t}</answer>" if i % 3 == 0 else f"<answer>{t[: len(t) // 2]}</answer>" if i % 3 == 1
                 else "no tags" for i, t in enumerate(truths)]
    supervised = Scorer(env).score_batch(list(range(30)), responses)
    here = Scorer(env, timeout=None).score_batch(list(range(30)), responses)
    assert supervised.totals == here.totals and supervised.statuses == here.statuses
    assert {"correct", "incorrect", "no_answer"} <= set(supervised.statuses)
    assert [r.metadata for r in supervised] == [r.metadata for r in here]
    assert env._job is not None and env._job.worker_pids()  # the default really went through a worker


def test_a_fallback_score_answer_past_its_timeout_is_a_timeout():
    name = _python_backend_task()
    base = environment_registry.get(name=name, size=10, seed=3)
    env = SlowFallback(base.config)
    truth = env.entry(0)["answer"]
    scorer = Scorer(env, timeout=1.0)
    with pytest.warns(ScoringFailureWarning):
        assert scorer.totals([0, 1], [f"<answer>{truth}</answer>", "<answer>raise</answer>"]) == [1.0, 0.0]
    start = time.monotonic()
    results = scorer.score_batch([0, 1, 2, 3], [f"<answer>{truth}</answer>", "<answer>raise</answer>", "none",
                                                "<answer>sleep</answer>"])
    assert time.monotonic() - start < 1.0 + _deadline.START_TIMEOUT
    assert results.statuses == ["correct", "error", "no_answer", "timeout"]
    assert results.totals == [1.0, 0.0, 0.0, 0.0]
    assert "ValueError: scorer bug" in results.errors[1] and "ran past 1 s" in results.errors[3]
    assert results[3].metadata["status"] == "timeout" and results[3].metadata["error"] == results.errors[3]
    assert set(results.statuses) <= set(STATUSES)


def test_no_worker_is_left_once_the_scorer_and_its_environment_are_collected():
    scorer = Scorer(Misbehaving(), timeout=1.0)
    scorer.score_batch([0, 1], ["0", "1"])
    pids = scorer._steps.worker_pids()
    assert pids and all(p in _deadline.worker_pids() for p in pids)
    del scorer
    gc.collect()
    assert _gone(pids, within=0.5)  # killed and reaped at once


_AT_EXIT = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {tests!r})
    from framework_mocks import QEnvironment
    from llenvs_go import _deadline
    from llenvs_go.integrations import Scorer

    scorer = Scorer(QEnvironment(), timeout=5.0)
    assert scorer.score_batch([0], ["0"]).statuses == ["correct"]
    print(_deadline.worker_pids()[0], flush=True)
    if sys.argv[1] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)  # no atexit: the worker's parent-death signal ends it
""")


@pytest.mark.parametrize("how", ["exit", "kill"])
def test_no_worker_is_left_when_the_process_ends(how):
    script = _AT_EXIT.format(tests=str(pathlib.Path(__file__).parent))
    p = subprocess.run([sys.executable, "-c", script, how], capture_output=True, text=True, timeout=120)
    assert p.returncode == (-signal.SIGKILL if how == "kill" else 0), p.stderr
    assert _gone([int(p.stdout.split()[0])])


def _score_in_a_spawned_process(timeout: float) -> tuple[list[str], list[int]]:
    scorer = Scorer(Misbehaving(), timeout=timeout)
    statuses = scorer.score_batch([0, 1, 2], ["0", "sleep", "2"]).statuses
    return statuses, _deadline.worker_pids()  # the fresh worker that scored the last item


def test_works_in_a_spawned_process_and_leaves_no_worker():
    # A DataLoader worker or a process pool started with spawn ends without running atexit.
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        statuses, pids = pool.submit(_score_in_a_spawned_process, 0.5).result(timeout=120)
    assert statuses == ["correct", "timeout", "correct"] and pids
    assert _gone(pids)


def _score_in_a_forked_child(scorer: Scorer, out: multiprocessing.Queue) -> None:
    out.put((scorer.score_batch([0, 1], ["0", "sleep"]).statuses, _deadline.worker_pids()))


def test_a_forked_child_leaves_the_parents_workers_alone():
    scorer = Scorer(Misbehaving(), timeout=0.5)
    scorer.score_batch([0], ["0"])
    ours = scorer._steps.worker_pids()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_score_in_a_forked_child, args=(scorer, out))
    child.start()
    statuses, theirs = out.get(timeout=60)
    child.join(60)
    assert statuses == ["correct", "timeout"] and not set(theirs) & set(ours)
    assert all(_alive(p) for p in ours) and scorer.score_batch([2], ["2"]).statuses == ["correct"]
    assert scorer._steps.worker_pids() == ours  # the same worker, untouched


def test_no_nested_worker_inside_a_worker():
    # A Python reward function on a task served by reasoning-gym: the environment's step runs in the worker,
    # and reasoning-gym's score_answer inside it runs there too (the caller's deadline holds).
    name = _python_backend_task()
    env = environment_registry.get(name=name, size=5, seed=1, extra_rewards=(SleepyFormat(),))
    truth = env.entry(0)["answer"]
    responses = [f"Answer: <answer>{truth}</answer>", "<answer>x</answer>"]
    supervised = Scorer(env, timeout=60.0).score_batch([0, 0], responses)
    here = Scorer(env, timeout=None).score_batch([0, 0], responses)
    assert supervised == here and supervised.totals == [2.0, 0.0]
    assert env._job is None  # timeout=None reached the Scorer made inside step: no worker in this process


def test_warnings_are_not_raised_by_ordinary_supervised_batches():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Scorer(Misbehaving(), timeout=1.0).totals([0, 1], ["0", "x"]) == [1.0, 0.0]
