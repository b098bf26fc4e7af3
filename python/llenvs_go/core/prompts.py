"""Answer-format system prompts for the chat messages of dataset items.

Rewards come from the ``<answer>…</answer>`` tags the default extractor reads,
so the messages a model is trained on ask for them from the first step.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Sequence

# reasoning-gym's "default" system prompt (reasoning_gym.utils.SYSTEM_PROMPTS).
REASONING_GYM_DEFAULT = (
    "Given a problem, your task is to answer the question by thinking step-by-step in a clear and specific manner.\n"
    "Once you have thought about the reasoning process, provide the answer in the following format:\n"
    "<answer>answer here</answer>\n"
    "Do not explain your reasoning inside the answer tags, provide only the final answer. When an example is "
    "provided, you should strictly follow the format of the output/answer in that example.\n"
)

# llenvs' fallback "general_reasoning" system prompt.
GENERAL_REASONING = "\n\n".join(
    [
        "You are a helpful assistant.",
        "Think through this step by step before giving your final answer.",
        "Put your final answer in <answer>...</answer> tags.",
    ]
)

NAMED_PROMPTS: dict[str, str] = {"default": REASONING_GYM_DEFAULT, "general_reasoning": GENERAL_REASONING}


def resolve_system_prompt(value: str | Sequence[str] | None) -> str | None:
    """Turn a configured system prompt into its text.

    ``None`` means no system message; a name in :data:`NAMED_PROMPTS` gives
    that prompt; any other string is used as it is; a list of strings is
    joined with blank lines (llenvs' fragment lists).
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
