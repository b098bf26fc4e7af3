"""The ``huggingface`` adapter: any question/answer dataset as a single-turn environment.

``environment_registry.get(name, adapter="huggingface", ...)`` takes a hub
dataset name (loaded with ``datasets.load_dataset`` when the environment is
built), a local ``.jsonl`` / ``.json`` / ``.parquet`` / ``.csv`` file, or rows in
memory (a ``datasets.Dataset`` or a list of dicts). The rows are read into an
Arrow table, the requested rows are selected (``size``/``seed``), and the
question and answer columns cross into the Go core once, as Arrow string
buffers. From then on the expected answers are extracted, responses scored
and dataset items built in Go; no Python code runs per row.

Presets (:data:`PRESETS`) give the columns, ground-truth extractor, scoring and
answer format of well-known datasets by name (GSM8K, MATH-style sets, AIME
sets); any argument given explicitly overrides the preset. docs/datasets.md
describes the options, presets and scoring rules.
"""

from __future__ import annotations

import difflib
import json
import operator
import os
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.extraction import GoExtractor, extractor_settings
from llenvs_go.core.limits import check_size
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import check_prompt_template, resolve_system_prompt

#: File suffixes read as local files, and how.
FILE_SUFFIXES = (".jsonl", ".json", ".parquet", ".csv")
# Keys of the Go configuration passed through from get_environment's keywords.
_ENV_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")
# The parameters of datasets.load_dataset that may be given to get_environment (hub datasets only).
LOAD_DATASET_KEYWORDS = ("cache_dir", "data_dir", "data_files", "download_config", "download_mode", "features",
                         "keep_in_memory", "num_proc", "revision", "storage_options", "token",
                         "verification_mode")
_OPTIONS = ("split", "subset", "question_column", "answer_column", "ground_truth_extractor", "scoring",
            "answer_extractor", "extra_rewards", "metadata_columns", "size", "seed", "streaming",
            "trust_remote_code", "system_prompt", "prompt_template", "preset", *_ENV_KEYS, *LOAD_DATASET_KEYWORDS)
_UNSET: Any = object()

# llenvs' defaults of get_environment.
DEFAULTS: dict[str, Any] = {"split": "test", "subset": None, "question_column": "problem",
                            "answer_column": "solution", "ground_truth_extractor": "boxed", "scoring": "numeric"}


@dataclass(frozen=True)
class DatasetPreset:
    """Settings a dataset gets by name; each applies only where the caller gave no value of their own.

    ``answer_extractor`` is how responses are read, and with it the answer-format
    system prompt of dataset items (``"boxed"`` asks for ``\\boxed{}``).
    """

    question_column: str
    answer_column: str
    ground_truth_extractor: str
    scoring: str
    answer_extractor: str | None = None
    split: str | None = None
    subset: str | None = None


_GSM8K = DatasetPreset("question", "answer", "gsm8k", "numeric", subset="main")
_MATH = DatasetPreset("problem", "solution", "boxed", "math", answer_extractor="boxed")
_AIME = DatasetPreset("problem", "answer", "direct", "numeric", answer_extractor="boxed", split="train")

#: The presets, by the name ``preset=`` takes.
PRESETS: dict[str, DatasetPreset] = {"gsm8k": _GSM8K, "math": _MATH, "aime": _AIME}

#: Hub names with a preset of their own (columns that differ from the family's).
NAMED_PRESETS: dict[str, DatasetPreset] = {
    "gsm8k": _GSM8K,
    "openai/gsm8k": _GSM8K,
    "HuggingFaceH4/aime_2024": _AIME,
    "MathArena/aime_2025": _AIME,
    "AI-MO/aimo-validation-aime": _AIME,
    "di-zhang-fdu/AIME_1983_2024": DatasetPreset("Question", "Answer", "direct", "numeric", answer_extractor="boxed",
                                                 split="train"),
    "HuggingFaceH4/MATH-500": _MATH,
    "hendrycks/competition_math": _MATH,
    "EleutherAI/hendrycks_math": _MATH,
    "lighteval/MATH": _MATH,
}

_WORD = re.compile(r"[a-z]+|\d+")


