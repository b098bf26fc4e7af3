"""The Go-backed environment: configuration in Python, the object itself in the Go core.

A :class:`NativeEnvironment` holds only its configuration; the Go object behind
it is created lazily in the process that uses it, so environments pickle by
configuration and work after being shipped to Ray actors or spawned workers.
"""

from __future__ import annotations

import json
import os
import re
import threading
import uuid
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go import _native
from llenvs_go.core import items
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.lazy_mapping import LazyMapping
from llenvs_go.core.prompts import check_prompt_template, resolve_system_prompt
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, ObservationContent, State, StateMetadata
from llenvs_go.core.tools import ToolDefinition, ToolParameter, ToolResult, ToolResultStatus


@dataclass(frozen=True)
class NativeHidden:
    """The hidden part of a Go-backed environment's state.

    ``expected_answer`` is the ground truth (None for environments without
    one); ``entry`` is the environment's own record of the task (for a
    reset, a mapping fetched from the library when first read); ``episode``
    is the live Go episode (not compared, not pickled).
    """

    task_index: int
    expected_answer: str | None
    dataset_name: str
    entry: Any = None
    episode: Any = field(default=None, compare=False, repr=False)


class _Entries:
    """An environment's task entries one at a time, for the LazyMapping a reset leaves in ``hidden.entry``."""

    __slots__ = ("environment",)

    def __init__(self, environment: NativeEnvironment):
        self.environment = environment

    def metadata_of(self, task_index: int) -> dict[str, Any]:
        return self.environment.entries([task_index])[0]


def _update_pid() -> None:
    global _this_pid
    _this_pid = os.getpid()


# This process's id, kept up to date across fork: os.getpid() is a system call, and every step asks.
_this_pid = os.getpid()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_update_pid)


class Episode:
    """A Go episode handle: released by :meth:`close`, when the episode ends, or when collected.

    An episode belongs to the process that started it; a pickled copy is a
    closed episode.
    """

    __slots__ = ("handle", "pid", "observed", "_open", "__weakref__")

    def __init__(self, handle: int, pid: int):
        self.handle = handle
        self.pid = pid
        # The last observation the library sent this episode's states, and its
        # version (llenvs_episode_step): a step then brings only what changed.
        self.observed: tuple[Observation, int] | None = None
        self._open = True

    @property
    def alive(self) -> bool:
        """Whether the Go episode can still be stepped from this process."""
        return self._open and self.pid == _this_pid

    def close(self) -> None:
        """Release the Go episode now (again: a no-op)."""
        if self._open:
            self._open = False
            _native.episode_close(self.handle, self.pid)

    def __del__(self) -> None:
        # Cheaper than a weakref.finalize per episode; a step may start thousands a second.
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: the process is going away
            pass

    def __reduce__(self) -> tuple[Any, ...]:
        return (_closed_episode, ())

    def __repr__(self) -> str:
        return f"Episode(handle={self.handle}, alive={self.alive})"


def _closed_episode() -> None:
    return None


class NativeRewardFunction:
    """One reward signal that the Go core computes, as an llenvs ``RewardFunction``.

    ``compute`` steps the environment from ``state`` (single-turn steps are
    pure) and returns this signal.
    """

    def __init__(self, environment: NativeEnvironment, name: str, reward_type: RewardType, weight: float):
        self._environment = environment
        self._name = name
        self._reward_type = reward_type
        self.weight = weight

    @property
    def name(self) -> str:
        """The signal's name."""
        return self._name

    @property
    def reward_type(self) -> RewardType:
        """The signal's reward type."""
        return self._reward_type

    def compute(self, state: State, action: Action, next_state: State) -> Signal:
        """This signal for ``action`` taken in ``state``."""
        signal = self._environment.step(state, action).rewards.by_name(self._name)
        assert signal is not None
        return signal

    def __repr__(self) -> str:
        return f"NativeRewardFunction(name={self._name!r}, reward_type={self._reward_type}, weight={self.weight})"


def reward_type(name: str) -> RewardType:
    """The RewardType of a Go signal's type name ("outcome", "step", "format", "process")."""
    return RewardType[name.upper()]


_REWARD_TYPES = {rt.name.lower(): rt for rt in RewardType}
_SURROGATE = re.compile("[\ud800-\udfff]")

