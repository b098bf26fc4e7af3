"""TRL's ``GRPOTrainer(environment_factory=...)``: an llenvs multi-turn environment as TRL's environment object.

TRL (1.16) makes one environment object per rollout from the factory, calls ``reset(**row)`` with the
dataset row before generating, exposes the object's public methods (other than ``reset`` and
``get_reward``) to the model as tools, runs the tool calls it parses from the completions, and calls every
reward function with ``environments=`` (the objects of the batch, in order). Here:

- ``reset(**row)`` starts an episode of the row's ``task_index`` and returns None: the row's ``prompt``
  (from ``make_trl_dataset``) already holds the episode's first messages.
- each of the environment's tools is a method of the same name, with the tool's parameters as typed
  keyword arguments and its description as the docstring (TRL renders the tool schema from them); calling
  it steps the episode with that tool call and returns what the environment says back (the result, or
  the error message). Each call is one step, one of the episode's turns: TRL calls the methods one by one
  and does not say which calls share a model turn. An environment without tools (feedback tasks such as
  ``iterative`` ones and ``guess_number``) gets one method, ``submit(response)``, which steps with the
  response text and returns the environment's feedback. The call that ends the episode returns its result
  and says the episode is over; once it has ended (out of turns), a call is not run and says so; the
  rollout's reward is what the episode had.
- :attr:`LLEnvsEnvironmentFactory.reward_func` scores a rollout: it ends the episode with the completion's
  last assistant text (when the episode is still going) and returns the episode's total reward (every
  step's weighted signals). Pass it as ``reward_funcs``; the objects define no ``get_reward``, which TRL
  would call without the completion.
"""

from __future__ import annotations

import inspect
import keyword
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from llenvs_go.core.state import Action, State
from llenvs_go.core.tools import ToolCall, ToolDefinition
from llenvs_go.integrations.agent_loop import environment_from
from llenvs_go.integrations.chat_messages import tool_result_text

#: Python types for the JSON-schema types of tool parameters (TRL reads them from the method's annotations).
_JSON_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list,
                               "object": dict}
#: Names TRL treats specially, which a tool of the environment may not have.
_RESERVED = frozenset({"reset", "get_reward"})
#: What a call gets once the episode has ended (TRL goes on generating; nothing more is run or scored).
_OVER = "The episode is over (no turns left): this was not run, and nothing more is scored."
#: Added to the result of the call that ended the episode, so that the model is not left waiting to answer.
_ENDED = "The episode is over: that was its last turn, and nothing more is run or scored."


class LLEnvsTRLEnvironment:
    """One rollout's episode of an llenvs environment, in the shape TRL's ``environment_factory`` expects.

    Made by :class:`LLEnvsEnvironmentFactory`; its tool methods are added per environment.
    """

    _env: Any = None

    def __init__(self) -> None:
        self.state: State[Any] | None = None
        self.task_index: int | None = None
        self.done = False
        self.total = 0.0
        self.steps = 0
        self._lock = threading.Lock()

    def reset(self, **row: Any) -> None:
        """Start an episode of ``row["task_index"]`` (the dataset column); the row's prompt holds its messages."""
        if "task_index" not in row:
            raise ValueError("the dataset row has no 'task_index' column: build the dataset with make_trl_dataset(env) "
                             f"(row keys: {sorted(row)})")
        task_index = row["task_index"]
        state, _ = self._env.reset(options={"task_index": task_index})
        self.state, self.task_index, self.done, self.total, self.steps = state, task_index, False, 0.0, 0
        return None

    def _step(self, action: Action) -> Any:
        """Step the episode; the result, or None when it had already ended."""
        with self._lock:
            if self.state is None:
                raise RuntimeError("reset() was not called before the episode was stepped")
            if self.done:
                return None
            r = self._env.step(self.state, action)
            self.state = r.next_state
            self.total += float(r.rewards.total)
            self.steps += 1
            self.done = bool(r.terminated or r.truncated)
            return r

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> str:
        r = self._step(Action.from_tool_calls([ToolCall(id=f"call_{self.steps}", name=name, arguments=arguments)]))
        if r is None:  # its answer is not scored either: an episode over is over
            return _OVER
        results = r.next_state.observation.tool_results
        text = "\n".join(tool_result_text(x) for x in results) if results else r.next_state.observation.prompt
        if r.terminated or r.truncated:  # that call was the episode's last turn: say so with its result
            return f"{text}\n\n{_ENDED}" if text else _ENDED
        return text

    def _submit(self, response: str) -> str:
        r = self._step(Action.from_text(response))
        return _OVER if r is None else r.next_state.observation.prompt

    def _finish(self, text: str) -> float:
        """End the episode with the model's last text (if it is still going) and return its total reward."""
        if self.state is None:
            raise RuntimeError("reset() was not called before the rollout was scored")
        if not self.done:
            self._step(Action.from_text(text))
        return self.total