def preset_name_for(name: str) -> str | None:
    """The preset a hub dataset name gets (``"gsm8k"``, ``"aime"``, ``"math"``), or None.

    The rule, on the part of the name after the last ``/``, lower-cased and cut
    into runs of letters and of digits: ``gsm8k`` when it is exactly ``gsm8k``;
    ``aime`` when one run is ``aime``; ``math`` when one run is ``math`` or
    ``hendrycks`` (``MATH-500``, ``hendrycks_math``, ``competition_math``,
    ``MATH-lighteval``; not ``MetaMathQA``, ``NuminaMath``). The names in
    :data:`NAMED_PRESETS` are matched first.
    """
    base = name.rstrip("/").rsplit("/", 1)[-1].lower()
    if base == "gsm8k":
        return "gsm8k"
    words = _WORD.findall(base)
    if "aime" in words:
        return "aime"
    if "math" in words or "hendrycks" in words:
        return "math"
    return None


def preset_for(name: str) -> DatasetPreset | None:
    """The preset applied to a hub dataset ``name``, or None (see :func:`preset_name_for`)."""
    if name in NAMED_PRESETS:
        return NAMED_PRESETS[name]
    key = preset_name_for(name)
    return None if key is None else PRESETS[key]


# -- answer-format prompts -----------------------------------------------------

BOXED_REASONING = "\n\n".join([
    "You are a helpful assistant.",
    "Think through this step by step before giving your final answer.",
    "Put your final answer in \\boxed{}.",
])
GSM8K_REASONING = "\n\n".join([
    "You are a helpful assistant.",
    "Think through this step by step before giving your final answer.",
    "End your response with '#### ' followed by your numerical answer.",
])


def default_system_prompt(answer_extractor: str | None) -> str | None:
    """The answer-format system prompt that fits an answer extractor name.

    ``tag_based`` (and no extractor): reasoning-gym's ``<answer>`` prompt
    (``"default"``); ``boxed``: :data:`BOXED_REASONING`; ``gsm8k``:
    :data:`GSM8K_REASONING`; any other extractor: None (no instruction fits it).
    """
    if answer_extractor in (None, "tag_based"):
        return "default"
    return {"boxed": BOXED_REASONING, "gsm8k": GSM8K_REASONING}.get(answer_extractor)


def adapter_options() -> dict[str, Any]:
    """The ground-truth extractors and scoring names the Go core knows, and which scorings this build has."""
    return _native.call("huggingface_options")


# -- loading -------------------------------------------------------------------

def _pa() -> Any:
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - datasets depends on pyarrow
        raise ImportError("the huggingface adapter needs pyarrow: pip install datasets (it brings pyarrow)") from e
    return pa


def _is_file_name(name: str) -> bool:
    return name.lower().endswith(FILE_SUFFIXES)


def read_file(path: str) -> Any:
    """A local ``.jsonl`` / ``.json`` / ``.parquet`` / ``.csv`` file as a pyarrow Table.

    ``.json`` holds a list of objects, an object with one list of objects
    (e.g. ``{"data": [...]}``), or one object per line.
    """
    pa = _pa()
    lower = path.lower()
    try:
        if lower.endswith(".parquet"):
            import pyarrow.parquet as pq

            return pq.read_table(path)
        if lower.endswith(".csv"):
            import pyarrow.csv as pcsv

            return pcsv.read_csv(path)
        if lower.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            try:
                data = json.loads(text)
            except ValueError:
                data = None  # one object per line
            if isinstance(data, dict):
                lists = [v for v in data.values() if isinstance(v, list)]
                if len(lists) != 1:
                    raise ValueError(f"{path}: a .json file holds a list of rows or an object with one list of rows; "
                                     f"this object has keys {sorted(data)}")
                data = lists[0]
            if isinstance(data, list):
                return rows_table(data, path)
        import pyarrow.json as pjson

        return pjson.read_json(path)
    except (pa.ArrowInvalid, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None


def rows_table(rows: Sequence[Any], what: str = "rows") -> Any:
    """A list of dicts as a pyarrow Table (a clear ValueError for rows that are not dicts or mix types)."""
    pa = _pa()
    for k, r in enumerate(rows):
        if not isinstance(r, dict):
            raise TypeError(f"{what}[{k}] is a {type(r).__name__}; each row must be a dict of column -> value")
    try:
        return pa.Table.from_pylist(list(rows))
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so not in an Arrow string
        raise ValueError(_surrogate_message(rows, what)) from None
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError) as e:  # Overflow: an int past 64 bits
        raise ValueError(f"{what}: the rows cannot form a table ({e}); each column must hold values of one type "
                         "(all str for the question and answer columns)") from None


