"""The extractors by name: llenvs' ``Registry``, ``answer_extractor_registry`` with the built-in extractors, and
the conversions between an extractor object and the environment settings or spec that select it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from llenvs_go import _native
from llenvs_go.core.composite_extractors import CompositeExtractor, NativeExtractor
from llenvs_go.core.extractors import (
    BoxedExtractor,
    CodeBlockExtractor,
    GoExtractor,
    GSM8KExtractor,
    LastLineExtractor,
    MultipleChoiceExtractor,
    NumericExtractor,
    PatternAnswerExtractor,
    RawGenerationExtractor,
    RegexExtractor,
    TagBasedExtractor,
    TailExtractor,
)

T = TypeVar("T")


class Registry(Generic[T]):
    """A registry of factories by name, with llenvs' ``Registry`` semantics.

    ``create(name, **kw)`` always builds a new object; ``get(name, **kw)``
    builds it on first use and caches it. An unknown name is a KeyError
    that lists the registered names.
    """

    def __init__(self, kind: str):
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}
        self._instances: dict[str, T] = {}

    def register(self, name: str, factory: Callable[..., T] | None = None) -> Any:
        """Register ``factory`` under ``name``; without ``factory``, a decorator. A duplicate is a ValueError."""
        def add(f: Callable[..., T]) -> Callable[..., T]:
            if name in self._factories or name in self._instances:
                raise ValueError(f"{self.kind} '{name}' is already registered")
            self._factories[name] = f
            return f

        return add if factory is None else add(factory)

    def register_instance(self, name: str, obj: T) -> None:
        """Register a ready object under ``name``; a duplicate is a ValueError."""
        if name in self._factories or name in self._instances:
            raise ValueError(f"{self.kind} '{name}' is already registered")
        self._instances[name] = obj

    def _not_found(self, name: str) -> KeyError:
        return _native.UnknownNameError(f"{self.kind} '{name}' not found. Available: {self.keys()}")

    def get(self, name: str, **kwargs: Any) -> T:
        """The object registered as ``name``, built with ``kwargs`` on first use and cached."""
        if name in self._instances:
            return self._instances[name]
        if name not in self._factories:
            raise self._not_found(name)
        obj = self._factories[name](**kwargs)
        self._instances[name] = obj
        return obj

    def create(self, name: str, **kwargs: Any) -> T:
        """A new object from the factory registered as ``name``."""
        if name not in self._factories:
            if name in self._instances:
                raise KeyError(f"{self.kind} '{name}' was registered as instance, not factory")
            raise self._not_found(name)
        return self._factories[name](**kwargs)

    def keys(self) -> list[str]:
        """The registered names."""
        return [*self._factories, *(n for n in self._instances if n not in self._factories)]

    def clear(self) -> None:
        """Forget every registration."""
        self._factories.clear()
        self._instances.clear()

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self._instances

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())


answer_extractor_registry: Registry[Any] = Registry("extractor")
"""The extractors by name: ``answer_extractor_registry.create("regex", pattern=r"(\\d+)")``."""

_DEFAULTS: dict[str, type[GoExtractor]] = {
    "tag_based": TagBasedExtractor,
    "regex": RegexExtractor,
    "gsm8k": GSM8KExtractor,
    "multiple_choice": MultipleChoiceExtractor,
    "boxed": BoxedExtractor,
    "numeric": NumericExtractor,
    "last_line": LastLineExtractor,
    "code_block": CodeBlockExtractor,
    "pattern_answer": PatternAnswerExtractor,
    "raw": RawGenerationExtractor,
    "tail": TailExtractor,
}



def register_defaults() -> None:
    """Clear the extractor registry and register the built-in extractors again."""
    answer_extractor_registry.clear()
    for name, cls in _DEFAULTS.items():
        answer_extractor_registry.register(name, cls)


register_defaults()


def extractor_settings(extractor: Any, what: str = "answer_extractor") -> dict[str, Any]:
    """The environment settings an extractor object stands for (:meth:`GoExtractor.to_config`).

    Raises:
        TypeError: ``extractor`` is not an extractor of this module.
        ValueError: the extractor runs Python code, which a Go environment
            cannot call (a :class:`NativeExtractor`, a custom cleaner, ...).
    """
    if isinstance(extractor, GoExtractor):
        return extractor.to_config()
    if isinstance(extractor, NativeExtractor):
        raise ValueError(f"{what}: a NativeExtractor runs a Python function, which a Go environment cannot call; "
                         "use one of the extractors of llenvs_go.core.extraction, e.g. TagBasedExtractor()")
    raise TypeError(f"{what} must be an extractor name or an extractor of llenvs_go.core.extraction, "
                    f"got {type(extractor).__name__}")


def extractor_from_spec(spec: dict[str, Any] | list[dict[str, Any]]) -> GoExtractor:
    """The extractor object a spec describes (the inverse of :meth:`GoExtractor.to_spec`).

    ``{"type": name, "config": {...}}`` builds ``answer_extractor_registry.create(name, **config)``;
    a list builds a :class:`CompositeExtractor`.
    """
    if isinstance(spec, list):
        return CompositeExtractor([extractor_from_spec(s) for s in spec])
    if not isinstance(spec, dict) or "type" not in spec:
        raise TypeError(f"an extractor spec is {{'type': name, 'config': {{...}}}} or a list of them, got {spec!r}")
    return answer_extractor_registry.create(spec["type"], **(spec.get("config") or {}))