def _tool_method(tool: ToolDefinition) -> Callable[..., str]:
    """A method named after ``tool`` whose typed keyword arguments and docstring are the tool's schema."""
    name = tool.name
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or name in _RESERVED:
        raise ValueError(f"tool {name!r} cannot be a method of TRL's environment object (it must be a Python "
                         f"identifier, not private and not one of {sorted(_RESERVED)})")
    schema = tool.to_openai_schema()["function"]
    params = schema.get("parameters") or {}
    props: Mapping[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or ())
    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    arg_docs = []
    for arg, spec in props.items():
        if not arg.isidentifier() or keyword.iskeyword(arg):
            raise ValueError(f"tool {name!r}: parameter {arg!r} is not a Python identifier")
        kind = spec.get("type") if isinstance(spec, Mapping) else None
        py = _JSON_TYPES.get(kind, str) if isinstance(kind, str) else str
        annotations[arg] = py if arg in required else py | None
        default = inspect.Parameter.empty if arg in required else None
        sig_params.append(inspect.Parameter(arg, inspect.Parameter.KEYWORD_ONLY, default=default,
                                            annotation=annotations[arg]))
        desc = spec.get("description", "") if isinstance(spec, Mapping) else ""
        arg_docs.append(f"    {arg}: {desc or arg}")
    annotations["return"] = str

    def method(self: LLEnvsTRLEnvironment, **arguments: Any) -> str:
        return self._call_tool(name, {k: v for k, v in arguments.items() if v is not None or k in required})

    method.__name__ = method.__qualname__ = name
    method.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    method.__doc__ = (schema.get("description") or name) + ("\n\nArgs:\n" + "\n".join(arg_docs) if arg_docs else "")
    return method


def _submit_method() -> Callable[..., str]:
    def submit(self, response: str) -> str:  # noqa: ANN001 - TRL reads an unannotated self as the receiver
        """Submit an attempt at the task and get the environment's feedback.

        Args:
            response: the attempt, with the answer in the format the task asks for (e.g. <answer>42</answer>)
        """
        return self._submit(response)

    return submit


class LLEnvsEnvironmentFactory:
    """The ``environment_factory`` of ``GRPOTrainer`` for an llenvs environment, and its reward function.

    Calling it makes one :class:`LLEnvsTRLEnvironment` (TRL makes one per rollout and reuses them across
    batches, resetting each). :attr:`reward_func` is the reward function to pass as ``reward_funcs``.
    """

    def __init__(self, env: Any):
        env = environment_from(env)
        tools = tuple(getattr(env, "available_tools", ()) or ())
        methods = {t.name: _tool_method(t) for t in tools} if tools else {"submit": _submit_method()}
        name = "".join(p.capitalize() for p in str(env.spec.name).split("_") if p) + "Environment"
        self.env = env
        self.environment_class: type[LLEnvsTRLEnvironment] = type(
            name if name.isidentifier() else "LLEnvsEnvironment", (LLEnvsTRLEnvironment,),
            {"_env": env, "__doc__": f"An episode of {env.spec.name} for TRL's environment_factory.", **methods})
        self.reward_func = self._make_reward_func()

    def __call__(self) -> LLEnvsTRLEnvironment:
        return self.environment_class()

    def _make_reward_func(self) -> Callable[..., list[float]]:
        cls = self.environment_class

        def llenvs_environment_reward(completions: Sequence[Any], environments: Sequence[Any] | None = None,
                                      **_: Any) -> list[float]:
            """Each rollout's total reward: its episode ended with the completion's last assistant text."""
            if environments is None:
                raise TypeError("this reward function needs TRL's environments= (GRPOTrainer(environment_factory="
                                "factory, reward_funcs=factory.reward_func))")
            if len(environments) != len(completions):
                raise ValueError(f"{len(completions)} completions but {len(environments)} environments")
            out = []
            for k, (c, e) in enumerate(zip(completions, environments, strict=True)):
                if not isinstance(e, cls):
                    raise TypeError(f"environments[{k}] is a {type(e).__name__}, not an environment of this factory")
                out.append(e._finish(_last_text(c)))
            return out

        return llenvs_environment_reward


def _last_text(completion: Any) -> str:
    """The last assistant text of a completion: a string, or the last assistant message's content."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence):
        for m in reversed(completion):
            if isinstance(m, Mapping) and m.get("role") == "assistant":
                content = m.get("content")
                if isinstance(content, str):
                    return content
                if isinstance(content, Sequence):  # content parts
                    return "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
                return ""
        return ""
    raise TypeError(f"a completion must be a str or a list of messages, got {type(completion).__name__}")


def make_environment_factory(env: Any) -> LLEnvsEnvironmentFactory:
    """The ``environment_factory`` for TRL's ``GRPOTrainer`` over any llenvs environment (or a mapping of
    ``environment_registry.get`` arguments)::

        factory = make_environment_factory(env)
        trainer = GRPOTrainer(model=..., train_dataset=make_trl_dataset(env), environment_factory=factory,
                              reward_funcs=factory.reward_func, args=GRPOConfig(...))
    """
    return LLEnvsEnvironmentFactory(env)


__all__ = ["LLEnvsEnvironmentFactory", "LLEnvsTRLEnvironment", "make_environment_factory"]
