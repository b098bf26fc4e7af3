"""Mistakes a user plausibly makes get a clear error that names the fix."""

from __future__ import annotations

import multiprocessing as mp
import re

import pytest

from llenvs_go.core.config import EnvironmentConfig
from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import DatasetProvider, Scorer


def _score(scorer):
    return scorer.score(0, "x").total


def test_scorer_sent_to_a_fork_pool_fails_in_the_caller(leg_env):
    scorer = Scorer(leg_env)
    with mp.get_context("fork").Pool(1) as pool:
        result = pool.map_async(_score, [scorer])
        with pytest.raises(RuntimeError, match="spawn"):
            result.get(timeout=60)


def test_typos_in_options_are_suggested():
    with pytest.raises(TypeError, match="did you mean 'answer_extractor'"):
        EnvironmentConfig(name="leg_counting", answer_extractr="tag_based")
    with pytest.raises(ValueError, match="did you mean the option 'answer_extractor'"):
        environment_registry.get(name="leg_counting", seed=1, answer_extracter="boxed")
    with pytest.raises(ValueError, match="llenvs option that llenvs-go does not support"):
        environment_registry.get(name="leg_counting", seed=1, judge={})
    with pytest.raises(KeyError, match="did you mean 'chain_sum'"):
        environment_registry.get(name="composite", seed=1, datasets=[{"name": "chain_sun", "weight": 1}])
    with pytest.raises(ValueError, match='"weight" is required'):
        environment_registry.get(name="composite", seed=1, datasets=[{"name": "chain_sum"}])


