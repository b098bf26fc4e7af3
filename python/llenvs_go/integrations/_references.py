"""What the framework adapters share: an environment's reference, its tasks' ground truths, mismatch checks.

A training row names its environment by a *reference*: the JSON text of the
configuration the environment is rebuilt from (task name, adapter, seed,
size, extractor, task options). A process that scores the row either has the
environment at hand (``make_*_reward_fn(env)``) and checks that the row was
built from it, or rebuilds it from the reference (the shipped reward files),
once per process and per configuration. Rows also carry the task's ground
truth (or its fingerprint in an OpenRLHF label), which is checked against
the environment's own: a row is never scored against the wrong task.

Nothing here parses JSON per scored item: references are compared and looked
up as strings.
"""

from __future__ import annotations

import json
import logging
import operator
import os
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from llenvs_go.core.dispatch import resets_natively
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.scoring import Scorer

logger = logging.getLogger("llenvs_go.integrations")

#: Key of the environment reference in a veRL row's ``extra_info`` and name of the TRL column.
REFERENCE_KEY = "env_reference"
#: Prefix of the labels of OpenRLHF rows: ``llenvs:<task_index>:<fingerprint>:<reference>``.
LABEL_PREFIX = "llenvs:"

# Configuration keys that describe the machine rather than the tasks (left out of references).
_MACHINE_KEYS = ("data_dir",)
_CHUNK = 1024  # ground truths are fetched this many tasks at a time


class EnvironmentMismatchError(ValueError):
    """A training row was built from another environment (seed, size, configuration) than the one scoring it."""


class UnscorableRowError(ValueError):
    """A row (label, ``extra_info``) does not say which task it is, so it cannot be scored."""


