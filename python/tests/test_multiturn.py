"""Multi-turn environments: iterative (the loop in Go and in Python, tested against each other),
guess_number and calculator_arithmetic, through environment_registry with llenvs' types."""

from __future__ import annotations

import gc
import json
import os
import pickle
import threading
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from llenvs_go import _native
from llenvs_go.adapters.iterative import IterativeEnvironment
from llenvs_go.core.config import EnvironmentConfig, IterativeConfig
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.prompts import REASONING_GYM_DEFAULT
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, ObservationContent, State, StateMetadata
from llenvs_go.core.tools import ToolCall, ToolResultStatus
from llenvs_go.integrations import DatasetProvider


class PythonServed:
    """Any single-turn environment seen as a plain Python object (so IterativeEnvironment runs its loop in Python)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.system_prompt = inner.system_prompt  # the answer-format prompt a Python environment declares

    @property
    def spec(self) -> EnvironmentSpec:
        return self.inner.spec

    def __len__(self) -> int:
        return len(self.inner)

    def reset(self, *, seed=None, options=None):
        return self.inner.reset(seed=seed, options=options)

    def step(self, state, action):
        return self.inner.step(state, action)


def leg(**kw: Any) -> Any:
    return environment_registry.get(name="leg_counting", size=30, seed=5, **kw)


def pair(**cfg: Any) -> tuple[IterativeEnvironment, IterativeEnvironment]:
    inner = leg()
    go, py = IterativeEnvironment(inner, cfg), IterativeEnvironment(PythonServed(inner), cfg)
    assert go.backend == "native" and py.backend == "python"
    return go, py


RIGHT, WRONG = "{right}", "{wrong}"


def play(env: Any, task_index: int, attempts: list[str]) -> list[Any]:
    """Observable record of an episode: reset, then one entry per step (or the error it raised)."""
    state, info = env.reset(options={"task_index": task_index, "episode_id": "e"})
    record: list[Any] = [state.observation, state.metadata, info, state.hidden.expected_answer]
    truth = state.hidden.expected_answer
    for a in attempts:
        text = a.replace(RIGHT, f"<answer>{truth}</answer>").replace(WRONG, "<answer>-1</answer>")
        try:
            r = env.step(state, Action.from_text(text))
        except Exception as e:  # noqa: BLE001 - errors are part of the record
            record.append((type(e).__name__, str(e)))
            break
        record.append((r.next_state.observation, r.next_state.metadata, r.rewards, r.terminated, r.truncated,
                       r.extracted_action, r.resolved_action, json.dumps(dict(r.info), sort_keys=True)))
        state = r.next_state
    return record


SCRIPTS = [
    ({}, [RIGHT]),
    ({}, [WRONG, WRONG, WRONG, WRONG]),
    ({}, [WRONG, RIGHT]),
    ({}, ["  submit " + WRONG, WRONG]),
    ({"submit_keyword": ""}, ["SUBMIT", "SUBMIT"]),
    ({"include_history": False, "max_turns": 5}, [WRONG] * 6),
    ({"max_turns": 1}, [WRONG, WRONG]),
    ({"solved_threshold": 0.0}, [WRONG]),
    ({"submission_extractor": "regex", "submission_extractor_config": {"pattern": r"FINAL: (<answer>\d+</answer>)"}},
     ["<answer>-3</answer> FINAL: " + RIGHT]),
    ({}, [""]),
]


@pytest.mark.parametrize("served", ["go", "python"])
@pytest.mark.parametrize(("system_prompt", "expected"), [
    ("default", REASONING_GYM_DEFAULT), ("Reply in <answer></answer> tags.", "Reply in <answer></answer> tags."),
    (None, None)])
def test_iterative_conversations_open_with_the_system_prompt(served, system_prompt, expected):
    """The model is asked for the answer format it is scored on: reset, every step and the dataset items carry
    the inner environment's system prompt first (none when it has none)."""
    inner = leg(system_prompt=system_prompt)
    env = IterativeEnvironment(inner if served == "go" else PythonServed(inner), {"include_history": False,
                                                                                "max_turns": 4})
    assert env.backend == ("native" if served == "go" else "python")
    state, _ = env.reset(options={"task_index": 2})
    steps = [state]
    for _ in range(3):
        state = env.step(state, Action.from_text("<answer>-1</answer>")).next_state
        steps.append(state)
    item = DatasetProvider(env)[2]
    for msgs in [s.observation.messages for s in steps] + [item.messages]:
        roles = [m["role"] for m in msgs]
        if expected is None:
            assert roles[0] == "user"
            assert "system" not in roles
        else:
            assert roles[0] == "system" and msgs[0]["content"] == expected
            assert roles.count("system") == 1
    assert [m["role"] for m in steps[-1].observation.messages] == (
        ["user", "assistant", "user"] if expected is None else ["system", "user", "assistant", "user"])
    assert item.messages[-1] == steps[0].observation.messages[-1]