def _unencodable(value: Any) -> tuple[str, int] | None:
    """The first str in ``value`` (nested in lists and dicts too) that is not valid UTF-8, and where its first
    lone surrogate is."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            return value, e.start
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _unencodable(k) or _unencodable(v)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for v in value:
            found = _unencodable(v)
            if found:
                return found
    return None


def _surrogate_message(rows: Sequence[Any], what: str) -> str:
    """The ValueError message for rows that hold a lone surrogate: which row and column, and where in the text."""
    fix = ("a lone surrogate is not valid UTF-8 and cannot be stored in an Arrow table; fix the text, e.g. "
           "text.encode('utf-8', 'replace').decode('utf-8')")
    for k, r in enumerate(rows):
        for col, v in r.items():
            if _unencodable(col):
                return f"{what}[{k}]: the column name {col!r} holds a lone surrogate; {fix}"
            found = _unencodable(v)
            if found:
                text, pos = found
                return (f"{what}[{k}][{col!r}] holds a lone surrogate ({text[pos]!r} at position {pos} of "
                        f"{_short(text)}); {fix}")
    return f"{what}: the rows hold text that is not valid UTF-8; {fix}"


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"{text[:37]!r}... ({len(text)} characters)"


def dataset_table(ds: Any) -> Any:
    """The rows of a ``datasets.Dataset`` (respecting its selection and order) as a pyarrow Table."""
    n = len(ds)
    table = ds.with_format("arrow")[0:n] if n else ds.data.table.slice(0, 0)
    return table


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


def _load_hub(name: str, split: str, subset: str | None, load_kwargs: dict[str, Any], trust_remote_code: bool) -> Any:
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


def select_rows(table: Any, size: int | None, seed: int | None) -> Any:
    """The rows llenvs selects: with ``size``, shuffled by ``seed`` first when one is given (as
    ``Dataset.shuffle(seed=seed)`` orders them), then the first ``min(size, len)``; all rows otherwise."""
    if size is None:
        return table
    n = table.num_rows
    if seed is None:
        return table.slice(0, min(size, n))
    import numpy as np

    order = np.random.default_rng(seed).permutation(n)[: min(size, n)]
    return table.take(order)


# -- columns into Go ------------------------------------------------------------

def _text_array(column: Any, name: str, role: str) -> Any:
    """One column as a single Arrow string or large_string array (numbers written as text for answers)."""
    pa = _pa()
    t = column.type
    if pa.types.is_dictionary(t):
        column = column.cast(t.value_type)
        t = column.type
    is_view = getattr(pa.types, "is_string_view", None)
    if is_view is not None and is_view(t):
        column = column.cast(pa.large_string())
        t = column.type
    if role == "answer" and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
        column = column.cast(pa.string())
        t = column.type
    if pa.types.is_null(t):
        raise ValueError(f"{role} column {name!r} has only missing (None) cells")
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        allowed = "text (str)" if role != "answer" else "text (str) or numbers"
        raise ValueError(f"{role} column {name!r} holds {t} values, not {allowed}; pick another column or convert "
                         "it first")
    chunks = column.chunks if hasattr(column, "chunks") else [column]
    if len(chunks) == 1:
        return chunks[0]
    if not chunks:
        return pa.array([], type=t)
    if pa.types.is_string(t) and sum(c.nbytes for c in chunks) >= 2**31 - 1:
        column = column.cast(pa.large_string())
    return column.combine_chunks()


def _json_values(column: Any) -> list[Any]:
    return json.loads(json.dumps(column.to_pylist(), default=str))


def missing_column_message(role: str, name: str, available: list[str]) -> str:
    """llenvs' message for a column that is not there, with the nearest name."""
    close = difflib.get_close_matches(name, available, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{role} column {name!r} not found in dataset. Available columns: {available}{hint}"


def prepare_columns(table: Any, params: dict[str, Any]) -> Any:
    """Check the columns a configuration names against ``table``; the table of those columns alone.

    A missing column is a ValueError naming the columns that exist.
    """
    available = list(table.column_names)
    q, a = params["question_column"], params["answer_column"]
    for role, name in (("Question", q), ("Answer", a)):
        if name not in available:
            raise ValueError(missing_column_message(role, name, available))
    meta = list(params.get("metadata_columns") or ())
    for name in meta:
        if name not in available:
            raise ValueError(missing_column_message("Metadata", name, available))
    keep = list(dict.fromkeys([q, a, *meta]))
    return table.select(keep)


def _hand_over(go_config: dict[str, Any], table: Any) -> tuple[int, dict[str, Any]]:
    """Build the Go environment from ``table``'s columns; returns the handle and its description."""
    pa = _pa()
    params = dict(go_config["params"])
    q, a = params["question_column"], params["answer_column"]
    arrays: list[tuple[str, Any]] = [(q, _text_array(table.column(q), q, "question"))]
    if a != q:
        arrays.append((a, _text_array(table.column(a), a, "answer")))
    values: dict[str, Any] = {}
    for name in params.get("metadata_columns") or ():
        if name in (q, a):
            continue
        col = table.column(name)
        t = col.type
        if pa.types.is_string(t) or pa.types.is_large_string(t):
            arrays.append((name, _text_array(col, name, "metadata")))
        else:
            values[name] = _json_values(col)
    params["columns"] = [n for n, _ in arrays]
    if values:
        params["metadata_values"] = values
    config = {**go_config, "params": params}
    req = json.dumps(config).encode("utf-8", "surrogatepass")
    n = len(arrays)
    keep = []  # the buffers stay referenced until the call returns
    offsets = ffi.new("void *[]", max(n, 1))
    widths = ffi.new("int32_t[]", max(n, 1))
    starts = ffi.new("int64_t[]", max(n, 1))
    data = ffi.new("char *[]", max(n, 1))
    data_lens = ffi.new("int64_t[]", max(n, 1))
    validity = ffi.new("uint8_t *[]", max(n, 1))
    for k, (_, arr) in enumerate(arrays):
        bufs = arr.buffers()
        keep.append(bufs)
        valid, offs, body = bufs[0], bufs[1], bufs[2]
        widths[k] = 8 if pa.types.is_large_string(arr.type) else 4
        starts[k] = arr.offset
        offsets[k] = ffi.cast("void *", offs.address) if offs is not None and offs.size else ffi.NULL
        data[k] = ffi.cast("char *", body.address) if body is not None and body.size else ffi.NULL
        data_lens[k] = body.size if body is not None else 0
        validity[k] = ffi.cast("uint8_t *", valid.address) if valid is not None and arr.null_count else ffi.NULL
    rows = table.num_rows
    h = ffi.new("uint64_t *")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = _native.lib().llenvs_env_new_columns(req, len(req), n, rows, offsets, widths, starts, data, data_lens,
                                              validity, h, out, out_len)
    reply = _native.take_buffer(out, out_len)
    del keep
    if rc != _native.OK:
        _native.raise_for(rc, reply)
    return int(h[0]), json.loads(reply)


# -- the environment -------------------------------------------------------------

@dataclass(frozen=True)
class HuggingFaceHidden:
    """The hidden part of a question/answer state (what the model does not see).

    Attributes:
        entry: the row: question, answer cell as given and metadata columns, by column name.
        expected_answer: the ground truth read out of the answer cell.
        task_index: the row's index in the environment.
        dataset_name: the dataset's name (or file path).
        split: the split the rows come from.
        episode: the Go episode behind the state, if any (not compared, not shown).
    """

    entry: dict[str, Any]
    expected_answer: str
    task_index: int
    dataset_name: str
    split: str
    episode: Any = field(default=None, compare=False, repr=False)


class HuggingFaceEnvironment(NativeEnvironment):
    """Rows of a question/answer dataset as a single-turn environment (``adapter="huggingface"``).

    Built by ``environment_registry.get(name, adapter="huggingface", ...)``. A
    copy pickles by configuration when its rows come from a file or the hub
    (the new process loads them again); rows given in memory travel inside
    the pickle.
    """

    def __init__(self, config: dict[str, Any], *, system_prompt: Any = None, prompt_template: str | None = None,
                 table: Any = None, in_memory: bool = False):
        super().__init__(config, system_prompt=system_prompt, prompt_template=prompt_template)
        self._table = table
        self._in_memory = in_memory

    #: Whether the environment can be rebuilt from its configuration alone (rows from a file or the hub).
    @property
    def rebuildable(self) -> bool:
        """False when the rows were given in memory (they are not named by the configuration)."""
        return not self._in_memory

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        if self._in_memory:
            state["table"] = self._table
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        table = state.get("table")
        self.__init__(state["config"], system_prompt=state["system_prompt"],  # type: ignore[misc]
                      prompt_template=state["prompt_template"], table=table, in_memory=table is not None)

    def _native(self) -> tuple[int, dict[str, Any]]:
        if self._handle is not None:
            return self._handle, self._desc  # type: ignore[return-value]
        pid = os.getpid()
        with self._lock:
            if self._handle is None or self._pid != pid:
                table = self._table if self._table is not None else self._load()
                handle, desc = _hand_over(self._native_config(), table)
                self._handle, self._pid, self._desc = handle, pid, desc
                self._finalizer = weakref.finalize(self, _native.env_close, handle, pid)
                if not self._in_memory:
                    self._table = None  # Go holds the rows; the file or hub is read again in a new process
        return self._handle, self._desc  # type: ignore[return-value]

    def _load(self) -> Any:
        """The selected rows of the file or hub dataset the configuration names."""
        c = self._config
        p = c["params"]
        table = load_source(c["name"], p, {k: p[k] for k in LOAD_DATASET_KEYWORDS if k in p})
        table = select_rows(table, c.get("size"), c.get("seed"))
        return prepare_columns(table, p)

    def _native_config(self) -> dict[str, Any]:
        c = super()._native_config()
        p = c["params"]
        go = {k: p[k] for k in ("split", "question_column", "answer_column", "ground_truth_extractor", "scoring")}
        go["split"] = go["split"] or ""
        if p.get("metadata_columns"):
            go["metadata_columns"] = list(p["metadata_columns"])
        out = {k: v for k, v in c.items() if k not in ("params", "size", "seed")}
        out["name"] = p.get("dataset_name") or c["name"]
        out["params"] = go
        return out

    def _make_hidden(self, task_index: int, expected_answer: str | None, entry: Any,
                     episode: Any) -> HuggingFaceHidden:
        p = self._config["params"]
        return HuggingFaceHidden(entry=entry, expected_answer=expected_answer or "", task_index=task_index,
                                 dataset_name=self.spec.name, split=p.get("split") or "", episode=episode)

    def item_metadata(self, task_index: int) -> dict[str, Any]:
        """The metadata of a dataset item: where it comes from (its per-row metadata columns come from
        :meth:`items_metadata`)."""
        c = self._config
        return {"task_index": task_index, "dataset_name": self.spec.name, "split": c["params"].get("split") or "",
                "seed": c.get("seed"), "size": len(self), "backend": self.backend}

    def items_metadata(self, indices: Sequence[int]) -> list[dict[str, Any]] | None:
        """The metadata columns of some rows (None when the environment carries none)."""
        if not self._config["params"].get("metadata_columns"):
            return None
        return _native.env_call(self.handle, "metadata", {"indices": [int(i) for i in indices]})

    def entries(self, indices: list[int]) -> list[dict[str, Any]]:
        """The rows themselves: question, answer cell as given and metadata columns, by column name."""
        idx = [self.check_index(i) for i in indices]
        return _native.env_call(self.handle, "entries", {"indices": idx})

    def __repr__(self) -> str:
        c = self._config
        return (f"HuggingFaceEnvironment(name={self.spec.name!r}, split={c['params'].get('split')!r}, "
                f"size={len(self)}, scoring={c['params']['scoring']!r})")


def load_source(name: str, params: dict[str, Any], load_kwargs: dict[str, Any]) -> Any:
    """The rows a file path or hub name stands for, as a pyarrow Table."""
    if os.path.isfile(name):
        if not _is_file_name(name):
            raise ValueError(f"{name}: unsupported file type; the huggingface adapter reads "
                             f"{', '.join(FILE_SUFFIXES)} files")
        return read_file(name)
    if _is_file_name(name):
        raise FileNotFoundError(f"no such file: {name!r}")
    return _load_hub(name, params.get("split") or "train", params.get("subset"), load_kwargs,
                     bool(params.get("trust_remote_code")))


class HuggingFaceAdapter:
    """Builds question/answer environments; registered as ``"huggingface"`` in ``environment_registry``.

    Args:
        cache_dir: passed to ``datasets.load_dataset`` for hub datasets.
    """

    name = "huggingface"
    #: get_environment accepts rows in memory (a datasets.Dataset or a list of dicts) as ``name``.
    accepts_data = True

    def __init__(self, cache_dir: str | None = None):
        self.cache_dir = cache_dir

    def __repr__(self) -> str:
        return f"HuggingFaceAdapter(cache_dir={self.cache_dir!r})"

    def list_environments(self) -> list[str]:
        """The hub names with a preset of their own (any other dataset works too)."""
        return sorted(NAMED_PRESETS)

    def backends(self) -> dict[str, str]:
        """Name -> ``"native"`` (rows are served by the Go core)."""
        return dict.fromkeys(self.list_environments(), "native")

    def get_environment_info(self, name: str) -> dict[str, str]:
        """``{"name", "adapter", "type", "description", "backend"}`` of a dataset name."""
        return {"name": name, "adapter": self.name, "type": "single_turn",
                "description": f"HuggingFace dataset: {name}", "backend": "native"}

    def get_default_system_prompt(self, name: str) -> str | None:
        """The answer-format system prompt a dataset's preset implies (reasoning-gym's ``<answer>`` one without)."""
        preset = preset_for(name) if isinstance(name, str) else None
        return resolve_system_prompt(default_system_prompt(preset.answer_extractor if preset else None))

    def get_prompt_template(self, name: str) -> str | None:
        """None: the question is the user message as it is."""
        return None

    def get_environment(
        self,
        name: Any,
        split: Any = _UNSET,
        subset: Any = _UNSET,
        question_column: Any = _UNSET,
        answer_column: Any = _UNSET,
        ground_truth_extractor: Any = _UNSET,
        scoring: Any = _UNSET,
        answer_extractor: str | GoExtractor | None = None,
        extra_rewards: tuple[Any, ...] | list[Any] = (),
        metadata_columns: Sequence[str] | None = None,
        size: int | None = None,
        seed: int | None = None,
        streaming: bool = False,
        trust_remote_code: bool = False,
        system_prompt: Any = _UNSET,
        prompt_template: str | None = None,
        preset: str | None | bool = None,
        **kwargs: Any,
    ) -> HuggingFaceEnvironment:
        """Build a new environment over a question/answer dataset.

        Args:
            name: a hub dataset name (``"openai/gsm8k"``), a local file
                (``.jsonl``, ``.json``, ``.parquet``, ``.csv``), a
                ``datasets.Dataset`` or a list of dicts.
            split: the split of a hub dataset (``"test"``, or the preset's).
            subset: the hub dataset's configuration name (``datasets``' ``name``).
            question_column: the column shown to the model (``"problem"``).
            answer_column: the column holding the expected answer (``"solution"``).
            ground_truth_extractor: how the expected answer is read out of
                the answer cell: ``"boxed"`` (default), ``"gsm8k"``,
                ``"numeric"``, ``"last_line"``, ``"direct"``/``"raw"`` (the
                cell itself); the stripped cell when it finds nothing.
            scoring: how an extracted answer is compared with the expected
                one: ``"numeric"`` (default), ``"exact"``,
                ``"numeric_tolerance"``, ``"math"`` / ``"math_verify"``.
            answer_extractor: how responses are read (``"tag_based"`` by
                default, or the preset's): a name or an extractor object.
            extra_rewards: opt-in signals beside ``correctness``, e.g. ``("format",)``.
            metadata_columns: columns carried into reset info, ``state.hidden.entry``
                and item metadata.
            size: keep ``min(size, len)`` rows; with ``seed`` they are drawn
                after shuffling as ``Dataset.shuffle(seed=seed)`` does. Without
                ``size``, ``seed`` changes nothing (llenvs' rule).
            seed: see ``size``.
            streaming: not supported (a streamed dataset has no length).
            trust_remote_code: passed to ``datasets.load_dataset`` when True.
            system_prompt: the system message of dataset items; by default the
                answer-format prompt that fits the answer extractor.
            prompt_template: optional ``{question}`` template for the user message.
            preset: ``"gsm8k"``, ``"math"`` or ``"aime"`` to apply a preset to
                any source; None (default) applies the one a hub name gets;
                False applies none.
            **kwargs: ``answer_extractor_config``, ``answer_extractors``,
                ``pre_cleaners``, ``post_cleaners``, and for hub datasets the
                keywords of ``datasets.load_dataset`` in :data:`LOAD_DATASET_KEYWORDS`.
        """
        # None stands for "not given" (EnvironmentConfig.build passes every field).
        kwargs = {k: v for k, v in kwargs.items() if not (k in LOAD_DATASET_KEYWORDS and v is None)}
        for key in kwargs:
            if key not in _ENV_KEYS and key not in LOAD_DATASET_KEYWORDS:
                near = difflib.get_close_matches(key, _OPTIONS, n=1, cutoff=0.6)
                hint = f"; did you mean {near[0]!r}?" if near else "."
                raise _unknown_key(key, hint)
        if streaming:
            raise ValueError("streaming=True is not supported: a streamed dataset has no length, which scoring and "
                             "datasets by task index need; load it without streaming (select rows with size=)")
        source, display, in_memory = _source(name)
        explicit = {k: v for k, v in (("split", split), ("subset", subset), ("question_column", question_column),
                                      ("answer_column", answer_column),
                                      ("ground_truth_extractor", ground_truth_extractor), ("scoring", scoring))
                    if v is not _UNSET}
        chosen = _preset(preset, source if isinstance(source, str) and not _is_local(source) else None)
        params: dict[str, Any] = dict(DEFAULTS)
        if chosen is not None:
            for k in ("question_column", "answer_column", "ground_truth_extractor", "scoring", "split", "subset"):
                v = getattr(chosen, k)
                if v is not None:
                    params[k] = v
        params.update(explicit)
        if in_memory or _is_local(source):
            params["split"] = explicit.get("split")  # a file or table has no splits; kept only as a label
            params["subset"] = None
            if kwargs.keys() & set(LOAD_DATASET_KEYWORDS):
                bad = sorted(kwargs.keys() & set(LOAD_DATASET_KEYWORDS))
                raise ValueError(f"{bad} are options of datasets.load_dataset, which only hub datasets use")
        _check_params(params)
        if answer_extractor is None and chosen is not None and chosen.answer_extractor and \
                "answer_extractors" not in kwargs:
            answer_extractor = chosen.answer_extractor
        config: dict[str, Any] = {"name": display if in_memory else source, "adapter": self.name}
        size = check_size(size)
        seed = _check_seed(seed)
        if size is not None:
            config["size"] = size
            if seed is not None:
                config["seed"] = seed
        if answer_extractor is not None and not isinstance(answer_extractor, str):
            settings = extractor_settings(answer_extractor)
            for k, v in settings.items():
                if k != "answer_extractor":
                    kwargs[k] = v
            answer_extractor = settings.get("answer_extractor")
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in _ENV_KEYS:
            if kwargs.get(k) is not None:
                config[k] = kwargs.pop(k)
        if answer_extractor is not None and "answer_extractors" in config:
            raise ValueError("give either answer_extractor (one extractor) or answer_extractors (a chain), not both")
        if isinstance(extra_rewards, (str, dict)) or not isinstance(extra_rewards, (list, tuple)):
            raise TypeError(f"extra_rewards must be a list or tuple of signal names or mappings, "
                            f"e.g. ('format',), got {extra_rewards!r}")
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        if metadata_columns is not None:
            if isinstance(metadata_columns, str) or not all(isinstance(c, str) for c in metadata_columns):
                raise TypeError(f"metadata_columns must be a list of column names, got {metadata_columns!r}")
            params["metadata_columns"] = list(metadata_columns)
        if trust_remote_code:
            params["trust_remote_code"] = True
        load_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in LOAD_DATASET_KEYWORDS}
        if self.cache_dir is not None and "cache_dir" not in load_kwargs and not in_memory:
            load_kwargs["cache_dir"] = self.cache_dir
        params.update(load_kwargs)
        if in_memory:
            params["dataset_name"] = display
        if system_prompt is _UNSET:
            system_prompt = default_system_prompt(_extractor_type(config))
        resolve_system_prompt(system_prompt)  # a bad value fails here, not when items are built
        if prompt_template is not None:
            check_prompt_template(prompt_template)
        config["params"] = params
        table = None
        if in_memory:
            table = select_rows(source, size, seed if size is not None else None)
            table = prepare_columns(table, params)
        env = HuggingFaceEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template,
                                     table=table, in_memory=in_memory)
        _ = env.handle  # load, check and hand the rows over now: a bad setting fails here, not on first use
        return env


