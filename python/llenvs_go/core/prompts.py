"""Answer-format system prompts for the chat messages of dataset items.

Rewards come from the ``<answer>…</answer>`` tags the default extractor reads,
so the messages a model is trained on ask for them from the first step.
"""

from __future__ import annotations

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
        return NAMED_PROMPTS.get(value, value)
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return "\n\n".join(NAMED_PROMPTS.get(v, v) for v in value)
    raise TypeError(f"system_prompt must be None, a str or a list of str, got {type(value).__name__}")
