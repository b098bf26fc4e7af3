"""Token masks for multi-turn training: which response tokens the model produced.

:class:`TrajectoryMasker` turns a :class:`~llenvs_go.core.trajectory.Trajectory` into
``prompt_ids``, ``response_ids`` and ``response_mask`` (1 = model token, 0 = environment
token), spans and rewards. Python renders the turns and calls the tokenizer (in batches);
the Go core lays the tokens out, cuts the response at ``max_length`` and places the
per-token rewards (``llenvs_mask_batch``), handing back an Arrow record batch of one row per
trajectory (:mod:`llenvs_go.core.columns`). ``docs/masking.md`` describes the layouts.

The masker is defined here. The Go crossing of a batch (:mod:`~llenvs_go.integrations.mask_batch`),
the output types (:mod:`~llenvs_go.integrations.masked_trajectory`), the chat messages
(:mod:`~llenvs_go.integrations.chat_messages`) and tokenizing (:mod:`~llenvs_go.integrations.tokenization`)
have modules of their own; the public names are re-exported here.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Sequence
from typing import Any, Literal

from llenvs_go.core.trajectory import Trajectory, Transition
from llenvs_go.integrations.chat_messages import (
    _tools,
    assistant_message,
    environment_messages,
    initial_messages,
    tool_calls_text,
    tool_result_text,
)
from llenvs_go.integrations.mask_batch import Fragments, assemble_ids, assemble_texts
from llenvs_go.integrations.masked_trajectory import (
    _ENV,
    _MODEL,
    _PROMPT,
    MAX_LENGTH,
    MAX_TOKEN_ID,
    MaskedTrajectory,
    TokenSpan,
)
from llenvs_go.integrations.tokenization import _go_tokenizer, _is_hf, encode_many


def _check_max_length(value: Any) -> int | None:
    """``max_length`` as given when it is None or an int from 0 to MAX_LENGTH; a TypeError or ValueError else."""
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"max_length must be None or an int, got {type(value).__name__} {value!r}")
    n = operator.index(value)
    if not 0 <= n <= MAX_LENGTH:
        raise ValueError(f"max_length must be None or an int from 0 to {MAX_LENGTH} (2**31 - 1), got {n}")
    return n


class TemplateError(ValueError):
    """The tokenizer's chat template cannot be split into model and environment turns."""


def _describe(value: Any) -> str:
    """``None``, or the type and a short repr of ``value``, for an error message."""
    if value is None:
        return "None"
    text = repr(value)
    return f"{type(value).__name__} {text[:60] + '...' if len(text) > 60 else text}"


def _check_trajectory(value: Any, what: str) -> None:
    """TypeError naming ``what`` unless ``value`` is a trajectory (an initial state and transitions)."""
    if not (hasattr(value, "initial_state") and hasattr(value, "transitions")):
        raise TypeError(f"{what} must be a Trajectory (from Trajectory.from_steps, episode_to_trajectory or "
                        f"LLEnvsAgentLoop.play(...).trajectory), got {_describe(value)}")


