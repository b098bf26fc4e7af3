"""What the scorer and the integrations accept as an environment, and which path serves it.

Any object with llenvs' ``Environment`` protocol (``spec``, ``reset``,
``step``; ``__len__`` for datasets) is accepted. A Go-backed environment whose
lifecycle is the library's own takes the native path (one call into Go per
batch); anything else is called as llenvs calls it: ``reset`` then ``step``.
"""

from __future__ import annotations

from typing import Any

from llenvs_go.core.environment import EnvironmentSpec
from llenvs_go.core.native import NativeEnvironment


def require_environment(environment: Any, who: str, need_len: bool) -> EnvironmentSpec:
    """The spec of ``environment``, or a TypeError saying what ``who`` needs."""
    need = ["spec", "reset", "step"] + (["__len__"] if need_len else [])
    cls = type(environment)
    missing = [m for m in need if not hasattr(cls, m) and not hasattr(environment, m)]
    if missing or not callable(getattr(environment, "reset", None)) or not callable(getattr(environment, "step", None)):
        raise TypeError(
            f"{who} needs an environment (from environment_registry.get(...), or any object with "
            f"{', '.join(need)}), got {cls.__name__}" + (f" (missing: {', '.join(missing)})" if missing else "")
        )
    return environment.spec


def resets_natively(environment: Any) -> bool:
    """Whether the Go core can build ``environment``'s tasks without calling its ``reset``."""
    return isinstance(environment, NativeEnvironment) and type(environment).reset is NativeEnvironment.reset


def scores_natively(environment: Any) -> bool:
    """Whether the Go core can score for ``environment`` without calling its ``reset``/``step``.

    True for a Go-backed environment whose class keeps the library's
    ``reset`` and ``step`` and whose reward functions all run in Go (no
    Python ``RewardFunction`` objects in its ``extra_rewards``, and no answer
    extractor that runs Python code).
    """
    return (resets_natively(environment) and type(environment).step is NativeEnvironment.step
            and not environment.python_rewards and getattr(environment, "python_extractor", None) is None)