@pytest.mark.parametrize(("cfg", "attempts"), SCRIPTS)
def test_go_and_python_loops_agree(cfg, attempts):
    go, py = pair(**cfg)
    assert go.spec == py.spec
    assert len(go) == len(py) == 30
    for i in (0, 7):
        assert play(go, i, attempts) == play(py, i, attempts)


def test_iterative_semantics():
    env = leg(iterative={"max_turns": 3})
    assert isinstance(env, IterativeEnvironment)
    s = env.spec
    assert (s.name, s.adapter, s.max_steps, s.is_multi_turn, s.pure_step) == \
        ("leg_counting_iterative", "iterative", 3, True, False)
    state, info = env.reset(options={"task_index": 4})
    assert info["max_turns"] == 3 and info["task_index"] == 4
    assert state.observation.messages == ({"role": "system", "content": REASONING_GYM_DEFAULT},
                                          {"role": "user", "content": state.observation.prompt})
    assert state.observation.prompt.endswith("You have 3 turn(s) to solve this task.\nWhen you are satisfied with "
                                             "your solution, write SUBMIT at the start of your response.")
    r = env.step(state, Action.from_text("<answer>-1</answer>"))
    assert r.next_state.observation.prompt == "Incorrect, 2 attempts left."
    assert not r.done and r.rewards.by_name("correctness").reward == 0.0
    assert [m["role"] for m in r.next_state.observation.messages] == ["system", "user", "assistant", "user"]
    r = env.step(r.next_state, Action.from_text(f"<answer>{state.hidden.expected_answer}</answer>"))
    assert r.terminated and not r.truncated and r.total == 1.0 and r.info["solved"]
    assert r.next_state.observation.prompt == "Episode complete."
    assert r.next_state.metadata.is_terminal and r.next_state.metadata.step == 2


def test_iterative_config():
    c = IterativeConfig()
    assert (c.max_turns, c.include_history, c.summarize_history, c.submit_keyword, c.submission_extractor,
            c.submission_extractor_config, c.solved_threshold, c.code_execution) == \
        (3, True, False, "SUBMIT", None, {}, 1.0, None)
    env = EnvironmentConfig(name="leg_counting", size=10, seed=1, iterative=IterativeConfig(max_turns=2)).build()
    assert env.spec.name == "leg_counting_iterative" and env.spec.max_steps == 2
    cfg = EnvironmentConfig.from_dict({"name": "leg_counting", "seed": 1, "iterative": {"max_turns": 4}})
    assert cfg.iterative == IterativeConfig(max_turns=4)
    assert EnvironmentConfig.from_dict(cfg.to_dict()) == cfg
    assert not isinstance(EnvironmentConfig(name="leg_counting", seed=1).build(), IterativeEnvironment)
    with pytest.raises(ValueError, match="did you mean 'max_turns'"):
        leg(iterative={"max_turn": 3})
    with pytest.raises(ValueError, match="summarize_history=True"):
        IterativeConfig(summarize_history=True)
    with pytest.raises(ValueError, match="max_turns must be an int between 1"):
        IterativeConfig(max_turns=0)
    with pytest.raises(ValueError, match="did you mean 'tag_based'"):
        leg(iterative={"submission_extractor": "tagbased"})
    with pytest.raises(ValueError, match="already multi-turn"):
        environment_registry.get("guess_number", adapter="native", iterative={})
    assert IterativeEnvironment(leg(), max_turns=5).config.max_turns == 5


@dataclass(frozen=True)
class MockHidden:
    expected_answer: str
    task_index: int


class MockEnvironment:
    """A single-turn environment written in Python: task i expects str(i * 10), with feedback."""

    def __init__(self, pure: bool = True):
        self.pure = pure
        self.resets = 0

    @property
    def spec(self) -> EnvironmentSpec:
        return EnvironmentSpec(name="mock", adapter="mock", max_steps=1, pure_step=self.pure)

    def __len__(self) -> int:
        return 3

    def reset(self, *, seed=None, options=None):
        self.resets += 1
        i = options["task_index"]
        q = f"What is {i} * 10?"
        return State(observation=Observation(prompt=q, task=ObservationContent(text=q)),
                     hidden=MockHidden(str(i * 10), i),
                     metadata=StateMetadata(step=0, episode_id=str(uuid.uuid4()), info={"task_index": i})), {}

    def step(self, state, action):
        ok = action.text.strip() == state.hidden.expected_answer
        sig = Signal(name="correctness", reward_type=RewardType.OUTCOME, reward=1.0 if ok else 0.0,
                     feedback=None if ok else f"{action.text!r} is not right.")
        return StepResult(next_state=state.with_metadata(step=1, is_terminal=True), rewards=SignalBundle((sig,)),
                          terminated=True, resolved_action=action.text)


