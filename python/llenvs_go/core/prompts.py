"""Answer-format system prompts for the chat messages of dataset items, and llenvs' prompt library.

Rewards come from the ``<answer>…</answer>`` tags the default extractor reads,
so the messages a model is trained on ask for them from the first step.

A configured ``system_prompt`` may name a prompt: reasoning-gym's ``"default"``,
one of llenvs' system prompts (:data:`SYSTEM_PROMPT_REGISTRY`: ``"general_reasoning"``,
``"math_reasoning"``, ...) or one of llenvs' fragments (:data:`FRAGMENT_REGISTRY`:
``"math_expert"``, ``"think_step_by_step"``, ...), alone or in a list; the names
give the same texts as in llenvs.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Sequence
from dataclasses import dataclass

# reasoning-gym's "default" system prompt (reasoning_gym.utils.SYSTEM_PROMPTS).
REASONING_GYM_DEFAULT = (
    "Given a problem, your task is to answer the question by thinking step-by-step in a clear and specific manner.\n"
    "Once you have thought about the reasoning process, provide the answer in the following format:\n"
    "<answer>answer here</answer>\n"
    "Do not explain your reasoning inside the answer tags, provide only the final answer. When an example is "
    "provided, you should strictly follow the format of the output/answer in that example.\n"
)



@dataclass(frozen=True)
class PromptFragment:
    """One instruction of llenvs' prompt library.

    Attributes:
        name: its name in :data:`FRAGMENT_REGISTRY`.
        content: the instruction's text.
        category: ``"reasoning"``, ``"format"``, ``"persona"`` or ``"constraint"``.
    """

    name: str
    content: str
    category: str


@dataclass(frozen=True)
class SystemPrompt:
    """A whole system prompt (llenvs' library ones are fragments joined by blank lines).

    Attributes:
        name: its name in :data:`SYSTEM_PROMPT_REGISTRY`, or None for one made on the spot.
        content: the prompt's text.
    """

    name: str | None
    content: str


# llenvs' fragments, by category; the texts are llenvs' (a model sees the same prompt either way).
_FRAGMENTS: dict[str, dict[str, str]] = {
    "reasoning": {
        "think_step_by_step": "Think through this step by step before giving your final answer.",
        "show_your_work": "Show your work and reasoning before providing the answer.",
        "reflect_then_answer": "Consider the problem carefully, reflect on your approach, then provide your answer.",
        "verify_your_answer": "After finding your answer, verify it by checking your work.",
        "direct_answer": "Provide only the final answer with no reasoning or explanation.",
    },
    "format": {
        "xml_answer": "Put your final answer in <answer>...</answer> tags.",
        "boxed_answer": "Put your final answer in \\boxed{}.",
        "gsm8k_answer": "End your response with '#### ' followed by your numerical answer.",
        "json_answer": "Provide your answer as a JSON object with an 'answer' field.",
    },
    "persona": {
        "math_expert": "You are an expert mathematician. Solve problems rigorously and precisely.",
        "coding_expert": "You are an expert programmer. Write clean, correct, and efficient code.",
        "general_assistant": "You are a helpful assistant.",
    },
    "constraint": {
        "be_concise": "Be concise and avoid unnecessary verbosity.",
        "no_apologies": "Do not apologize or hedge. Be direct and confident.",
        "single_answer": "Provide exactly one answer. Do not offer alternatives.",
    },
}

#: llenvs' prompt fragments by name.
FRAGMENT_REGISTRY: dict[str, PromptFragment] = {
    name: PromptFragment(name=name, content=text, category=category)
    for category, texts in _FRAGMENTS.items() for name, text in texts.items()
}

# llenvs' system prompts: each is its fragments joined by blank lines.
_SYSTEM_PROMPT_PARTS: dict[str, tuple[str, ...]] = {
    "general_reasoning": ("general_assistant", "think_step_by_step", "xml_answer"),
    "math_reasoning": ("math_expert", "show_your_work", "verify_your_answer", "xml_answer"),
    "math_boxed": ("math_expert", "show_your_work", "boxed_answer"),
    "math_gsm8k": ("general_assistant", "show_your_work", "gsm8k_answer"),
    "coding_problem": ("coding_expert", "think_step_by_step", "xml_answer"),
    "concise_reasoning": ("general_assistant", "think_step_by_step", "be_concise", "single_answer", "xml_answer"),
    "direct_answer": ("general_assistant", "direct_answer", "xml_answer"),
}

#: llenvs' system prompts by name.
SYSTEM_PROMPT_REGISTRY: dict[str, SystemPrompt] = {
    name: SystemPrompt(name=name, content="\n\n".join(FRAGMENT_REGISTRY[f].content for f in parts))
    for name, parts in _SYSTEM_PROMPT_PARTS.items()
}

# llenvs' fallback "general_reasoning" system prompt.
GENERAL_REASONING = SYSTEM_PROMPT_REGISTRY["general_reasoning"].content

#: Every name a ``system_prompt`` may give, and its text: ``"default"``, then llenvs' system prompts, then
#: its fragments (a name that is both, ``"direct_answer"``, is the system prompt, as in llenvs).
NAMED_PROMPTS: dict[str, str] = {
    "default": REASONING_GYM_DEFAULT,
    **{name: sp.content for name, sp in SYSTEM_PROMPT_REGISTRY.items()},
    **{name: f.content for name, f in FRAGMENT_REGISTRY.items() if name not in SYSTEM_PROMPT_REGISTRY},
}


def compose_system_prompt(*parts: str | PromptFragment | SystemPrompt, separator: str = "\n\n") -> str:
    """Join texts, fragments and system prompts (their ``content``) into one prompt, ``separator`` between."""
    return separator.join(p if isinstance(p, str) else p.content if isinstance(p, (PromptFragment, SystemPrompt))
                          else str(p) for p in parts)


def resolve_system_prompt(value: str | Sequence[str] | None) -> str | None:
    """Turn a configured system prompt into its text.

    ``None`` means no system message; a name in :data:`NAMED_PROMPTS` gives
    that prompt (``"default"``, or a system prompt or fragment of llenvs'
    library); any other string is used as it is; a list of strings, each a
    name or a text, is joined with blank lines (llenvs' fragment lists).
    """
    if value is None:
        return None
    if isinstance(value, str):
        if value in NAMED_PROMPTS:
            return NAMED_PROMPTS[value]
        if value.isidentifier():
            near = difflib.get_close_matches(value, list(NAMED_PROMPTS), n=1, cutoff=0.7)
            if near:
                raise ValueError(f"system_prompt {value!r} is not a prompt name; did you mean {near[0]!r}? "
                                 f"Names: {sorted(NAMED_PROMPTS)}. Any other text is used as the prompt itself.")
        return value
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return "\n\n".join(NAMED_PROMPTS.get(v, v) for v in value)
    raise TypeError(f"system_prompt must be None, a str or a list of str, got {type(value).__name__}")


def check_prompt_template(template: str) -> None:
    """Refuse a ``prompt_template`` that is not a plain ``{question}`` template.

    The only field allowed is ``{question}``, as it is: no format spec
    (``{question:>100}``) and no conversion (``{question!r}``), which would let a
    template make every item arbitrarily large or differ from what the Go core
    builds. Literal braces are written ``{{`` and ``}}``.
    """
    if not isinstance(template, str):
        raise TypeError(f"prompt_template must be a str with {{question}}, got {type(template).__name__}")
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as e:  # an unmatched brace
        raise ValueError(f"prompt_template must be a str.format template whose only field is "
                         f"{{question}}, got {template!r} (ValueError: {e}); write a literal brace as {{{{ or }}}}"
                         ) from None
    fields = []
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if name != "question":
            raise ValueError(f"prompt_template {template!r} has a field {{{name}}}: the only field is "
                             "{question} (write a literal brace as {{ or }})")
        if spec or conversion:
            what = (f"conversion !{conversion}" if conversion else "") + (" and " if conversion and spec else "") + \
                (f"format spec :{spec}" if spec else "")
            raise ValueError(f"prompt_template {template!r}: the field {{question}} has a {what}; only a plain "
                             "{question} is allowed (no format specs or conversions)")
        fields.append(name)
    if "question" not in fields:
        raise ValueError(f"prompt_template {template!r} has no {{question}} field, so the task's question would not "
                         "reach the model; add {question} where it belongs, e.g. 'Solve: {question}'")