def test_wrongly_shaped_options():
    with pytest.raises(TypeError, match="extra_rewards must be a list or tuple"):
        environment_registry.get(name="leg_counting", seed=1, extra_rewards="format")
    with pytest.raises(ValueError, match=r"only field is \{question\}"):
        environment_registry.get(name="leg_counting", seed=1, prompt_template="Q: {quest}")
    with pytest.raises(TypeError, match="system_prompt must be"):
        environment_registry.get(name="leg_counting", seed=1, system_prompt=5)
    with pytest.raises(ValueError, match="not both"):
        environment_registry.get(name="leg_counting", seed=1, answer_extractor="boxed",
                                 answer_extractors=[{"type": "tag_based"}])
    with pytest.raises(TypeError, match="needs an environment"):
        Scorer(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs an environment"):
        DatasetProvider("leg_counting")  # type: ignore[arg-type]


def test_seed_limits():
    with pytest.raises(ValueError, match=r"seed must be in \[-2\*\*63, 2\*\*63\)"):
        environment_registry.get(name="leg_counting", seed=2**63)
    with pytest.raises(ValueError, match="overflows"):
        environment_registry.get(name="composite", seed=2**63 - 1, datasets=[{"name": "gcd", "weight": 1}])


def test_numpy_and_lazy_sequences_are_accepted(leg_env, rg_leg):
    np = pytest.importorskip("numpy")
    env = environment_registry.get(name="leg_counting", size=np.int64(1000), seed=np.int64(42))
    scorer = Scorer(env)
    truth = f"<answer>{rg_leg[1]['answer']}</answer>"
    assert scorer.score_batch(np.array([1, 2]), [truth, "x"]).totals == [1.0, 0.0]
    assert scorer.score_batch(range(1, 3), (r for r in [truth, "x"])).totals == [1.0, 0.0]
    assert scorer.score(np.int64(1), truth).total == 1.0
    assert [it.task_index for it in DatasetProvider(env).get_items(np.arange(3))] == [0, 1, 2]


def test_unported_task_config_typo_is_suggested():
    pytest.importorskip("reasoning_gym")
    with pytest.raises(ValueError, match="did you mean 'n_people'"):
        environment_registry.get(name="knights_knaves", seed=1, n_peopel=2)


def test_prompt_template_without_question_is_refused():
    from llenvs_go.core.registry import environment_registry

    with pytest.raises(ValueError, match=r"prompt_template 'Answer carefully\.' has no \{question\} field"):
        environment_registry.get(name="leg_counting", size=5, seed=1, prompt_template="Answer carefully.")


@pytest.mark.parametrize(("template", "what"), [
    ("{question:>100000000}", r"the field \{question\} has a format spec :>100000000"),
    ("Q: {question!r}", r"the field \{question\} has a conversion !r"),
    ("{question!s:^9}", r"conversion !s and format spec :\^9"),
    ("{question.upper}", r"has a field \{question.upper\}: the only field is \{question\}"),
    ("{question[0]} {question}", r"has a field \{question\[0\]\}"),
])
def test_format_specs_and_conversions_in_prompt_templates_are_refused(template, what):
    # Found under attack: prompt_template="{question:>100000000}" was accepted and made every item 100 MB.
    named = rf"prompt_template {re.escape(repr(template))}.*{what}"
    with pytest.raises(ValueError, match=named):
        environment_registry.get(name="leg_counting", size=5, seed=1, prompt_template=template)
    with pytest.raises(ValueError, match=named):
        environment_registry.get(name=[{"problem": "1+1", "solution": "2"}], adapter="huggingface",
                                 prompt_template=template)
    with pytest.raises(ValueError, match=named):
        environment_registry.get(name="guess_number", adapter="native", size=5, seed=1, prompt_template=template)
    with pytest.raises(ValueError, match=named):
        EnvironmentConfig(name="leg_counting", prompt_template=template)
    from llenvs_go.core.native import NativeEnvironment

    with pytest.raises(ValueError, match=named):
        NativeEnvironment({"name": "leg_counting", "adapter": "reasoning_gym"}, prompt_template=template)


def test_a_mistyped_system_prompt_name_is_refused():
    from llenvs_go.core.registry import environment_registry

    with pytest.raises(ValueError, match=r"'defualt' is not a prompt name; did you mean 'default'\? Names: "
                                         r"\[.*'default', .*'general_reasoning', .*'math_reasoning'") as e:
        environment_registry.get(name="leg_counting", size=5, seed=1, system_prompt="defualt")
    assert "'think_step_by_step'" in str(e.value)  # llenvs' fragment names are prompt names too
    env = environment_registry.get(name="leg_counting", size=5, seed=1, system_prompt="Be concise.")
    from llenvs_go.integrations import DatasetProvider

    assert DatasetProvider(env)[0].messages[0]["content"] == "Be concise."


def test_a_task_without_an_answer_has_no_ground_truth():
    pytest.importorskip("reasoning_gym")
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider, Scorer

    env = environment_registry.get(name="propositional_logic", size=3, seed=1)
    assert [it.ground_truth for it in DatasetProvider(env).get_items()] == [None, None, None]
    assert DatasetProvider(env).to_hf_dataset()["ground_truth"] == [None, None, None]
    assert Scorer(env).score(0, "<answer>P</answer>").metadata["correctness"]["expected"] is None


def test_composite_items_say_where_they_come_from():
    rg = pytest.importorskip("reasoning_gym")
    from reasoning_gym.composite import DatasetSpec

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider

    specs = [{"name": "chain_sum", "weight": 1}, {"name": "gcd", "weight": 2}]
    env = environment_registry.get(name="composite", size=30, seed=4, datasets=specs)
    ours = [(it.metadata["source_dataset"], it.metadata["source_index"]) for it in DatasetProvider(env).get_items()]
    ref = rg.create_dataset("composite", size=30, seed=4, datasets=[DatasetSpec("chain_sum", 1, {}),
                                                                     DatasetSpec("gcd", 2, {})])
    assert ours == [(ref[i]["metadata"]["source_dataset"], ref[i]["metadata"]["source_index"]) for i in range(30)]


@pytest.mark.parametrize("size", [2**63 - 1, 2**40 + 1, 0, -3, 2**100])
def test_a_size_out_of_range_names_the_range(size):
    # Found under attack: size=2**63-1 was refused with "size must be a positive integer" and no range.
    msg = rf"size must be a positive integer from 1 to 2\*\*40 \(1099511627776\), got {size}"
    with pytest.raises(ValueError, match=msg):
        environment_registry.get(name="leg_counting", seed=1, size=size)
    with pytest.raises(ValueError, match=msg):
        environment_registry.get(name=[{"problem": "1+1", "solution": "2"}], adapter="huggingface", size=size)
    with pytest.raises(ValueError, match=msg):
        environment_registry.get(name="guess_number", adapter="native", seed=1, size=size)
    with pytest.raises(ValueError, match=rf"EnvironmentConfig\.{msg}"):
        EnvironmentConfig(name="leg_counting", size=size)
    from llenvs_go.core.native import NativeEnvironment

    if size < 2**63:  # the Go core's own check, for a configuration built by hand
        env = NativeEnvironment({"name": "leg_counting", "adapter": "reasoning_gym", "seed": 1, "size": size})
        with pytest.raises(ValueError, match=msg):
            len(env)
    for wrong in (2.5, "5", True):
        with pytest.raises(TypeError, match="size must be an int"):
            environment_registry.get(name="leg_counting", seed=1, size=wrong)


def test_the_largest_size_is_accepted():
    assert len(environment_registry.get(name="leg_counting", seed=1, size=2**40)) == 2**40


@pytest.mark.parametrize(("name", "asked", "served"), [
    ("guess_number", "reasoning_gym", "native"),
    ("calculator_arithmetic", "reasoning_gym", "native"),
    ("leg_counting", "native", "reasoning_gym"),
])
def test_a_name_of_another_adapter_says_where_it_is(name, asked, served, monkeypatch):
    # Even where reasoning-gym is missing (so the reasoning_gym adapter would advise installing it), the error
    # says which adapter serves the name, not "Unknown reasoning_gym task" nor pip install advice.
    from llenvs_go.adapters import reasoning_gym as rg_adapter

    monkeypatch.setattr(rg_adapter, "_installed_task_names", lambda: ())
    with pytest.raises(KeyError) as info:
        environment_registry.get(name=name, adapter=asked, size=3, seed=1)
    message = str(info.value)
    assert f'adapter="{served}"' in message and name in message
    assert "Unknown" not in message and "pip install" not in message
    env = environment_registry.get(name=name, adapter=served, size=3, seed=1)  # the advice works
    assert len(env) == 3


def test_an_unknown_name_is_still_unknown():
    with pytest.raises(KeyError, match="Unknown reasoning_gym task 'guess_numbr'"):
        environment_registry.get(name="guess_numbr", seed=1)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_weight_names_its_field(bad):
    rewards = ["format", {"name": "format", "weight": bad}]
    with pytest.raises(ValueError, match=r"at extra_rewards\[1\]\.weight .*give a finite number") as info:
        environment_registry.get(name="leg_counting", seed=1, size=3, extra_rewards=rewards)
    assert repr(bad) in str(info.value) and "JSON compliant" not in str(info.value)
    with pytest.raises(ValueError, match=r"at extra_rewards\[0\]\.weight"):
        EnvironmentConfig(name="leg_counting", seed=1, size=3,
                          extra_rewards=[{"name": "format", "weight": bad}]).build()


def test_masker_arguments_are_checked_at_the_boundary():
    from llenvs_go.integrations import TrajectoryMasker

    class Chars:
        def encode(self, text):
            return [ord(c) for c in text]

    for tokenizer, shown in ((None, "got None"), ("gpt2", "got str 'gpt2'"), (object(), "got object")):
        with pytest.raises(TypeError, match=r"TrajectoryMasker needs a tokenizer with encode\(str\)") as info:
            TrajectoryMasker(tokenizer)
        assert shown in str(info.value)
    masker = TrajectoryMasker(Chars())
    with pytest.raises(TypeError, match=r"trajectory must be a Trajectory \(from Trajectory.from_steps.*got str"):
        masker.mask_trajectory("str")
    with pytest.raises(TypeError, match="mask_batch takes a list of trajectories, got str"):
        masker.mask_batch("str")
    with pytest.raises(TypeError, match=r"trajectories\[1\] must be a Trajectory.*got dict"):
        masker.mask_batch([_a_trajectory(), {"prompt_ids": []}])
    assert masker.mask_trajectory(_a_trajectory()).response_ids  # a real one still masks


def _a_trajectory():
    from llenvs_go.core.state import Action
    from llenvs_go.core.trajectory import Trajectory

    env = environment_registry.get(name="guess_number", adapter="native", size=2, seed=1)
    state, _ = env.reset(options={"task_index": 0})
    action = Action(text="<answer>5</answer>")
    return Trajectory.from_steps(state, [(action, env.step(state, action))])


def test_test_hooks_are_not_offered_to_users():
    # A development install after `make test` is a test-hooks build; its test-only names are reachable by
    # their exact names (for the tests), but never listed, suggested or advertised.
    from llenvs_go import _native
    from llenvs_go.core.native import NativeEnvironment

    if not _native.call("info").get("test_hooks"):
        pytest.skip("the library was built without -tags llenvs_testhooks")
    for typo in ("tag_basd", "panics_on_marker", "panics_on_marker_for_tes"):
        with pytest.raises(KeyError) as info:
            environment_registry.get(name="leg_counting", seed=1, answer_extractor=typo)
        assert "_for_test" not in str(info.value) and "tag_based" in str(info.value)
    with pytest.raises(ValueError) as info:
        environment_registry.get(name="leg_counting", seed=1, answer_extractors=[{"name": "tag_based"}])
    assert "_for_test" not in str(info.value)
    with pytest.raises(KeyError) as info:
        len(NativeEnvironment({"name": "leg_counting", "adapter": "test_hook"}))
    assert "test_hooks" not in str(info.value) and "reasoning_gym" in str(info.value)
    names = [r["name"] for r in environment_registry.describe_environments()]
    assert not [n for n in names if n.endswith("_for_test")]
    # Still reachable for the tests that need them.
    env = environment_registry.get(name="leg_counting", size=2, seed=1, answer_extractor="panics_on_marker_for_test")
    assert Scorer(env).score(0, "<answer>1</answer>").extracted_answer == "1"
    assert len(NativeEnvironment({"name": "fails_on_odd_for_test", "adapter": "test_hooks"})) == 10


def test_doctor_does_not_advertise_test_hooks():
    pytest.importorskip("click")
    import json

    from click.testing import CliRunner

    from llenvs_go.cli import cli

    result = CliRunner().invoke(cli, ["doctor", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert "test_hooks" not in report["library"] and "_for_test" not in result.stdout
    assert report["library"]["loaded"] is True