@pytest.mark.parametrize("pure", [True, False])
def test_python_environment_is_wrapped(pure):
    inner = MockEnvironment(pure)
    env = IterativeEnvironment(inner, max_turns=2)
    assert env.backend == "python" and env.spec.name == "mock_iterative"
    state, _ = env.reset(options={"task_index": 2})
    r = env.step(state, Action.from_text("7"))
    assert r.next_state.observation.prompt == "Incorrect, 1 attempt left.\n\n'7' is not right."
    r = env.step(r.next_state, Action.from_text("20"))
    assert r.terminated and r.total == 1.0 and r.resolved_action == "20"
    assert inner.resets == (1 if pure else 3)  # an inner step that is not pure is taken from a fresh reset
    assert pickle.loads(pickle.dumps(env)).config == env.config


@pytest.mark.parametrize("make", [lambda: leg(iterative={}), lambda: IterativeEnvironment(PythonServed(leg())),
                                  lambda: environment_registry.get("guess_number", adapter="native", seed=1),
                                  lambda: environment_registry.get("calculator_arithmetic", adapter="native", seed=1)])
def test_lifecycle_errors(make):
    env = make()
    name = env.spec.name
    state, _ = env.reset(options={"task_index": 0})
    with pytest.raises(ValueError, match=r"text=None"):
        env.step(state, Action(text=None))
    r = env.step(state, Action.from_text("thinking..."))
    assert not r.done
    with pytest.raises(NotImplementedError, match=r"cannot step from a stale state \(expected step 1, got 0\)"):
        env.step(state, Action.from_text("thinking..."))
    huge = "x" * (10 << 20) + "<answer>-2</answer>"
    r = env.step(r.next_state, Action.from_text(huge))
    assert r.next_state.metadata.step == 2
    while not r.done:
        r = env.step(r.next_state, Action.from_text(f"<answer>{state.hidden.expected_answer}</answer>"))
    with pytest.raises(RuntimeError, match=f"{name}: this episode is finished"):
        env.step(r.next_state, Action.from_text("<answer>1</answer>"))
    with pytest.raises(ValueError, match="out of bounds"):
        env.reset(options={"task_index": 10**6})
    copy = pickle.loads(pickle.dumps(env))
    assert copy.spec == env.spec
    assert copy.reset(options={"task_index": 3})[0].observation == env.reset(options={"task_index": 3})[0].observation


def test_guess_number():
    env = environment_registry.get("guess_number", adapter="native", size=100, seed=11)
    again = environment_registry.get("guess_number", adapter="native", size=100, seed=11)
    assert ("native", "guess_number") in environment_registry
    assert env.spec.is_multi_turn and env.spec.max_steps == 10 and len(env) == 100
    for i in range(100):
        state, _ = env.reset(options={"task_index": i})
        assert state.hidden.expected_answer == again.reset(options={"task_index": i})[0].hidden.expected_answer
        lo, hi, total, steps = 1, 100, 0.0, 0
        while True:
            g = (lo + hi) // 2
            r = env.step(state, Action.from_text(f"I guess <answer>{g}</answer>"))
            total, steps, state = total + r.total, steps + 1, r.next_state
            if r.info["outcome"] == "higher":
                lo = g + 1
                assert r.next_state.observation.prompt.startswith(f"Higher: the number is greater than {g}.")
            elif r.info["outcome"] == "lower":
                hi = g - 1
            if r.done:
                break
        assert r.terminated and state.hidden.expected_answer == str(g) and steps <= 7
        assert total == pytest.approx(1.0 - 0.01 * steps)
        assert r.rewards.by_name("correct").reward_type is RewardType.OUTCOME
    env2 = environment_registry.get("guess_number", adapter="native", seed=1, max_value=10, max_turns=2,
                                    step_penalty=0.5)
    state, _ = env2.reset(options={"task_index": 0})
    r = env2.step(state, Action.from_text("no idea"))
    assert r.info["outcome"] == "invalid" and r.total == -0.5
    with pytest.raises(ValueError, match="did you mean 'max_value'"):
        environment_registry.get("guess_number", adapter="native", max_valu=10)
    with pytest.raises(ValueError, match="max_value \\(1\\) must be > min_value \\(1\\)"):
        environment_registry.get("guess_number", adapter="native", max_value=1)
    with pytest.raises(KeyError, match="did you mean 'guess_number'"):
        environment_registry.get("guess_numbers", adapter="native")


