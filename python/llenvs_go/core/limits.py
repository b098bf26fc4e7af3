"""Bounds on configuration values shared by every adapter, with the errors that name them."""

from __future__ import annotations

import operator
from typing import Any

#: The most tasks an environment may have (the Go core's ``core.MaxSize``).
MAX_SIZE = 2**40


def check_size(size: Any, what: str = "size") -> int | None:
    """``size`` as an int when it is None or from 1 to :data:`MAX_SIZE`.

    A TypeError for a value that is not an int (a bool, a float, a str), a
    ValueError naming the range otherwise.
    """
    if size is None:
        return None
    if isinstance(size, bool) or not hasattr(size, "__index__"):
        raise TypeError(f"{what} must be an int (from 1 to 2**40) or None, got {type(size).__name__}")
    n = operator.index(size)
    if not 1 <= n <= MAX_SIZE:
        raise ValueError(f"{what} must be a positive integer from 1 to 2**40 ({MAX_SIZE}), got {n}")
    return n


__all__ = ["MAX_SIZE", "check_size"]
