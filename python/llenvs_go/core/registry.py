"""The environment registry: environments by adapter and task name, as llenvs' ``environment_registry``."""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from llenvs_go import _native

__all__ = ["Adapter", "EnvironmentRegistry", "environment_registry", "install_defaults"]

# What every registry starts with: adapter factories and keyword wrappers
# (``iterative=``), installed by llenvs_go.adapters when the package loads,
# so that the model never imports the adapters built on it.
_default_adapters: list[Callable[[], Any]] = []
_wrappers: dict[str, Callable[[Any, Any], Any]] = {}


@runtime_checkable
class Adapter(Protocol):
    """What ``register_adapter`` accepts: a ``name`` and ``get_environment(name, **kwargs)``.

    ``list_environments() -> list[str]`` is optional; an adapter without it
    lists no environments.
    """

    name: str

    def get_environment(self, name: str, **kwargs: Any) -> Any:
        """Build a new environment for ``name``."""
        ...


class EnvironmentRegistry:
    """Builds environments by ``(adapter, name)``, as llenvs' ``environment_registry`` does.

    The ``reasoning_gym`` adapter is registered by default; any object with a
    ``name`` and ``get_environment(name, **kwargs)`` can be added with
    :meth:`register_adapter`, and its environments work with ``Scorer`` and
    ``DatasetProvider``.
    """

    def __init__(self) -> None:
        self._adapters: dict[str, Any] = {}
        self._lock = threading.Lock()
        for make in _default_adapters:
            self.register_adapter(make())

    # -- adapters ------------------------------------------------------------
    def register_adapter(self, adapter: Any) -> None:
        """Add ``adapter`` under ``adapter.name``.

        Raises:
            TypeError: the object has no str ``name`` or no ``get_environment``.
            ValueError: an adapter of that name is already registered.
        """
        name = getattr(adapter, "name", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"an adapter needs a non-empty str attribute 'name', got {name!r} "
                            f"on {type(adapter).__name__}")
        if not callable(getattr(adapter, "get_environment", None)):
            raise TypeError(f"adapter {name!r} ({type(adapter).__name__}) has no method "
                            "get_environment(name, **kwargs)")
        with self._lock:
            if name in self._adapters:
                raise ValueError(f"Adapter '{name}' is already registered")
            self._adapters[name] = adapter

    def unregister_adapter(self, name: str) -> None:
        """Remove the adapter called ``name``; nothing happens when there is none."""
        with self._lock:
            self._adapters.pop(name, None)

    def get_adapter(self, name: str) -> Any:
        """The adapter called ``name``.

        Raises:
            UnknownNameError (a KeyError): no such adapter; the message lists
                the registered ones and the closest name.
        """
        try:
            return self._adapters[name]
        except (KeyError, TypeError):
            pass
        available = self.list_adapters()
        close = difflib.get_close_matches(str(name), available, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise _native.UnknownNameError(f"Adapter '{name}' not registered. Available: {available}{hint}")

    def list_adapters(self) -> list[str]:
        """Names of the registered adapters, sorted."""
        return sorted(self._adapters)

    # -- environments --------------------------------------------------------
    def list_environments(self, adapter: str | None = None) -> list[tuple[str, str]]:
        """``(adapter, name)`` pairs of the environments served, sorted, optionally for one adapter.

        Raises UnknownNameError (a KeyError) for an unknown adapter.
        """
        names = [adapter] if adapter is not None else self.list_adapters()
        pairs = []
        for a in names:
            listing = getattr(self.get_adapter(a), "list_environments", None)
            pairs += [(a, n) for n in (listing() if callable(listing) else ())]
        return sorted(pairs)

    def __contains__(self, key: object) -> bool:
        """``(adapter, name) in environment_registry``: whether that adapter lists that environment."""
        try:
            adapter, name = key  # type: ignore[misc]
        except (TypeError, ValueError):
            return False
        a = self._adapters.get(adapter) if isinstance(adapter, str) else None
        listing = getattr(a, "list_environments", None)
        return callable(listing) and name in listing()

    def _adapters_listing(self, name: Any, but: str) -> list[str]:
        """The adapters other than ``but`` that list ``name``, when ``but`` does not (sorted)."""
        if not isinstance(name, str) or (but, name) in self:
            return []
        found = []
        for a in self.list_adapters():
            if a == but:
                continue
            try:
                if (a, name) in self:
                    found.append(a)
            except Exception:  # noqa: BLE001 - an adapter whose listing fails lists nothing here
                continue
        return found

    def get(self, name: str, adapter: str = "reasoning_gym", **kwargs: Any) -> Any:
        """Build a new environment: ``get_adapter(adapter).get_environment(name, **kwargs)``.

        For ``adapter="reasoning_gym"`` the keywords are those of
        ``llenvs_go.adapters.ReasoningGymAdapter.get_environment``:
        ``size``, ``seed``, ``answer_extractor``, ``extra_rewards``,
        ``system_prompt``, ``prompt_template``, ``data_dir`` and the task's
        own config fields. ``adapter="native"`` serves ``guess_number`` and
        ``calculator_arithmetic``. ``adapter="huggingface"`` serves a
        question/answer dataset: ``name`` is a hub dataset, a local file or
        rows in memory (``llenvs_go.adapters.huggingface.HuggingFaceAdapter.get_environment``).

        ``iterative`` (an ``IterativeConfig`` or a mapping of its fields, e.g.
        ``{"max_turns": 3}``) wraps the environment in an
        ``llenvs_go.adapters.iterative.IterativeEnvironment``, for any adapter.
        """
        if (not isinstance(name, str) or not name) and not getattr(self._adapters.get(adapter), "accepts_data", False):
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        wrap = {k: kwargs.pop(k) for k in list(kwargs) if k in _wrappers and kwargs[k] is not None}
        kwargs = {k: v for k, v in kwargs.items() if k not in _wrappers}
        served_by = self.get_adapter(adapter)
        try:
            env = served_by.get_environment(name, **kwargs)
        except (KeyError, ValueError):
            elsewhere = self._adapters_listing(name, adapter)
            if elsewhere:
                others = " or ".join(f'adapter="{a}"' for a in elsewhere)
                raise _native.UnknownNameError(
                    f"{name!r} is not an environment of the {adapter!r} adapter; it is registered under {others}: "
                    f'environment_registry.get(name={name!r}, adapter="{elsewhere[0]}", ...)') from None
            raise
        for key, settings in wrap.items():
            env = _wrappers[key](env, settings)
        return env

    def describe_environments(self, adapter: str | None = None) -> list[dict[str, str]]:
        """Every environment available, with the backend that serves it.

        ``backend`` is ``"native"`` for Go ports, ``"python"`` for
        reasoning-gym tasks served by the installed reasoning-gym package and
        for the environments of adapters written in Python.
        """
        rows = []
        for a, n in self.list_environments(adapter):
            ad = self._adapters[a]
            backends = ad.backends() if callable(getattr(ad, "backends", None)) else {}
            rows.append({"adapter": a, "name": n, "backend": backends.get(n, "python")})
        return rows

environment_registry = EnvironmentRegistry()


def install_defaults(adapters: list[Callable[[], Any]], wrappers: dict[str, Callable[[Any, Any], Any]]) -> None:
    """Set what every registry starts with, and add it to ``environment_registry``.

    ``adapters`` are factories of the adapters registered by default;
    ``wrappers`` map a keyword of :meth:`EnvironmentRegistry.get` (e.g.
    ``iterative``) to ``wrapper(environment, settings)``. Called once, by
    ``llenvs_go.adapters``.
    """
    _wrappers.update(wrappers)
    for make in adapters:
        _default_adapters.append(make)
        adapter = make()
        if adapter.name not in environment_registry._adapters:
            environment_registry.register_adapter(adapter)
