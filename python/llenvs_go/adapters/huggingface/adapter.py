"""The ``huggingface`` adapter itself: :class:`HuggingFaceAdapter` turns ``get_environment``'s arguments into
a checked configuration and builds the :class:`HuggingFaceEnvironment`."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

from llenvs_go.adapters.huggingface.columns import prepare_columns
from llenvs_go.adapters.huggingface.environment import HuggingFaceEnvironment
from llenvs_go.adapters.huggingface.options import (
    DEFAULTS,
    GO_CONFIG_KEYS,
    LOAD_DATASET_KEYWORDS,
    OPTION_NAMES,
    UNSET,
    check_params,
    check_seed,
    unknown_key_error,
)
from llenvs_go.adapters.huggingface.presets import NAMED_PRESETS, default_system_prompt, preset_for, resolve_preset
from llenvs_go.adapters.huggingface.sources import is_local_file, resolve_source
from llenvs_go.adapters.huggingface.tables import select_rows
from llenvs_go.core.extraction import GoExtractor, extractor_settings
from llenvs_go.core.limits import check_size
from llenvs_go.core.prompts import check_prompt_template, resolve_system_prompt


class HuggingFaceAdapter:
    """Builds question/answer environments; registered as ``"huggingface"`` in ``environment_registry``.

    Args:
        cache_dir: passed to ``datasets.load_dataset`` for hub datasets.
    """

    name = "huggingface"
    #: get_environment accepts rows in memory (a datasets.Dataset or a list of dicts) as ``name``.
    accepts_data = True

    def __init__(self, cache_dir: str | None = None):
        self.cache_dir = cache_dir

    def __repr__(self) -> str:
        return f"HuggingFaceAdapter(cache_dir={self.cache_dir!r})"

    def list_environments(self) -> list[str]:
        """The hub names with a preset of their own (any other dataset works too)."""
        return sorted(NAMED_PRESETS)

    def backends(self) -> dict[str, str]:
        """Name -> ``"native"`` (rows are served by the Go core)."""
        return dict.fromkeys(self.list_environments(), "native")

    def get_environment_info(self, name: str) -> dict[str, str]:
        """``{"name", "adapter", "type", "description", "backend"}`` of a dataset name."""
        return {"name": name, "adapter": self.name, "type": "single_turn",
                "description": f"HuggingFace dataset: {name}", "backend": "native"}

    def get_default_system_prompt(self, name: str) -> str | None:
        """The answer-format system prompt a dataset's preset implies (reasoning-gym's ``<answer>`` one without)."""
        preset = preset_for(name) if isinstance(name, str) else None
        return resolve_system_prompt(default_system_prompt(preset.answer_extractor if preset else None))

    def get_prompt_template(self, name: str) -> str | None:
        """None: the question is the user message as it is."""
        return None

    def get_environment(
        self,
        name: Any,
        split: Any = UNSET,
        subset: Any = UNSET,
        question_column: Any = UNSET,
        answer_column: Any = UNSET,
        ground_truth_extractor: Any = UNSET,
        scoring: Any = UNSET,
        answer_extractor: str | GoExtractor | None = None,
        extra_rewards: tuple[Any, ...] | list[Any] = (),
        metadata_columns: Sequence[str] | None = None,
        size: int | None = None,
        seed: int | None = None,
        streaming: bool = False,
        trust_remote_code: bool = False,
        system_prompt: Any = UNSET,
        prompt_template: str | None = None,
        preset: str | None | bool = None,
        sandbox: Any = None,
        **kwargs: Any,
    ) -> HuggingFaceEnvironment:
        """Build a new environment over a question/answer dataset.

        Args:
            name: a hub dataset name (``"openai/gsm8k"``), a local file
                (``.jsonl``, ``.json``, ``.parquet``, ``.csv``), a
                ``datasets.Dataset`` or a list of dicts.
            split: the split of a hub dataset (``"test"``, or the preset's).
            subset: the hub dataset's configuration name (``datasets``' ``name``).
            question_column: the column shown to the model (``"problem"``).
            answer_column: the column holding the expected answer (``"solution"``).
            ground_truth_extractor: how the expected answer is read out of
                the answer cell: ``"boxed"`` (default), ``"gsm8k"``,
                ``"numeric"``, ``"last_line"``, ``"direct"``/``"raw"`` (the
                cell itself); the stripped cell when it finds nothing.
            scoring: how an extracted answer is compared with the expected
                one: ``"numeric"`` (default), ``"exact"``,
                ``"numeric_tolerance"``, ``"math"`` / ``"math_verify"``; or
                ``"code"``: the extracted program is run in the code sandbox
                against the tests the answer cell holds (stdin/stdout or
                call-based cases as JSON, a list of asserts, or HumanEval's
                ``check`` with the ``entry_point`` column); see docs/sandbox.md.
            answer_extractor: how responses are read (``"tag_based"`` by
                default, or the preset's): a name or an extractor object.
            extra_rewards: opt-in signals beside ``correctness``, e.g. ``("format",)``.
            metadata_columns: columns carried into reset info, ``state.hidden.entry``
                and item metadata.
            size: keep ``min(size, len)`` rows; with ``seed`` they are drawn
                after shuffling as ``Dataset.shuffle(seed=seed)`` does. Without
                ``size``, ``seed`` changes nothing (llenvs' rule).
            seed: see ``size``.
            streaming: not supported (a streamed dataset has no length).
            trust_remote_code: passed to ``datasets.load_dataset`` when True.
            system_prompt: the system message of dataset items; by default the
                answer-format prompt that fits the answer extractor.
            prompt_template: optional ``{question}`` template for the user message.
            preset: ``"gsm8k"``, ``"math"``, ``"aime"``, ``"humaneval"``,
                ``"mbpp"`` or ``"apps"`` to apply a preset to any source; None
                (default) applies the one a hub name gets; False applies none.
            sandbox: for ``scoring="code"``, a :class:`llenvs_go.code.Sandbox`
                with the limits of every test run (default ``Sandbox()``: 5 s,
                512 MiB, isolated); refused for other scorings.
            **kwargs: ``answer_extractor_config``, ``answer_extractors``,
                ``pre_cleaners``, ``post_cleaners``, and for hub datasets the
                keywords of ``datasets.load_dataset`` in :data:`LOAD_DATASET_KEYWORDS`.
        """
        # None stands for "not given" (EnvironmentConfig.build passes every field).
        kwargs = {k: v for k, v in kwargs.items() if not (k in LOAD_DATASET_KEYWORDS and v is None)}
        for key in kwargs:
            if key not in GO_CONFIG_KEYS and key not in LOAD_DATASET_KEYWORDS:
                near = difflib.get_close_matches(key, OPTION_NAMES, n=1, cutoff=0.6)
                hint = f"; did you mean {near[0]!r}?" if near else "."
                raise unknown_key_error(key, hint)
        if streaming:
            raise ValueError("streaming=True is not supported: a streamed dataset has no length, which scoring and "
                             "datasets by task index need; load it without streaming (select rows with size=)")
        source, display, in_memory = resolve_source(name)
        explicit = {k: v for k, v in (("split", split), ("subset", subset), ("question_column", question_column),
                                      ("answer_column", answer_column),
                                      ("ground_truth_extractor", ground_truth_extractor), ("scoring", scoring))
                    if v is not UNSET}
        chosen = resolve_preset(preset, source if isinstance(source, str) and not is_local_file(source) else None)
        params: dict[str, Any] = dict(DEFAULTS)
        if chosen is not None:
            for k in ("question_column", "answer_column", "ground_truth_extractor", "scoring", "split", "subset"):
                v = getattr(chosen, k)
                if v is not None:
                    params[k] = v
        params.update(explicit)
        if in_memory or is_local_file(source):
            params["split"] = explicit.get("split")  # a file or table has no splits; kept only as a label
            params["subset"] = None
            if kwargs.keys() & set(LOAD_DATASET_KEYWORDS):
                bad = sorted(kwargs.keys() & set(LOAD_DATASET_KEYWORDS))
                raise ValueError(f"{bad} are options of datasets.load_dataset, which only hub datasets use")
        check_params(params)
        if answer_extractor is None and chosen is not None and chosen.answer_extractor and \
                "answer_extractors" not in kwargs:
            answer_extractor = chosen.answer_extractor
        config: dict[str, Any] = {"name": display if in_memory else source, "adapter": self.name}
        size = check_size(size)
        seed = check_seed(seed)
        if size is not None:
            config["size"] = size
            if seed is not None:
                config["seed"] = seed
        if answer_extractor is not None and not isinstance(answer_extractor, str):
            settings = extractor_settings(answer_extractor)
            for k, v in settings.items():
                if k != "answer_extractor":
                    kwargs[k] = v
            answer_extractor = settings.get("answer_extractor")
        if answer_extractor is not None:
            config["answer_extractor"] = answer_extractor
        for k in GO_CONFIG_KEYS:
            if kwargs.get(k) is not None:
                config[k] = kwargs.pop(k)
        if answer_extractor is not None and "answer_extractors" in config:
            raise ValueError("give either answer_extractor (one extractor) or answer_extractors (a chain), not both")
        if isinstance(extra_rewards, (str, dict)) or not isinstance(extra_rewards, (list, tuple)):
            raise TypeError(f"extra_rewards must be a list or tuple of signal names or mappings, "
                            f"e.g. ('format',), got {extra_rewards!r}")
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        if metadata_columns is not None:
            if isinstance(metadata_columns, str) or not all(isinstance(c, str) for c in metadata_columns):
                raise TypeError(f"metadata_columns must be a list of column names, got {metadata_columns!r}")
            params["metadata_columns"] = list(metadata_columns)
        if trust_remote_code:
            params["trust_remote_code"] = True
        if params["scoring"] == "code":
            from llenvs_go.code import Sandbox

            box = Sandbox() if sandbox is None else sandbox
            if not isinstance(box, Sandbox):
                raise TypeError(f"sandbox must be a llenvs_go.code.Sandbox, got {type(box).__name__}")
            box.check_isolation()
            code = {k: v for k, v in json.loads(box._spec("main")).items() if k != "mode"}
            if box.interpreter is None:
                del code["interpreter"]  # this process's interpreter, filled in when the rows go to Go
            params["code"] = code
        elif sandbox is not None:
            raise ValueError(f"sandbox= applies to scoring='code' only (this environment's scoring is "
                             f"{params['scoring']!r})")
        load_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in LOAD_DATASET_KEYWORDS}
        if self.cache_dir is not None and "cache_dir" not in load_kwargs and not in_memory:
            load_kwargs["cache_dir"] = self.cache_dir
        params.update(load_kwargs)
        if in_memory:
            params["dataset_name"] = display
        if system_prompt is UNSET:
            system_prompt = default_system_prompt(_extractor_type(config))
        resolve_system_prompt(system_prompt)  # a bad value fails here, not when items are built
        if prompt_template is not None:
            check_prompt_template(prompt_template)
        config["params"] = params
        table = None
        if in_memory:
            table = select_rows(source, size, seed if size is not None else None)
            table = prepare_columns(table, params)
        env = HuggingFaceEnvironment(config, system_prompt=system_prompt, prompt_template=prompt_template,
                                     table=table, in_memory=in_memory)
        _ = env.handle  # load, check and hand the rows over now: a bad setting fails here, not on first use
        return env


def _extractor_type(config: dict[str, Any]) -> str | None:
    """The name of the extractor a configuration reads responses with (the first of a chain)."""
    if config.get("answer_extractor"):
        return config["answer_extractor"]
    chain = config.get("answer_extractors")
    if chain and isinstance(chain[0], dict):
        return chain[0].get("type")
    return None