def _extractor_type(config: dict[str, Any]) -> str | None:
    """The name of the extractor a configuration reads responses with (the first of a chain)."""
    if config.get("answer_extractor"):
        return config["answer_extractor"]
    chain = config.get("answer_extractors")
    if chain and isinstance(chain[0], dict):
        return chain[0].get("type")
    return None


def _unknown_key(key: str, hint: str) -> Exception:
    valid = sorted(_OPTIONS)
    exc = ValueError(f"huggingface adapter: unknown key {key!r}{hint} Valid keys: {valid}")
    exc.kind, exc.key, exc.valid = "unknown_key", key, valid  # type: ignore[attr-defined]
    exc.suggestion = hint[len("; did you mean '"):-2] if hint != "." else None  # type: ignore[attr-defined]
    return exc


def _is_local(source: Any) -> bool:
    return isinstance(source, str) and (os.path.isfile(source) or _is_file_name(source))


def _source(name: Any) -> tuple[Any, str, bool]:
    """``(source, display name, in memory)``: a path made absolute, a hub name, or a pyarrow Table of rows."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if isinstance(name, str):
        if not name:
            raise TypeError("name must be a non-empty str (a hub dataset or a file), a datasets.Dataset or a list "
                            "of dicts")
        if os.path.isfile(name) or _is_file_name(name):
            path = os.path.abspath(os.path.expanduser(name))
            if not os.path.isfile(path):
                raise FileNotFoundError(f"no such file: {name!r}")
            if not _is_file_name(path):
                raise ValueError(f"{name}: unsupported file type; the huggingface adapter reads "
                                 f"{', '.join(FILE_SUFFIXES)} files")
            return path, path, False
        return name, name, False
    if isinstance(name, (list, tuple)):
        return rows_table(name), "rows", True
    module = type(name).__module__ or ""
    if module.startswith("datasets"):
        import datasets

        if isinstance(name, datasets.Dataset):
            info = getattr(name, "info", None)
            display = (getattr(info, "dataset_name", None) or getattr(info, "builder_name", None) or "dataset")
            return dataset_table(name), str(display), True
        if isinstance(name, datasets.DatasetDict):
            splits = sorted(name)
            raise TypeError(f"got a DatasetDict with splits {splits}; pass one split, e.g. ds[{splits[0]!r}]")
        raise TypeError(f"a {type(name).__name__} cannot be served (it has no length); pass a datasets.Dataset")
    if type(name).__name__ == "Table" and (type(name).__module__ or "").startswith("pyarrow"):
        return name, "table", True
    raise TypeError(f"name must be a hub dataset name, a file path, a datasets.Dataset or a list of dicts, "
                    f"got {type(name).__name__}")


def _preset(preset: Any, hub_name: str | None) -> DatasetPreset | None:
    if preset is False:
        return None
    if preset is None or preset is True:
        return preset_for(hub_name) if hub_name is not None else None
    if isinstance(preset, str) and preset in PRESETS:
        return PRESETS[preset]
    if isinstance(preset, DatasetPreset):
        return preset
    near = difflib.get_close_matches(str(preset), list(PRESETS), n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise ValueError(f"unknown preset {preset!r}{hint} Presets: {sorted(PRESETS)} (or None / False)")


_OPTION_CACHE: dict[str, Any] = {}
_OPTION_LOCK = threading.Lock()


def _check_params(params: dict[str, Any]) -> None:
    """Refuse unknown ground-truth extractors and scorings before any rows are loaded."""
    for k in ("question_column", "answer_column"):
        if not isinstance(params[k], str) or not params[k]:
            raise TypeError(f"{k} must be a column name (a non-empty str), got {params[k]!r}")
    for k in ("split", "subset"):
        if params.get(k) is not None and not isinstance(params[k], str):
            raise TypeError(f"{k} must be a str or None, got {params[k]!r}")
    with _OPTION_LOCK:
        if not _OPTION_CACHE:
            _OPTION_CACHE.update(adapter_options())
    opts = _OPTION_CACHE
    for key, valid in (("ground_truth_extractor", opts["ground_truth_extractors"]), ("scoring", opts["scorings"])):
        value = params[key]
        if not isinstance(value, str) or value not in valid:
            near = difflib.get_close_matches(str(value), valid, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]!r}?" if near else "."
            exc = _native.UnknownNameError(f"Unknown {key}: {value!r}{hint} Available: {valid}")
            exc.kind, exc.key, exc.valid = "not_found", value, valid  # type: ignore[attr-defined]
            exc.suggestion = near[0] if near else None  # type: ignore[attr-defined]
            raise exc


def _check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int (numpy's default_rng), got {seed}")
    return seed


__all__ = ["BOXED_REASONING", "DEFAULTS", "FILE_SUFFIXES", "GSM8K_REASONING", "HUB_CONNECT_TIMEOUT",
           "LOAD_DATASET_KEYWORDS", "NAMED_PRESETS", "PRESETS", "DatasetPreset", "DatasetUnavailableError",
           "HuggingFaceAdapter", "HuggingFaceEnvironment", "HuggingFaceHidden", "adapter_options",
           "default_system_prompt", "hub_offline", "hub_unreachable", "preset_for", "preset_name_for", "read_file",
           "select_rows"]
