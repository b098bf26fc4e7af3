"""The environment registry: environments by adapter and task name."""

from __future__ import annotations

import difflib
import importlib.util
import os
import random
from typing import Any

from llenvs_go import _native
from llenvs_go.core.environment import Environment
from llenvs_go.core.python_backend import PythonReasoningGymEnvironment, reasoning_gym_task_names

# Keys of the Go configuration; anything else given to get() is a task config field.
_ENV_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")


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
    ) -> Environment:
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
            if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
                raise ValueError(f"size must be a positive int, got {size!r}")
            config["size"] = size
        if seed is None:
            seed = random.SystemRandom().randint(0, 2**32)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        if not -(2**63) <= seed < 2**63:
            raise ValueError(f"seed must fit in a signed 64-bit integer, got {seed}")
        config["seed"] = seed
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in _ENV_KEYS:
            if k in kwargs and kwargs[k] is not None:
                config[k] = kwargs.pop(k)
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        config["params"] = kwargs
        d = data_dir or reasoning_gym_data_dir()
        if d:
            config["data_dir"] = d
        env = Environment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.handle  # validate now: a bad name or config fails here, not on first use
        except _native.UnknownNameError as e:
            native = _native.call("list_environments").get(adapter, [])
            if name in native:
                raise  # the unknown name is inside the config (an extractor, a composite's task)
            if adapter == "reasoning_gym" and name in reasoning_gym_task_names():
                return self._python_environment(config, system_prompt, prompt_template)
            raise _native.UnknownNameError(self._unknown_message(name, adapter, str(e))) from None
        return env

    @staticmethod
    def _python_environment(config: dict[str, Any], system_prompt: Any, prompt_template: str | None) -> Environment:
        env = PythonReasoningGymEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.dataset  # reasoning-gym validates the task config here
        except (TypeError, AssertionError, ValueError) as e:
            raise ValueError(f"invalid {config['name']} config {config['params']}: {e}") from None
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
