"""The multi-turn agent loop: the trainer's model generates, the environment answers.

``LLEnvsAgentLoop(env, tokenizer, max_steps=20).run(task_index=..., generate_fn=...)`` plays one
episode and returns its tensors; ``play(...)`` plays one the same way and returns a
:class:`PlayedEpisode`, the same dict (``.result``) with the episode's
:class:`~llenvs_go.core.trajectory.Trajectory` (``.trajectory``).

``generate_fn(messages)`` gets the whole conversation so far (chat messages, in the roles the
tokenizer's chat template has) and may be sync or async; it returns the model's text, or a mapping
``{"text": str, "token_ids": list[int], "logprobs": list[float] | None}`` when the ids the model
generated are known (they are then used as they are). A ``generate_fn`` that takes a ``tools``
keyword (or ``**kwargs``) is called ``generate_fn(messages, tools=tools)``: the environment's tools as
OpenAI function schemas, the very list the masker passes to the chat template (None when the
environment has none), so that the model's engine renders the prompt the masker lays out.

Every call of ``run`` keeps its own state, so many episodes run concurrently under asyncio
(``asyncio.gather``) on one loop object.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from llenvs_go.core.state import Action, State
from llenvs_go.core.trajectory import Trajectory, Transition, transition_from_step
from llenvs_go.integrations.chat_messages import _tools
from llenvs_go.integrations.token_mask import TrajectoryMasker, assistant_message, initial_messages

GenerateOutput = str | Mapping[str, Any]
#: ``generate_fn(messages)`` or ``generate_fn(messages, tools=...)``, sync or async.
GenerateFn = Callable[..., GenerateOutput | Awaitable[GenerateOutput]]
#: What the loops call: ``await call(messages, tools)``, whatever the generate_fn's signature.
GenerateCall = Callable[[list[dict[str, Any]], list[dict[str, Any]] | None], Awaitable[GenerateOutput]]


def environment_from(env: Any) -> Any:
    """An environment from an environment object (returned as is) or a mapping of
    ``environment_registry.get`` arguments (``{"name": ..., "adapter": ..., ...}``), e.g. from a
    framework's YAML file."""
    if isinstance(env, Mapping):
        from llenvs_go.core.registry import environment_registry

        cfg = {str(k): v for k, v in env.items()}
        if "name" not in cfg:
            raise ValueError(f"an environment mapping needs a 'name' (got keys {sorted(cfg)})")
        return environment_registry.get(**cfg)
    if not hasattr(env, "reset") or not hasattr(env, "step"):
        raise TypeError(f"expected an environment (with reset and step) or a mapping, got {type(env).__name__}")
    return env


def action_from_output(output: GenerateOutput) -> Action:
    """The Action for a generate_fn result: a str, or a mapping with ``text`` and optionally
    ``token_ids`` and ``logprobs``."""
    if isinstance(output, str):
        return Action.from_text(output)
    if isinstance(output, Mapping):
        text = output.get("text")
        if not isinstance(text, str):
            raise TypeError(f"generate_fn returned a mapping whose 'text' is {type(text).__name__}, not str")
        ids = output.get("token_ids")
        lps = output.get("logprobs")
        if ids is not None and lps is not None and len(lps) != len(ids):
            raise ValueError(f"generate_fn returned {len(ids)} token_ids but {len(lps)} logprobs")
        return Action.from_text(text, token_ids=None if ids is None else [int(i) for i in ids],
                                logprobs=None if lps is None else [float(x) for x in lps])
    raise TypeError(f"generate_fn must return a str or a mapping with 'text', got {type(output).__name__}")


class Episode:
    """One episode in progress: the environment's state, the trajectory and the conversation.

    The loops and the framework adapters drive it: :meth:`act` takes the model's output, steps the
    environment and extends the conversation.
    """

    def __init__(self, env: Any, masker: TrajectoryMasker, task_index: int, *, max_steps: int,
                 seed: int | None = None):
        state, info = env.reset(seed=seed, options={"task_index": task_index})
        self.env = env
        self.masker = masker
        self.task_index = task_index
        self.info = info
        self.state: State[Any] = state
        self.trajectory: Trajectory[Any] = Trajectory.create(state)
        self.messages = masker.template_messages(initial_messages(state))
        self.tools: list[dict[str, Any]] | None = _tools(state)
        self.max_steps = max_steps
        self.done = False
        self.terminated = False
        self.truncated = False
        limit = getattr(getattr(env, "spec", None), "max_steps", None)
        self._env_limit = limit if isinstance(limit, int) and limit > 0 else None

    @property
    def num_turns(self) -> int:
        """Steps taken so far."""
        return len(self.trajectory)

    def act(self, action: Action) -> Transition[Any]:
        """Step the environment with ``action`` and record the step."""
        if self.done:
            raise RuntimeError("the episode is over; start a new one")
        result = self.env.step(self.state, action)
        t = transition_from_step(self.state, action, result)
        self.trajectory.add_transition(t)
        self.messages.append(assistant_message(action))
        self.state = result.next_state
        self.terminated = bool(result.terminated)
        out_of_turns = self.num_turns >= self.max_steps or (self._env_limit is not None
                                                            and self.num_turns >= self._env_limit)
        self.truncated = not self.terminated and (bool(result.truncated) or out_of_turns)
        self.done = self.terminated or self.truncated
        if not self.done:
            self.messages.extend(self.masker.turn_messages(t))
        return t

    def result(self) -> dict[str, Any]:
        """The episode's tensors (``prompt_ids``, ``response_ids``, ``response_mask``, ``rewards``,
        ``num_turns``, ``truncated``, ``token_rewards``, ``response_logprobs``), the conversation
        (``messages``) and whether it ended on its own (``terminated``)."""
        masked = self.masker.mask_trajectory(self.trajectory)
        out = masked.to_dict()
        out["truncated"] = masked.truncated or self.truncated
        out["terminated"] = self.terminated
        out["messages"] = list(self.messages)
        return out


