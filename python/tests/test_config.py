"""EnvironmentConfig: strict keys, YAML, and configuration errors from Go."""

from __future__ import annotations

import re

import pytest

from llenvs_go.core.config import EnvironmentConfig
from llenvs_go.integrations import DatasetProvider, Scorer


def test_unknown_key_suggests_nearest():
    with pytest.raises(ValueError, match=r"unknown key 'answer_extracter'; did you mean 'answer_extractor'"):
        EnvironmentConfig.from_dict({"name": "leg_counting", "answer_extracter": "tag_based"})


def test_llenvs_only_keys_are_refused_clearly():
    with pytest.raises(ValueError, match="'judge' is an llenvs option that llenvs-go does not support"):
        EnvironmentConfig.from_dict({"name": "leg_counting", "judge": {}})


def test_missing_name_and_bad_types():
    with pytest.raises(ValueError, match="'name' is required"):
        EnvironmentConfig.from_dict({"seed": 1})
    with pytest.raises(TypeError, match="seed must be an int"):
        EnvironmentConfig(name="leg_counting", seed="42")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size must be a positive integer from 1 to 2\\*\\*40"):
        EnvironmentConfig(name="leg_counting", size=0)


def test_yaml_round_trip(tmp_path):
    pytest.importorskip("yaml")
    p = tmp_path / "env.yaml"
    p.write_text(
        "name: leg_counting\nsize: 50\nseed: 7\nparams:\n  min_animals: 5\n  max_animals: 6\n"
        "system_prompt: null\nextra_rewards: [format]\n"
    )
    cfg = EnvironmentConfig.from_yaml(p)
    assert cfg.params == {"min_animals": 5, "max_animals": 6}
    assert EnvironmentConfig.from_dict(cfg.to_dict()) == cfg
    provider = DatasetProvider.from_config(cfg)
    item = provider[0]
    assert item.messages == ({"role": "user", "content": item.prompt},)
    assert 5 <= provider.environment.entries([0])[0]["metadata"]["num_animals"] <= 6
    assert Scorer.from_config(cfg).signal_names == ["correctness", "format"]


def test_task_config_errors_name_the_field():
    with pytest.raises(ValueError, match="unknown key 'min_animal'; did you mean 'min_animals'"):
        Scorer.from_config(EnvironmentConfig(name="leg_counting", seed=1, params={"min_animal": 2}))
    with pytest.raises(ValueError, match="max_animals must be <= 37"):
        Scorer.from_config(EnvironmentConfig(name="leg_counting", seed=1, params={"max_animals": 40}))
    with pytest.raises(ValueError, match='field "min_animals": want an integer'):
        Scorer.from_config(EnvironmentConfig(name="leg_counting", seed=1, params={"min_animals": 2.5}))


def test_unknown_extractor_lists_available():
    with pytest.raises(KeyError, match="tag_based") as e:
        Scorer.from_config(EnvironmentConfig(name="leg_counting", seed=1, answer_extractor="tagbased"))
    assert "did you mean" in str(e.value)


def test_system_prompt_choices():
    from llenvs_go.core.prompts import GENERAL_REASONING, REASONING_GYM_DEFAULT

    base = dict(name="leg_counting", seed=3, size=10)
    default = DatasetProvider.from_config(EnvironmentConfig(**base))[0]
    assert default.messages[0] == {"role": "system", "content": REASONING_GYM_DEFAULT}
    assert "<answer>" in default.messages[0]["content"]
    named = DatasetProvider.from_config(EnvironmentConfig(**base, system_prompt="general_reasoning"))[0]
    assert named.messages[0]["content"] == GENERAL_REASONING
    custom = DatasetProvider.from_config(EnvironmentConfig(**base, system_prompt="Answer in <answer> tags."))[0]
    assert custom.messages[0]["content"] == "Answer in <answer> tags."
    templ = DatasetProvider.from_config(EnvironmentConfig(**base, prompt_template="Q: {question}"))[0]
    assert templ.messages[1]["content"] == "Q: " + templ.prompt


def test_signature_shows_the_fields():
    import dataclasses
    import inspect

    params = inspect.signature(EnvironmentConfig).parameters
    assert list(params) == [f.name for f in dataclasses.fields(EnvironmentConfig)]
    assert params["adapter"].default == "reasoning_gym" and params["name"].default is inspect.Parameter.empty
    assert EnvironmentConfig.__init__.__qualname__ == "EnvironmentConfig.__init__"  # the generated one
    with pytest.raises(TypeError, match="'judge' is an llenvs option"):
        EnvironmentConfig(name="leg_counting", judge={})


def test_yaml_python_tags_and_bad_yaml_are_value_errors_naming_the_line(tmp_path):
    # Found under attack: a !!python/object tag surfaced as yaml's own ConstructorError.
    yaml = pytest.importorskip("yaml")
    p = tmp_path / "evil.yaml"
    p.write_text("name: leg_counting\nseed: 1\nparams: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ValueError, match=rf"{re.escape(str(p))}, line 3, column 9: .*python/object/apply:os.system"
                                         r".*never tags that build Python objects") as info:
        EnvironmentConfig.from_yaml(p)
    assert not isinstance(info.value, yaml.YAMLError)
    p.write_text("name: leg_counting\nseed: [1\n")
    with pytest.raises(ValueError, match=rf"{re.escape(str(p))}, line 3, column 1: not valid YAML"):
        EnvironmentConfig.from_yaml(p)
