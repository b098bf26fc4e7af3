"""Loading hub datasets with ``datasets.load_dataset``, failing fast when the hub is offline or cannot be reached.

With ``HF_HUB_OFFLINE`` set, or no TCP connection to the hub (or its proxy)
within :data:`HUB_CONNECT_TIMEOUT`, only the ``datasets`` cache is read; a
dataset that is not there raises :class:`DatasetUnavailableError` at once
instead of retrying the network.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from llenvs_go.adapters.huggingface.tables import FILE_SUFFIXES, dataset_table


class DatasetUnavailableError(ValueError, ConnectionError):
    """A dataset name that is not a local file and cannot be loaded from the hub: the hub is offline
    (``HF_HUB_OFFLINE``) or cannot be reached, and the dataset is not in the ``datasets`` cache.

    A ValueError (a bad name, as far as this machine can tell) and a ConnectionError (what ``datasets``
    raises in the same case). ``name`` is the name, ``offline`` whether HF_HUB_OFFLINE was set.
    """

    def __init__(self, message: str, name: str = "", offline: bool = False):
        super().__init__(message)
        self.name = name
        self.offline = offline


#: Seconds to wait for a TCP connection to the hub (or the proxy) before it counts as unreachable;
#: ``LLENVS_GO_HUB_TIMEOUT`` overrides it.
HUB_CONNECT_TIMEOUT = 3.0
_TRUE = ("1", "ON", "YES", "TRUE")
_offline_lock = threading.Lock()
_unreachable: dict[tuple[str, int], tuple[float, str]] = {}  # (host, port) -> (when, why), remembered a while


def hub_offline() -> bool:
    """Whether offline mode is on: ``HF_HUB_OFFLINE`` (or ``HF_DATASETS_OFFLINE``, ``TRANSFORMERS_OFFLINE``) in
    the environment now, or as ``datasets`` / ``huggingface_hub`` read it at import."""
    if any((os.environ.get(k) or "").upper() in _TRUE
           for k in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE")):
        return True
    import sys

    for module, attr in (("datasets.config", "HF_HUB_OFFLINE"), ("huggingface_hub.constants", "HF_HUB_OFFLINE")):
        if getattr(sys.modules.get(module), attr, False) is True:
            return True
    return False


def _hub_address() -> tuple[str, int, str]:
    """``(host, port, what)``: where a request to the hub's endpoint first goes (its proxy, if one is set)."""
    import urllib.parse
    import urllib.request

    try:
        import datasets.config as dconfig

        endpoint = dconfig.HF_ENDPOINT
    except ImportError:  # pragma: no cover - datasets is needed to get here
        endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    url = urllib.parse.urlsplit(endpoint)
    host = url.hostname or "huggingface.co"
    proxies = urllib.request.getproxies()
    proxy = proxies.get(url.scheme) or proxies.get("all")
    if proxy and not urllib.request.proxy_bypass(host):
        p = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
        if p.hostname:
            return p.hostname, p.port or (443 if p.scheme == "https" else 80), f"the proxy {proxy} for {endpoint}"
    return host, url.port or (443 if url.scheme == "https" else 80), endpoint


def hub_unreachable() -> str | None:
    """None when a TCP connection to the hub (or its proxy) opens within the timeout; else why not.

    A failure is remembered for 30 seconds, so that building many environments does not wait each time.
    """
    import socket
    import time

    host, port, what = _hub_address()
    seen = _unreachable.get((host, port))
    if seen is not None and time.monotonic() - seen[0] < 30:
        return seen[1]
    try:
        timeout = float(os.environ.get("LLENVS_GO_HUB_TIMEOUT") or HUB_CONNECT_TIMEOUT)
    except ValueError:
        timeout = HUB_CONNECT_TIMEOUT
    result: list[str | None] = []

    def probe() -> None:  # in a thread: name resolution has no timeout of its own
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            result.append(None)
        except OSError as e:
            result.append(f"{type(e).__name__}: {e}")

    t = threading.Thread(target=probe, name="llenvs-go-hub-probe", daemon=True)
    t.start()
    t.join(timeout + 0.5)
    why = result[0] if result else f"no connection within {timeout:g} s"
    if why is None:
        _unreachable.pop((host, port), None)
        return None
    why = f"{what} cannot be reached ({why})"
    _unreachable[(host, port)] = (time.monotonic(), why)
    return why


class _forced_offline:
    """``datasets`` and ``huggingface_hub`` in offline mode for the duration (they then read only their cache)."""

    def __enter__(self) -> None:
        import sys

        _offline_lock.acquire()
        self.saved = []
        for module in ("datasets.config", "huggingface_hub.constants"):
            m = sys.modules.get(module)
            if m is not None and hasattr(m, "HF_HUB_OFFLINE"):
                self.saved.append((m, m.HF_HUB_OFFLINE))
                m.HF_HUB_OFFLINE = True

    def __exit__(self, *exc: object) -> None:
        for m, v in self.saved:
            m.HF_HUB_OFFLINE = v
        _offline_lock.release()


def _is_local_dataset(name: str) -> bool:
    """A directory, or one of datasets' packaged builders (``"json"``, ``"csv"``, ...): no hub needed."""
    if os.path.exists(name):
        return True
    try:
        from datasets.packaged_modules import _PACKAGED_DATASETS_MODULES
    except ImportError:  # pragma: no cover - a datasets version without it
        return False
    return name in _PACKAGED_DATASETS_MODULES


def load_hub_dataset(name: str, split: str, subset: str | None, load_kwargs: dict[str, Any],
                     trust_remote_code: bool) -> Any:
    """Load a hub dataset (or a directory ``datasets`` reads): online when the hub can be reached, else from
    the ``datasets`` cache alone, failing fast with :class:`DatasetUnavailableError` when it is not there."""
    try:
        import datasets
    except ImportError as e:
        raise ImportError("the huggingface adapter loads hub datasets with the datasets package: "
                          "pip install datasets") from e
    kw = dict(load_kwargs)
    if trust_remote_code:
        kw["trust_remote_code"] = True
    if subset is not None:
        kw["name"] = subset
    offline = False
    why = None
    if not _is_local_dataset(name):
        offline = hub_offline()
        why = None if offline else hub_unreachable()
    if offline or why is not None:
        try:
            with _forced_offline():
                ds = datasets.load_dataset(name, split=split, **kw)
        except (ConnectionError, FileNotFoundError) as e:
            reason = ("HF_HUB_OFFLINE is set, so the hub was not tried" if offline else
                      f"{why}, so the hub was not tried")
            fix = ("check the name, or unset HF_HUB_OFFLINE to download it" if offline else
                   "check the name and the network, or set HF_HUB_OFFLINE=1 to use only the datasets cache "
                   "without this check")
            raise DatasetUnavailableError(
                f"huggingface adapter: {name!r} is not a local file ({', '.join(FILE_SUFFIXES)}) or directory, "
                f"{reason}, and it is not in the datasets cache ({type(e).__name__}: {e}); {fix}",
                name, offline) from None
    else:
        ds = datasets.load_dataset(name, split=split, **kw)
    if not isinstance(ds, datasets.Dataset):
        raise TypeError(f"datasets.load_dataset({name!r}, split={split!r}) gave a {type(ds).__name__}, "
                        "not a Dataset; name one split")
    return dataset_table(ds)