def _signal(s: dict[str, Any]) -> Signal:
    return Signal(name=s["name"], reward_type=reward_type(s["reward_type"]), reward=s["reward"],
                  feedback=s.get("feedback"), metadata=s.get("metadata"), weight=s["weight"])


def _tool_parameters(schema: dict[str, Any] | None) -> tuple[ToolParameter, ...]:
    if not schema:
        return ()
    required = set(schema.get("required") or ())
    return tuple(ToolParameter(name=k, type=v.get("type", "string"), description=v.get("description", ""),
                               required=k in required)
                 for k, v in (schema.get("properties") or {}).items())


def _tool_results(rs: list[dict[str, Any]] | None) -> tuple[ToolResult, ...]:
    return tuple(ToolResult(call_id=r["call_id"], tool_name=r["tool_name"],
                            status=ToolResultStatus[r["status"].upper()], output=r.get("output", ""),
                            error=r.get("error"))
                 for r in rs or ())


def _tools(ts: list[dict[str, Any]] | None) -> tuple[ToolDefinition, ...]:
    return tuple(ToolDefinition(name=t["name"], description=t.get("description", ""),
                                parameters=_tool_parameters(t.get("parameters")),
                                is_terminal=t.get("is_terminal", False), raw_schema=t.get("parameters"))
                 for t in ts or ())


def _content(c: dict[str, Any] | None) -> ObservationContent | None:
    return None if c is None else ObservationContent(text=c.get("text", ""), data=c.get("data"))


def observation_from(o: dict[str, Any]) -> Observation:
    """An llenvs Observation from the Go core's JSON form."""
    tr, tools, task, st = o.get("tool_results"), o.get("available_tools"), o.get("task"), o.get("state")
    return Observation(prompt=o["prompt"], messages=tuple(o.get("messages") or ()),
                       tool_results=_tool_results(tr) if tr else (), available_tools=_tools(tools) if tools else (),
                       task=None if task is None else _content(task), state=None if st is None else _content(st))


def check_step_args(state: Any, action: Any) -> None:
    """A TypeError that names the bad argument of ``step``, before anything reaches the library."""
    if not isinstance(state, State):
        raise TypeError(f"step: state must be a State returned by reset() or step(), got {type(state).__name__}")
    if not isinstance(action, Action):
        raise TypeError(f"step: action must be an Action (e.g. Action.from_text(...)), got {type(action).__name__}")
    if action.text is not None and not isinstance(action.text, str):
        raise TypeError(f"step: action.text must be a str or None, got {type(action.text).__name__}")