def accepts_tools(generate_fn: Callable[..., Any]) -> bool:
    """Whether ``generate_fn`` takes a ``tools`` keyword: a parameter named ``tools`` that can be passed by
    keyword, or ``**kwargs``. A ``functools.partial`` that already binds ``tools`` keeps its own; a callable
    whose signature cannot be read is called without tools."""
    if isinstance(generate_fn, functools.partial) and "tools" in generate_fn.keywords:
        return False
    try:
        params = inspect.signature(generate_fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is inspect.Parameter.VAR_KEYWORD
               or (p.name == "tools" and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                    inspect.Parameter.KEYWORD_ONLY))
               for p in params)


def generate_caller(generate_fn: GenerateFn) -> GenerateCall:
    """``await call(messages, tools)`` for a user's ``generate_fn``: ``generate_fn(messages, tools=tools)``
    when it takes a ``tools`` keyword (see :func:`accepts_tools`), else ``generate_fn(messages)``; an
    awaitable result is awaited. The signature is read once, here."""
    if not callable(generate_fn):
        raise TypeError(f"generate_fn must be a function of the conversation (messages), sync or async, "
                        f"got {type(generate_fn).__name__}")
    with_tools = accepts_tools(generate_fn)

    async def call(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> GenerateOutput:
        out = generate_fn(messages, tools=tools) if with_tools else generate_fn(messages)
        if inspect.isawaitable(out):
            out = await out
        return out  # type: ignore[return-value]

    return call


async def play_episode(ep: Episode, call: GenerateCall) -> None:
    """Play ``ep`` to its end: the model (``call``, from :func:`generate_caller`) gets the conversation and
    the tools, the environment answers."""
    while not ep.done:
        ep.act(action_from_output(await call(list(ep.messages), ep.tools)))


@dataclass(frozen=True)
class PlayedEpisode:
    """One episode played by :meth:`LLEnvsAgentLoop.play`.

    Attributes:
        result: what :meth:`LLEnvsAgentLoop.run` returns (the tensors as lists, ``messages``, ...).
        trajectory: the episode's trajectory, as :class:`TrajectoryMasker` masks it
            (``masker.mask_trajectory(played.trajectory)`` gives the tensors of ``result``).
    """

    result: dict[str, Any]
    trajectory: Trajectory[Any]


class LLEnvsAgentLoop:
    """Plays multi-turn episodes of an environment with a caller's model.

    Args:
        env: any llenvs environment (``reset(options={"task_index": i})`` and ``step``).
        tokenizer: the model's tokenizer (see :class:`TrajectoryMasker`).
        max_steps: the most model turns per episode; reaching it sets ``truncated``.
        max_length: the most response tokens kept (see :class:`TrajectoryMasker`).
        chat_template: as for :class:`TrajectoryMasker`.
    """

    def __init__(self, env: Any, tokenizer: Any, max_steps: int = 20, *, max_length: int | None = None,
                 chat_template: bool | str | None = None):
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.env = env
        self.tokenizer = tokenizer
        self.max_steps = max_steps
        self.masker = TrajectoryMasker(tokenizer, max_length=max_length, chat_template=chat_template)

    @classmethod
    def from_config(cls, config: Any, tokenizer: Any, max_steps: int = 20, *, max_length: int | None = None,
                    chat_template: bool | str | None = None) -> LLEnvsAgentLoop:
        """The loop of the environment an ``EnvironmentConfig`` describes, for the model's ``tokenizer``.

        The configuration says which environment; the tokenizer (which no
        environment configuration holds) is the model's. The other arguments
        are those of the constructor.
        """
        build = getattr(config, "build", None)
        if not callable(build):
            raise TypeError(f"from_config takes an EnvironmentConfig (EnvironmentConfig(...), from_dict or "
                            f"from_yaml), got {type(config).__name__}")
        return cls(build(), tokenizer, max_steps, max_length=max_length, chat_template=chat_template)

    def start(self, task_index: int, *, seed: int | None = None) -> Episode:
        """A new episode of task ``task_index``."""
        return Episode(self.env, self.masker, task_index, max_steps=self.max_steps, seed=seed)

    async def play(self, task_index: int, generate_fn: GenerateFn, *, seed: int | None = None) -> PlayedEpisode:
        """Play one episode; returns its :class:`PlayedEpisode`: ``.result`` (what :meth:`run` returns) and
        ``.trajectory``. ``generate_fn`` is called as the module doc says (with ``tools=`` when it takes it)."""
        call = generate_caller(generate_fn)
        ep = self.start(task_index, seed=seed)
        await play_episode(ep, call)
        return PlayedEpisode(result=ep.result(), trajectory=ep.trajectory)

    async def run(self, task_index: int, generate_fn: GenerateFn, *, seed: int | None = None) -> dict[str, Any]:
        """Play one episode; returns ``prompt_ids``, ``response_ids``, ``response_mask``, ``rewards``,
        ``num_turns``, ``truncated``, ``token_rewards`` (plus ``response_logprobs``, ``terminated``
        and ``messages``). :meth:`play` returns the trajectory as well."""
        return (await self.play(task_index, generate_fn, seed=seed)).result
