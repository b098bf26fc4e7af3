"""IterativeEnvironment: a single-turn environment played over several attempts (llenvs' ``adapters/iterative.py``).

The model answers; when it is wrong it is told so ("Incorrect, N attempts
left." and the environment's feedback) and tries again. The episode ends when
the task is solved (the best outcome reward reaches ``solved_threshold``),
when a response starts with the submit keyword, or when the turns run out
(``truncated``). The first user turn is part of ``observation.messages``,
after the inner environment's system prompt as a system message (it asks for
the answer format attempts are scored on), as in the inner's dataset items.

Around a Go-served environment the loop runs in Go; around any other
environment (one written in Python, or a reasoning-gym task served by the
reasoning-gym package) the same loop runs here, over the inner environment's
``reset`` and ``step``. Both give the same states, rewards and texts.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from llenvs_go.core.config import IterativeConfig, as_iterative_config
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import resolve_system_prompt
from llenvs_go.core.reward import RewardType, SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.tools import ToolDefinition

#: The prompt of the observation after the last turn.
COMPLETE_TEXT = "Episode complete."


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``{name}`` of ``values`` replaced, in one pass (as the Go core fills it)."""
    return re.sub("|".join(re.escape("{" + k + "}") for k in values), lambda m: values[m.group(0)[1:-1]], template)


def initial_prompt(task: str, turns: int, keyword: str, template: str | None = None) -> str:
    """The first user turn: the inner prompt, the number of turns, and how to submit.

    With ``template`` (``IterativeConfig.prompts["initial"]``) that text, its
    ``{task}``, ``{turns}`` and ``{submit_keyword}`` filled in.
    """
    if template is not None:
        return _fill(template, {"task": task, "turns": str(turns), "submit_keyword": keyword})
    p = f"{task}\n\nYou have {turns} turn(s) to solve this task."
    if keyword:
        p += f"\nWhen you are satisfied with your solution, write {keyword} at the start of your response."
    return p


def feedback_prompt(left: int, feedback: tuple[str, ...] | list[str], template: str | None = None) -> str:
    """The user turn after a wrong attempt: the attempts left, then the environment's feedback texts.

    With ``template`` (``IterativeConfig.prompts["feedback"]``) that text, its
    ``{attempts_left}`` and ``{feedback}`` (the texts, one per line) filled in.
    """
    if template is not None:
        return _fill(template, {"attempts_left": str(left), "feedback": "\n".join(feedback)})
    s = "Incorrect, 1 attempt left." if left == 1 else f"Incorrect, {left} attempts left."
    if feedback:
        s += "\n\n" + "\n".join(feedback)
    return s


def is_submit(text: str, keyword: str) -> bool:
    """Whether ``text`` starts with ``keyword`` once leading whitespace is removed, ignoring case."""
    return bool(keyword) and text.lstrip().upper().startswith(keyword.upper())


def _served_by_go(env: Any) -> bool:
    """Whether ``env`` is a Go environment whose lifecycle is the library's own (the loop can then run in Go)."""
    return (isinstance(env, NativeEnvironment) and env.backend == "native" and env.built_from_config
            and type(env).reset is NativeEnvironment.reset and type(env).step is NativeEnvironment.step
            and not env.python_rewards)


def _with_code_execution(env: Any, timeout: float) -> Any:
    """``env`` with every test run limited to ``timeout`` seconds; a ValueError when it does not run code."""
    from llenvs_go.adapters.huggingface.environment import HuggingFaceEnvironment

    if not isinstance(env, HuggingFaceEnvironment) or env.config["params"].get("scoring") != "code":
        raise ValueError("IterativeConfig.code_execution runs the model's code against the task's tests: wrap an "
                         "environment scored by running code (adapter='huggingface' with scoring='code', e.g. "
                         f"preset='humaneval', 'mbpp' or 'apps'); got {env!r}")
    return env.with_code_timeout(timeout)


