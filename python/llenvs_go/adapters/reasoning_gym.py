"""The reasoning-gym adapter: reasoning-gym tasks as single-turn environments.

Tasks with a native Go port are generated and scored in Go; the others are
served by the installed ``reasoning_gym`` package (``backend == "python"``).
Either way the environment is a :class:`ReasoningGymEnvironment`, whose
``state.hidden`` is a :class:`ReasoningGymHidden` as in llenvs.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib.util
import operator
import os
import random
from typing import Any

from llenvs_go import _native
from llenvs_go.adapters.reasoning_gym_dataset import DatasetEnvironment
from llenvs_go.adapters.reasoning_gym_environment import (
    CorrectnessRewardFunction,
    ReasoningGymEnvironment,
    ReasoningGymHidden,
)
from llenvs_go.adapters.reasoning_gym_package import PythonReasoningGymEnvironment, reasoning_gym_task_names
from llenvs_go.core.config import UNSUPPORTED_KEYS
from llenvs_go.core.extraction import GoExtractor, extractor_settings
from llenvs_go.core.limits import check_size
from llenvs_go.core.prompts import check_prompt_template, resolve_system_prompt

# Keys of the Go configuration; anything else given to get_environment() is a task config field.
_ENV_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")
# Environment options of get_environment(), for suggestions when one is mistyped.
_OPTIONS = ("size", "seed", "answer_extractor", "extra_rewards", "system_prompt", "prompt_template", "data_dir",
            *_ENV_KEYS)
# llenvs options that llenvs-go does not implement.
# The adapter name the Go core uses for tasks it scores but reasoning-gym generates; never shown to users.
_INTERNAL_ADAPTERS = ("external",)


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


def _installed_task_names() -> list[str]:

    return reasoning_gym_task_names()


def _native_task_names() -> list[str]:
    return list(_native.call("list_environments").get("reasoning_gym") or [])


class ReasoningGymAdapter:
    """Builds reasoning-gym environments; registered as ``"reasoning_gym"`` in ``environment_registry``."""

    name = "reasoning_gym"

    def __repr__(self) -> str:
        return "ReasoningGymAdapter()"

    def _get_reasoning_gym(self) -> Any:
        """The ``reasoning_gym`` module that serves tasks without a native port (llenvs' hook).

        Override it in a subclass, or set it on an instance, to serve another
        module (one with ``create_dataset(name, **config)`` and, to be listed,
        ``list_datasets()``, ``DATASETS`` or ``registry.list_datasets()``);
        its tasks are then served by the Python backend.

        Raises:
            ImportError: reasoning-gym is not installed.
        """
        try:
            import reasoning_gym
        except ImportError as e:
            raise ImportError("tasks without a native port need reasoning-gym: pip install reasoning-gym==0.1.25") \
                from e
        return reasoning_gym

    def _hooked(self) -> bool:
        """Whether ``_get_reasoning_gym`` was overridden (by a subclass or on this instance)."""
        return "_get_reasoning_gym" in vars(self) or \
            type(self)._get_reasoning_gym is not ReasoningGymAdapter._get_reasoning_gym

    def _module_task_names(self) -> list[str]:
        """The task names of the module ``_get_reasoning_gym`` returns ([] when it cannot be imported)."""
        if not self._hooked():
            return _installed_task_names()
        try:
            rg = self._get_reasoning_gym()
        except ImportError:
            return []
        if callable(getattr(rg, "list_datasets", None)):
            return list(rg.list_datasets())
        if isinstance(getattr(rg, "DATASETS", None), dict):
            return list(rg.DATASETS)
        if callable(getattr(getattr(rg, "registry", None), "list_datasets", None)):
            return list(rg.registry.list_datasets())
        factory = getattr(getattr(rg, "factory", None), "DATASETS", None)
        return list(factory) if isinstance(factory, dict) else []

    def _module_environment(self, config: dict[str, Any], system_prompt: Any,
                            prompt_template: str | None) -> ReasoningGymEnvironment | None:
        """The task of ``config`` built by the module's ``create_dataset``, or None when it does not know the name."""
        try:
            rg = self._get_reasoning_gym()
        except ImportError:
            return None
        create = {**config["params"], "seed": config["seed"]}
        if config.get("size") is not None:
            create["size"] = config["size"]
        try:
            dataset = rg.create_dataset(config["name"], **create)
        except ValueError as e:
            if "not registered" in str(e):
                return None
            raise
        settings = {k: config[k] for k in ("answer_extractor", *_ENV_KEYS) if k in config}
        return DatasetEnvironment(dataset, extra_rewards=tuple(config.get("extra_rewards") or ()), name=config["name"],
                                  settings=settings, system_prompt=system_prompt, prompt_template=prompt_template)

    def list_environments(self) -> list[str]:
        """Every task served: the native ports and the tasks of the installed reasoning-gym, sorted."""
        return sorted(self.backends())

    def backends(self) -> dict[str, str]:
        """Task name -> ``"native"`` (a Go port) or ``"python"`` (served by the installed reasoning-gym)."""
        out = dict.fromkeys(self._module_task_names(), "python")
        out.update(dict.fromkeys(_native_task_names(), "native"))
        return out

    def get_environment_info(self, name: str) -> dict[str, str]:
        """``{"name", "adapter", "type", "description", "backend"}`` of task ``name``.

        ``backend`` is ``"native"`` for Go ports and ``"python"`` for tasks
        served by the installed reasoning-gym package.
        """
        backend = self.backends().get(name)
        if backend is None:
            raise _native.UnknownNameError(self._unknown_message(name))
        return {"name": name, "adapter": self.name, "type": "single_turn",
                "description": f"reasoning-gym dataset: {name}", "backend": backend}

    def get_default_system_prompt(self, name: str) -> str | None:
        """The system prompt of dataset items by default: reasoning-gym's ``"default"`` answer-format prompt."""
        return resolve_system_prompt("default")

    def get_prompt_template(self, name: str) -> str | None:
        """The user-message template of dataset items by default: None (the question as it is)."""
        return None

    def get_environment(
        self,
        name: str,
        size: int | None = None,
        seed: int | None = None,
        answer_extractor: str | GoExtractor | None = None,
        extra_rewards: tuple[Any, ...] | list[Any] = (),
        system_prompt: Any = "default",
        prompt_template: str | None = None,
        data_dir: str | None = None,
        **kwargs: Any,
    ) -> ReasoningGymEnvironment:
        """Build a new environment for task ``name``.

        Args:
            name: the task name, e.g. ``"leg_counting"``.
            size: number of tasks (reasoning-gym's default, 500, when None).
            seed: dataset seed. When None a seed is drawn once, here, so that
                pickled copies of the environment agree on every task.
            answer_extractor: extractor name (``"tag_based"`` by default),
                its options in ``answer_extractor_config``; or an extractor
                object of ``llenvs_go.core.extraction``, which stands for
                those settings (and ``answer_extractors`` and cleaners).
            extra_rewards: opt-in signals beside ``correctness``, e.g.
                ``("format",)`` or ``({"name": "format", "weight": 0.2},)``;
                Python ``RewardFunction`` objects run after the Go signals.
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
        config: dict[str, Any] = {"name": name, "adapter": self.name}
        size = check_size(size)
        if size is not None:
            config["size"] = size
        if seed is None:
            seed = random.SystemRandom().randint(0, 2**32)
        seed = _as_int("seed", seed)
        if not -(2**63) <= seed < 2**63:
            raise ValueError(f"seed must be in [-2**63, 2**63) (a signed 64-bit integer), got {seed}; "
                             "reduce it, e.g. seed % 2**63")
        config["seed"] = seed
        if answer_extractor is not None and not isinstance(answer_extractor, str):
            settings = extractor_settings(answer_extractor)
            for k, v in settings.items():
                if k == "answer_extractor":
                    continue
                if kwargs.get(k) is not None:
                    raise ValueError(f"answer_extractor is an extractor object, which sets {k}; "
                                     f"{k} cannot be given as well")
                kwargs[k] = v
            answer_extractor = settings.get("answer_extractor")
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in UNSUPPORTED_KEYS:
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
            check_prompt_template(prompt_template)
        if name == "composite" and "datasets" in kwargs:
            kwargs["datasets"] = [_as_mapping(d) for d in kwargs["datasets"]]
        config["params"] = kwargs
        d = data_dir or reasoning_gym_data_dir()
        if d:
            config["data_dir"] = d
        env = ReasoningGymEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.handle  # validate now: a bad name or config fails here, not on first use
        except _native.UnknownNameError:
            if name in _native_task_names():
                raise  # the unknown name is inside the config (an extractor, a composite's task)
            if not self._hooked() and name in _installed_task_names():
                return self._python_environment(config, system_prompt, prompt_template)
            module_env = self._module_environment(config, system_prompt, prompt_template)
            if module_env is None:
                raise _native.UnknownNameError(self._unknown_message(name)) from None
            return module_env
        except ValueError as e:
            raise ValueError(_with_option_hint(e, kwargs)) from None
        return env

    @staticmethod
    def _python_environment(config: dict[str, Any], system_prompt: Any,
                            prompt_template: str | None) -> ReasoningGymEnvironment:
        env = PythonReasoningGymEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.dataset  # reasoning-gym validates the task config here
        except (TypeError, AssertionError, ValueError) as e:
            hint = _python_config_hint(config["name"], config["params"])
            raise ValueError(f"invalid {config['name']} config {config['params']}: {type(e).__name__}: {e}{hint}") \
                from None
        _ = env.handle
        return env

    def _unknown_message(self, name: str) -> str:
        known = self.list_environments()
        close = difflib.get_close_matches(name, known, n=5, cutoff=0.6)
        hint = f" Close matches: {close}." if close else ""
        if not _installed_task_names():
            hint += " Tasks without a native port need reasoning-gym: pip install reasoning-gym==0.1.25."
        return (f"Unknown {self.name} task {name!r}.{hint} {len(known)} tasks are available; "
                "environment_registry.describe_environments() lists them with their backend.")


__all__ = ["CorrectnessRewardFunction", "ReasoningGymAdapter", "ReasoningGymEnvironment", "ReasoningGymHidden",
           "reasoning_gym_data_dir"]
