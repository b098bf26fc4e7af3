"""Token masks for multi-turn training: which response tokens the model produced.

:class:`TrajectoryMasker` turns a :class:`~llenvs_go.core.trajectory.Trajectory` into
``prompt_ids``, ``response_ids`` and ``response_mask`` (1 = model token, 0 = environment
token), spans and rewards. Python renders the turns and calls the tokenizer (in batches);
the Go core lays the tokens out, cuts the response at ``max_length`` and places the
per-token rewards (``llenvs_mask_batch``), handing back an Arrow record batch of one row per
trajectory (:mod:`llenvs_go.core.columns`). ``docs/masking.md`` describes the layouts.

The masker is defined here; its output types (:mod:`~llenvs_go.integrations.masked_trajectory`), the chat
messages (:mod:`~llenvs_go.integrations.chat_messages`) and tokenizing (:mod:`~llenvs_go.integrations.tokenization`)
have modules of their own and are re-exported here.
"""

from __future__ import annotations

import json
import operator
from array import array
from collections.abc import Sequence
from itertools import accumulate, chain
from typing import Any, Literal

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot
from llenvs_go.core.trajectory import Trajectory, Transition
from llenvs_go.integrations.chat_messages import (
    _tools,
    assistant_message,
    environment_messages,
    initial_messages,
    tool_calls_text,
    tool_result_text,
)
from llenvs_go.integrations.masked_trajectory import (
    _ENV,
    _MODEL,
    _PROMPT,
    MAX_LENGTH,
    MAX_TOKEN_ID,
    MaskedTrajectory,
    TokenSpan,
    _PendingSpans,
    _SpanSource,
)
from llenvs_go.integrations.tokenization import _go_tokenizer, _GoTokenizer, _is_hf, _nfc, encode_many


