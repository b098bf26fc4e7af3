"""Configuration-driven setup: ``EnvironmentConfig``, strict by design.

A typo in a key is an error that names the nearest valid key, not a silently
ignored setting.
"""

from __future__ import annotations

import difflib
import inspect
import os
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from llenvs_go.core.extraction import GoExtractor, extractor_settings
from llenvs_go.core.limits import check_size
from llenvs_go.core.prompts import check_prompt_template

#: llenvs configuration keys that llenvs-go refuses with a clear error (features it does not serve).
UNSUPPORTED_KEYS = ("container", "judge", "env_llm", "branching_strategy", "difficulties")

#: The adapters that come with llenvs-go; their environments have no named prompts of their own.
_BUILT_IN_ADAPTERS = ("reasoning_gym", "native", "huggingface")

#: The prompts an iterative environment lets a configuration override by name, and their placeholders.
ITERATIVE_PROMPTS = {"initial": ("task", "turns", "submit_keyword"), "feedback": ("attempts_left", "feedback")}


def check_prompts(prompts: Any, where: str) -> dict[str, str]:
    """``prompts`` as a dict of prompt name -> text, or a TypeError/ValueError naming ``where``."""
    if not isinstance(prompts, dict):
        raise TypeError(f"{where} must be a mapping of prompt name to text, got {type(prompts).__name__}")
    for name, text in prompts.items():
        if name not in ITERATIVE_PROMPTS:
            near = difflib.get_close_matches(str(name), list(ITERATIVE_PROMPTS), n=1, cutoff=0.5)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ValueError(f"{where}: unknown prompt {name!r}{hint} (the iterative environment's prompts: "
                             + ", ".join(f"{k} with {{{'}, {'.join(v)}}}" for k, v in ITERATIVE_PROMPTS.items())
                             + ")")
        if not isinstance(text, str):
            raise TypeError(f"{where}[{name!r}] must be a str, got {type(text).__name__}")
    return dict(prompts)


@dataclass
class CodeExecutionConfig:
    """llenvs' code execution settings for iterative environments: the model's code is run against the task's
    tests in the code sandbox and the results are the next turn's feedback.

    Attributes:
        timeout: wall-clock seconds per test run (0 < timeout <= 3600).
    """

    timeout: float = 30.0

    def __post_init__(self) -> None:
        t = self.timeout
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= 3600:
            raise ValueError(f"CodeExecutionConfig.timeout must be seconds in (0, 3600], got {t!r}")


