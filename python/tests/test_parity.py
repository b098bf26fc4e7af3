"""Native Go ports against the real reasoning-gym==0.1.25, item by item and score by score.

For every native task: items over three seeds (one above 2**32) and several
configs must have the same question, answer and metadata (compared after a
JSON round trip, so tuples compare as lists); ``score_answer`` must return the
same float for a varied set of answers, including None and the task's own
partial-credit cases.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

rg = pytest.importorskip("reasoning_gym")

from llenvs_go.core.registry import environment_registry  # noqa: E402

SEEDS = (42, 7, 2**33 + 17)


def _generic_answers(entry: dict[str, Any]) -> list[str | None]:
    a = entry["answer"]
    return [
        a, " " + a, a + " ", a + "\n", a[:-1] or "0", a[1:], "x" + a, a + " apples", a.upper(), a.lower(),
        a.replace(" ", ""), a.replace(",", ""), a * 2, "The answer is " + a, "wrong", "", " ", None,
        "0", "-1", "1,000", "1e3", "½", "\ud7ff", "nan", "inf",
    ]


def _leg_answers(entry: dict[str, Any]) -> list[str | None]:
    a = entry["answer"]
    return [str(int(a) + 1), a + ".0", "+" + a, "0" + a, f"{int(a):,}"]


# task -> configs to compare (the first is the default), items per (seed, config), extra answers.
TASKS: dict[str, dict[str, Any]] = {
    "leg_counting": {
        "configs": [{}, {"min_animals": 6, "max_animals": 20}, {"min_animals": 1, "max_animals": 2,
                                                               "min_instances": 3, "max_instances": 40}],
        "n": 250,
        "answers": _leg_answers,
    },
}


def _normalise(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _cases() -> list[tuple[str, int]]:
    return [(task, k) for task, spec in TASKS.items() for k in range(len(spec["configs"]))]


@pytest.mark.parametrize(("task", "config_index"), _cases())
def test_items_and_scores_match_reasoning_gym(task: str, config_index: int) -> None:
    spec = TASKS[task]
    config = spec["configs"][config_index]
    n = spec["n"]
    extra: Callable[[dict[str, Any]], list[str | None]] = spec.get("answers", lambda e: [])
    for seed in SEEDS:
        env = environment_registry.get(name=task, size=n, seed=seed, **config)
        assert env.spec.metadata["backend"] == "native"
        ours = env.entries(list(range(n)))
        ds = rg.create_dataset(task, size=n, seed=seed, **config)
        for i in range(n):
            want = _normalise(ds[i])
            got = ours[i]
            assert got["question"] == want["question"], f"{task} seed={seed} config={config} item {i}"
            assert got["answer"] == want["answer"], f"{task} seed={seed} config={config} item {i}"
            assert got["metadata"] == want["metadata"], f"{task} seed={seed} config={config} item {i}"
            if i % 10 == 0:
                entry = ds[i]
                answers = _generic_answers(entry) + extra(entry)
                got_scores = env.score_answers(i, answers)
                want_scores = [float(ds.score_answer(a, entry)) for a in answers]
                diff = [(a, g, w) for a, g, w in zip(answers, got_scores, want_scores, strict=True) if g != w]
                assert not diff, f"{task} seed={seed} config={config} item {i}: (answer, go, python) {diff}"


def test_every_native_task_has_parity_coverage() -> None:
    native = {n for a, n in environment_registry.list_environments("reasoning_gym")}
    assert native <= set(TASKS), f"native tasks without a parity test: {sorted(native - set(TASKS))}"
