"""The environment registry: environments by adapter and task name."""

from __future__ import annotations

import dataclasses
import difflib
import importlib.util
import operator
import os
import random
from typing import Any

from llenvs_go import _native
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import resolve_system_prompt
from llenvs_go.core.python_backend import PythonReasoningGymEnvironment, reasoning_gym_task_names

# Keys of the Go configuration; anything else given to get() is a task config field.
_ENV_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")
# Environment options of get(), for suggestions when one is mistyped.
_OPTIONS = ("size", "seed", "answer_extractor", "extra_rewards", "system_prompt", "prompt_template", "data_dir",
            *_ENV_KEYS)
# llenvs options that llenvs-go does not implement.
_UNSUPPORTED = ("container", "judge", "env_llm", "branching_strategy", "difficulties", "iterative", "prompts")


def _as_int(what: str, value: Any) -> int:
    """``value`` as a Python int (numpy integers included), or a TypeError naming ``what``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    return operator.index(value)


def _as_mapping(spec: Any) -> Any:
    """A composite dataset spec as a mapping (reasoning-gym's DatasetSpec objects are accepted)."""
    if dataclasses.is_dataclass(spec) and not isinstance(spec, type):
        return dataclasses.asdict(spec)
    return spec


def _with_option_hint(error: ValueError, params: dict[str, Any]) -> str:
    """Add "did you mean" for a task-config key that looks like a mistyped environment option."""
    message = str(error)
    key = getattr(error, "key", None)
    if getattr(error, "kind", None) == "unknown_key" and key in params:
        near = difflib.get_close_matches(key, _OPTIONS, n=1, cutoff=0.75)
        if near:
            return f"{message}; {key!r} is not a field of the task; did you mean the option {near[0]!r}?"
    return message


def _python_config_hint(name: str, params: dict[str, Any]) -> str:
    """Suggest the nearest field of a reasoning-gym config class for unknown keys."""
    try:
        from reasoning_gym.factory import DATASETS

        fields = [f.name for f in dataclasses.fields(DATASETS[name][1]) if f.name not in ("seed", "size")]
    except Exception:  # noqa: BLE001 - a hint is best effort
        return ""
    hints = []
    for key in params:
        if key not in fields:
            near = difflib.get_close_matches(key, fields + list(_OPTIONS), n=1, cutoff=0.6)
            hints.append(f"unknown key {key!r}" + (f"; did you mean {near[0]!r}?" if near else ""))
    if hints:
        return " (" + "; ".join(hints) + f"; valid keys: {', '.join(fields)})"
    return f" (valid keys: {', '.join(fields)})"


def reasoning_gym_data_dir() -> str | None:
    """Directory of the installed reasoning-gym's data files, found without importing it."""
    spec = importlib.util.find_spec("reasoning_gym")
    if spec is None or not spec.submodule_search_locations:
        return None
    d = os.path.join(list(spec.submodule_search_locations)[0], "data")
    return d if os.path.isdir(d) else None


class EnvironmentRegistry:
    """Builds environments by ``(adapter, name)``, as llenvs' ``environment_registry`` does."""

    def list_adapters(self) -> list[str]:
        """Names of the registered adapters."""
        return sorted(a for a in _native.call("list_environments") if a != "external")

    def list_environments(self, adapter: str | None = None) -> list[tuple[str, str]]:
        """``(adapter, name)`` pairs of the environments served, optionally for one adapter."""
        envs: dict[str, list[str]] = _native.call("list_environments")
        envs.pop("external", None)
        if adapter is not None:
            if adapter not in envs:
                raise _native.UnknownNameError(f"Adapter {adapter!r} not registered. Available: {sorted(envs)}")
            envs = {adapter: envs[adapter]}
        pairs = [(a, n) for a in sorted(envs) if a != "external" for n in envs[a]]
        if adapter in (None, "reasoning_gym"):
            have = set(pairs)
            pairs += [("reasoning_gym", n) for n in reasoning_gym_task_names() if ("reasoning_gym", n) not in have]
        return sorted(pairs)

    def __contains__(self, key: tuple[str, str]) -> bool:
        return tuple(key) in set(self.list_environments())

    def get(
        self,
        name: str,
        adapter: str = "reasoning_gym",
        size: int | None = None,
        seed: int | None = None,
        answer_extractor: str | None = None,
        extra_rewards: tuple[str | dict[str, Any], ...] | list[str | dict[str, Any]] = (),
        system_prompt: Any = "default",
        prompt_template: str | None = None,
        data_dir: str | None = None,
        **kwargs: Any,
    ) -> NativeEnvironment:
        """Build a new environment.

        Args:
            name: the task name, e.g. ``"leg_counting"``.
            adapter: the environment family; ``"reasoning_gym"``.
            size: number of tasks (reasoning-gym's default, 500, when None).
            seed: dataset seed. When None a seed is drawn once, here, so that
                pickled copies of the environment agree on every task.
            answer_extractor: extractor name (``"tag_based"`` by default);
                its options go in ``answer_extractor_config``.
            extra_rewards: opt-in signals beside ``correctness``, e.g.
                ``("format",)`` or ``({"name": "format", "weight": 0.2},)``.
            system_prompt: the answer-format system message of dataset items:
                a prompt name (``"default"`` = reasoning-gym's), text, a list
                of fragments, or None for no system message.
            prompt_template: optional template with ``{question}`` for the
                user message of dataset items.
            data_dir: directory of reasoning-gym's data files (found in the
                installed package when None).
            **kwargs: the task's own config fields (``min_animals=...``), and
                ``answer_extractor_config``, ``answer_extractors``,
                ``pre_cleaners``, ``post_cleaners``.
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        config: dict[str, Any] = {"name": name, "adapter": adapter}
        if size is not None:
            size = _as_int("size", size)
            if size <= 0:
                raise ValueError(f"size must be a positive int, got {size}")
            config["size"] = size
        if seed is None:
            seed = random.SystemRandom().randint(0, 2**32)
        seed = _as_int("seed", seed)
        if not -(2**63) <= seed < 2**63:
            raise ValueError(f"seed must be in [-2**63, 2**63) (a signed 64-bit integer), got {seed}; "
                             "reduce it, e.g. seed % 2**63")
        config["seed"] = seed
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in _UNSUPPORTED:
            if k in kwargs:
                raise ValueError(f"{k!r} is an llenvs option that llenvs-go does not support")
        for k in _ENV_KEYS:
            if k in kwargs and kwargs[k] is not None:
                config[k] = kwargs.pop(k)
        if answer_extractor is not None and "answer_extractors" in config:
            raise ValueError("give either answer_extractor (one extractor) or answer_extractors (a chain), not both")
        if isinstance(extra_rewards, (str, dict)) or not isinstance(extra_rewards, (list, tuple)):
            raise TypeError(f"extra_rewards must be a list or tuple of signal names or mappings, "
                            f"e.g. ('format',), got {extra_rewards!r}")
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        resolve_system_prompt(system_prompt)  # a bad value fails here, not when items are built
        if prompt_template is not None:
            try:
                prompt_template.format(question="")
            except (KeyError, IndexError, ValueError, AttributeError) as e:
                raise ValueError(f"prompt_template must be a str.format template whose only field is "
                                 f"{{question}}, got {prompt_template!r} ({type(e).__name__}: {e})") from None
        if name == "composite" and "datasets" in kwargs:
            kwargs["datasets"] = [_as_mapping(d) for d in kwargs["datasets"]]
        config["params"] = kwargs
        d = data_dir or reasoning_gym_data_dir()
        if d:
            config["data_dir"] = d
        env = NativeEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.handle  # validate now: a bad name or config fails here, not on first use
        except _native.UnknownNameError as e:
            native = _native.call("list_environments").get(adapter, [])
            if name in native:
                raise  # the unknown name is inside the config (an extractor, a composite's task)
            if adapter == "reasoning_gym" and name in reasoning_gym_task_names():
                return self._python_environment(config, system_prompt, prompt_template)
            raise _native.UnknownNameError(self._unknown_message(name, adapter, str(e))) from None
        except ValueError as e:
            raise ValueError(_with_option_hint(e, kwargs)) from None
        return env

    @staticmethod
    def _python_environment(config: dict[str, Any], system_prompt: Any,
                            prompt_template: str | None) -> NativeEnvironment:
        env = PythonReasoningGymEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.dataset  # reasoning-gym validates the task config here
        except (TypeError, AssertionError, ValueError) as e:
            hint = _python_config_hint(config["name"], config["params"])
            raise ValueError(f"invalid {config['name']} config {config['params']}: {type(e).__name__}: {e}{hint}") \
                from None
        _ = env.handle
        return env

    def describe_environments(self, adapter: str | None = None) -> list[dict[str, str]]:
        """Every environment available, with the backend that serves it.

        ``backend`` is ``"native"`` for Go ports and ``"python"`` for
        reasoning-gym tasks served by the installed reasoning-gym package.
        """
        native: dict[str, list[str]] = _native.call("list_environments")
        native.pop("external", None)
        if adapter is not None:
            if adapter not in native:
                raise _native.UnknownNameError(f"Adapter {adapter!r} not registered. Available: {sorted(native)}")
            native = {adapter: native[adapter]}
        rows = [{"adapter": a, "name": n, "backend": "native"} for a in native for n in native[a]]
        if adapter in (None, "reasoning_gym"):
            have = {r["name"] for r in rows if r["adapter"] == "reasoning_gym"}
            rows += [{"adapter": "reasoning_gym", "name": n, "backend": "python"}
                     for n in reasoning_gym_task_names() if n not in have]
        return sorted(rows, key=lambda r: (r["adapter"], r["name"]))

    def _unknown_message(self, name: str, adapter: str, message: str) -> str:
        known = [n for a, n in self.list_environments() if a == adapter]
        if name in known:
            return message  # the unknown name is something else, e.g. the extractor
        close = difflib.get_close_matches(name, known, n=5, cutoff=0.6)
        hint = f" Close matches: {close}." if close else ""
        if "Adapter" in message:
            return f"{message}.{hint}"
        if not reasoning_gym_task_names() and adapter == "reasoning_gym":
            hint += " Tasks without a native port need reasoning-gym: pip install reasoning-gym==0.1.25."
        return (f"Unknown {adapter} task {name!r}.{hint} {len(known)} tasks are available; "
                "environment_registry.describe_environments() lists them with their backend.")


environment_registry = EnvironmentRegistry()
