"""Configuration-driven setup: ``EnvironmentConfig``, strict by design.

A typo in a key is an error that names the nearest valid key, not a silently
ignored setting.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from llenvs_go.adapters.reasoning_gym import _UNSUPPORTED
from llenvs_go.core.native import NativeEnvironment


@dataclass
class EnvironmentConfig:
    """One environment's configuration (the fields of llenvs' ``EnvironmentConfig`` that llenvs-go implements).

    Attributes:
        name: task name, e.g. ``"leg_counting"``.
        adapter: environment family (``"reasoning_gym"``).
        size: number of tasks; None is reasoning-gym's default (500).
        seed: dataset seed; None draws one when the environment is built.
        answer_extractor: extractor name; options in ``answer_extractor_config``.
        answer_extractors: a chain ``[{"type": ..., "config": {...}}, ...]``;
            the first that finds an answer wins. Overrides ``answer_extractor``.
        pre_cleaners, post_cleaners: cleaner names applied around extraction;
            None means no cleaning.
        prompt_template: template with ``{question}`` for dataset items.
        system_prompt: system message of dataset items (a prompt name, text,
            fragments, or None for none); reasoning-gym's ``"default"``.
        params: the task's own config fields.
        extra_rewards: opt-in signals beside ``correctness`` (``["format"]``).
        data_dir: directory of reasoning-gym's data files.
    """

    name: str
    adapter: str = "reasoning_gym"
    size: int | None = None
    seed: int | None = None
    answer_extractor: str = "tag_based"
    answer_extractor_config: dict[str, Any] = field(default_factory=dict)
    answer_extractors: list[dict[str, Any]] | None = None
    pre_cleaners: list[str | dict[str, Any]] | None = None
    post_cleaners: list[str | dict[str, Any]] | None = None
    prompt_template: str | None = None
    system_prompt: str | list[str] | None = "default"
    params: dict[str, Any] = field(default_factory=dict)
    extra_rewards: list[str | dict[str, Any]] = field(default_factory=list)
    data_dir: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"EnvironmentConfig.name must be a non-empty str, got {self.name!r}")
        for key in ("size", "seed"):
            v = getattr(self, key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"EnvironmentConfig.{key} must be an int or None, got {type(v).__name__}")
        if self.size is not None and self.size <= 0:
            raise ValueError(f"EnvironmentConfig.size must be positive, got {self.size}")
        if not isinstance(self.params, dict):
            raise TypeError(f"EnvironmentConfig.params must be a mapping, got {type(self.params).__name__}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EnvironmentConfig:
        """Build from a mapping; an unknown key is a ValueError naming the nearest valid key."""
        if not isinstance(data, dict):
            raise TypeError(f"EnvironmentConfig.from_dict needs a mapping, got {type(data).__name__}")
        valid = [f.name for f in fields(cls)]
        for key in data:
            if key in _UNSUPPORTED:
                raise ValueError(f"EnvironmentConfig: {key!r} is an llenvs option that llenvs-go does not support")
            if key not in valid:
                near = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.5)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise ValueError(f"EnvironmentConfig: unknown key {key!r}{hint} (valid keys: {', '.join(valid)})")
        if "name" not in data:
            raise ValueError("EnvironmentConfig: 'name' is required (the task name, e.g. 'leg_counting')")
        return cls(**data)

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str]) -> EnvironmentConfig:
        """Load one environment's configuration from a YAML file (needs PyYAML)."""
        try:
            import yaml
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("EnvironmentConfig.from_yaml needs PyYAML: pip install pyyaml") from e
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
        return cls.from_dict(data or {})

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a plain mapping that ``from_dict`` accepts."""
        return asdict(self)

    def build(self) -> NativeEnvironment:
        """Build the environment this configuration describes."""
        from llenvs_go.core.registry import environment_registry

        kw: dict[str, Any] = dict(self.params)
        for key in ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners"):
            value = getattr(self, key)
            if value:
                kw[key] = value
        return environment_registry.get(
            name=self.name, adapter=self.adapter, size=self.size, seed=self.seed,
            answer_extractor=None if self.answer_extractors else self.answer_extractor,
            extra_rewards=tuple(self.extra_rewards),
            system_prompt=self.system_prompt, prompt_template=self.prompt_template, data_dir=self.data_dir, **kw,
        )


_generated_init = EnvironmentConfig.__init__


def _strict_init(self: EnvironmentConfig, *args: Any, **kwargs: Any) -> None:
    valid = [f.name for f in fields(EnvironmentConfig)]
    for key in kwargs:
        if key in _UNSUPPORTED:
            raise TypeError(f"EnvironmentConfig: {key!r} is an llenvs option that llenvs-go does not support")
        if key not in valid:
            near = difflib.get_close_matches(key, valid, n=1, cutoff=0.5)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise TypeError(f"EnvironmentConfig: unknown key {key!r}{hint} (valid keys: {', '.join(valid)})")
    _generated_init(self, *args, **kwargs)


_strict_init.__doc__ = _generated_init.__doc__
EnvironmentConfig.__init__ = _strict_init  # type: ignore[method-assign]