def environment_reference(environment: Any) -> str:
    """The reference training rows carry for ``environment``: JSON text of its configuration.

    The same configuration always gives the same text (keys sorted, size
    made explicit, the machine's data directory left out), so references are
    compared as strings. An environment that cannot be rebuilt from a
    configuration (one written in Python, one with Python reward
    functions, or one whose rows were given in memory) has the reference ``""``; rows built from it are checked by
    their ground truths alone.
    """
    if not isinstance(environment, NativeEnvironment) or environment.python_rewards:
        return ""
    if not getattr(environment, "rebuildable", True):  # rows given in memory: not named by the configuration
        return ""
    config = environment.config
    config["size"] = len(environment)
    try:
        return json.dumps(canonical_config(config), sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return ""


def canonical_config(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with every option that holds its default left out, so that equal environments compare equal.

    Omitted and explicit defaults are the same environment:
    ``answer_extractor="tag_based"`` (without a chain), empty
    ``answer_extractor_config``, cleaner and reward lists, None values, and
    task options equal to the reasoning-gym task's own defaults (when the
    reasoning-gym package is installed; its Go ports share those defaults).
    The machine's data directory is left out too.
    """
    out = {k: v for k, v in config.items()
           if k not in _MACHINE_KEYS and v is not None and not (isinstance(v, (dict, list, tuple)) and not v)}
    if out.get("answer_extractor") == "tag_based" and "answer_extractors" not in out:
        del out["answer_extractor"]
    params = config.get("params")
    if isinstance(params, dict):
        defaults = _task_defaults(out.get("adapter", "reasoning_gym"), out.get("name"))
        kept = {k: v for k, v in params.items() if k not in defaults or _jsonable(v) != defaults[k]}
        if kept:
            out["params"] = kept
        else:
            out.pop("params", None)
    return out


_DEFAULTS: dict[tuple[Any, Any], dict[str, Any]] = {}


def _task_defaults(adapter: Any, name: Any) -> dict[str, Any]:
    """The default task options of a reasoning-gym task, as JSON values ({} when unknown)."""
    key = (adapter, name)
    found = _DEFAULTS.get(key)
    if found is not None:
        return found
    defaults: dict[str, Any] = {}
    if adapter == "reasoning_gym" and isinstance(name, str) and name != "composite":
        try:
            import dataclasses

            from reasoning_gym.factory import DATASETS

            for f in dataclasses.fields(DATASETS[name][1]):
                if f.name in ("seed", "size"):
                    continue
                if f.default is not dataclasses.MISSING:
                    defaults[f.name] = _jsonable(f.default)
                elif f.default_factory is not dataclasses.MISSING:
                    defaults[f.name] = _jsonable(f.default_factory())
        except Exception:  # noqa: BLE001 - without the package (or an odd task) options compare as written
            defaults = {}
    if len(_DEFAULTS) < 4096:
        _DEFAULTS[key] = defaults
    return defaults


def _jsonable(value: Any) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        return value


def same_environment(row_reference: str, own_reference: str) -> bool:
    """Whether a row's reference names the environment of ``own_reference`` (effective configurations compared)."""
    if row_reference == own_reference:
        return True
    return bool(own_reference) and canonical_reference(row_reference) == own_reference


_CANONICAL: dict[str, str] = {}  # row reference text -> its canonical text (bounded)


def canonical_reference(reference: str) -> str:
    """A reference's text with its defaults left out (:func:`canonical_config`); "" when it is not a configuration."""
    if not isinstance(reference, str):
        return ""
    found = _CANONICAL.get(reference)
    if found is not None:
        return found
    text = ""
    if len(reference) <= MAX_REFERENCE_CHARS:
        try:
            config = json.loads(reference)
        except (ValueError, RecursionError):
            config = None
        if isinstance(config, dict):
            try:
                text = json.dumps(canonical_config(config), sort_keys=True, separators=(",", ":"))
            except (TypeError, ValueError, RecursionError):
                text = ""
    if len(_CANONICAL) >= 4096:
        _CANONICAL.clear()
    _CANONICAL[reference] = text
    return text


class RefusedReferenceError(UnscorableRowError):
    """A row's environment reference names something a row may not choose (a hub dataset, a file, a loader option).

    Rows and labels are untrusted input: a reference may select an
    environment the user configured (:func:`allow_environments`,
    ``$LLENVS_GO_ENVIRONMENTS``, veRL's ``reward_kwargs.environments``) or
    a built-in procedural task, and nothing else.
    """


#: Adapters whose tasks a reference may build on its own: procedural tasks made from (name, seed, size, options).
PROCEDURAL_ADAPTERS = ("reasoning_gym", "native")
#: Environment variable naming configuration files (YAML or JSON, ``os.pathsep``-separated) of the environments
#: that rows' references may select, beside the procedural tasks.
ENVIRONMENTS_VAR = "LLENVS_GO_ENVIRONMENTS"
#: Most environments rebuilt from procedural references that a process keeps; the least recently used is dropped.
REFERENCE_CACHE_SIZE = 32
#: Longest reference text read (characters); a configuration is far shorter.
MAX_REFERENCE_CHARS = 1 << 16

# Top-level keys of a procedural reference (environment_reference writes no others).
_REFERENCE_KEYS = frozenset({"name", "adapter", "seed", "size", "params", "answer_extractor",
                             "answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners",
                             "extra_rewards"})
# Keys that make a loader read or fetch something, refused at any depth of a reference.
_LOADER_KEYS = frozenset({"trust_remote_code", "revision", "token", "use_auth_token", "storage_options",
                          "download_config", "streaming", "data_files", "data_dir", "cache_dir"})
_LOADER_SUFFIXES = ("file", "files", "path", "paths", "dir", "url", "urls")

_HOW_TO_ALLOW = (
    "rows and labels are untrusted input, so a reference may only select a built-in procedural task "
    f"(adapters {', '.join(PROCEDURAL_ADAPTERS)}) or an environment you configured: list its configuration in a "
    f"YAML/JSON file named by ${ENVIRONMENTS_VAR}, pass veRL's +reward.custom_reward_function.reward_kwargs."
    "environments=<file>, call llenvs_go.integrations.allow_environments(env) in the scoring process, or score "
    "with make_verl_reward_fn(env) / make_openrlhf_reward_fn(env) / make_trl_reward_fn(env)")


def _refuse(reference: str, why: str) -> RefusedReferenceError:
    return RefusedReferenceError(f"refused environment reference {_short(reference)!r}: {why}; {_HOW_TO_ALLOW}")


def _loader_key(config: Any, where: str, depth: int = 0) -> str | None:
    """Where in ``config`` a loader-like key is (``params.data_file``), or None."""
    if depth > 32:
        return where or "the reference (nested too deeply)"
    if isinstance(config, dict):
        for k, v in config.items():
            key = str(k)
            low = key.lower()
            if low in _LOADER_KEYS or low.endswith(_LOADER_SUFFIXES):
                return f"{where}.{key}" if where else key
            found = _loader_key(v, f"{where}.{key}" if where else key, depth + 1)
            if found:
                return found
    elif isinstance(config, list):
        for k, v in enumerate(config):
            found = _loader_key(v, f"{where}[{k}]", depth + 1)
            if found:
                return found
    return None


def procedural_config(reference: str) -> dict[str, Any]:
    """The configuration of a reference to a built-in procedural task, checked; RefusedReferenceError otherwise.

    Accepted: a JSON object as :func:`environment_reference` writes it, whose
    adapter is one of :data:`PROCEDURAL_ADAPTERS`, whose name is a task
    that adapter lists, with no key but the environment options (task
    options under ``params``, validated when the environment is built) and
    no key anywhere that names a file, a directory, a URL or a loader option.
    """
    if not isinstance(reference, str) or not reference:
        raise UnscorableRowError(
            f"the row carries no environment reference (got {_short(repr(reference))}); build the rows with "
            "make_verl_dataset / make_openrlhf_dataset, or score with a reward function made from the "
            "environment (make_verl_reward_fn(env), make_openrlhf_reward_fn(env))")
    if len(reference) > MAX_REFERENCE_CHARS:
        raise _refuse(reference, f"it is {len(reference)} characters long (at most {MAX_REFERENCE_CHARS})")
    try:
        config = json.loads(reference)
    except (ValueError, RecursionError):
        config = None
    if not isinstance(config, dict) or not isinstance(config.get("name"), str):
        raise UnscorableRowError(f"not an environment reference: {_short(reference)!r} (expected the JSON "
                                 "configuration written by make_verl_dataset / make_openrlhf_dataset)")
    adapter = config.get("adapter", "reasoning_gym")
    if adapter not in PROCEDURAL_ADAPTERS:
        raise _refuse(reference, f"adapter {_short(repr(adapter), 40)} is not a procedural task family")
    unknown = sorted(str(k) for k in config if k not in _REFERENCE_KEYS)
    if unknown:
        raise _refuse(reference, f"it sets {', '.join(map(repr, unknown))}, which a reference may not set "
                                 f"(allowed: {', '.join(sorted(_REFERENCE_KEYS))})")
    loader = _loader_key(config, "")
    if loader:
        raise _refuse(reference, f"{loader!r} names a file, a location or a loader option")
    params = config.get("params", {})
    if not isinstance(params, dict):
        raise _refuse(reference, "'params' is not a mapping")
    from llenvs_go.core.registry import environment_registry

    if (adapter, config["name"]) not in environment_registry:
        raise _refuse(reference, f"{_short(repr(config['name']), 60)} is not a task of the {adapter!r} adapter")
    return config


def build_from_reference(reference: str) -> Any:
    """A new environment built from a procedural reference (see :func:`procedural_config`)."""
    from llenvs_go.core.registry import environment_registry

    config = dict(procedural_config(reference))
    name = config.pop("name")
    adapter = config.pop("adapter", "reasoning_gym")
    params = config.pop("params", None) or {}
    overlap = sorted(set(params) & set(config))
    if overlap:
        raise _refuse(reference, f"params repeat the options {overlap}")
    return environment_registry.get(name=name, adapter=adapter, **config, **params)


class BoundEnvironment:
    """One environment as the adapters use it: its scorer, its reference and its tasks' ground truths.

    Ground truths are fetched when first needed, a chunk of tasks at a time
    (one call into Go for a Go-backed environment), and kept. It pickles as
    its environment.
    """

    __slots__ = ("environment", "scorer", "reference", "_native", "_truths", "_fingerprints", "_size")

    def __init__(self, environment: Any, reference: str | None = None):
        self.environment = environment
        self.scorer = Scorer(environment)
        self.reference = environment_reference(environment) if reference is None else reference
        self._native = resets_natively(environment)
        self._truths: dict[int, str | None] = {}
        self._fingerprints: dict[int, str] = {}
        self._size: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (BoundEnvironment, (self.environment, self.reference))

    @property
    def name(self) -> str:
        """The environment's spec name (veRL's ``data_source``)."""
        return self.environment.spec.name

    # -- ground truths -------------------------------------------------------
    def truth(self, task_index: int) -> str | None:
        """The ground truth of one task (None for an environment without one)."""
        try:
            return self._truths[task_index]
        except KeyError:
            self._fetch((task_index,))
            return self._truths[task_index]

    def truths(self, indices: Sequence[int]) -> list[str | None]:
        """The ground truths of ``indices``, in order."""
        cache = self._truths
        try:
            return [cache[i] for i in indices]
        except KeyError:
            self._fetch([i for i in set(indices) if i not in cache])
            return [cache[i] for i in indices]

    def fingerprint(self, task_index: int) -> str:
        """The fingerprint of a task's ground truth (8 hex digits of CRC-32; "" without a ground truth)."""
        fp = self._fingerprints.get(task_index)
        if fp is None:
            fp = self._fingerprints[task_index] = truth_fingerprint(self.truth(task_index))
        return fp

    def _fetch(self, missing: Sequence[int]) -> None:
        env = self.environment
        if not self._native:
            for i in missing:
                state, _ = env.reset(options={"task_index": i})
                self._truths[i] = getattr(state.hidden, "expected_answer", None)
            return
        if self._size is None:
            self._size = len(env)
        wanted = sorted({env.check_index(i) for i in missing})
        chunks = sorted({i // _CHUNK for i in wanted})
        for c in chunks:
            lo, hi = c * _CHUNK, min(c * _CHUNK + _CHUNK, self._size)
            _, truths = env.task_texts(range(lo, hi))
            self._truths.update(zip(range(lo, hi), truths, strict=True))

    # -- checks -------------------------------------------------------------
    def check_reference(self, reference: Any) -> None:
        """Raise EnvironmentMismatchError when a row's reference names another environment."""
        if reference and not same_environment(reference, self.reference):
            if not isinstance(reference, str):
                raise UnscorableRowError(f"an environment reference is JSON text, got {type(reference).__name__}")
            raise EnvironmentMismatchError(mismatch_message(reference, self.reference))

    def check_truth(self, task_index: int, ground_truth: Any) -> None:
        """Raise EnvironmentMismatchError when a row's ground truth is not this environment's for the task."""
        if ground_truth is None or ground_truth == "":
            return
        own = self.truth(task_index)
        if own is not None and own != ground_truth:
            raise EnvironmentMismatchError(
                f"task {task_index}: the row's ground truth {_short(str(ground_truth))!r} is not this environment's "
                f"{_short(own)!r}: the row was built from another environment ({self.describe()} scores here); "
                "rebuild the dataset, or score with the environment it was built from")

    def check_fingerprint(self, task_index: int, fingerprint: str) -> None:
        """Raise EnvironmentMismatchError when a label's ground-truth fingerprint is not this environment's."""
        if fingerprint and fingerprint != self.fingerprint(task_index):
            raise EnvironmentMismatchError(
                f"task {task_index}: the label's ground-truth fingerprint {fingerprint} is not this environment's "
                f"({self.fingerprint(task_index) or 'no ground truth'}): the row was built from another environment "
                f"({self.describe()} scores here)")

    def describe(self) -> str:
        """A short description of the environment for messages: name, seed and size."""
        env = self.environment
        config = getattr(env, "config", None)
        if isinstance(config, dict):
            return f"{config.get('name')!r} seed={config.get('seed')} size={len(env)}"
        return repr(env)


def truth_fingerprint(truth: str | None) -> str:
    """8 hex digits of the CRC-32 of a ground truth's UTF-8 text; "" for None."""
    if truth is None:
        return ""
    return format(zlib.crc32(truth.encode("utf-8", "surrogatepass")), "08x")


def mismatch_message(row_reference: str, own_reference: str) -> str:
    """Say how the environment a row was built from differs from the one scoring it."""
    try:
        row, own = json.loads(row_reference), json.loads(own_reference) if own_reference else {}
        if not isinstance(row, dict) or not isinstance(own, dict):
            raise ValueError("not a configuration")
    except (ValueError, RecursionError):
        return (f"the row was built from another environment ({_short(row_reference)!r}) than the one scoring it "
                f"({_short(own_reference)!r})")
    if not own:
        return (f"the row was built from {row.get('name')!r} (seed={row.get('seed')}, size={row.get('size')}), "
                "but this reward function scores an environment written in Python; score it with the environment "
                "it was built from")
    row, own = canonical_config(row), canonical_config(own)
    keys = sorted(set(row) | set(own))
    def shown(config: dict[str, Any], key: str) -> str:
        return repr(config[key]) if key in config else "the default"

    diffs = [f"{k} (row: {shown(row, k)}, here: {shown(own, k)})" for k in keys if row.get(k) != own.get(k)]
    return (f"the row was built from another environment than the one scoring it; they differ in "
            f"{', '.join(diffs)}. Rebuild the dataset from this environment, or score with the environment the rows "
            "were built from")


_LOCK = threading.Lock()
_BUILT: OrderedDict[str, BoundEnvironment] = OrderedDict()  # procedural reference -> environment, least recent first
_ALLOWED: dict[str, BoundEnvironment] = {}  # reference -> an environment the user configured
_LOADED_FILES: set[str] = set()  # configuration files of the allowed environments already read


def allow_environments(*environments: Any) -> list[str]:
    """Let rows' references select these environments in the shipped reward functions of this process.

    Each argument is an environment (``environment_registry.get(...)``), an
    ``EnvironmentConfig``, a configuration mapping, or the path of a YAML or
    JSON file holding one configuration, a list of them or
    ``{"environments": [...]}``. A row whose reference is one of theirs is
    scored against it; other references may only name built-in procedural
    tasks. ``$LLENVS_GO_ENVIRONMENTS`` (files, ``os.pathsep``-separated)
    does the same in every process that scores, e.g. Ray workers. Returns
    the references allowed.
    """
    refs = []
    for item in environments:
        for env in _environments_of(item):
            bound = BoundEnvironment(env)
            if not bound.reference:
                raise ValueError(f"{env!r} cannot be named by a reference (an environment written in Python, with "
                                 "Python reward functions or with rows in memory); score with "
                                 "make_*_reward_fn(env) instead")
            with _LOCK:
                _ALLOWED.setdefault(bound.reference, bound)
            refs.append(bound.reference)
    return refs


def _environments_of(item: Any) -> list[Any]:
    from llenvs_go.core.config import EnvironmentConfig

    if isinstance(item, EnvironmentConfig):
        return [item.build()]
    if isinstance(item, dict):
        if set(item) == {"environments"}:
            return [e for c in _as_list(item["environments"], "environments") for e in _environments_of(c)]
        return [EnvironmentConfig.from_dict(item).build()]
    if isinstance(item, (str, os.PathLike)):
        return [e for c in _read_configurations(os.fspath(item)) for e in _environments_of(c)]
    if isinstance(item, (list, tuple)):
        return [e for c in item for e in _environments_of(c)]
    return [item]


def _as_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of environment configurations, got {type(value).__name__}")
    return value


def _read_configurations(path: str) -> list[Any]:
    """The configurations in a YAML or JSON file: one mapping, a list, or ``{"environments": [...]}``."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"cannot read the environment configuration file {path!r}: {e}") from e
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ValueError(f"{path}: not valid JSON: {e}") from e
    else:
        try:
            import yaml
        except ImportError as e:
            raise ImportError(f"reading {path} needs PyYAML: pip install pyyaml (or write it as .json)") from e
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise ValueError(f"{path}: not valid YAML: {e}") from e
    if isinstance(data, dict) and "environments" in data:
        data = data["environments"]
    data = data if isinstance(data, list) else [data]
    for k, c in enumerate(data):
        if not isinstance(c, dict):
            raise ValueError(f"{path}: entry {k} is a {type(c).__name__}, not an environment configuration mapping")
    return data


def _load_configured(extra: Any = None) -> None:
    """Read the configuration files of $LLENVS_GO_ENVIRONMENTS (and ``extra``) not read yet in this process."""
    files = [p for p in os.environ.get(ENVIRONMENTS_VAR, "").split(os.pathsep) if p]
    if extra:
        files += [os.fspath(extra)] if isinstance(extra, (str, os.PathLike)) else [os.fspath(p) for p in extra]
    for path in files:
        if path not in _LOADED_FILES:
            allow_environments(path)
            with _LOCK:
                _LOADED_FILES.add(path)


def bound_from_reference(reference: Any, configured: Any = None) -> BoundEnvironment:
    """The environment a row's reference selects: a configured one, or a built-in procedural task.

    Configured environments come from :func:`allow_environments`,
    ``$LLENVS_GO_ENVIRONMENTS`` and ``configured`` (configuration files,
    e.g. veRL's ``reward_kwargs``); any other reference must pass
    :func:`procedural_config` and is built once per process, among at most
    :data:`REFERENCE_CACHE_SIZE` kept (least recently used dropped).

    Raises:
        RefusedReferenceError: the reference names a hub dataset, a file, a
            URL, a loader option or an adapter that is not procedural.
        UnscorableRowError: the row carries no reference, or not one.
    """
    if type(reference) is str:
        bound = _ALLOWED.get(reference)
        if bound is not None:
            return bound
        bound = _BUILT.get(reference)  # OrderedDict's C methods are atomic: a hit needs no lock
        if bound is not None:
            try:
                _BUILT.move_to_end(reference)
            except KeyError:  # dropped by another thread meanwhile; still usable
                pass
            return bound
    if configured is not None or os.environ.get(ENVIRONMENTS_VAR):
        _load_configured(configured)
    if _ALLOWED and type(reference) is str:
        bound = _ALLOWED.get(reference) or _ALLOWED.get(canonical_reference(reference))
        if bound is not None:
            return bound
    built = BoundEnvironment(build_from_reference(reference), reference)
    with _LOCK:
        bound = _BUILT.setdefault(reference, built)
        _BUILT.move_to_end(reference)
        while len(_BUILT) > REFERENCE_CACHE_SIZE:
            _BUILT.popitem(last=False)  # released once no call still holds it
    return bound


def task_index_of(value: Any, what: str) -> int:
    """``value`` as a task index, or UnscorableRowError naming ``what``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise UnscorableRowError(f"{what} must be an int task index, got {_short(repr(value))}")
    return operator.index(value)


def make_label(task_index: int, truth: str | None, reference: str) -> str:
    """The label of an OpenRLHF row: ``llenvs:<task_index>:<fingerprint>:<reference>``."""
    return f"{LABEL_PREFIX}{task_index}:{truth_fingerprint(truth)}:{reference}"


def parse_label(label: Any) -> tuple[int, str, str]:
    """``(task_index, fingerprint, reference)`` of a label; a bare int (or digits) is a task index alone.

    Raises UnscorableRowError naming the label when it is none of these.
    """
    if isinstance(label, str):
        if label.startswith(LABEL_PREFIX):
            parts = label[len(LABEL_PREFIX):].split(":", 2)
            if len(parts) == 3 and _ascii_digits(parts[0]):
                return int(parts[0]), parts[1], parts[2]
        elif _ascii_digits(label.strip()):
            return int(label), "", ""
    elif not isinstance(label, bool) and hasattr(label, "__index__"):
        i = operator.index(label)
        if i >= 0:
            return i, "", ""
    raise UnscorableRowError(
        f"label {_short(repr(label))} is not an llenvs task reference (expected "
        "'llenvs:<task_index>:<fingerprint>:<environment>' as make_openrlhf_dataset writes it, or a task index "
        "in ASCII digits)")


def _ascii_digits(text: str) -> bool:
    # str.isdigit() and int() also take Arabic-Indic, fullwidth and other digits: a task index is 0-9 only.
    return text.isascii() and text.isdigit()


def completion_text(completion: Any) -> str:
    """The text to score of one completion: a str as it is; for a conversational completion (a list of
    messages) the content of its last assistant message ("" when there is none)."""
    if type(completion) is str:
        return completion
    if isinstance(completion, dict):
        completion = (completion,)
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                return content_text(message.get("content"))
        return ""
    if isinstance(completion, str):
        return str(completion)
    raise TypeError(f"a completion must be a str or a list of chat messages, got {type(completion).__name__}")


def content_text(content: Any) -> str:
    """A message's content as text: a str, or the text parts of a list of content parts joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(p.get("text") or "" for p in content
                       if isinstance(p, dict) and p.get("type", "text") == "text")
    return str(content)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
