"""Cheap construction of frozen dataclass instances on hot paths.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``
and then runs ``__post_init__``. Where the library itself builds many instances
from values it has already checked (a step's State, StepResult and Signals),
:func:`builder` makes a function that does only
the setting, positionally, and may leave out fields that the class builds
lazily (its ``__getattr__`` fills them from a source attribute the caller
sets). The result is the same object: same class, fields, equality, hash,
repr and pickling, still frozen. Attributes are set one by one (as
``__init__`` does) rather than by handing over a dict, so that CPython keeps
them inline in the object: no dict per instance for the collector to scan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def builder(cls: type, names: Sequence[str]) -> Callable[..., Any]:
    """A function ``build(*values)`` returning an instance of ``cls`` with attribute ``names[i] = values[i]``.

    ``__init__`` and ``__post_init__`` do not run; the caller passes every
    field (or the source attribute of a lazily built one).
    """
    for n in names:
        if not n.isidentifier():
            raise ValueError(f"not an attribute name: {n!r}")
    args = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    _set(o, {n!r}, v{i})\n" for i, n in enumerate(names))
    src = f"def build({args}):\n    o = _new(cls)\n{body}    return o\n"
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls}
    exec(src, ns)  # noqa: S102 - fixed source built from checked identifiers, as dataclasses does
    build = ns["build"]
    build.__qualname__ = f"build_{cls.__name__}"
    return build
