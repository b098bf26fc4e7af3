"""Cheap construction of frozen dataclass instances on hot paths.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``,
which costs about as much as the rest of a step. Where the library itself
builds many instances from values it has already checked (a step's State,
StepResult and Signals, a masked trajectory's spans), :func:`make` fills the
instance's ``__dict__`` at once instead. The result is the same object:
same class, fields, equality, hash, repr and pickling, still frozen. Only
classes without ``__slots__`` and with no ``__post_init__`` work to skip (or
whose ``__post_init__`` the caller has done) may be built this way.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


def make(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass ``cls`` whose fields are ``fields`` (every field, by name)."""
    obj = _new(cls)
    _set(obj, "__dict__", fields)
    return obj


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a bulk of acyclic objects is built.

    Building a million tuples of ints triggers a collection every few hundred
    allocations, each scanning every tracked object alive; none of them can be
    garbage, as nothing built here refers back to itself. Reference counting
    still frees everything as usual. The collector is re-enabled on exit
    (only if it was enabled on entry).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