class _Progress:
    """Where one episode of the Python loop stands (shared by the states of the episode)."""

    __slots__ = ("step", "done", "history", "base", "reset_seed", "reset_options", "lock")

    def __init__(self, history: list[dict[str, Any]], base: int, seed: int | None, options: dict[str, Any]):
        self.step = 0
        self.done = False
        self.history = history
        self.base = base
        self.reset_seed = seed
        self.reset_options = options
        self.lock = threading.Lock()


@dataclass(frozen=True)
class IterativeHidden:
    """The hidden part of an iterative state served in Python.

    Attributes:
        task_index: the task's index.
        expected_answer: the inner environment's ground truth, if it has one.
        dataset_name: the inner environment's name.
        inner_state: the inner environment's state after reset (attempts are scored from it).
        episode: the episode's progress (not compared, not shown).
    """

    task_index: int
    expected_answer: str | None
    dataset_name: str
    inner_state: State = field(repr=False)
    episode: Any = field(default=None, compare=False, repr=False)


class IterativeEnvironment:
    """A single-turn environment as a multi-turn one: answer, get feedback, try again.

    Args:
        inner_env: any single-turn environment (from ``environment_registry``,
            or an object with llenvs' ``Environment`` protocol).
        config: an :class:`~llenvs_go.core.config.IterativeConfig`, or a
            mapping of its fields; None for the defaults.
        **overrides: IterativeConfig fields, applied over ``config``
            (``IterativeEnvironment(env, max_turns=5)``).

    The name is ``"<inner>_iterative"``; ``spec.is_multi_turn`` is True,
    ``spec.max_steps`` is ``max_turns`` and ``spec.pure_step`` is False:
    step from the latest state of an episode. The environment pickles by its
    inner environment and configuration.
    """

    def __init__(self, inner_env: Any, config: IterativeConfig | dict[str, Any] | None = None, **overrides: Any):
        for attr in ("spec", "reset", "step"):
            if not hasattr(inner_env, attr):
                raise TypeError(f"IterativeEnvironment needs an environment with spec, reset and step, "
                                f"got {type(inner_env).__name__} (missing: {attr})")
        cfg = as_iterative_config(config if config is not None else {})
        if overrides:
            cfg = IterativeConfig.from_dict({**cfg.to_dict(), **overrides,
                                             "code_execution": overrides.get("code_execution", cfg.code_execution)})
        if cfg.code_execution is not None:
            inner_env = _with_code_execution(inner_env, cfg.code_execution.timeout)
        spec = inner_env.spec
        if spec.is_multi_turn:
            raise ValueError(f"IterativeEnvironment wraps single-turn environments; {spec.name} is already "
                             "multi-turn (drop the iterative setting)")
        self._inner = inner_env
        self._config = cfg
        self._extractor: Any = None
        self._go: NativeEnvironment | None = None
        if _served_by_go(inner_env):
            go = NativeEnvironment({**inner_env.config, "iterative": cfg.to_dict()},
                                   system_prompt=inner_env.system_prompt, prompt_template=inner_env.prompt_template)
            _ = go.handle  # validate now
            self._go = go
            # The Go environment serves the episodes: calls go straight to it (no wrapper layer per step).
            self.reset = go.reset  # type: ignore[method-assign]
            self.step = go.step  # type: ignore[method-assign]
        elif cfg.submission_extractor is not None:
            from llenvs_go.core.extraction import answer_extractor_registry

            self._extractor = answer_extractor_registry.create(cfg.submission_extractor,
                                                               **cfg.submission_extractor_config)
        elif cfg.submission_extractor_config:
            raise ValueError("IterativeConfig: submission_extractor_config is set but submission_extractor is not")

    # -- description ---------------------------------------------------------
    @property
    def inner(self) -> Any:
        """The wrapped single-turn environment."""
        return self._inner

    @property
    def config(self) -> IterativeConfig:
        """The iterative settings."""
        return self._config

    @property
    def native_environment(self) -> NativeEnvironment | None:
        """The Go environment that runs the loop, when the inner environment is served by Go (else None)."""
        return self._go

    @property
    def backend(self) -> str:
        """``"native"`` when the loop runs in Go, ``"python"`` when it runs here."""
        return "native" if self._go is not None else "python"

    @property
    def spec(self) -> EnvironmentSpec:
        """``"<inner>_iterative"``, multi-turn, at most ``max_turns`` steps, not pure_step."""
        if self._go is not None:
            return self._go.spec
        s = self._inner.spec
        return EnvironmentSpec(
            name=f"{s.name}_iterative", adapter="iterative", max_steps=self._config.max_turns, is_multi_turn=True,
            supports_task_index=s.supports_task_index, supports_len=s.supports_len, supports_seed=s.supports_seed,
            pure_step=False, metadata={**s.metadata, "inner_name": s.name, "inner_adapter": s.adapter,
                                       "max_turns": self._config.max_turns})

    def __len__(self) -> int:
        return len(self._inner)

    @property
    def system_prompt(self) -> Any:
        """The inner environment's system prompt: every conversation opens with it as a system message (it asks
        for the answer format the attempts are scored on), and dataset items carry it."""
        return getattr(self._inner, "system_prompt", None)

    @property
    def prompt_template(self) -> str | None:
        """The inner environment's prompt template."""
        return getattr(self._inner, "prompt_template", None)

    @property
    def prompts(self) -> dict[str, str]:
        """The prompts overridden by name (``IterativeConfig.prompts``): ``"initial"``, ``"feedback"``."""
        return dict(self._config.prompts or {})

    @property
    def available_tools(self) -> tuple[ToolDefinition, ...]:
        """The inner environment's tools."""
        return tuple(getattr(self._inner, "available_tools", ()))

    @property
    def reward_functions(self) -> tuple[Any, ...]:
        """The inner environment's reward functions: each attempt is scored by them."""
        return tuple(getattr(self._inner, "reward_functions", ()))

    def __getstate__(self) -> dict[str, Any]:
        return {"inner": self._inner, "config": self._config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["inner"], state["config"])  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"IterativeEnvironment({self._inner!r}, max_turns={self._config.max_turns}, backend={self.backend!r})"

    # -- lifecycle -------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State, dict[str, Any]]:
        """Start an episode of ``options["task_index"]``: the inner reset, with the first user turn in the messages."""
        if self._go is not None:
            return self._go.reset(seed=seed, options=options)
        options = dict(options or {})
        inner_state, info = self._inner.reset(seed=seed, options=options)
        obs = inner_state.observation
        cfg = self._config
        prompt = initial_prompt(obs.prompt, cfg.max_turns, cfg.submit_keyword, (cfg.prompts or {}).get("initial"))
        system = resolve_system_prompt(self.system_prompt)
        opening = [{"role": "system", "content": system}] if system is not None and not (
            obs.messages and obs.messages[0].get("role") == "system") else []
        history = [*opening, *obs.messages, {"role": "user", "content": prompt}]
        hidden = inner_state.hidden
        task_index = getattr(hidden, "task_index", options.get("task_index"))
        progress = _Progress(history, len(history) - 1, seed,
                             {k: v for k, v in options.items() if k != "episode_id"})
        state = State(
            observation=Observation(prompt=prompt, messages=tuple(history), tool_results=(),
                                    available_tools=obs.available_tools, task=obs.task, state=obs.state),
            hidden=IterativeHidden(task_index=task_index, expected_answer=getattr(hidden, "expected_answer", None),
                                   dataset_name=self._inner.spec.name, inner_state=inner_state, episode=progress),
            metadata=StateMetadata(step=0, episode_id=inner_state.metadata.episode_id,
                                   info={"task_index": task_index}),
        )
        return state, {**info, "max_turns": cfg.max_turns}

    def step(self, state: State, action: Action) -> StepResult:
        """Score one attempt and say whether the episode goes on."""
        if self._go is not None:
            return self._go.step(state, action)
        name = self.spec.name
        progress = getattr(state.hidden, "episode", None)
        if not isinstance(progress, _Progress):
            raise TypeError(f"{name}: step needs a state from this environment's reset, got hidden "
                            f"{type(state.hidden).__name__}")
        with progress.lock:
            return self._step(name, progress, state, action)

    def _step(self, name: str, progress: _Progress, state: State, action: Action) -> StepResult:
        if progress.done:
            if state.metadata.is_terminal:
                raise RuntimeError(f"{name}: this episode is finished (terminated or truncated); reset a new episode")
            raise RuntimeError(f"{name}: the episode of this state is finished or was closed, or the state comes "
                               "from another process; reset a new episode")
        if state.metadata.step != progress.step:
            raise NotImplementedError(
                f"{name} has pure_step=False and cannot step from a stale state (expected step {progress.step}, got "
                f"{state.metadata.step}); step from the latest state, or reset a new episode")
        text = action.text
        if text is None:
            raise ValueError(f"{name}: the action has no text (text=None); an attempt is text, "
                             'e.g. Action.from_text("<answer>42</answer>")')
        cfg = self._config
        submission = text
        if self._extractor is not None:
            found, _ = self._extractor.extract(text)
            if found is not None:
                submission = found
        hidden: IterativeHidden = state.hidden
        inner = self._inner
        if inner.spec.pure_step:
            inner_from = hidden.inner_state
        else:  # an inner step that is not pure gets a fresh episode per attempt
            inner_from, _ = inner.reset(seed=progress.reset_seed, options=dict(progress.reset_options))
        r = inner.step(inner_from, Action.from_text(submission))
        rewards = r.rewards if isinstance(r.rewards, SignalBundle) else SignalBundle(tuple(r.rewards))
        progress.step += 1
        turn = progress.step
        outcomes = [s.reward for s in rewards.signals if s.reward_type is RewardType.OUTCOME and s.reward is not None]
        best = max(outcomes) if outcomes else None
        solved = best is not None and best >= cfg.solved_threshold
        submit = is_submit(text, cfg.submit_keyword)
        terminated = submit or solved
        truncated = not terminated and turn >= cfg.max_turns
        done = terminated or truncated
        progress.done = done
        left = cfg.max_turns - turn
        history = progress.history
        history.append({"role": "assistant", "content": text})
        task = hidden.inner_state.observation.task
        if done:
            obs = Observation(prompt=COMPLETE_TEXT, messages=tuple(history), task=task)
        else:
            fb = feedback_prompt(left, rewards.feedback_texts(), (cfg.prompts or {}).get("feedback"))
            history.append({"role": "user", "content": fb})
            if not cfg.include_history:
                keep = progress.base + 1
                history[keep:] = history[-2:]
            obs = Observation(prompt=fb, messages=tuple(history), task=task)
        md = state.metadata
        next_state = State(observation=obs, hidden=hidden,
                           metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=done,
                                                  info={**md.info, "response": text}))
        info = {**(r.info or {}), "turn": turn, "turns_remaining": left, "solved": solved, "early_submit": submit,
                "submission": submission, "best_outcome_reward": best}
        return StepResult(next_state=next_state, rewards=rewards, terminated=terminated, truncated=truncated,
                          extracted_action=r.extracted_action, resolved_action=submission, info=info)

    def compute_rewards(self, state: State, action: Action, next_state: State) -> SignalBundle:
        """The inner environment's signals for ``action`` as an attempt at the task of ``state`` (no episode moves)."""
        text = action.text
        if text is None:
            raise ValueError(f"{self.spec.name}: the action has no text (text=None)")
        submission = text
        if self._extractor is not None:
            found, _ = self._extractor.extract(text)
            submission = text if found is None else found
        inner_state, _ = self._inner.reset(options={"task_index": state.hidden.task_index})
        return self._inner.step(inner_state, Action.from_text(submission)).rewards


__all__ = ["COMPLETE_TEXT", "IterativeEnvironment", "IterativeHidden", "feedback_prompt", "initial_prompt",
           "is_submit"]