class _Fragments:
    """The batch's fragments: distinct texts to tokenise (indices from 0, in order) and carried id lists
    (indices -1, -2, ...: the Go core numbers them after the texts)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.special: list[bool] = []
        self.carried_texts: list[str] = []
        self.carried_ids: list[Sequence[int]] = []
        self.carried_logprobs: list[Sequence[float] | None] = []
        self.trajectory = 0  # the trajectory whose segments are being laid out
        self._index: dict[str, int] = {}  # text -> fragment, one table per value of special
        self._special_index: dict[str, int] = {}

    def text(self, text: str, special: bool = False) -> int:
        index = self._special_index if special else self._index
        i = index.get(text)
        if i is None:
            i = index[text] = len(self.texts)
            self.texts.append(text)
            self.special.append(special)
        return i

    def carried(self, text: str, ids: Sequence[int], logprobs: Sequence[float] | None, step: int) -> int:
        _check_ids(ids, lambda: f"trajectories[{self.trajectory}], step {step}: Action.token_ids")
        self.carried_texts.append(text)
        self.carried_ids.append(ids)
        self.carried_logprobs.append(logprobs)
        return -len(self.carried_ids)

    def tokenize(self, tokenizer: Any) -> list[Sequence[int]]:
        """The ids of every fragment, texts then carried ones (the Go core's numbering)."""
        ids: list[Sequence[int]] = [()] * len(self.texts)
        for special in (False, True):
            todo = [i for i, sp in enumerate(self.special) if sp == special]
            for i, got in zip(todo, encode_many(tokenizer, [self.texts[i] for i in todo], special=special),
                              strict=True):
                ids[i] = got
        return ids + self.carried_ids

    def check_tokenized(self, ids: list[Sequence[int]]) -> None:
        """Raise the ValueError that names the first token id the tokenizer gave out of range, and for which
        text (the carried ids were checked when they were added)."""
        for f, got in enumerate(ids[:len(self.texts)]):
            text = self.texts[f]
            _check_ids(got, lambda t=text: f"the tokenizer's encoding of {_excerpt(t)}")


def _excerpt(text: str) -> str:
    return repr(text) if len(text) <= 60 else f"{text[:57]!r}... ({len(text)} characters)"


def _check_ids(ids: Sequence[int], where: Any) -> None:
    """Refuse token ids outside ``[0, MAX_TOKEN_ID]``: a ValueError naming ``where()``, the position and the id."""
    if not ids:
        return
    try:
        ok = min(ids) >= 0 and max(ids) <= MAX_TOKEN_ID
    except TypeError:
        ok = False
    if ok:
        return
    for p, v in enumerate(ids):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"{where()}[{p}] is {v!r} ({type(v).__name__}); token ids must be ints")
        if not 0 <= operator.index(v) <= MAX_TOKEN_ID:
            raise ValueError(f"{where()}[{p}] = {v} is out of range; token ids must be from 0 to {MAX_TOKEN_ID} "
                             "(2**31 - 1)")


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

    def _plain(self, traj: Trajectory[Any], fr: _Fragments, segs: list[int], open_end: bool = False) -> None:
        """llenvs' layout (tool error messages kept): prompt, then per step text, tool calls, environment."""
        text = fr.text
        segs += (text(traj.initial_state.observation.prompt, special=_is_hf(self.tokenizer)), _PROMPT, 0)
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
                env = "".join([tool_result_text(r) for r in results]) if results else ""
                if nxt.prompt != t.state.observation.prompt:
                    env += nxt.prompt
                if env:
                    segs += (text(env), _ENV, k)

    def _chat(self, traj: Trajectory[Any], fr: _Fragments, segs: list[int], open_end: bool = False) -> None:
        """The chat-template layout: the templated prompt, then per step the model's turn through its
        end-of-turn token and the text the template puts before the next generation prompt."""
        p = self._probe()
        eot, eot_id = p["eot"], p["eot_id"]
        tools = _tools(traj.initial_state)
        key = json.dumps(tools, sort_keys=True)
        probe_user = {"role": "user", "content": "LLENVS_MARK_U"}
        gen = self._probes.setdefault(("gen", key), self.render([probe_user], generation_prompt=True, tools=tools))
        prompt = self.render(self.template_messages(initial_messages(traj.initial_state)), generation_prompt=True,
                             tools=tools)
        segs += (fr.text(prompt), _PROMPT, 0)
        ts = traj.transitions
        for k, t in enumerate(ts):
            a = t.action
            last = k == len(ts) - 1 and not open_end
            asst = assistant_message(a)
            after = [{"role": "user", "content": "LLENVS_MARK_V"}] if last else self.turn_messages(t)
            body, env = self._split(self.render([probe_user, asst] + after, generation_prompt=not last, tools=tools),
                                    gen, eot)
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

    # -- masking -----------------------------------------------------------------------------

    def mask_trajectory(self, trajectory: Trajectory[Any]) -> MaskedTrajectory:
        """The masked form of one trajectory."""
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
        trajs = list(trajectories)
        fr = _Fragments()
        seg_lists: list[list[int]] = []
        rewards: list[list[float]] = []
        limit = self.max_length if max_length == "default" else _check_max_length(max_length)
        build = self._chat if self.uses_chat_template else self._plain
        for t, traj in enumerate(trajs):
            fr.trajectory = t
            segs: list[int] = []
            build(traj, fr, segs, open_end)
            seg_lists.append(segs)
            rewards.append([float(t.rewards.total) for t in traj.transitions])
        limit = -1 if limit is None else limit
        go = _go_tokenizer(self.tokenizer)
        if go is not None and not (any(fr.special) and (go.special_prefix or go.special_suffix)):
            return self._assemble_texts(go, fr, seg_lists, rewards, limit)
        ids = fr.tokenize(self.tokenizer)
        if fr.carried_ids:
            n_texts = len(fr.texts)
            for segs in seg_lists:
                segs[0::3] = [f if f >= 0 else n_texts - 1 - f for f in segs[0::3]]
        try:
            tokens = array("i", chain.from_iterable(ids))
            bad = bool(tokens) and min(tokens) < 0
        except OverflowError:
            bad = True
        if bad:
            fr.check_tokenized(ids)
            raise ValueError(f"token ids must be from 0 to {MAX_TOKEN_ID} (2**31 - 1)")  # not reached
        tok_offs = array("q", accumulate(map(len, ids), initial=0))
        segments, seg_offs, rews, rew_offs = _tables(seg_lists, rewards)
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        slot = BatchSlot()
        rc = _native.lib().llenvs_mask_batch(
            ffi.from_buffer("int32_t[]", tokens), ffi.from_buffer("int64_t[]", tok_offs), len(ids),
            ffi.from_buffer("int32_t[]", segments), ffi.from_buffer("int64_t[]", seg_offs),
            ffi.from_buffer("double[]", rews), ffi.from_buffer("int64_t[]", rew_offs), len(seg_lists), limit,
            slot.schema, slot.array, out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, _native.take_buffer(out, out_len))
        return self._unpack(slot.take(), fr, rewards)

    def _assemble_texts(self, go: _GoTokenizer, fr: _Fragments, seg_lists: list[list[int]],
                        rewards: list[list[float]], limit: int) -> list[MaskedTrajectory]:
        """Tokenize in Go: the texts go over as the str objects themselves, carried ids as int32 arrays."""
        texts = tuple(map(_nfc, fr.texts)) if go.nfc else tuple(fr.texts)
        carried = array("i", chain.from_iterable(fr.carried_ids))
        carried_offs = array("q", accumulate(map(len, fr.carried_ids), initial=0))
        segments, seg_offs, rews, rew_offs = _tables(seg_lists, rewards)
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        slot = BatchSlot()
        rc = _native.lib().llenvs_mask_pytexts(
            go.handle, ffi.cast("void *", id(texts)), len(texts), ffi.from_buffer("int32_t[]", carried),
            ffi.from_buffer("int64_t[]", carried_offs), len(fr.carried_ids), ffi.from_buffer("int32_t[]", segments),
            ffi.from_buffer("int64_t[]", seg_offs), ffi.from_buffer("double[]", rews),
            ffi.from_buffer("int64_t[]", rew_offs), len(seg_lists), limit, slot.schema, slot.array, out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, _native.take_buffer(out, out_len))
        return self._unpack(slot.take(), fr, rewards)

    def _unpack(self, batch: Any, fr: _Fragments, rewards: list[list[float]]) -> list[MaskedTrajectory]:
        """MaskedTrajectories from the Go core's record batch (one row per trajectory; capi/masking.go)."""
        n = len(rewards)
        col = batch.column
        # Whole columns to lists at once (C loops over the Arrow buffers); per trajectory only slices of them.
        # token_rewards (dense) are rebuilt from reward_at: one shared 0.0 rather than a float per token.
        po, ro = _values(col("prompt_ids").offsets), _values(col("response_ids").offsets)
        so, to = _values(col("spans").offsets), _values(col("reward_at").offsets)
        pids, rids = _values(col("prompt_ids").values), _values(col("response_ids").values)
        span_cols = col("spans").values
        recs = (_values(span_cols.field(0)), _values(span_cols.field(1)), _values(span_cols.field(2)),
                _values(span_cols.field(3)), _values(span_cols.field(4)))
        reward_at = _values(col("reward_at").values)
        trunc = _bytes(col("truncated"))
        mask = _bytes(col("response_mask").values)
        del batch, col, span_cols  # the C buffers go as soon as the columns are lists
        decode = getattr(self.tokenizer, "decode", None)
        any_logprobs = any(lp is not None for lp in fr.carried_logprobs)
        all_texts = fr.texts + fr.carried_texts  # fragment f's text, carried ones numbered after the texts
        all_logprobs = [None] * len(fr.texts) + fr.carried_logprobs if any_logprobs else None
        # The spans are built when first read (MaskedTrajectory.spans): most training code reads only
        # the tensors.
        span_source = _SpanSource(all_texts, recs, decode)
        out = []
        for i in range(n):
            r0, r1 = ro[i], ro[i + 1]
            response = tuple(rids[r0:r1])
            token_rewards = [0.0] * (r1 - r0)
            for r, pos in zip(rewards[i], reward_at[to[i]:to[i + 1]], strict=True):
                if pos >= 0:
                    token_rewards[pos] += r
            logprobs: list[float] | None = None
            if all_logprobs is not None:
                logprobs = [0.0] * (r1 - r0)
                starts, ends, frags = recs[0], recs[1], recs[4]
                for k in range(so[i], so[i + 1]):
                    start, end = starts[k], ends[k]
                    lp = all_logprobs[frags[k]]
                    if lp is not None:
                        logprobs[start:end] = [float(x) for x in lp[:end - start]]
            out.append(MaskedTrajectory(
                tuple(pids[po[i]:po[i + 1]]), response, tuple(mask[r0:r1]),
                _PendingSpans(span_source, so[i], so[i + 1]), tuple(rewards[i]), len(rewards[i]), bool(trunc[i]),
                tuple(token_rewards),
                None if logprobs is None else tuple(logprobs)))
        return out


def _values(arr: Any) -> list[int]:
    """The values of a non-null int32 Arrow array as a list, read from its buffer in one C loop (far faster
    than ``to_pylist``, which makes a scalar per value)."""
    if not len(arr):
        return []
    return memoryview(arr.buffers()[1]).cast("B")[4 * arr.offset:4 * (arr.offset + len(arr))].cast("i").tolist()


def _bytes(arr: Any) -> bytes:
    """The values of a non-null uint8 Arrow array as bytes (a tuple of a slice of it is a tuple of ints)."""
    return memoryview(arr.buffers()[1]).cast("B")[arr.offset:arr.offset + len(arr)].tobytes() if len(arr) else b""


def _tables(seg_lists: list[list[int]], rewards: list[list[float]]) -> tuple[array, array, array, array]:
    """The segment and reward tables of a batch as the C ABI takes them."""
    return (array("i", chain.from_iterable(seg_lists)),
            array("q", accumulate((len(s) // 3 for s in seg_lists), initial=0)),
            array("d", chain.from_iterable(rewards)),
            array("q", accumulate(map(len, rewards), initial=0)))


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
