"""llenvs' prompt library at llenvs' path (``llenvs.inference.prompts``).

Fragments, system prompts and their registries are those of
:mod:`llenvs_go.core.prompts` (the names a ``system_prompt`` may give);
this module adds llenvs' question templates (:data:`TEMPLATE_REGISTRY`),
model profiles (:data:`PROFILE_REGISTRY`, :func:`detect_model_profile`) and
:func:`resolve_prompt_config`, the order in which llenvs' evaluation picks a
system prompt, template and profile.

llenvs-go runs no models: :meth:`ModelProfile.build_transformers` (llenvs'
message transformers for its inference backends) raises NotImplementedError.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go.core.prompts import (
    FRAGMENT_REGISTRY,
    SYSTEM_PROMPT_REGISTRY,
    PromptFragment,
    SystemPrompt,
    compose_system_prompt,
)

__all__ = [
    "FRAGMENT_REGISTRY",
    "PROFILE_REGISTRY",
    "SYSTEM_PROMPT_REGISTRY",
    "TEMPLATE_REGISTRY",
    "ModelProfile",
    "PromptFragment",
    "PromptTemplate",
    "SystemPrompt",
    "compose_system_prompt",
    "detect_model_profile",
    "resolve_prompt_config",
    "resolve_system_prompt",
]


def _text_of(name: str) -> str:
    if name in SYSTEM_PROMPT_REGISTRY:
        return SYSTEM_PROMPT_REGISTRY[name].content
    if name in FRAGMENT_REGISTRY:
        return FRAGMENT_REGISTRY[name].content
    return name


def resolve_system_prompt(value: str | Sequence[str]) -> str:
    """The text of a configured system prompt, as llenvs resolves it.

    Each name is looked up among the system prompts, then the fragments; any other
    string is the text itself. A list is resolved item by item and joined with blank lines.
    (``EnvironmentConfig.system_prompt`` also knows reasoning-gym's ``"default"`` and
    refuses near-misses of the names; this function, like llenvs', does neither.)
    """
    if isinstance(value, str):
        return _text_of(value)
    return "\n\n".join(_text_of(v) for v in value)


@dataclass(frozen=True)
class PromptTemplate:
    """A wrapper for a task's question: a ``str.format`` template with ``{question}``.

    Attributes:
        template: the template.
        name: its name in :data:`TEMPLATE_REGISTRY`, if it has one.
    """

    template: str
    name: str | None = None

    def apply(self, question: str, **fields: str) -> str:
        """The template filled in with ``question`` and any other ``fields``."""
        return string.Formatter().vformat(self.template, (), {"question": question, **fields})


#: llenvs' question templates by name.
TEMPLATE_REGISTRY: dict[str, PromptTemplate] = {
    name: PromptTemplate(template=text, name=name)
    for name, text in {
        "plain": "{question}",
        "math": "Solve the following math problem.\n\n{question}",
        "coding": "Solve the following programming problem.\n\n{question}",
        "reasoning": "Answer the following question. Think carefully.\n\n{question}",
    }.items()
}


@dataclass(frozen=True)
class ModelProfile:
    """How llenvs adjusts prompts for a model family.

    Attributes:
        name: the profile's name.
        system_prompt_prefix: text put before the system prompt.
        system_prompt_suffix: text put after it.
        preferred_answer_format: the name of the answer-format fragment the family prefers.
        stop_sequences: extra stop sequences.
        role_mapping: renamed roles (``{"system": "developer"}``).
    """

    name: str
    system_prompt_prefix: str | None = None
    system_prompt_suffix: str | None = None
    preferred_answer_format: str | None = None
    stop_sequences: tuple[str, ...] = ()
    role_mapping: dict[str, str] | None = None

    def build_transformers(self) -> list[Any]:
        """Not available: llenvs' prompt transformers belong to its inference backends, which llenvs-go has not."""
        raise NotImplementedError("ModelProfile.build_transformers: llenvs-go runs no models and has no prompt "
                                  "transformers; read the profile's fields instead")


#: llenvs' model profiles by name.
PROFILE_REGISTRY: dict[str, ModelProfile] = {
    p.name: p
    for p in (
        ModelProfile("deepseek_r1", system_prompt_suffix=(
            "\n\nUse <think>...</think> for your reasoning, then give your final answer.")),
        ModelProfile("o1", role_mapping={"system": "developer"}),
        ModelProfile("llama3_instruct"),
        ModelProfile("qwen_chat"),
    )
}

# Substrings of a model name (compared lower-cased) that select a profile, tried in this order.
_PROFILE_MARKERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("deepseek-r1", "deepseek_r1"), "deepseek_r1"),
    (("o1-preview", "o1-mini", "o1-"), "o1"),
    (("llama-3", "llama3"), "llama3_instruct"),
    (("qwen",), "qwen_chat"),
)


def detect_model_profile(model_name: str) -> ModelProfile | None:
    """The profile whose marker the model name contains (``"deepseek-ai/DeepSeek-R1-7B"``: ``deepseek_r1``), or None."""
    lowered = model_name.lower()
    for markers, profile in _PROFILE_MARKERS:
        if any(m in lowered for m in markers):
            return PROFILE_REGISTRY[profile]
    return None


def resolve_prompt_config(
    eval_config: Any,
    env_config: Any,
    *,
    adapter: Any | None = None,
    env_name: str | None = None,
    is_multi_turn: bool = False,
) -> tuple[str | None, PromptTemplate | None, ModelProfile | None]:
    """The system prompt text, question template and model profile llenvs' evaluation would use.

    The system prompt is the environment's ``system_prompt``, else the evaluation's, else the
    adapter's ``get_default_system_prompt(env_name)``, else (single-turn only) ``"general_reasoning"``.
    The template is the environment's ``prompt_template``, else the evaluation's (a name in
    :data:`TEMPLATE_REGISTRY` or a template text), else the adapter's ``get_prompt_template(env_name)``.
    The profile is the evaluation's ``model_profile``: a name, or ``"auto"`` to detect it from
    ``eval_config.model.model``. The configs are read by attribute, so any objects with those fields do.
    """
    raw = getattr(env_config, "system_prompt", None)
    if raw is None:
        raw = getattr(eval_config, "system_prompt", None)
    system: str | None = None
    if raw is not None:
        system = resolve_system_prompt(raw)
    else:
        if adapter is not None:
            default = adapter.get_default_system_prompt(env_name or "")
            if default is not None:
                system = resolve_system_prompt(default)
        if system is None and not is_multi_turn:
            system = SYSTEM_PROMPT_REGISTRY["general_reasoning"].content

    raw_template = getattr(env_config, "prompt_template", None)
    if raw_template is None:
        raw_template = getattr(eval_config, "prompt_template", None)
    template: PromptTemplate | None
    if raw_template is not None:
        template = TEMPLATE_REGISTRY.get(raw_template) or PromptTemplate(template=raw_template)
    elif adapter is not None:
        template = adapter.get_prompt_template(env_name or "")
    else:
        template = None

    raw_profile = getattr(eval_config, "model_profile", None)
    profile: ModelProfile | None = None
    if raw_profile == "auto":
        profile = detect_model_profile(getattr(getattr(eval_config, "model", None), "model", "") or "")
    elif raw_profile is not None:
        profile = PROFILE_REGISTRY.get(raw_profile)
    return system, template, profile