def calculator(**kw: Any) -> Any:
    return environment_registry.get("calculator_arithmetic", adapter="native", size=20, seed=2, **kw)


def tool_text(expr: str) -> str:
    return f'<tool_call>\n{{"name": "calculator", "arguments": {{"expression": "{expr}"}}}}\n</tool_call>'


def test_calculator_tools():
    env = calculator()
    (tool,) = env.available_tools
    schema = tool.to_openai_schema()
    assert schema["function"]["name"] == "calculator"
    assert schema["function"]["parameters"]["required"] == ["expression"]
    state, _ = env.reset(options={"task_index": 3})
    assert state.observation.available_tools == env.available_tools
    r = env.step(state, Action.from_text("Let me check. " + tool_text("(12 + 3) * 2")))
    (res,) = r.next_state.observation.tool_results
    assert res.is_success and res.output == "30" and res.call_id == "call_1_0"
    assert r.next_state.observation.prompt == "<tool_response>\n30\n</tool_response>"
    msgs = r.next_state.observation.messages
    assert msgs[-2]["tool_calls"] == [{"id": "call_1_0", "name": "calculator",
                                       "arguments": {"expression": "(12 + 3) * 2"}}]
    assert msgs[-1] == {"role": "tool", "content": "30", "tool_call_id": "call_1_0", "name": "calculator"}
    calls = [ToolCall(id="a", name="calculator", arguments={"expression": "7/2"}),
             ToolCall(id="b", name="python", arguments={"code": "1"}),
             ToolCall(id="c", name="calculator", arguments={"expr": "1"}),
             ToolCall(id="d", name="calculator", arguments={"expression": "1/(2-2)"})]
    r = env.step(r.next_state, Action.from_tool_calls(calls))
    got = r.next_state.observation.tool_results
    assert [x.status for x in got] == [ToolResultStatus.SUCCESS, ToolResultStatus.INVALID_TOOL,
                                       ToolResultStatus.INVALID_ARGUMENTS, ToolResultStatus.ERROR]
    assert got[0].output == "3.5" and "unknown tool 'python'" in got[1].error.replace('"', "'")
    assert "division by zero" in got[3].error
    assert f"Error: {got[3].error}" in r.next_state.observation.prompt  # the message reaches the model
    assert r.rewards.by_name("tool_validity").reward == 0.25 and r.total == 0.0
    r = env.step(r.next_state, Action.from_text('<tool_call>{"name": "calculator", "arguments": {</tool_call>'))
    (bad,) = r.next_state.observation.tool_results
    assert bad.is_error and "malformed tool call" in bad.error
    r = env.step(r.next_state, Action.from_text(f"<answer>{state.hidden.expected_answer}</answer>"))
    assert r.terminated and r.total == 1.0 and r.info["tool_calls_used"] == 6


def test_calculator_budget_and_config():
    env = calculator(max_tool_calls=1, max_turns=3, task="chain_sum", task_config={"max_terms": 3})
    state, _ = env.reset(options={"task_index": 0})
    r = env.step(state, Action.from_text(tool_text("1+1") + tool_text("2+2") + tool_text("3+3")))
    ok, over = r.next_state.observation.tool_results
    assert ok.is_success and "budget exhausted" in over.error and "ignored" in over.error
    r = env.step(r.next_state, Action.from_text("hmm"))
    assert r.next_state.observation.prompt.startswith("No answer found")
    r = env.step(r.next_state, Action.from_text("still thinking"))
    assert r.truncated and not r.terminated
    with pytest.raises(ValueError, match="did you mean 'max_tool_calls'"):
        calculator(max_tool_call=3)
    with pytest.raises(KeyError, match="is not an arithmetic task"):
        calculator(task="leg_counting")
    with pytest.raises(ValueError, match="extra_rewards"):
        calculator(extra_rewards=("format",))


@pytest.mark.parametrize("make", [lambda: leg(iterative={}), lambda: calculator(),
                                  lambda: environment_registry.get("guess_number", adapter="native", seed=1)])
