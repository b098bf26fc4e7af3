"""The environment registry: environments by adapter and task name, as llenvs' ``environment_registry``."""

from __future__ import annotations

import difflib
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from llenvs_go import _native

__all__ = ["Adapter", "EnvironmentRegistry", "environment_registry", "install_defaults"]

_log = logging.getLogger("llenvs_go.adapters")

# What the global registry starts with: adapter factories and keyword wrappers
# (``iterative=``), installed by llenvs_go.adapters when the package loads,
# so that the model never imports the adapters built on it.
_default_adapters: list[Callable[[], Any]] = []
_wrappers: dict[str, Callable[[Any, Any], Any]] = {}


@runtime_checkable
class Adapter(Protocol):
    """What ``register_adapter`` accepts: a ``name`` and ``get_environment(name, **kwargs)``.

    An adapter written for llenvs that has ``create_environment(name, **kwargs)``
    instead of ``get_environment`` is accepted too. ``list_environments() ->
    list[str]`` is optional; an adapter without it lists no environments.
    """

    name: str

    def get_environment(self, name: str, **kwargs: Any) -> Any:
        """Build a new environment for ``name``."""
        ...


def _builder(adapter: Any) -> Callable[..., Any] | None:
    """The adapter's environment constructor: ``get_environment``, else llenvs' ``create_environment``."""
    for method in ("get_environment", "create_environment"):
        f = getattr(adapter, method, None)
        if callable(f):
            return f
    return None


