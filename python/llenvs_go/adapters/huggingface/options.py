"""The keywords ``HuggingFaceAdapter.get_environment`` takes, their defaults, and the checks run on them
before any rows are loaded."""

from __future__ import annotations

import difflib
import operator
import threading
from typing import Any

from llenvs_go import _native

# Keys of the Go configuration passed through from get_environment's keywords.
GO_CONFIG_KEYS = ("answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners")
# The parameters of datasets.load_dataset that may be given to get_environment (hub datasets only).
LOAD_DATASET_KEYWORDS = ("cache_dir", "data_dir", "data_files", "download_config", "download_mode", "features",
                         "keep_in_memory", "num_proc", "revision", "storage_options", "token",
                         "verification_mode")
# Every keyword get_environment takes (an unknown one is refused with the nearest of these).
OPTION_NAMES = ("split", "subset", "question_column", "answer_column", "ground_truth_extractor", "scoring",
                "answer_extractor", "extra_rewards", "metadata_columns", "size", "seed", "streaming",
                "trust_remote_code", "system_prompt", "prompt_template", "preset", "sandbox", *GO_CONFIG_KEYS,
                *LOAD_DATASET_KEYWORDS)
# The default of the keywords whose None means something: "not given".
UNSET: Any = object()


# llenvs' defaults of get_environment.
DEFAULTS: dict[str, Any] = {"split": "test", "subset": None, "question_column": "problem",
                            "answer_column": "solution", "ground_truth_extractor": "boxed", "scoring": "numeric"}


def adapter_options() -> dict[str, Any]:
    """The ground-truth extractors and scoring names the Go core knows, and which scorings this build has."""
    return _native.call("huggingface_options")


def unknown_key_error(key: str, hint: str) -> Exception:
    """The ValueError for a keyword get_environment does not take, with the valid keys and the nearest one."""
    valid = sorted(OPTION_NAMES)
    exc = ValueError(f"huggingface adapter: unknown key {key!r}{hint} Valid keys: {valid}")
    exc.kind, exc.key, exc.valid = "unknown_key", key, valid  # type: ignore[attr-defined]
    exc.suggestion = hint[len("; did you mean '"):-2] if hint != "." else None  # type: ignore[attr-defined]
    return exc


_OPTION_CACHE: dict[str, Any] = {}
_OPTION_LOCK = threading.Lock()


def check_params(params: dict[str, Any]) -> None:
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


def check_seed(seed: Any) -> int | None:
    """``seed`` as an int (None stays None); a TypeError or ValueError for anything but a non-negative int."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int (numpy's default_rng), got {seed}")
    return seed
