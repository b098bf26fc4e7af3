"""Mappings and tuples built when first read: a result's metadata, a step's info and its signals'
metadata, a dataset item's metadata, a masked trajectory's spans.

Most callers of a batch read only totals, flags or tensors; the details of an
item stay where the library keeps them (a record batch, a step's details
handle) until a :class:`LazyMapping` or :class:`LazyTuple` over them is first
read.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import Any

_BUILDING = threading.Lock()  # held while a view builds its dict (once per view)


class LazyMapping(MutableMapping[str, Any]):
    """A dict built when first read: ``source.metadata_of(index)``, then this view behaves as that dict.

    It compares equal to a dict of the same items, and copies and pickles
    as one. One thread builds it; others reading the same view then see it
    built.
    """

    __slots__ = ("_source", "_index", "_dict")

    def __init__(self, source: Any, index: Any):
        self._source = source  # has metadata_of(index)
        self._index = index
        self._dict: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        d = self._dict
        if d is None:
            with _BUILDING:
                d = self._dict
                if d is None:
                    d = self._dict = self._source.metadata_of(self._index)
                    self._source = None  # the batch's columns are no longer needed by this view
        return d

    def copy(self) -> dict[str, Any]:
        """A plain dict of the same items, as ``dict.copy`` gives."""
        return dict(self._data())

    def __or__(self, other: Any) -> dict[str, Any]:
        return self._data() | other if isinstance(other, Mapping) else NotImplemented

    def __ror__(self, other: Any) -> dict[str, Any]:
        return dict(other) | self._data() if isinstance(other, Mapping) else NotImplemented

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._data()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __contains__(self, key: object) -> bool:
        return key in self._data()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyMapping):
            other = other._data()
        return self._data() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._data())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._data(),))


class LazyTuple(Sequence[Any]):
    """A tuple built when first read: ``source.sequence_of(key)``, then this view behaves as that tuple.

    It compares with (and hashes as) a tuple of the same items, and copies
    and pickles as one. It is not a ``tuple`` instance: ``isinstance``,
    ``json.dumps`` and ``dataclasses.asdict`` (which leaves its items as they
    are) see a view; ``tuple(view)`` is the plain tuple. One thread builds
    it; others reading the same view then see it built.
    """

    __slots__ = ("_source", "_key", "_tuple")

    def __init__(self, source: Any, key: Any):
        self._source = source  # has sequence_of(key)
        self._key = key
        self._tuple: tuple[Any, ...] | None = None

    def _data(self) -> tuple[Any, ...]:
        t = self._tuple
        if t is None:
            with _BUILDING:
                t = self._tuple
                if t is None:
                    t = self._tuple = tuple(self._source.sequence_of(self._key))
                    self._source = self._key = None  # what it was built from is no longer needed by this view
        return t

    def __getitem__(self, i: Any) -> Any:
        return self._data()[i]

    def __len__(self) -> int:
        return len(self._data())

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data())

    def __contains__(self, value: object) -> bool:
        return value in self._data()

    def __add__(self, other: Any) -> tuple[Any, ...]:
        return self._data() + _plain(other)

    def __radd__(self, other: Any) -> tuple[Any, ...]:
        return other + self._data()

    def __mul__(self, n: int) -> tuple[Any, ...]:
        return self._data() * n

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return self._data() == _plain(other)

    def __lt__(self, other: Any) -> bool:
        return self._data() < _plain(other)

    def __le__(self, other: Any) -> bool:
        return self._data() <= _plain(other)

    def __gt__(self, other: Any) -> bool:
        return self._data() > _plain(other)

    def __ge__(self, other: Any) -> bool:
        return self._data() >= _plain(other)

    def __hash__(self) -> int:
        return hash(self._data())

    def __repr__(self) -> str:
        return repr(self._data())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self._data(),))


def _plain(value: Any) -> Any:
    """``value``, or the tuple it views when it is a :class:`LazyTuple`."""
    return value._data() if isinstance(value, LazyTuple) else value
