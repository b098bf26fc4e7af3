"""The ``native`` adapter: multi-turn environments written for llenvs-go, served by the Go core.

``guess_number`` (guess a hidden integer with higher/lower feedback) and
``calculator_arithmetic`` (arithmetic tasks with a ``calculator`` tool).
docs/multi-turn.md describes their settings, feedback texts and rewards.
"""

from __future__ import annotations

import difflib
import random
from typing import Any

from llenvs_go import _native
from llenvs_go.core.extraction import GoExtractor, extractor_settings
from llenvs_go.core.limits import check_size
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.state import Action, State

# Keys of the Go configuration; anything else given to get_environment() is an environment setting.
_ENV_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")


def native_environment_names() -> list[str]:
    """The environments the Go core serves under the ``native`` adapter, sorted."""
    return sorted(_native.call("list_environments").get("native") or [])


class MultiTurnEnvironment(NativeEnvironment):
    """A multi-turn environment served by the Go core (``environment_registry.get(name, adapter="native")``).

    Episodes live in Go: ``step`` must be taken from the latest state of an
    episode (``spec.pure_step`` is False), and a finished episode cannot be
    stepped again.
    """

    @property
    def reward_functions(self) -> tuple[Any, ...]:
        """None as objects: the signals of a multi-turn step come from the episode, in ``step``."""
        return ()

    def compute_rewards(self, state: State, action: Action, next_state: State) -> SignalBundle:
        """Not available: the rewards of a multi-turn step depend on the episode; read ``step(...).rewards``."""
        raise NotImplementedError(f"{self.spec.name}: the rewards of a multi-turn step depend on the episode so far; "
                                  "read them from step(state, action).rewards")


class NativeAdapter:
    """Builds the Go core's own multi-turn environments; registered as ``"native"`` in ``environment_registry``."""

    name = "native"

    def __repr__(self) -> str:
        return "NativeAdapter()"

    def list_environments(self) -> list[str]:
        """``["calculator_arithmetic", "guess_number"]``."""
        return native_environment_names()

    def backends(self) -> dict[str, str]:
        """Environment name -> ``"native"``."""
        return dict.fromkeys(self.list_environments(), "native")

    def get_environment_info(self, name: str) -> dict[str, str]:
        """``{"name", "adapter", "type", "description", "backend"}`` of environment ``name``."""
        if name not in self.list_environments():
            raise _native.UnknownNameError(self._unknown(name))
        return {"name": name, "adapter": self.name, "type": "multi_turn", "description": f"llenvs-go: {name}",
                "backend": "native"}

    def get_environment(
        self,
        name: str,
        size: int | None = None,
        seed: int | None = None,
        answer_extractor: str | GoExtractor | None = None,
        extra_rewards: tuple[Any, ...] | list[Any] = (),
        system_prompt: Any = None,
        prompt_template: str | None = None,
        data_dir: str | None = None,
        **kwargs: Any,
    ) -> MultiTurnEnvironment:
        """Build a new environment ``name``.

        Args:
            name: ``"guess_number"`` or ``"calculator_arithmetic"``.
            size: number of tasks (500 when None).
            seed: seed of the tasks; when None one is drawn once, here, so that
                pickled copies agree on every task.
            answer_extractor: how answers are read (``"tag_based"`` by default).
            extra_rewards: not supported (the signals are fixed); must be empty.
            system_prompt, prompt_template: kept for dataset items.
            data_dir: directory of reasoning-gym's data files, if a task needs them.
            **kwargs: the environment's settings (e.g. ``max_value=1000``,
                ``max_tool_calls=4``, ``tool_call_format="qwen3_coder"``), and ``answer_extractor_config``,
                ``answer_extractors``, ``pre_cleaners``, ``post_cleaners``.
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        config: dict[str, Any] = {"name": name, "adapter": self.name}
        size = check_size(size)
        if size is not None:
            config["size"] = size
        if seed is None:
            seed = random.SystemRandom().randint(0, 2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
            raise ValueError(f"seed must be an int in [-2**63, 2**63), got {seed!r}")
        config["seed"] = seed
        if answer_extractor is not None and not isinstance(answer_extractor, str):
            settings = extractor_settings(answer_extractor)
            kwargs.update({k: v for k, v in settings.items() if k != "answer_extractor"})
            answer_extractor = settings.get("answer_extractor")
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in _ENV_KEYS:
            if kwargs.get(k) is not None:
                config[k] = kwargs.pop(k)
            kwargs.pop(k, None)
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        if data_dir:
            config["data_dir"] = data_dir
        config["params"] = kwargs
        env = MultiTurnEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template)
        try:
            _ = env.handle  # validate now: a bad name or setting fails here, not on first use
        except _native.UnknownNameError:
            if name not in self.list_environments():
                raise _native.UnknownNameError(self._unknown(name)) from None
            raise
        return env

    def _unknown(self, name: str) -> str:
        known = self.list_environments()
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else "."
        return f"Unknown native environment {name!r}{hint} Available: {known}"


__all__ = ["MultiTurnEnvironment", "NativeAdapter", "native_environment_names"]
