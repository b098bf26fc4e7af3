"""Dataset presets: the columns, ground-truth extractor, scoring and answer format well-known datasets get by name.

GSM8K, MATH-style and AIME sets have a preset (:data:`PRESETS`); hub names are
matched to one by :func:`preset_for`. Each preset's answer extractor implies the
answer-format system prompt of its dataset items (:func:`default_system_prompt`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DatasetPreset:
    """Settings a dataset gets by name; each applies only where the caller gave no value of their own.

    ``answer_extractor`` is how responses are read, and with it the answer-format
    system prompt of dataset items (``"boxed"`` asks for ``\\boxed{}``).
    """

    question_column: str
    answer_column: str
    ground_truth_extractor: str
    scoring: str
    answer_extractor: str | None = None
    split: str | None = None
    subset: str | None = None


_GSM8K = DatasetPreset("question", "answer", "gsm8k", "numeric", subset="main")
_MATH = DatasetPreset("problem", "solution", "boxed", "math", answer_extractor="boxed")
_AIME = DatasetPreset("problem", "answer", "direct", "numeric", answer_extractor="boxed", split="train")
# Code: the answer column holds the tests; responses are read from their last code block.
_HUMANEVAL = DatasetPreset("prompt", "test", "direct", "code", answer_extractor="code_block")
_MBPP = DatasetPreset("text", "test_list", "direct", "code", answer_extractor="code_block", subset="full")
_APPS = DatasetPreset("question", "input_output", "direct", "code", answer_extractor="code_block")

#: The presets, by the name ``preset=`` takes.
PRESETS: dict[str, DatasetPreset] = {"gsm8k": _GSM8K, "math": _MATH, "aime": _AIME, "humaneval": _HUMANEVAL,
                                     "mbpp": _MBPP, "apps": _APPS}

#: Hub names with a preset of their own (columns that differ from the family's).
NAMED_PRESETS: dict[str, DatasetPreset] = {
    "gsm8k": _GSM8K,
    "openai/gsm8k": _GSM8K,
    "HuggingFaceH4/aime_2024": _AIME,
    "MathArena/aime_2025": _AIME,
    "AI-MO/aimo-validation-aime": _AIME,
    "di-zhang-fdu/AIME_1983_2024": DatasetPreset("Question", "Answer", "direct", "numeric", answer_extractor="boxed",
                                                 split="train"),
    "HuggingFaceH4/MATH-500": _MATH,
    "hendrycks/competition_math": _MATH,
    "EleutherAI/hendrycks_math": _MATH,
    "lighteval/MATH": _MATH,
    "openai_humaneval": _HUMANEVAL,
    "openai/openai_humaneval": _HUMANEVAL,
    "mbpp": _MBPP,
    "google-research-datasets/mbpp": _MBPP,
    "codeparrot/apps": _APPS,
    "BAAI/TACO": _APPS,
}

_WORD = re.compile(r"[a-z]+|\d+")


def preset_name_for(name: str) -> str | None:
    """The preset a hub dataset name gets (``"gsm8k"``, ``"aime"``, ``"math"``), or None.

    The rule, on the part of the name after the last ``/``, lower-cased and cut
    into runs of letters and of digits: ``gsm8k`` when it is exactly ``gsm8k``;
    ``aime`` when one run is ``aime``; ``math`` when one run is ``math`` or
    ``hendrycks`` (``MATH-500``, ``hendrycks_math``, ``competition_math``,
    ``MATH-lighteval``; not ``MetaMathQA``, ``NuminaMath``); ``humaneval``,
    ``mbpp`` or ``apps`` when one run is that word (``taco`` gets ``apps``,
    whose columns it shares). The names in :data:`NAMED_PRESETS` are matched
    first.
    """
    base = name.rstrip("/").rsplit("/", 1)[-1].lower()
    if base == "gsm8k":
        return "gsm8k"
    words = _WORD.findall(base)
    for word, key in (("humaneval", "humaneval"), ("mbpp", "mbpp"), ("apps", "apps"), ("taco", "apps")):
        if word in words:
            return key
    if "aime" in words:
        return "aime"
    if "math" in words or "hendrycks" in words:
        return "math"
    return None


def preset_for(name: str) -> DatasetPreset | None:
    """The preset applied to a hub dataset ``name``, or None (see :func:`preset_name_for`)."""
    if name in NAMED_PRESETS:
        return NAMED_PRESETS[name]
    key = preset_name_for(name)
    return None if key is None else PRESETS[key]


BOXED_REASONING = "\n\n".join([
    "You are a helpful assistant.",
    "Think through this step by step before giving your final answer.",
    "Put your final answer in \\boxed{}.",
])
CODE_SOLUTION = "\n\n".join([
    "You are a helpful programmer.",
    "Think through the problem before writing code.",
    "Put your complete Python solution in a ```python code block.",
])
GSM8K_REASONING = "\n\n".join([
    "You are a helpful assistant.",
    "Think through this step by step before giving your final answer.",
    "End your response with '#### ' followed by your numerical answer.",
])


def default_system_prompt(answer_extractor: str | None) -> str | None:
    """The answer-format system prompt that fits an answer extractor name.

    ``tag_based`` (and no extractor): reasoning-gym's ``<answer>`` prompt
    (``"default"``); ``boxed``: :data:`BOXED_REASONING`; ``gsm8k``:
    :data:`GSM8K_REASONING`; ``code_block``: :data:`CODE_SOLUTION`; any other
    extractor: None (no instruction fits it).
    """
    if answer_extractor in (None, "tag_based"):
        return "default"
    return {"boxed": BOXED_REASONING, "gsm8k": GSM8K_REASONING, "code_block": CODE_SOLUTION}.get(answer_extractor)


def resolve_preset(preset: Any, hub_name: str | None) -> DatasetPreset | None:
    """The preset ``preset=`` selects: a name or a :class:`DatasetPreset`; None or True, the one ``hub_name`` gets
    (none for files and rows in memory); False, none. An unknown name is a ValueError."""
    if preset is False:
        return None
    if preset is None or preset is True:
        return preset_for(hub_name) if hub_name is not None else None
    if isinstance(preset, str) and preset in PRESETS:
        return PRESETS[preset]
    if isinstance(preset, DatasetPreset):
        return preset
    near = difflib.get_close_matches(str(preset), list(PRESETS), n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise ValueError(f"unknown preset {preset!r}{hint} Presets: {sorted(PRESETS)} (or None / False)")