class TrajectoryMasker:
    """Masks trajectories for a tokenizer.

    Args:
        tokenizer: any object with ``encode(str) -> list[int]``; a Hugging Face tokenizer is called in
            batches and, when it has a chat template, the template is applied.
        max_length: the most response tokens kept (the prompt is never cut); past it the response is
            cut and ``truncated`` is set. None keeps everything.
        chat_template: None uses the tokenizer's chat template when it has one; False never applies one
            (llenvs' span layout); True requires one; a string is a Jinja chat template to use instead.
        template_kwargs: extra keyword arguments for ``apply_chat_template`` (e.g. ``enable_thinking``).

    Carried ids (``Action.token_ids``) are used as they are. ``docs/masking.md`` describes both
    layouts and what happens with templates that change the text they render.
    """

    def __init__(self, tokenizer: Any, *, max_length: int | None = None, chat_template: bool | str | None = None,
                 template_kwargs: dict[str, Any] | None = None):
        if isinstance(tokenizer, (str, bytes, os.PathLike)):
            raise TypeError(f"TrajectoryMasker needs a tokenizer with encode(str) -> list[int], not a name or "
                            f"path: load it first, e.g. transformers.AutoTokenizer.from_pretrained({tokenizer!r}); "
                            f"got {_describe(tokenizer)}")
        if not callable(getattr(tokenizer, "encode", None)):
            raise TypeError(f"TrajectoryMasker needs a tokenizer with encode(str) -> list[int] (e.g. "
                            f"transformers.AutoTokenizer.from_pretrained(name)), got {_describe(tokenizer)}")
        self.tokenizer = tokenizer
        self.max_length = _check_max_length(max_length)
        self.template_kwargs = dict(template_kwargs or {})
        has = hasattr(tokenizer, "apply_chat_template") and bool(getattr(tokenizer, "chat_template", None))
        if chat_template is True and not has:
            raise ValueError("chat_template=True but the tokenizer has no chat template")
        self._custom = chat_template if isinstance(chat_template, str) else None
        if self._custom is not None and not hasattr(tokenizer, "apply_chat_template"):
            raise ValueError("a chat template string needs a tokenizer with apply_chat_template")
        self.uses_chat_template = self._custom is not None or (chat_template is not False and has)
        self._probes: dict[Any, Any] = {}

    # -- the chat template -------------------------------------------------------------------

    def render(self, messages: list[dict[str, Any]], *, generation_prompt: bool,
               tools: list[dict[str, Any]] | None = None) -> str:
        """The chat template applied to ``messages`` (as text)."""
        kw = dict(self.template_kwargs)
        if self._custom is not None:
            kw["chat_template"] = self._custom
        out = self.tokenizer.apply_chat_template(messages, tools=tools, tokenize=False,
                                                 add_generation_prompt=generation_prompt, **kw)
        return out if isinstance(out, str) else str(out)

    def _probe(self) -> dict[Any, Any]:
        """What the template does, found once by rendering marker messages: the end-of-turn string and
        its id, whether it has a tool role, and whether environment turns must be one message."""
        if self._probes:
            return self._probes
        mark = "LLENVS_MARK_A"
        user = {"role": "user", "content": "LLENVS_MARK_U"}
        text = self.render([user, {"role": "assistant", "content": mark}], generation_prompt=False)
        after = text[text.rfind(mark) + len(mark):] if mark in text else ""
        eot = ""
        for tok in sorted(self._special_tokens(), key=len, reverse=True):
            if tok and after.startswith(tok):
                eot = tok
                break
        eot_id = None
        if eot:
            ids = encode_many(self.tokenizer, [eot])[0]
            eot_id = ids[0] if len(ids) == 1 else None
        base = [user, {"role": "assistant", "content": "a"}]
        tool = {"role": "tool", "tool_call_id": "c", "name": "t", "content": "LLENVS_MARK_T"}
        try:
            tool_role = "LLENVS_MARK_T" in self.render(base + [tool], generation_prompt=True)
        except Exception:
            tool_role = False
        two = [{"role": "user", "content": "b"}, {"role": "user", "content": "c"}]
        try:
            self.render(base + two, generation_prompt=True)
            merge = False
        except Exception:
            merge = True
        self._probes = {"eot": eot, "eot_id": eot_id, "tool_role": tool_role, "merge": merge}
        return self._probes

    def check_template(self) -> dict[str, Any]:
        """What the chat template does, found by rendering marker conversations: whether masks will be exact.

        Returns ``end_of_turn`` (the string that closes an assistant turn, "" when there is none),
        ``tool_role`` (tool messages are rendered as such; else they become user messages),
        ``merges_turns`` (consecutive environment messages must be one), ``system_role`` (a system message
        is rendered), ``earlier_reasoning`` (``"kept"``, or ``"dropped"`` when think blocks of earlier turns
        leave later prompts), ``trims`` (turn contents are stripped of surrounding whitespace), and
        ``prefix_preserving``: per conversation shape (``"feedback"``, ``"system"``, ``"tools"``), None when
        the template lays it out turn by turn as the masker does, else why not (masks of such conversations
        are refused, or the template itself refuses to render them). Raises TemplateError when the masker
        does not use a chat template.
        """
        if not self.uses_chat_template:
            raise TemplateError("this masker uses no chat template (chat_template=False, or the tokenizer has none)")
        p = self._probe()
        user = {"role": "user", "content": "LLENVS_MARK_U"}
        sys_text = self.render([{"role": "system", "content": "LLENVS_MARK_S"}, user], generation_prompt=True)
        think = "<think>LLENVS_MARK_R</think>LLENVS_MARK_A"
        later = self.render([user, {"role": "assistant", "content": think}, {"role": "user", "content": "b"}],
                            generation_prompt=True)
        spaced = self.render([user, {"role": "assistant", "content": " LLENVS_MARK_W "}], generation_prompt=False)
        calc = {"type": "function", "function": {"name": "calculator", "description": "Evaluate an expression.",
                                                 "parameters": {"type": "object", "properties": {
                                                     "expression": {"type": "string"}}, "required": ["expression"]}}}
        call = {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "calculator", "arguments": {"expression": "1+2"}}}]}
        tool = {"role": "tool", "tool_call_id": "c1", "name": "calculator", "content": "3"}
        answer = {"role": "assistant", "content": "a"}
        feedback = {"role": "user", "content": "f"}
        shapes = {
            "feedback": ([user], [(answer, [feedback]), (answer, [feedback])], None),
            "system": ([{"role": "system", "content": "s"}, user], [(answer, [feedback])], None),
            "tools": ([user], [(call, self.template_messages([tool])), (call, self.template_messages([tool])),
                               (answer, [feedback])], [calc]),
        }
        prefix: dict[str, str | None] = {}
        for name, (initial, turns, tools) in shapes.items():
            key = json.dumps(tools, sort_keys=True)
            self._probes.setdefault(("gen", key), self.render([user], generation_prompt=True, tools=tools))
            try:
                self._check_turn_by_turn(self.template_messages(initial), turns, tools, key)
                prefix[name] = None
            except TemplateError as e:
                prefix[name] = str(e)
            except Exception as e:  # noqa: BLE001 - the template's own refusal of the shape, reported as such
                prefix[name] = f"the chat template cannot render this conversation: {type(e).__name__}: {e}"
        return {"end_of_turn": p["eot"], "tool_role": p["tool_role"], "merges_turns": p["merge"],
                "system_role": "LLENVS_MARK_S" in sys_text,
                "earlier_reasoning": "kept" if "LLENVS_MARK_R" in later else "dropped",
                "trims": " LLENVS_MARK_W " not in spaced, "prefix_preserving": prefix}

    def _special_tokens(self) -> list[str]:
        toks = set(getattr(self.tokenizer, "all_special_tokens", None) or ())
        decoder = getattr(self.tokenizer, "added_tokens_decoder", None) or {}
        for t in decoder.values():
            if getattr(t, "special", False):
                toks.add(str(t))
        return list(toks)

    def template_messages(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Environment messages in the roles the template has: tool results become user messages when it
        has no tool role, and consecutive ones are merged when it needs alternating roles. Without a
        chat template, the messages unchanged."""
        if not self.uses_chat_template:
            return messages
        p = self._probe()
        out: list[dict[str, Any]] = []
        for m in messages:
            if m.get("role") == "tool" and not p["tool_role"]:
                m = {"role": "user", "content": m.get("content", "")}
            if p["merge"] and out and out[-1]["role"] == m["role"] and m["role"] in ("user", "tool"):
                out[-1] = {**out[-1], "content": f"{out[-1]['content']}\n\n{m['content']}"}
                continue
            out.append(m)
        return out

    def turn_messages(self, transition: Transition[Any]) -> list[dict[str, Any]]:
        """The environment's messages after ``transition``, in the template's roles."""
        return self.template_messages(environment_messages(transition))

    def conversation(self, trajectory: Trajectory[Any]) -> list[dict[str, Any]]:
        """The whole conversation of a trajectory, as the agent loops send it to the model."""
        msgs = self.template_messages(initial_messages(trajectory.initial_state))
        ts = trajectory.transitions
        for k, t in enumerate(ts):
            msgs.append(assistant_message(t.action))
            if k < len(ts) - 1:
                msgs.extend(self.turn_messages(t))
        return msgs

    def _split(self, rendered: str, start: str, eot: str) -> tuple[str, str]:
        """Split the text after ``start`` into the assistant turn (through the end-of-turn string) and
        what follows it."""
        if not rendered.startswith(start):
            raise TemplateError(
                "the chat template does not render the conversation as an extension of its prompt "
                "(it is not prefix-preserving); mask with chat_template=False")
        rest = rendered[len(start):]
        if not eot:
            raise TemplateError("the chat template ends assistant turns without a special token; "
                                "mask with chat_template=False")
        e = rest.find(eot)
        if e < 0:
            raise TemplateError(f"the chat template did not close the assistant turn with {eot!r}")
        return rest[:e + len(eot)], rest[e + len(eot):]

    # -- segments ----------------------------------------------------------------------------

    def _plain(self, traj: Trajectory[Any], fr: Fragments, segs: list[int], open_end: bool = False) -> None:
        """llenvs' layout (tool error messages kept): prompt, then per step text, tool calls, environment."""
        text = fr.text
        fr.prompt(segs, traj.initial_state.observation.prompt, _PROMPT, 0)
        ts = traj.transitions
        last = len(ts) - 1
        for k, t in enumerate(ts):
            a = t.action
            if a.token_ids is not None:
                body = a.text if a.text is not None else (tool_calls_text(a.tool_calls) if a.tool_calls else "")
                segs += (fr.carried(body, a.token_ids, a.logprobs, k), _MODEL, k)
            else:
                if a.text is not None:
                    segs += (text(a.text), _MODEL, k)
                if a.tool_calls:
                    segs += (text(tool_calls_text(a.tool_calls)), _MODEL, k)
            if k < last or open_end:
                nxt = t.next_state.observation
                results = nxt.tool_results
                env = "".join(map(tool_result_text, results)) if results else ""
                if nxt.prompt != t.state.observation.prompt:
                    env += nxt.prompt
                if env:
                    segs += (text(env), _ENV, k)

    def _chat(self, traj: Trajectory[Any], fr: Fragments, segs: list[int], open_end: bool = False) -> None:
        """The chat-template layout: the templated prompt, then per step the model's turn through its
        end-of-turn token and the text the template puts before the next generation prompt."""
        p = self._probe()
        eot, eot_id = p["eot"], p["eot_id"]
        tools = _tools(traj.initial_state)
        key = json.dumps(tools, sort_keys=True)
        probe_user = {"role": "user", "content": "LLENVS_MARK_U"}
        gen = self._probes.setdefault(("gen", key), self.render([probe_user], generation_prompt=True, tools=tools))
        initial = self.template_messages(initial_messages(traj.initial_state))
        prompt = self.render(initial, generation_prompt=True, tools=tools)
        segs += (fr.text(prompt), _PROMPT, 0)
        turns = []  # every turn but the last: the assistant message and the environment's answer
        ts = traj.transitions
        for k, t in enumerate(ts):
            a = t.action
            last = k == len(ts) - 1 and not open_end
            asst = assistant_message(a)
            after = [{"role": "user", "content": "LLENVS_MARK_V"}] if last else self.turn_messages(t)
            body, env = self._split(self.render([probe_user, asst] + after, generation_prompt=not last, tools=tools),
                                    gen, eot)
            if not last:
                turns.append((asst, after))
            if a.token_ids is not None:
                ids = a.token_ids
                text = a.text if a.text is not None else body
                segs += (fr.carried(text, ids, a.logprobs, k), _MODEL, k)
                if not last and eot and (not ids or ids[-1] != eot_id):
                    env = eot + env
            else:
                content = asst["content"]
                if last and content and not body.startswith(content) and not a.tool_calls:
                    body = content + eot  # the last output as generated, not as the template reshapes history
                segs += (fr.text(body), _MODEL, k)
            if not last and env:
                segs += (fr.text(env), _ENV, k)
        if turns:
            self._check_turn_by_turn(initial, turns, tools, key)

    def _check_turn_by_turn(self, initial: list[dict[str, Any]], turns: list[tuple[dict[str, Any], list[Any]]],
                            tools: Any, tools_key: str) -> None:
        """Raise TemplateError when the template lays out a conversation of this shape otherwise as a whole
        (through the next generation prompt) than turn by turn, as the masker does: the ids would then not be
        what the model saw. The check renders the shape (roles, tool calls, tools) with marker contents, so
        what a template does to contents (think blocks, trimming: see docs/masking.md) is not judged here,
        and it is made once per shape."""
        n = [0]

        def marked(m: dict[str, Any]) -> dict[str, Any]:
            n[0] += 1  # an empty content stays empty: some templates lay out tool calls by it
            return {**m, "content": f"LLENVS_MARK_{n[0]}" if m.get("content") else m.get("content")}

        history = [marked(m) for m in initial]
        steps = [(marked(a), [marked(m) for m in after]) for a, after in turns]
        shape = ("shape", tools_key, tuple((m.get("role"), bool(m.get("tool_calls")))
                                           for m in history + [x for a, after in steps for x in (a, *after)]))
        if shape in self._probes:
            return
        gen = self._probes[("gen", tools_key)]
        probe_user = {"role": "user", "content": "LLENVS_MARK_U"}
        pieces = [self.render(history, generation_prompt=True, tools=tools)]
        for asst, after in steps:
            body, env = self._split(self.render([probe_user, asst, *after], generation_prompt=True, tools=tools),
                                    gen, self._probe()["eot"])
            pieces += (body, env)
            history += [asst, *after]
        laid_out = "".join(pieces)
        whole = self.render(history, generation_prompt=True, tools=tools)
        if whole != laid_out:
            at = len(os.path.commonprefix([whole, laid_out]))
            raise TemplateError(
                f"the chat template renders this conversation ({', '.join(r for r, _ in shape[2])}) otherwise than "
                f"turn by turn, from character {at}: {whole[at:at + 60]!r} where the turns give "
                f"{laid_out[at:at + 60]!r}; it is not prefix-preserving, so the ids would not be what the model "
                "saw. Mask with chat_template=False, or pass a template that keeps earlier turns as they were")
        self._probes[shape] = True

    # -- masking -----------------------------------------------------------------------------

    @property
    def _decode(self) -> Any:
        return getattr(self.tokenizer, "decode", None)

    def mask_trajectory(self, trajectory: Trajectory[Any]) -> MaskedTrajectory:
        """The masked form of one trajectory."""
        _check_trajectory(trajectory, "trajectory")
        return self.mask_batch([trajectory])[0]

    def next_prompt_ids(self, trajectory: Trajectory[Any]) -> list[int]:
        """The ids to feed the model for its next turn: the prompt, every turn so far and the environment's
        answer to the last one (with a chat template, through the next generation prompt). Token-in/token-out
        loops generate from these; the response is never cut here."""
        m = self.mask_batch([trajectory], open_end=True, max_length=None)[0]
        return list(m.prompt_ids + m.response_ids)

    def mask_batch(self, trajectories: Sequence[Trajectory[Any]], *, open_end: bool = False,
                   max_length: int | None | Literal["default"] = "default") -> list[MaskedTrajectory]:
        """The masked forms of many trajectories: one tokenizer batch and one call into the Go core.

        ``open_end`` also lays out the environment's answer to the last step (see :meth:`next_prompt_ids`);
        ``max_length`` overrides the masker's.
        """
        if isinstance(trajectories, (str, bytes)) or hasattr(trajectories, "initial_state"):
            raise TypeError(f"mask_batch takes a list of trajectories, got {_describe(trajectories)}; mask one "
                            "with mask_trajectory(trajectory)")
        trajs = list(trajectories)
        for t, traj in enumerate(trajs):
            _check_trajectory(traj, f"trajectories[{t}]")
        fr = Fragments()
        seg_lists: list[list[int]] = []
        rewards: list[list[float]] = []
        limit = self.max_length if max_length == "default" else _check_max_length(max_length)
        build = self._chat if self.uses_chat_template else self._plain
        go = _go_tokenizer(self.tokenizer)
        if not self.uses_chat_template:  # the plain layout's prompt takes the special tokens (a BOS)
            fr.prompt_special = _is_hf(self.tokenizer)
            if go is not None and (go.special_prefix or go.special_suffix):
                fr.wrap_with(go.special_prefix, go.special_suffix)
        for t, traj in enumerate(trajs):
            fr.trajectory = t
            segs: list[int] = []
            build(traj, fr, segs, open_end)
            seg_lists.append(segs)
            rewards.append([float(t.rewards.total) for t in traj.transitions])
        limit = -1 if limit is None else limit
        if go is not None:
            return assemble_texts(go, fr, seg_lists, rewards, limit, self._decode)
        return assemble_ids(fr, fr.tokenize(self.tokenizer), seg_lists, rewards, limit, self._decode)



__all__ = [
    "MAX_LENGTH",
    "MAX_TOKEN_ID",
    "MaskedTrajectory",
    "TemplateError",
    "TokenSpan",
    "TrajectoryMasker",
    "_go_tokenizer",
    "assistant_message",
    "encode_many",
    "environment_messages",
    "initial_messages",
    "tool_calls_text",
    "tool_result_text",
]