@dataclass
class IterativeConfig:
    """How an iterative environment runs (llenvs' ``IterativeConfig``, same fields and defaults).

    Attributes:
        max_turns: attempts per episode; out of turns the episode is truncated.
        include_history: keep every earlier turn in ``observation.messages``;
            False keeps the first user turn and the latest exchange only.
        summarize_history: llenvs summarises the history with an LLM; only
            False is supported.
        submit_keyword: a response that starts with it (leading whitespace and
            case ignored) is final; ``""`` turns early submission off.
        submission_extractor: extractor name (as in ``answer_extractor``) that
            takes the submission out of a response; None submits the whole
            response. When it finds nothing, the whole response is submitted.
        submission_extractor_config: that extractor's options.
        solved_threshold: the best outcome reward that counts as solved.
        code_execution: a :class:`CodeExecutionConfig` to run the model's code
            against the task's tests in the code sandbox, the results fed back
            as the next turn; the wrapped environment must score by running
            code (the huggingface adapter's ``scoring="code"``, e.g. the
            ``humaneval``, ``mbpp`` and ``apps`` presets). Its timeout is the
            limit of each test run.
        prompts: user-turn texts overridden by name, as llenvs'
            IterativeEnvironment takes them: ``"initial"`` (placeholders
            ``{task}``, ``{turns}``, ``{submit_keyword}``) and ``"feedback"``
            (``{attempts_left}``, ``{feedback}``: the feedback texts, one
            per line). A name left out keeps its default text.
    """

    max_turns: int = 3
    include_history: bool = True
    summarize_history: bool = False
    submit_keyword: str = "SUBMIT"
    submission_extractor: str | None = None
    submission_extractor_config: dict[str, Any] = field(default_factory=dict)
    solved_threshold: float = 1.0
    code_execution: CodeExecutionConfig | None = None
    prompts: dict[str, str] | None = None

    def __post_init__(self) -> None:
        if self.prompts is not None:
            self.prompts = check_prompts(self.prompts, "IterativeConfig.prompts")
        mt = self.max_turns
        if isinstance(mt, bool) or not isinstance(mt, int) or not 1 <= mt <= 1 << 16:
            raise ValueError(f"IterativeConfig.max_turns must be an int between 1 and 65536, got {mt!r}")
        for key in ("include_history", "summarize_history"):
            if not isinstance(getattr(self, key), bool):
                raise TypeError(f"IterativeConfig.{key} must be a bool, got {getattr(self, key)!r}")
        if not isinstance(self.submit_keyword, str):
            raise TypeError(f"IterativeConfig.submit_keyword must be a str ('' for none), got {self.submit_keyword!r}")
        if self.submission_extractor is not None and not isinstance(self.submission_extractor, str):
            raise TypeError("IterativeConfig.submission_extractor must be an extractor name or None, "
                            f"got {self.submission_extractor!r}")
        if not isinstance(self.submission_extractor_config, dict):
            raise TypeError("IterativeConfig.submission_extractor_config must be a mapping, "
                            f"got {self.submission_extractor_config!r}")
        th = self.solved_threshold
        if isinstance(th, bool) or not isinstance(th, (int, float)):
            raise TypeError(f"IterativeConfig.solved_threshold must be a number, got {th!r}")
        if self.summarize_history:
            raise ValueError("IterativeConfig: summarize_history=True needs a summarising LLM, which llenvs-go does "
                             "not run; use include_history=False to keep only the latest exchange")
        if self.code_execution is not None and not isinstance(self.code_execution, CodeExecutionConfig):
            raise TypeError("IterativeConfig.code_execution must be a CodeExecutionConfig (or a mapping of its fields) "
                            f"or None, got {type(self.code_execution).__name__}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IterativeConfig:
        """Build from a mapping; an unknown key is a ValueError naming the nearest valid key."""
        if not isinstance(data, dict):
            raise TypeError(f"iterative settings must be a mapping or an IterativeConfig, got {type(data).__name__}")
        valid = [f.name for f in fields(cls)]
        for key in data:
            if key not in valid:
                near = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.5)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise ValueError(f"IterativeConfig: unknown key {key!r}{hint} (valid keys: {', '.join(valid)})")
        data = dict(data)
        if isinstance(data.get("code_execution"), dict):
            data["code_execution"] = CodeExecutionConfig(**data["code_execution"])
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain mapping (what crosses to the Go core)."""
        return asdict(self)


def as_iterative_config(value: IterativeConfig | dict[str, Any]) -> IterativeConfig:
    """``value`` as an :class:`IterativeConfig` (a mapping is read strictly)."""
    return value if isinstance(value, IterativeConfig) else IterativeConfig.from_dict(value)


def _check_keys(keys: Any, error: type[Exception]) -> None:
    """Refuse keys that are not EnvironmentConfig fields, naming the nearest valid one."""
    valid = [f.name for f in fields(EnvironmentConfig)]
    for key in keys:
        if key in UNSUPPORTED_KEYS:
            raise error(f"EnvironmentConfig: {key!r} is an llenvs option that llenvs-go does not support")
        if key not in valid:
            near = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.5)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise error(f"EnvironmentConfig: unknown key {key!r}{hint} (valid keys: {', '.join(valid)})")


@dataclass
class EnvironmentConfig:
    """One environment's configuration (the fields of llenvs' ``EnvironmentConfig`` that llenvs-go implements).

    Attributes:
        name: task name, e.g. ``"leg_counting"``.
        adapter: environment family (``"reasoning_gym"``).
        size: number of tasks; None is reasoning-gym's default (500).
        seed: dataset seed; None draws one when the environment is built.
        answer_extractor: extractor name; options in ``answer_extractor_config``.
            An extractor object of ``llenvs_go.core.extraction`` is accepted
            too and stored as the settings it stands for
            (``answer_extractor`` and ``answer_extractor_config``, or
            ``answer_extractors``, and its cleaners).
        answer_extractors: a chain ``[{"type": ..., "config": {...}}, ...]``;
            the first that finds an answer wins. Overrides ``answer_extractor``.
        pre_cleaners, post_cleaners: cleaner names applied around extraction;
            None means no cleaning (llenvs applied ``strip_special_tokens``
            and ``strip_trailing_punctuation`` by default on this path).
        prompt_template: template with ``{question}`` for dataset items.
        system_prompt: system message of dataset items (a prompt name, text,
            fragments, or None for none); reasoning-gym's ``"default"``.
        params: the task's own config fields.
        extra_rewards: opt-in signals beside ``correctness`` (``["format"]``).
        data_dir: directory of reasoning-gym's data files.
        iterative: wrap the environment in an iterative multi-turn one
            (an :class:`IterativeConfig`, or a mapping of its fields).
        prompts: llenvs' named prompt overrides. With ``iterative`` they
            override the iterative environment's user turns (``"initial"``,
            ``"feedback"``; see :class:`IterativeConfig`). For an adapter of
            your own they are passed to its ``get_environment`` as
            ``prompts=``, as llenvs passes them. The built-in adapters'
            environments have no named prompts (their ``prompts`` is ``{}``),
            so there ``prompts`` without ``iterative`` is a ValueError.
    """

    name: str
    adapter: str = "reasoning_gym"
    size: int | None = None
    seed: int | None = None
    answer_extractor: str | GoExtractor = "tag_based"
    answer_extractor_config: dict[str, Any] = field(default_factory=dict)
    answer_extractors: list[dict[str, Any]] | None = None
    pre_cleaners: list[str | dict[str, Any]] | None = None
    post_cleaners: list[str | dict[str, Any]] | None = None
    prompt_template: str | None = None
    system_prompt: str | list[str] | None = "default"
    prompts: dict[str, str] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    extra_rewards: list[str | dict[str, Any]] = field(default_factory=list)
    data_dir: str | None = None
    iterative: IterativeConfig | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> EnvironmentConfig:
        # Strict keys with a suggestion, before the generated __init__ sees them.
        _check_keys(kwargs, TypeError)
        return super().__new__(cls)

    def __post_init__(self) -> None:
        if not isinstance(self.answer_extractor, str):
            self._adopt_extractor()
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"EnvironmentConfig.name must be a non-empty str, got {self.name!r}")
        for key in ("size", "seed"):
            v = getattr(self, key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"EnvironmentConfig.{key} must be an int or None, got {type(v).__name__}")
        check_size(self.size, "EnvironmentConfig.size")
        if not isinstance(self.params, dict):
            raise TypeError(f"EnvironmentConfig.params must be a mapping, got {type(self.params).__name__}")
        if self.prompt_template is not None:
            check_prompt_template(self.prompt_template)
        if self.iterative is not None:
            self.iterative = as_iterative_config(self.iterative)
        if self.prompts is not None:
            if not isinstance(self.prompts, dict):
                raise TypeError(f"EnvironmentConfig.prompts must be a mapping of prompt name to text, "
                                f"got {type(self.prompts).__name__}")
            if self.iterative is not None:
                check_prompts(self.prompts, "EnvironmentConfig.prompts")

    def _adopt_extractor(self) -> None:
        """Replace an extractor object in ``answer_extractor`` by the settings it stands for."""
        settings = extractor_settings(self.answer_extractor, "EnvironmentConfig.answer_extractor")
        for key, value in settings.items():
            if key == "answer_extractor":
                continue
            if getattr(self, key):
                raise ValueError(f"EnvironmentConfig: answer_extractor is an extractor object, which sets {key}; "
                                 f"{key} cannot be given as well")
            setattr(self, key, value)
        self.answer_extractor = settings.get("answer_extractor", "tag_based")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EnvironmentConfig:
        """Build from a mapping; an unknown key is a ValueError naming the nearest valid key."""
        if not isinstance(data, dict):
            raise TypeError(f"EnvironmentConfig.from_dict needs a mapping, got {type(data).__name__}")
        _check_keys(data, ValueError)
        if "name" not in data:
            raise ValueError("EnvironmentConfig: 'name' is required (the task name, e.g. 'leg_counting')")
        return cls(**data)

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str]) -> EnvironmentConfig:
        """Load one environment's configuration from a YAML file (needs PyYAML).

        The file is read with ``yaml.safe_load``: a tag that would build a
        Python object (``!!python/object``) or malformed YAML is a ValueError
        naming the file, line and column.
        """
        try:
            import yaml
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("EnvironmentConfig.from_yaml needs PyYAML: pip install pyyaml") from e
        with open(path, encoding="utf-8") as f:
            try:
                data = yaml.safe_load(f)
            except yaml.YAMLError as e:
                raise ValueError(_yaml_error_message(path, e)) from e
        return cls.from_dict(data or {})

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a plain mapping that ``from_dict`` accepts."""
        return asdict(self)

    def build(self) -> Any:
        """Build the environment this configuration describes (an ``IterativeEnvironment`` if ``iterative`` is set)."""
        from llenvs_go.core.registry import environment_registry

        kw: dict[str, Any] = dict(self.params)
        for key in ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners"):
            value = getattr(self, key)
            if value:
                kw[key] = value
        iterative = self.iterative
        if self.prompts and iterative is not None:
            iterative = replace(iterative, prompts={**(iterative.prompts or {}), **self.prompts})
        elif self.prompts:
            if self.adapter in _BUILT_IN_ADAPTERS:
                raise ValueError(f"EnvironmentConfig.prompts: {self.adapter!r} environments have no named prompts; "
                                 "prompts override the iterative environment's "
                                 f"({', '.join(ITERATIVE_PROMPTS)}): set iterative as well")
            kw["prompts"] = dict(self.prompts)
        return environment_registry.get(
            name=self.name, adapter=self.adapter, size=self.size, seed=self.seed,
            answer_extractor=None if self.answer_extractors else self.answer_extractor,
            extra_rewards=tuple(self.extra_rewards),
            system_prompt=self.system_prompt, prompt_template=self.prompt_template, data_dir=self.data_dir,
            iterative=iterative, **kw,
        )


def _yaml_error_message(path: str | os.PathLike[str], error: Exception) -> str:
    """What is wrong with a YAML configuration file, and where."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    where = f"{os.fspath(path)}, line {mark.line + 1}, column {mark.column + 1}" if mark is not None \
        else os.fspath(path)
    problem = " ".join(str(p) for p in (getattr(error, "context", None), getattr(error, "problem", None)) if p) \
        or str(error)
    if "python/" in problem or "constructor for the tag" in problem:
        return (f"{where}: {problem}; a configuration file holds only plain YAML (mappings, lists, strings, "
                "numbers, booleans, null), never tags that build Python objects")
    return f"{where}: not valid YAML: {problem}"


# The signature of the generated __init__ (inspect would otherwise report __new__'s *args, **kwargs).
EnvironmentConfig.__signature__ = inspect.signature(EnvironmentConfig.__init__).replace(  # type: ignore[attr-defined]
    parameters=list(inspect.signature(EnvironmentConfig.__init__).parameters.values())[1:])