def test_episodes_deterministic_concurrent_and_not_leaked(make):
    env = make()
    gc.collect()  # episodes that earlier tests left for the collector
    base = _native.live_handles(_native.KIND_EPISODE)
    for i in range(1000):
        state, _ = env.reset(options={"task_index": i % len(env)})
        if i % 2:
            env.step(state, Action.from_text("<answer>1</answer>"))
        del state
    gc.collect()
    assert _native.live_handles(_native.KIND_EPISODE) == base

    def run(i: int) -> list[Any]:
        return play(env, i, [WRONG, "<answer>3</answer>", RIGHT])

    want = [run(i) for i in range(20)]
    other = pickle.loads(pickle.dumps(env))
    assert [play(other, i, [WRONG, "<answer>3</answer>", RIGHT]) for i in range(20)] == want
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for i in range(20):
                assert run(i) == want[i]
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_episode_batch_matches_step():
    from llenvs_go.core.episodes import EpisodeBatch

    env = leg(iterative={"max_turns": 3})
    base = _native.live_handles(_native.KIND_EPISODE)
    batch = EpisodeBatch(env, range(30))
    assert len(batch) == 30 and _native.live_handles(_native.KIND_EPISODE) == base + 30
    states = [env.reset(options={"task_index": i})[0] for i in range(30)]
    assert batch.prompts == [s.observation.prompt for s in states]
    assert batch.expected_answers == [s.hidden.expected_answer for s in states]
    for turn in range(3):
        live = batch.live()
        texts = [f"<answer>{states[i].hidden.expected_answer if (i + turn) % 3 == 0 else -1}</answer>" for i in live]
        got = batch.step(texts)
        for k, i in enumerate(live):
            r = env.step(states[i], Action.from_text(texts[k]))
            assert (got.totals[k], got.terminated[k], got.truncated[k], got.prompts[k]) == \
                (r.total, r.terminated, r.truncated, r.next_state.observation.prompt)
            states[i] = r.next_state
        assert batch.done == [s.metadata.is_terminal for s in states]
    assert all(batch.done) and _native.live_handles(_native.KIND_EPISODE) == base  # ended episodes are released
    with pytest.raises(ValueError, match="not live"):
        batch.step(["x"], [0])
    batch = EpisodeBatch(env, [1, 1, 2])
    with pytest.raises(ValueError, match="stepped twice"):
        batch.step(["a", "b"], [1, 1])
    with pytest.raises(ValueError, match="one text per episode"):
        batch.step(["a"])
    r = batch.step(["\ud800", "b", "c"])  # a lone surrogate takes the encoded path
    assert r.errors == [False] * 3 and r.prompts[0] == "Incorrect, 2 attempts left."
    _native.episode_close(int(batch._handles[1]), os.getpid())  # a step of a closed episode fails alone
    r = batch.step(["x", "<answer>-1</answer>", "y"])
    assert r.errors == [False, True, False] and r.flags[1] == _native.EPISODE_ERROR and r.totals[1] == 0
    assert "handle" in r.prompts[1] and r.prompts[0] == r.prompts[2] == "Incorrect, 1 attempt left."
    empty = EpisodeBatch(env, [])
    assert (len(empty), empty.prompts, empty.expected_answers) == (0, [], [])
    assert empty.step([]).prompts == []
    del batch
    gc.collect()
    assert _native.live_handles(_native.KIND_EPISODE) == base
    with pytest.raises(TypeError, match="served by Go"):
        EpisodeBatch(IterativeEnvironment(MockEnvironment()), [0])


def test_episode_batch_checks_indices():
    from llenvs_go.core.episodes import EpisodeBatch

    env = leg(iterative={"max_turns": 2})
    batch = EpisodeBatch(env, range(4))
    for bad in ([-1], [4], [2**70]):
        with pytest.raises(ValueError, match=f"episode {bad[0]} of the batch is not live"):
            batch.step(["x"], bad)
    with pytest.raises(TypeError):
        batch.step(["x"], [1.0])
    with pytest.raises(TypeError):
        batch.step(["x"], ["1"])
    r = batch.step(["<answer>-1</answer>", "x"], (3, True))  # any ints, bool included, in any order
    assert r.indices == [3, 1] and r.prompts == ["Incorrect, 1 attempt left."] * 2 and batch.live() == [0, 1, 2, 3]
    r = batch.step(["x", "y"], [1, 3])
    assert r.truncated == [True, True] and batch.live() == [0, 2] and batch.done == [False, True, False, True]
    with pytest.raises(ValueError, match="episode 3 of the batch is not live"):
        batch.step(["x", "y"], [0, 3])
    assert batch.live() == [0, 2]  # a refused step changes nothing
    r = batch.step(["a", "b"])
    assert r.indices == [0, 2] and r.terminated == [False, False] and batch.live() == [0, 2]
