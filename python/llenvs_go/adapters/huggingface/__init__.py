"""The ``huggingface`` adapter: any question/answer dataset as a single-turn environment.

``environment_registry.get(name, adapter="huggingface", ...)`` takes a hub
dataset name (loaded with ``datasets.load_dataset`` when the environment is
built), a local ``.jsonl`` / ``.json`` / ``.parquet`` / ``.csv`` file, or rows in
memory (a ``datasets.Dataset`` or a list of dicts). The rows are read into an
Arrow table, the requested rows are selected (``size``/``seed``), and the
question and answer columns cross into the Go core once, as Arrow string
buffers. From then on the expected answers are extracted, responses scored
and dataset items built in Go; no Python code runs per row.

Presets (:data:`PRESETS`) give the columns, ground-truth extractor, scoring and
answer format of well-known datasets by name (GSM8K, MATH-style sets, AIME
sets); any argument given explicitly overrides the preset. docs/datasets.md
describes the options, presets and scoring rules.

The modules, in the order a dataset goes through them:

- ``adapter``: :class:`HuggingFaceAdapter`, which checks ``get_environment``'s
  arguments and builds the environment;
- ``options``: the keywords it takes, their defaults and checks;
- ``presets``: the dataset presets and the answer-format prompts they imply;
- ``sources``: what ``name`` stands for (file, hub dataset, rows in memory) and
  loading its rows;
- ``tables``: files, lists of dicts and ``datasets.Dataset`` objects as pyarrow
  tables, and the rows kept (``size``/``seed``);
- ``hub``: hub datasets through ``datasets.load_dataset``, failing fast offline;
- ``columns``: the question, answer and metadata columns checked and made
  single Arrow string arrays;
- ``handover``: those arrays' buffers passed to the Go core, which builds the
  Go environment;
- ``environment``: :class:`HuggingFaceEnvironment` and :class:`HuggingFaceHidden`.

Every public name is importable from this package itself.
"""

from llenvs_go.adapters.huggingface.adapter import HuggingFaceAdapter
from llenvs_go.adapters.huggingface.columns import missing_column_message as missing_column_message
from llenvs_go.adapters.huggingface.columns import prepare_columns as prepare_columns
from llenvs_go.adapters.huggingface.environment import HuggingFaceEnvironment, HuggingFaceHidden
from llenvs_go.adapters.huggingface.hub import (
    HUB_CONNECT_TIMEOUT,
    DatasetUnavailableError,
    hub_offline,
    hub_unreachable,
)
from llenvs_go.adapters.huggingface.options import DEFAULTS, LOAD_DATASET_KEYWORDS, adapter_options
from llenvs_go.adapters.huggingface.presets import (
    BOXED_REASONING,
    GSM8K_REASONING,
    NAMED_PRESETS,
    PRESETS,
    DatasetPreset,
    default_system_prompt,
    preset_for,
    preset_name_for,
)
from llenvs_go.adapters.huggingface.sources import load_source as load_source
from llenvs_go.adapters.huggingface.tables import FILE_SUFFIXES, read_file, select_rows
from llenvs_go.adapters.huggingface.tables import dataset_table as dataset_table
from llenvs_go.adapters.huggingface.tables import rows_table as rows_table

__all__ = ["BOXED_REASONING", "DEFAULTS", "FILE_SUFFIXES", "GSM8K_REASONING", "HUB_CONNECT_TIMEOUT",
           "LOAD_DATASET_KEYWORDS", "NAMED_PRESETS", "PRESETS", "DatasetPreset", "DatasetUnavailableError",
           "HuggingFaceAdapter", "HuggingFaceEnvironment", "HuggingFaceHidden", "adapter_options",
           "default_system_prompt", "hub_offline", "hub_unreachable", "preset_for", "preset_name_for", "read_file",
           "select_rows"]