class NativeEnvironment:
    """An environment served by the Go core, with llenvs' ``Environment`` lifecycle.

    Build it with ``environment_registry.get(...)`` or from an
    ``EnvironmentConfig``; this class is not meant to be constructed by hand.
    """

    #: Whether the Go core builds this environment from its configuration alone (a dataset environment is
    #: built from columns handed over, so a Go loop around it cannot be made from the configuration).
    built_from_config: bool = True

    def __init__(self, config: dict[str, Any], *, system_prompt: Any = "default", prompt_template: str | None = None):
        self._config = dict(config)
        # Reward functions written in Python (objects in extra_rewards) run in
        # Python after the Go signals; names and mappings are computed in Go.
        self._python_rewards = tuple(r for r in self._config.get("extra_rewards") or ()
                                     if not isinstance(r, (str, dict)))
        for r in self._python_rewards:
            if not callable(getattr(r, "compute", None)) or not isinstance(getattr(r, "name", None), str):
                raise TypeError(f"extra_rewards: a {type(r).__name__} is neither a signal name, a mapping "
                                "{'name': ..., 'weight': ...} nor a reward function (an object with a str name "
                                "and a compute(state, action, next_state) method)")
        if prompt_template is not None:
            check_prompt_template(prompt_template)
        self.system_prompt = system_prompt
        self.prompt_template = prompt_template
        self._lock = threading.Lock()
        self._handle: int | None = None
        self._pid: int | None = None
        self._desc: dict[str, Any] | None = None
        self._finalizer: Any = None

    # -- native handle, per process -------------------------------------
    def _native(self) -> tuple[int, dict[str, Any]]:
        # A handle made before a fork is never used in the child: the library
        # refuses every call there (see _native.lib), so no pid check is needed.
        if self._handle is not None:
            return self._handle, self._desc  # type: ignore[return-value]
        pid = os.getpid()
        with self._lock:
            if self._handle is None or self._pid != pid:
                handle, desc = _native.env_new(self._native_config())
                self._handle, self._pid, self._desc = handle, pid, desc
                self._finalizer = weakref.finalize(self, _native.env_close, handle, pid)
        return self._handle, self._desc  # type: ignore[return-value]

    def _native_config(self) -> dict[str, Any]:
        """The configuration the Go side of this environment is built from: Python reward objects left out,
        and the system prompt's text as ``system_message``, which multi-turn conversations open with."""
        c = self._config
        if self._python_rewards:
            c = {**c, "extra_rewards": [r for r in c["extra_rewards"] if isinstance(r, (str, dict))]}
        system = resolve_system_prompt(self.system_prompt)
        return c if system is None else {**c, "system_message": system}

    @property
    def handle(self) -> int:
        """The Go handle of this environment in the current process."""
        return self._native()[0]

    def close(self) -> None:
        """Release the Go object now (it is also released when this object is collected)."""
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()
            self._handle = None
            self._finalizer = None

    def __enter__(self) -> NativeEnvironment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self._config, "system_prompt": self.system_prompt, "prompt_template": self.prompt_template}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"], system_prompt=state["system_prompt"],  # type: ignore[misc]
                      prompt_template=state["prompt_template"])

    def __repr__(self) -> str:
        c = self._config
        return f"Environment(name={c['name']!r}, adapter={c['adapter']!r}, size={c.get('size')}, seed={c.get('seed')})"

    # -- description -------------------------------------------------------
    @property
    def config(self) -> dict[str, Any]:
        """The configuration this environment is rebuilt from (a copy)."""
        return dict(self._config)

    @property
    def spec(self) -> EnvironmentSpec:
        """The environment's spec; ``spec.name`` is the task name."""
        s = self._native()[1]["spec"]
        return EnvironmentSpec(
            name=s["name"], adapter=s["adapter"], max_steps=s["max_steps"], is_multi_turn=s["is_multi_turn"],
            supports_task_index=s["supports_task_index"], supports_len=s["supports_len"],
            supports_seed=s["supports_seed"], pure_step=s["pure_step"], metadata=dict(s["metadata"] or {}),
        )

    @property
    def signal_specs(self) -> list[dict[str, Any]]:
        """The reward signals, in order: ``[{"name", "reward_type", "weight"}, ...]``."""
        return list(self._native()[1]["signals"])

    def __len__(self) -> int:
        return int(self._native()[1]["len"])

    # -- lifecycle -----------------------------------------------------------
    def check_index(self, task_index: Any) -> int:
        """Return ``task_index`` as an int, or raise TaskIndexError / TypeError."""
        if isinstance(task_index, bool) or not hasattr(task_index, "__index__"):
            raise TypeError(f"task_index must be an int, got {type(task_index).__name__}")
        i = task_index.__index__()
        n = len(self)
        if i < 0 or i >= n:
            raise _native.TaskIndexError(f"task_index {i} out of bounds [0, {n})")
        return i

    #: Which implementation serves the tasks: "native" (Go) or "python".
    backend = "native"

    def task_texts(self, indices: Sequence[int]) -> tuple[list[str], list[str | None]]:
        """Prompts and ground truths of tasks, in one call (generated in parallel in Go).

        Raises TaskIndexError naming the position of an out-of-range index,
        and ValueError naming the first task whose generation failed.
        """
        if len(indices) == 0:
            return [], []
        batch, errors = items.record_batch(self.handle, indices, None, ["", ""])
        if errors:
            pos, message = errors[0]
            raise ValueError(f"indices[{pos}]: {message}")
        return batch.column(1).to_pylist(), batch.column(2).to_pylist()

    def item_metadata(self, task_index: int) -> dict[str, Any]:
        """The metadata of a dataset item: where it comes from, enough to rebuild it."""
        c = self._config
        return {"task_index": task_index, "dataset_name": c["name"], "seed": c.get("seed"),
                "size": len(self), "backend": self.backend}

    @property
    def prompts(self) -> dict[str, str]:
        """Named prompts of the environment ({} for single-turn environments)."""
        return {}

    @property
    def available_tools(self) -> tuple[ToolDefinition, ...]:
        """Tools every episode offers (none for reasoning tasks)."""
        tools = self._native()[1].get("tools")
        return observation_from({"prompt": "", "available_tools": tools}).available_tools if tools else ()

    @property
    def reward_functions(self) -> tuple[Any, ...]:
        """The reward functions, in signal order: the Go-side signals, then Python ``RewardFunction`` objects."""
        go = tuple(NativeRewardFunction(self, s["name"], reward_type(s["reward_type"]), s["weight"])
                   for s in self.signal_specs)
        return go + self._python_rewards

    @property
    def python_rewards(self) -> tuple[Any, ...]:
        """The reward functions written in Python that this environment runs after its Go signals."""
        return self._python_rewards

    def _make_hidden(self, task_index: int, expected_answer: str | None, entry: Any, episode: Any) -> Any:
        """The hidden part of a new state; adapters override it to return their own type."""
        return NativeHidden(task_index=task_index, expected_answer=expected_answer, dataset_name=self._config["name"],
                            entry=entry, episode=episode)

    def _start(self, task_index: int, seed: int | None,
               lazy_entry: bool = False) -> tuple[Episode | None, dict[str, Any]]:
        """Start a Go episode: its handle and ``{observation, hidden, info}``.

        With ``lazy_entry`` the library may leave ``hidden.entry`` out (and say
        ``"entry_later": true``) when the environment serves it through ``entries``.
        """
        # The request is a few integers: written directly rather than through json.dumps.
        request = b'{"task_index":%d' % task_index
        if lazy_entry:
            request += b',"entry":false'
        if isinstance(seed, int) and not isinstance(seed, bool) and -(2**63) <= seed < 2**63:
            request += b',"seed":%d' % seed
        handle, start = _native.env_reset(self.handle, request + b"}")
        return Episode(handle, _this_pid), start

    def _episode_of(self, state: State) -> Episode:
        """The live Go episode behind ``state``; a pure step from a state whose episode is gone starts another."""
        episode = getattr(state.hidden, "episode", None)
        if episode is not None and episode.alive:
            return episode
        if not self.spec.pure_step:
            if state.metadata.is_terminal:
                raise RuntimeError(f"{self.spec.name}: this episode is finished (terminated or truncated); "
                                   "reset a new episode")
            raise RuntimeError(f"{self.spec.name}: the episode of this state is finished or was closed, or the "
                               "state comes from another process; reset a new episode")
        # A pure step may be taken from any state of the task, even one whose episode is gone.
        return self._start(state.hidden.task_index, None)[0]  # type: ignore[return-value]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State, dict[str, Any]]:
        """Start an episode of ``options["task_index"]``; ``options["episode_id"]`` names it.

        ``seed`` is ignored by single-turn tasks, which are fixed by index.
        Raises ValueError without a task index and TaskIndexError (a
        ValueError) for one out of range.
        """
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        options = options or {}
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        if "task_index" not in options:
            raise ValueError("options must contain 'task_index'")
        i = self.check_index(options["task_index"])
        observation, hidden, info = self._begin(i, seed)
        episode_id = options.get("episode_id") or str(uuid.uuid4())
        state = State(observation=observation, hidden=hidden,
                      metadata=StateMetadata(step=0, episode_id=episode_id, info={"task_index": i}))
        return state, info

    def _begin(self, task_index: int, seed: int | None) -> tuple[Observation, Any, dict[str, Any]]:
        """A new episode of task ``task_index`` (checked): its first observation, hidden part and reset info.

        This is the library's reset; an adapter whose tasks are not served by
        the library gives its own, built from its own data.
        """
        lazy_entry = type(self)._make_hidden is NativeEnvironment._make_hidden
        episode, start = self._start(task_index, seed, True) if lazy_entry else self._start(task_index, seed)
        hidden = start["hidden"]
        observation = observation_from(start["observation"])
        if episode is not None and start.get("version"):
            episode.observed = (observation, start["version"])
        if start.get("entry_later"):  # NativeHidden fetches the entry when it is read
            made = NativeHidden(task_index=task_index, expected_answer=hidden["expected_answer"],
                                dataset_name=self._config["name"], entry=LazyMapping(_Entries(self), task_index),
                                episode=episode)
        else:
            made = self._make_hidden(task_index, hidden["expected_answer"], hidden["entry"], episode)
        return observation, made, start["info"]

    def step(self, state: State, action: Action) -> StepResult:
        """Advance the episode of ``state`` with ``action``.

        Single-turn tasks end after one step and their step is pure: taking
        it again from the same state gives the same result. Only the action
        goes to the library, and only what changed in the observation comes
        back; the step's ``info`` and its signals' ``metadata`` are fetched
        when first read.
        """
        check_step_args(state, action)
        return self._library_step(state, action)

    def _library_step(self, state: State, action: Action) -> StepResult:
        """The library's step (``step`` with its arguments checked); an adapter with no Go episode gives its own."""
        episode = self._episode_of(state)
        text = action.text
        encoded = None
        if text is not None:
            try:
                encoded = text.encode()
            except UnicodeEncodeError:  # lone surrogates: UTF-8 cannot carry them; each becomes U+FFFD
                encoded = _SURROGATE.sub("\ufffd", text).encode()
        calls = None
        if action.tool_calls:
            calls = json.dumps([{"id": c.id, "name": c.name, "arguments": dict(c.arguments)}
                                for c in action.tool_calls]).encode("utf-8", "surrogatepass")
        observed = episode.observed
        md = state.metadata
        bits, version, keep, prompt, new, tool_results, tools, task, st, sigs, extracted, resolved, details = (
            _native.episode_step(episode.handle, md.step, 0 if observed is None else observed[1], encoded, calls))
        if bits & _native.STEP_OBSERVATION:
            if keep:
                prev = observed[0]  # type: ignore[index]  # keep > 0 only against the version held
                messages = prev.messages[:keep] + tuple(new)
            else:
                prev, messages = None, tuple(new)
            obs = Observation(
                prompt=prompt, messages=messages, tool_results=_tool_results(tool_results) if tool_results else (),
                available_tools=prev.available_tools if bits & _native.STEP_SAME_TOOLS else _tools(tools),  # type: ignore[union-attr]
                task=prev.task if bits & _native.STEP_SAME_TASK else _content(task),  # type: ignore[union-attr]
                state=prev.state if bits & _native.STEP_SAME_STATE else _content(st))  # type: ignore[union-attr]
            episode.observed = (obs, version)
        else:
            obs = state.observation
        terminated, truncated = bool(bits & _native.STEP_TERMINATED), bool(bits & _native.STEP_TRUNCATED)
        done = terminated or truncated
        next_state = State(observation=obs, hidden=state.hidden,
                           metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=done,
                                                  info={**md.info, "response": action.text}))
        # info and the signals' metadata stay in the library until read (views over the step's details).
        types = _REWARD_TYPES
        signals = tuple(Signal(name=n, reward_type=types[t], reward=r, feedback=f, weight=w,
                               metadata=LazyMapping(details, k) if m else None)
                        for k, (n, t, r, f, w, m) in enumerate(sigs))
        if self._python_rewards:
            signals += tuple(f.compute(state, action, next_state) for f in self._python_rewards)
        if done:
            episode.close()
        return StepResult(next_state=next_state, rewards=SignalBundle(signals), terminated=terminated,
                          truncated=truncated, extracted_action=extracted, resolved_action=resolved,
                          info=LazyMapping(details, -1))

    def compute_rewards(self, state: State, action: Action, next_state: State) -> SignalBundle:
        """The reward signals of taking ``action`` in ``state`` (a pure step)."""
        return self.step(state, action).rewards

    def entries(self, indices: list[int]) -> list[dict[str, Any]]:
        """The raw reasoning-gym entries ``{"question", "answer", "metadata"}`` of some tasks."""
        idx = [self.check_index(i) for i in indices]
        return _native.env_call(self.handle, "entries", {"indices": idx})

    def score_answers(self, task_index: int, answers: list[str | None]) -> list[float]:
        """The task's own ``score_answer`` for each answer, with no extraction (None is Python's None)."""
        i = self.check_index(task_index)
        return _native.env_call(self.handle, "score_answers", {"task_index": i, "answers": list(answers)})