class EnvironmentRegistry:
    """Builds environments by ``(adapter, name)``, as llenvs' ``environment_registry`` does.

    A new registry is empty, as in llenvs; the global ``environment_registry``
    has the built-in adapters (``reasoning_gym``, ``native``, ``huggingface``)
    registered when the package loads. Any object with a
    ``name`` and ``get_environment(name, **kwargs)`` (or ``create_environment``)
    can be added with :meth:`register_adapter`, and its environments work with
    ``Scorer`` and ``DatasetProvider``.
    """

    def __init__(self) -> None:
        self._adapters: dict[str, Any] = {}
        # Adapters registered by name and factory, built when first selected.
        self._factories: dict[str, Callable[[], Any]] = {}
        # Probes not run yet: each runs once, when its adapter is first selected or listed.
        self._probes: dict[str, Callable[[], Any]] = {}
        self._lock = threading.RLock()

    # -- adapters ------------------------------------------------------------
    def register_adapter(self, adapter: Any, factory: Callable[[], Any] | None = None, *,
                         probe: Callable[[], Any] | None = None) -> None:
        """Add an adapter: ``register_adapter(adapter)``, keyed by ``adapter.name``, or
        ``register_adapter(name, factory)``, where ``factory()`` builds the adapter when it is first selected.

        Args:
            adapter: the adapter object, or its name when ``factory`` is given.
            factory: a callable of no arguments returning the adapter (with a name).
            probe: a callable of no arguments that checks the adapter's
                dependencies (e.g. imports its third-party library). It runs
                once, when the adapter is first selected (``get_adapter``,
                ``get``, ``in``) or adapters are listed, and never at
                registration. If it raises, the adapter is dropped from this
                registry, the failure is logged (logger ``llenvs_go.adapters``,
                level WARNING), and the probe is not run again.

        Raises:
            TypeError: the object has no str ``name`` or neither
                ``get_environment`` nor ``create_environment``; or ``factory``
                or ``probe`` is not callable.
            ValueError: an adapter of that name is already registered.
        """
        if probe is not None and not callable(probe):
            raise TypeError(f"probe must be a callable of no arguments, got {type(probe).__name__}")
        if factory is not None:
            name = adapter
            if not isinstance(name, str) or not name:
                raise TypeError(f"register_adapter(name, factory): name must be a non-empty str, got {name!r}")
            if not callable(factory):
                raise TypeError(f"register_adapter(name, factory): factory must be callable, "
                                f"got {type(factory).__name__}")
        else:
            name = getattr(adapter, "name", None)
            if not isinstance(name, str) or not name:
                raise TypeError(f"an adapter needs a non-empty str attribute 'name', got {name!r} "
                                f"on {type(adapter).__name__}")
            if _builder(adapter) is None and not callable(getattr(adapter, "list_environments", None)):
                raise TypeError(f"adapter {name!r} ({type(adapter).__name__}) has no method "
                                "get_environment(name, **kwargs) (or llenvs' create_environment)")
        with self._lock:
            if name in self._adapters or name in self._factories:
                raise ValueError(f"Adapter '{name}' is already registered")
            if factory is not None:
                self._factories[name] = factory
            else:
                self._adapters[name] = adapter
            if probe is not None:
                self._probes[name] = probe

    def unregister_adapter(self, name: str) -> None:
        """Remove the adapter called ``name`` (and its probe, if not run yet); nothing happens when there is none."""
        with self._lock:
            self._adapters.pop(name, None)
            self._factories.pop(name, None)
            self._probes.pop(name, None)

    def _select(self, name: str) -> Any:
        """The adapter called ``name`` after its probe and factory have run (once), or None when there is none."""
        with self._lock:
            probe = self._probes.pop(name, None)
            if probe is not None:
                try:
                    probe()
                except Exception as e:  # noqa: BLE001 - any failure of the probe excludes the adapter
                    self._adapters.pop(name, None)
                    self._factories.pop(name, None)
                    _log.warning("adapter %r is unavailable and was not registered: its probe failed: %s: %s",
                                 name, type(e).__name__, e)
                    raise _native.UnknownNameError(
                        f"Adapter '{name}' is unavailable: its dependency probe failed ({type(e).__name__}: {e})"
                    ) from e
            factory = self._factories.pop(name, None)
            if factory is not None:
                self._adapters[name] = factory()
            return self._adapters.get(name)

    def get_adapter(self, name: str) -> Any:
        """The adapter called ``name`` (running its probe or factory the first time it is selected).

        Raises:
            UnknownNameError (a KeyError): no such adapter, or its probe
                failed; the message lists the registered ones and the closest name.
        """
        if isinstance(name, str):
            adapter = self._adapters.get(name) if name not in self._probes and name not in self._factories \
                else self._select(name)
            if adapter is not None:
                return adapter
        available = self.list_adapters()
        close = difflib.get_close_matches(str(name), available, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise _native.UnknownNameError(f"Adapter '{name}' not registered. Available: {available}{hint}")

    def list_adapters(self) -> list[str]:
        """Names of the registered adapters that are available, sorted (pending probes run now, once)."""
        with self._lock:
            for name in list(self._probes) + list(self._factories):
                try:
                    self._select(name)
                except KeyError:
                    pass
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
        try:
            a = self.get_adapter(adapter) if isinstance(adapter, str) else None
        except KeyError:
            return False
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
        chosen = self.get_adapter(adapter)
        if (not isinstance(name, str) or not name) and not getattr(chosen, "accepts_data", False):
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        wrap = {k: kwargs.pop(k) for k in list(kwargs) if k in _wrappers and kwargs[k] is not None}
        kwargs = {k: v for k, v in kwargs.items() if k not in _wrappers}
        build = _builder(chosen)
        if build is None:
            raise TypeError(f"adapter {adapter!r} ({type(chosen).__name__}) has no method get_environment(name, "
                            "**kwargs) (or llenvs' create_environment), so it cannot build environments")
        try:
            env = build(name, **kwargs)
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
            ad = self.get_adapter(a)
            backends = ad.backends() if callable(getattr(ad, "backends", None)) else {}
            rows.append({"adapter": a, "name": n, "backend": backends.get(n, "python")})
        return rows

environment_registry = EnvironmentRegistry()


def install_defaults(adapters: list[Callable[[], Any]], wrappers: dict[str, Callable[[Any, Any], Any]]) -> None:
    """Set the keyword wrappers of every registry, and add the default adapters to ``environment_registry``.

    ``adapters`` are factories of the adapters registered by default;
    ``wrappers`` map a keyword of :meth:`EnvironmentRegistry.get` (e.g.
    ``iterative``) to ``wrapper(environment, settings)``. Called once, by
    ``llenvs_go.adapters``.
    """
    _wrappers.update(wrappers)
    for make in adapters:
        _default_adapters.append(make)
        adapter = make()
        if adapter.name not in environment_registry.list_adapters():
            environment_registry.register_adapter(adapter)
