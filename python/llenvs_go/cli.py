"""The ``llenvs-go`` command: list, show, export, score and serve environments, benchmark, check the install.

Built on click (the package's ``cli`` extra; see the README's Install section). Run
``llenvs-go --help`` or ``python -m llenvs_go --help``; every command takes
``--help``. Exit status: 0 on success, 1 when the work failed (the library
cannot be loaded, a file cannot be written, ``doctor`` found a problem), 2 for
a usage error (unknown option or environment, bad configuration or input).
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import importlib.metadata
import importlib.util
import json
import math
import os
import platform
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import click

from llenvs_go._version import __version__

FORMATS = ("verl", "trl", "openrlhf", "jsonl", "parquet")
# Optional packages doctor reports: (module, distribution, what needs it).
OPTIONAL = (
    ("click", "click", "this command (cli extra)"),
    ("datasets", "datasets", "to_hf_dataset, make_trl_dataset, export (hf extra)"),
    ("pyarrow", "pyarrow", "parquet files (comes with datasets)"),
    ("yaml", "PyYAML", "EnvironmentConfig.from_yaml, YAML --config files (yaml extra)"),
    ("reasoning_gym", "reasoning-gym", "tasks served by reasoning-gym, data files, bench (reasoning-gym extra)"),
    ("tqdm", "tqdm", "progress bars of to_hf_dataset"),
    ("transformers", "transformers", "chat templates in token masking"),
    ("torch", "torch", "OpenRLHF reward tensors"),
    ("verl", "verl", "veRL training (verl extra)"),
    ("trl", "trl", "TRL training (trl extra)"),
    ("openrlhf", "openrlhf", "OpenRLHF training"),
)
# The reasoning-gym tasks whose Go ports read reasoning-gym's data files.
DATA_FILE_TASKS = ("letter_counting", "word_sorting", "spell_backward")


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=repr))


def _fail(message: str) -> None:
    """Stop with exit status 1 and ``message`` on stderr."""
    raise click.ClickException(message)


def _usage(message: str) -> None:
    """Stop with exit status 2 (a usage error) and ``message`` on stderr."""
    raise click.UsageError(message)


def _library() -> None:
    """Load the Go library, or stop with exit status 1 saying why it cannot be loaded."""
    from llenvs_go import _native

    try:
        _native.lib()
    except (ImportError, OSError, RuntimeError) as e:
        _fail(str(e))


# -- configuration -------------------------------------------------------------

def _config_fields() -> dict[str, Any]:
    from llenvs_go.core.config import EnvironmentConfig

    out: dict[str, Any] = {}
    for f in dataclasses.fields(EnvironmentConfig):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
        else:
            out[f.name] = None
    return out


def _read_config_file(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        _usage(f"cannot read --config {path}: {e.strerror}")
    if path.endswith((".yaml", ".yml")):
        try:
            import yaml
        except ImportError:
            _usage(f"--config {path} is YAML, which needs PyYAML: pip install \"llenvs-go[yaml]\"")
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            _usage(f"--config {path} is not valid YAML: {e}")
    else:
        try:
            data = json.loads(text)
        except ValueError as e:
            _usage(f"--config {path} is not valid JSON ({e}); YAML files need a .yaml or .yml name")
    if data is None:
        return {}
    if not isinstance(data, dict):
        _usage(f"--config {path} must hold a mapping of configuration fields, got {type(data).__name__}")
    return data


def _parse_assignment(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        _usage(f"expected key=value, got {text!r} (e.g. seed=3, max_animals=5, answer_extractor=tag_based)")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def _resolve_adapter(name: str) -> str:
    from llenvs_go.core.registry import environment_registry

    rows = environment_registry.describe_environments()
    adapters = [r["adapter"] for r in rows if r["name"] == name]
    if not adapters:
        names = sorted({r["name"] for r in rows})
        near = difflib.get_close_matches(name, names, n=3)
        hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
        _usage(f"unknown environment {name!r}{hint} (`llenvs-go list` shows them all)")
    return "reasoning_gym" if "reasoning_gym" in adapters else adapters[0]


def build_config(name: str, config_file: str | None, assignments: Sequence[str], size: int | None = None,
                 seed: int | None = None) -> Any:
    """The ``EnvironmentConfig`` of a command line: NAME, ``--config`` file, ``key=value`` items, size, seed.

    Later sources win: the file, then ``key=value`` (a key that is not an
    EnvironmentConfig field is a field of the task, put in ``params``), then
    ``--size``/``--seed``. Values are read as JSON when they parse, else as text.
    """
    from llenvs_go.core.config import EnvironmentConfig

    _library()
    fields = _config_fields()
    data: dict[str, Any] = _read_config_file(config_file) if config_file else {}
    params = dict(data.pop("params", None) or {})
    for item in assignments:
        key, value = _parse_assignment(item)
        if key == "params" and isinstance(value, dict):
            params.update(value)
        elif key in fields:
            data[key] = value
        else:
            params[key] = value
    if size is not None:
        data["size"] = size
    if seed is not None:
        data["seed"] = seed
    data["name"] = name
    if "adapter" not in data:
        data["adapter"] = _resolve_adapter(name)
    if params:
        data["params"] = params
    try:
        return EnvironmentConfig.from_dict(data)
    except (TypeError, ValueError) as e:
        _usage(f"bad configuration for {name}: {e}")


def build_environment(config: Any) -> Any:
    """``config.build()``, with a configuration error reported as a usage error."""
    _library()
    try:
        return config.build()
    except (TypeError, ValueError, KeyError) as e:
        _usage(f"cannot build {config.name}: {e}")


def _config_options(f: Any) -> Any:
    f = click.argument("assignments", nargs=-1, metavar="[KEY=VALUE]...")(f)
    f = click.option("--config", "config_file", type=click.Path(dir_okay=False),
                     help="JSON or YAML (.yaml/.yml) file of EnvironmentConfig fields; task fields go in 'params'.")(f)
    return f


# -- commands --------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="llenvs-go")
def cli() -> None:
    """llenvs-go: rewards, datasets and environment loops for LLM RL trainers, on a Go core.

    KEY=VALUE items after an environment name set EnvironmentConfig fields
    (size, seed, answer_extractor, system_prompt, ...) or, for any other key,
    the task's own fields (e.g. max_animals=5); values are JSON when they parse.
    """


@cli.command("list")
@click.option("--adapter", help="Only this adapter's environments (e.g. reasoning_gym, native).")
@click.option("--backend", type=click.Choice(["native", "python"]), help="Only environments of this backend.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of {name, adapter, backend}.")
def list_command(adapter: str | None, backend: str | None, as_json: bool) -> None:
    """List the environments, with the adapter and backend (native: Go, python: Python) of each."""
    from llenvs_go.core.registry import environment_registry

    _library()
    try:
        rows = environment_registry.describe_environments(adapter)
    except (KeyError, ValueError) as e:
        _usage(str(e))
    if backend:
        rows = [r for r in rows if r["backend"] == backend]
    rows = sorted(rows, key=lambda r: (r["name"], r["adapter"]))
    if as_json:
        _emit_json(rows)
        return
    width = max([len(r["name"]) for r in rows] + [4])
    click.echo(f"{'name':{width}s}  {'adapter':13s}  backend")
    for r in rows:
        click.echo(f"{r['name']:{width}s}  {r['adapter']:13s}  {r['backend']}")
    counts = {b: sum(r["backend"] == b for r in rows) for b in ("native", "python")}
    click.echo(f"\n{len(rows)} environments ({counts['native']} native, {counts['python']} python)")


def _task_fields(name: str, adapter: str) -> dict[str, Any] | None:
    """The task's own configuration fields with their defaults, where they are known (reasoning-gym's class)."""
    if adapter != "reasoning_gym" or importlib.util.find_spec("reasoning_gym") is None:
        return None
    try:
        from reasoning_gym.factory import DATASETS

        cls = DATASETS[name][1]
    except (ImportError, KeyError):
        return None
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in ("seed", "size"):
            continue
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
        else:
            out[f.name] = None
    return out


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


@cli.command("show")
@click.argument("name")
@_config_options
@click.option("--index", default=0, show_default=True, type=int, help="Task index of the sample item.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: spec, options, task_fields, config, sample.")
def show_command(name: str, config_file: str | None, assignments: tuple[str, ...], index: int,
                 as_json: bool) -> None:
    """Show environment NAME: its spec, configuration fields with defaults and a sample item."""
    from llenvs_go.integrations import DatasetProvider

    config = build_config(name, config_file, assignments)
    env = build_environment(config)
    _seed_drawn(config, env)
    try:
        item = DatasetProvider(env)[index]
    except (IndexError, ValueError) as e:
        _usage(f"--index {index}: {e}")
    spec = dataclasses.asdict(env.spec)
    signals = getattr(env, "signal_specs", None)
    if callable(signals):
        signals = signals()
    info = {
        "name": name,
        "adapter": config.adapter,
        "backend": getattr(env, "backend", "python"),
        "size": len(env),
        "spec": spec,
        "signals": signals,
        "options": {k: v for k, v in _config_fields().items() if k != "name"},
        "task_fields": _task_fields(name, config.adapter),
        "config": getattr(env, "config", None),
        "sample": {"task_index": item.task_index, "prompt": item.prompt, "messages": list(item.messages),
                   "ground_truth": item.ground_truth},
    }
    if as_json:
        _emit_json(_jsonable(info))
        return
    click.echo(f"{name}  (adapter {config.adapter}, backend {info['backend']}, {info['size']} tasks)")
    click.echo("\nspec:")
    for k, v in spec.items():
        click.echo(f"  {k}: {json.dumps(v, default=repr)}")
    if signals:
        click.echo("\nsignals: " + ", ".join(f"{s['name']} ({s['reward_type']}, weight {s['weight']})"
                                             for s in signals))
    click.echo("\noptions (EnvironmentConfig fields, default):")
    for k, v in info["options"].items():
        click.echo(f"  {k} = {json.dumps(v, default=repr)}")
    fields = info["task_fields"]
    if fields is None:
        click.echo("\ntask fields: listed for reasoning-gym tasks when reasoning-gym is installed "
                   "(a wrong key is an error that lists the valid ones)")
    else:
        click.echo("\ntask fields (KEY=VALUE or params, default):")
        for k, v in fields.items():
            click.echo(f"  {k} = {json.dumps(v, default=repr)}")
    click.echo(f"\nsample item {item.task_index}:")
    for m in item.messages:
        click.echo(f"  [{m.get('role')}] {m.get('content')}")
    click.echo(f"  ground truth: {item.ground_truth}")


def _chunks(n: int, size: int) -> Iterator[range]:
    for lo in range(0, n, size):
        yield range(lo, min(n, lo + size))


@cli.command("export")
@click.argument("name")
@_config_options
@click.option("--format", "fmt", required=True, type=click.Choice(FORMATS),
              help="verl: parquet rows for RLHFDataset; trl: a GRPOTrainer dataset (.parquet, .jsonl or a "
                   "save_to_disk directory); openrlhf: JSON Lines for PromptDataset; jsonl, parquet: the "
                   "DatasetProvider columns.")
@click.option("--size", type=click.IntRange(min=1), help="Number of tasks (the environment's size).")
@click.option("--seed", type=int, help="Dataset seed.")
@click.option("-o", "--output", required=True, type=click.Path(), help="File (or directory) to write.")
@click.option("--split", default="train", show_default=True, help="verl: extra_info.split.")
@click.option("--text", is_flag=True, help="trl, openrlhf: prompts as one text instead of chat messages "
              "(single-turn environments only).")
@click.option("--agent-name", default="llenvs", show_default=True,
              help="verl, multi-turn environments: the agent_name column (the agent loop's config entry).")
@click.option("--chunk-size", default=10000, show_default=True, type=click.IntRange(min=1),
              help="Tasks generated per step (the progress bar's step).")
@click.option("--progress/--no-progress", default=None, help="Show a progress bar (default: on a terminal).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {path, format, rows}.")
def export_command(name: str, config_file: str | None, assignments: tuple[str, ...], fmt: str, size: int | None,
                   seed: int | None, output: str, split: str, text: bool, agent_name: str, chunk_size: int,
                   progress: bool | None, as_json: bool) -> None:
    """Write environment NAME's tasks as a training dataset for a framework, or as JSON Lines/parquet.

    Score the trained model's responses with the same NAME, configuration,
    --size and --seed (the rows of verl, trl and openrlhf carry the
    environment's configuration for their reward functions). A multi-turn
    environment (guess_number, calculator_arithmetic, iterative=...) gives
    the rows of llenvs-go's agent loops instead: verl rows name the loop in
    agent_name and the task in extra_info.task_index, trl prompts carry the
    task index the rollout function reads, openrlhf labels the task index.
    """
    from llenvs_go.integrations._multiturn import is_multi_turn

    config = build_config(name, config_file, assignments, size, seed)
    env = build_environment(config)
    n = len(env)
    if is_multi_turn(env) and text:
        _usage(f"--text: {env.spec.name} is multi-turn, and its rows carry the chat messages the agent loop opens "
               f"the episode with; drop --text (every --format carries multi-turn rows: {', '.join(FORMATS)})")
    if not agent_name:
        _usage("--agent-name must not be empty (the name of the agent loop's config entry, e.g. llenvs)")
    show = sys.stderr.isatty() if progress is None else progress
    if not show and importlib.util.find_spec("datasets") is not None:
        import datasets

        datasets.disable_progress_bars()
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        _fail(f"cannot write {output}: directory {parent} does not exist (create it, or choose another -o)")
    _seed_drawn(config, env)
    try:
        with _row_writer(fmt, output) as write:
            for rows in _export_chunks(env, fmt, n, chunk_size, split, text, show, agent_name):
                write(rows)
    except OSError as e:
        _fail(f"cannot write {output}: {e}")
    if as_json:
        _emit_json({"path": output, "format": fmt, "rows": n})
    else:
        click.echo(f"wrote {n} {name} tasks ({fmt}) to {output}", err=True)


@cli.command("serve")
@click.argument("name", required=False)
@_config_options
@click.option("--size", type=click.IntRange(min=1), help="Number of tasks (as in the export).")
@click.option("--seed", type=int, help="Dataset seed (as in the export).")
@click.option("--also", "more", multiple=True, type=click.Path(dir_okay=False),
              help="Serve another environment too, from a JSON or YAML configuration file that names it "
                   "(its 'name' field); repeatable.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to bind. Bind another than loopback only behind a TLS proxy or a network policy.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535), help="TCP port (0: any free).")
@click.option("--labels", type=click.Choice(["math", "exact"]), default="math", show_default=True,
              help="How ground-truth labels are scored: the last \\boxed{} verified as math, or that box equal to "
                   "the label.")
@click.option("--token-file", type=click.Path(dir_okay=False),
              help="File holding a bearer token every endpoint but /health then requires.")
@click.option("--concurrency", type=click.IntRange(min=1), help="Requests scored at once (default: the Go threads).")
@click.option("--queue", default=1024, show_default=True, type=click.IntRange(min=1),
              help="Requests that may wait beyond those being scored; more get 429 with Retry-After.")
@click.option("--max-items", default=65536, show_default=True, type=click.IntRange(min=1),
              help="Items one request may hold (413 beyond).")
@click.option("--max-body-mb", default=64, show_default=True, type=click.IntRange(min=1),
              help="Largest request body in MiB (413 beyond).")
@click.option("--request-timeout", default=120.0, show_default=True, type=click.FloatRange(min=0.001),
              help="Seconds from admission to answer; items not scored by then get status timeout.")
@click.option("--read-timeout", default=60.0, show_default=True, type=click.FloatRange(min=0.001),
              help="Seconds a client may take to send its whole request.")
@click.option("--stop-timeout", default=30.0, show_default=True, type=click.FloatRange(min=0),
              help="On SIGTERM or SIGINT, seconds to let accepted requests finish before closing.")
def serve_command(name: str | None, config_file: str | None, assignments: tuple[str, ...], size: int | None,
                  seed: int | None, more: tuple[str, ...], host: str, port: int, labels: str,
                  token_file: str | None, concurrency: int | None, queue: int, max_items: int, max_body_mb: int,
                  request_timeout: float, read_timeout: float, stop_timeout: float) -> None:
    """Serve rewards over HTTP for environment NAME (and --also others) until SIGTERM or SIGINT.

    Endpoints: POST /get_reward (and /) in OpenRLHF's remote reward protocol
    (--reward.remote_url http://HOST:PORT/get_reward), POST /score (batches),
    POST /verify (NeMo-Gym's shape), GET /health, /ready and /metrics.
    Without NAME only ground-truth labels are served (math verification or
    exact match, and veRL's data-source routing on /score). Serve the
    environment with the configuration, --size and --seed its rows were
    exported with: a row of another environment is answered as an error,
    never scored against the wrong task. See docs/serving.md.
    """
    from llenvs_go.serving import serve

    if name is not None and "=" in name:
        _usage(f"expected an environment name before KEY=VALUE items, got {name!r}")
    if name is None and (assignments or config_file or size is not None or seed is not None):
        _usage("KEY=VALUE, --config, --size and --seed configure NAME; give the environment's name first")
    _library()
    envs: dict[str, Any] = {}
    configs = []
    if name is not None:
        configs.append(build_config(name, config_file, assignments, size, seed))
    for path in more:
        data = _read_config_file(path)
        other = data.get("name")
        if not isinstance(other, str) or not other:
            _usage(f"--also {path} must name its environment in a 'name' field")
        configs.append(build_config(other, path, ()))
    for config in configs:
        env = build_environment(config)
        _seed_drawn(config, env)
        key = env.spec.name
        k = 2
        while key in envs:
            key, k = f"{env.spec.name}-{k}", k + 1
        envs[key] = env
    token = None
    if token_file is not None:
        try:
            with open(token_file, encoding="utf-8") as f:
                token = f.read().strip()
        except OSError as e:
            _usage(f"cannot read --token-file {token_file}: {e.strerror}")
        if not token:
            _usage(f"--token-file {token_file} is empty")
    try:
        server = serve(envs or None, host=host, port=port, labels=labels, token=token, concurrency=concurrency,
                       queue=queue, max_items=max_items, max_body_bytes=max_body_mb << 20,
                       request_timeout=request_timeout, read_timeout=read_timeout)
    except (TypeError, ValueError) as e:
        _fail(f"cannot serve: {e}")
    served = ", ".join(envs) or "ground-truth labels only"
    click.echo(f"serving {served} on {server.url}", nl=True)
    sys.stdout.flush()
    click.echo(f"OpenRLHF: --reward.remote_url {server.url}/get_reward; stop with SIGTERM or Ctrl-C", err=True)
    drained = server.serve_forever(stop_timeout)
    if drained:
        click.echo("stopped: every accepted request was answered", err=True)
    else:
        click.echo(f"stopped after {stop_timeout} s with requests still in flight (their connections were closed)",
                   err=True)
        sys.exit(1)


def _seed_drawn(config: Any, env: Any) -> int | None:
    """The seed the environment drew when the configuration gave none, printed on stderr; None when it was given."""
    if config.seed is not None:
        return None
    seed = (getattr(env, "config", None) or {}).get("seed")
    if seed is not None:
        click.echo(f"no seed given: drew seed {seed} (pass --seed {seed} to get the same tasks again)", err=True)
    return seed


def _export_chunks(env: Any, fmt: str, n: int, chunk_size: int, split: str, text: bool, show: bool,
                   agent_name: str = "llenvs") -> Iterator[Any]:
    """The export's rows, one chunk of ``chunk_size`` tasks at a time (a list of rows, or a datasets.Dataset)."""
    from llenvs_go.integrations import DatasetProvider
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset
    from llenvs_go.integrations.trl import make_trl_dataset
    from llenvs_go.integrations.verl import make_verl_dataset

    provider = DatasetProvider(env) if fmt in ("jsonl", "parquet") else None
    bar_cm = click.progressbar(length=n, label=f"{fmt} rows", file=sys.stderr, show_pos=True) if show \
        else contextlib.nullcontext(_NoBar())
    with bar_cm as bar:
        for chunk in _chunks(n, chunk_size):
            try:
                if fmt == "verl":
                    yield make_verl_dataset(env, split=split, indices=chunk, agent_name=agent_name)
                elif fmt == "openrlhf":
                    yield make_openrlhf_dataset(env, conversational=not text, indices=chunk)
                elif fmt == "trl":
                    yield make_trl_dataset(env, conversational=not text, indices=chunk)
                else:
                    assert provider is not None
                    yield provider.to_hf_dataset(chunk, progress=False, chunk_size=chunk_size)
            except ImportError as e:
                _fail(f"{e} (or pip install \"llenvs-go[hf]\")")
            bar.update(len(chunk))


class _NoBar:
    def update(self, n: int) -> None:
        pass


def _arrow_table(rows: Any) -> Any:
    """A chunk of rows (a list of dicts, or a datasets.Dataset) as a pyarrow Table."""
    import pyarrow as pa

    if isinstance(rows, list):
        return pa.Table.from_pylist(rows)
    return rows.with_format("arrow")[:]


@contextlib.contextmanager
def _row_writer(fmt: str, output: str) -> Iterator[Any]:
    """A function that appends one chunk of rows to ``output``, so that no more than a chunk is held in memory.

    Parquet files get one row group per chunk (every chunk cast to the first
    one's schema), JSON Lines files one line per row. A ``save_to_disk``
    directory (``trl`` to a PATH that is neither .parquet nor .jsonl/.json)
    is written once, from every chunk.
    """
    kind = "parquet" if fmt in ("verl", "parquet") or (fmt == "trl" and output.endswith(".parquet")) else \
        "jsonl" if fmt in ("openrlhf", "jsonl") or output.endswith((".jsonl", ".json")) else "directory"
    if kind == "parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            _fail("parquet files need pyarrow: pip install pyarrow (datasets brings it)")
        from llenvs_go.integrations.verl import check_parquet_rows

        state: dict[str, Any] = {}

        def write_parquet(rows: Any) -> None:
            if isinstance(rows, list):
                try:
                    check_parquet_rows(rows)
                except ValueError as e:
                    _fail(f"cannot write {output}: {e}")
            table = _arrow_table(rows)
            writer = state.get("writer")
            if writer is None:
                writer = state["writer"] = pq.ParquetWriter(output, table.schema)
            elif table.schema != writer.schema:
                table = table.cast(writer.schema)
            writer.write_table(table)

        try:
            yield write_parquet
        finally:
            if "writer" in state:
                state["writer"].close()
    elif kind == "jsonl":
        with open(output, "wb") as f:
            def write_jsonl(rows: Any) -> None:
                if isinstance(rows, list):
                    f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
                else:
                    rows.to_json(f, lines=True, force_ascii=False)

            yield write_jsonl
    else:
        import datasets

        parts: list[Any] = []
        yield parts.append
        if not parts:
            _fail("no rows to write")
        (datasets.concatenate_datasets(parts) if len(parts) > 1 else parts[0]).save_to_disk(output)


def _input_name(path: str) -> str:
    return "stdin" if path == "-" else path


def _read_responses(path: str) -> tuple[list[int], list[str], list[str | None]]:
    """task_index, response and (where a row carries one) env_reference of every line of ``path``."""
    indices: list[int] = []
    responses: list[str] = []
    references: list[str | None] = []
    try:
        f = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as e:
        _usage(f"cannot read --input {path}: {e.strerror}")
    where = _input_name(path)
    try:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as e:
                _usage(f"{where} line {lineno} is not JSON ({e}); each line is "
                       '{"task_index": <int>, "response": <str>}')
            if not isinstance(row, dict) or "task_index" not in row or "response" not in row:
                _usage(f"{where} line {lineno} needs the keys task_index and response, got "
                       f"{sorted(row) if isinstance(row, dict) else type(row).__name__}")
            i, r = row["task_index"], row["response"]
            if isinstance(i, bool) or not isinstance(i, int):
                _usage(f"{where} line {lineno}: task_index must be an int, got {i!r}")
            if not isinstance(r, str):
                _usage(f"{where} line {lineno}: response must be a string, got {type(r).__name__}")
            ref = row.get("env_reference")
            if ref is not None and not isinstance(ref, str):
                _usage(f"{where} line {lineno}: env_reference must be a string (the JSON text of the exported "
                       f"rows' env_reference), got {type(ref).__name__}")
            indices.append(i)
            responses.append(r)
            references.append(ref or None)
    except UnicodeDecodeError as e:
        _usage(f"{where} is not UTF-8 text: {e}")
    finally:
        if f is not sys.stdin:
            f.close()
    return indices, responses, references


def _summary(totals: list[float], signals: list[dict[str, float | None]], errors: int) -> dict[str, Any]:
    def stats(values: list[float]) -> dict[str, Any]:
        finite = [v for v in values if not math.isnan(v)]
        if not finite:
            return {"mean": None, "min": None, "max": None, "count": 0}
        return {"mean": sum(finite) / len(finite), "min": min(finite), "max": max(finite), "count": len(finite)}

    names: list[str] = []
    for s in signals:
        names.extend(k for k in s if k not in names)
    per_signal = {k: stats([float(v) for s in signals if (v := s.get(k)) is not None]) for k in names}
    return {"responses": len(totals), "mean_reward": stats(totals)["mean"], "reward": stats(totals),
            "signals": per_signal, "errors": errors}


def _seed_drawn_silently(config: Any, env: Any) -> bool:
    """Whether ``env`` drew its seed because ``config`` gave none (its tasks are then not the exported ones)."""
    return config.seed is None and (getattr(env, "config", None) or {}).get("seed") is not None


def _reference_groups(name: str, references: list[str | None], where: str) -> list[tuple[Any, list[int]]]:
    """The environments the rows' references name, each with the positions of its rows."""
    from llenvs_go.integrations._references import UnscorableRowError, build_from_reference

    positions: dict[str, list[int]] = {}
    for k, ref in enumerate(references):
        positions.setdefault(ref or "", []).append(k)
    groups = []
    for ref, rows in positions.items():
        try:
            ref_name = json.loads(ref).get("name")
        except (ValueError, AttributeError):
            ref_name = None
        if ref_name != name:
            _usage(f"{where} response {rows[0] + 1}: its env_reference names {ref_name!r}, not {name!r}; score it "
                   f"with `llenvs-go score {ref_name}` or fix the rows")
        try:
            groups.append((build_from_reference(ref), rows))
        except UnscorableRowError as e:
            _usage(f"{where} response {rows[0] + 1}: {e}")
        except (TypeError, ValueError, KeyError) as e:
            _usage(f"{where} response {rows[0] + 1}: its env_reference cannot be built: {e}")
    return groups


def _check_references(env: Any, references: list[str | None], where: str) -> None:
    """Stop with a usage error when a row's env_reference names another environment than ``env``."""
    from llenvs_go.integrations._references import environment_reference, mismatch_message, same_environment

    own = environment_reference(env)
    if not own:
        return
    for k, ref in enumerate(references):
        if ref is not None and not same_environment(ref, own):
            _usage(f"{where} response {k + 1} was made from another environment: {mismatch_message(ref, own)}")


def _score_groups(groups: list[tuple[Any, list[int]]], indices: list[int], responses: list[str],
                  where: str) -> tuple[list[float], list[dict[str, Any]], list[str | None], dict[int, str]]:
    """Totals, signals, extracted answers and errors (by position) of every response, scored by its group's env."""
    from llenvs_go import _native
    from llenvs_go.integrations import Scorer

    n = len(indices)
    totals: list[float] = [0.0] * n
    signals: list[dict[str, Any]] = [{}] * n
    extracted: list[str | None] = [None] * n
    errors: dict[int, str] = {}
    for env, rows in groups:
        try:
            results = Scorer(env).score_batch(task_indices=[indices[k] for k in rows],
                                              responses=[responses[k] for k in rows])
        except _native.TaskIndexError as e:
            _usage(f"{where}: {e} (is --size the one the tasks were exported with?)")
        except (TypeError, ValueError) as e:
            _usage(f"{where}: {e}")
        group_totals = results.totals
        for j, k in enumerate(rows):
            r = results[j]
            totals[k], signals[k], extracted[k] = group_totals[j], r.signals, r.extracted_answer
        for j, message in results.errors.items():
            errors[rows[j]] = message
    return totals, signals, extracted, errors


@cli.command("score")
@click.argument("name")
@_config_options
@click.option("-i", "--input", "input_path", required=True,
              help='JSON Lines file ("-" for stdin), one {"task_index": <int>, "response": <str>} per line; '
                   'rows may carry "env_reference" (as exported trl rows do), which then needs no --seed.')
@click.option("--size", type=click.IntRange(min=1), help="Number of tasks (as in the export).")
@click.option("--seed", type=int, help="Dataset seed (as in the export); required unless every row carries its "
              "env_reference.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write one JSON line per response: task_index, reward, signals, extracted_answer, error.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the summary and every reward.")
def score_command(name: str, config_file: str | None, assignments: tuple[str, ...], input_path: str,
                  size: int | None, seed: int | None, output: str | None, as_json: bool) -> None:
    """Score the responses of a JSON Lines file against environment NAME's tasks.

    Prints the mean reward and, per signal, its mean, minimum and maximum.
    The tasks are those of NAME's configuration with --seed; without a seed,
    every row must carry its env_reference (the environment it was exported
    from), and each row is scored against that environment.
    """
    indices, responses, references = _read_responses(input_path)
    config = build_config(name, config_file, assignments, size, seed)
    where = _input_name(input_path)
    carried = [r for r in references if r is not None]
    if config.seed is None and carried:
        if len(carried) < len(references):
            line = references.index(None) + 1
            _usage(f"{where}: some rows carry an env_reference and some do not (response {line} has none); "
                   "give every row its env_reference, or pass --seed")
        groups = _reference_groups(name, references, where)
        unused = [o for o, given in (("--size", size is not None), ("--config", config_file), ("KEY=VALUE",
                                     assignments)) if given]
        click.echo("no seed given: scoring each row against the environment its env_reference names"
                   + (f" ({', '.join(unused)} not used; pass --seed to score against NAME's configuration and "
                      "check the references against it)" if unused else ""), err=True)
    else:
        env = build_environment(config)
        if _seed_drawn_silently(config, env):
            _usage(f"score needs the seed the tasks were made with: pass --seed S (or seed=S, or 'seed' in "
                   f"--config), as in the export; without one a seed is drawn and {where}'s responses are scored "
                   "against other tasks. Rows that carry their env_reference (the column of exported trl rows) "
                   "are scored against it without --seed")
        if carried:
            _check_references(env, references, where)
        groups = [(env, list(range(len(indices))))]
    totals, signals, extracted, errors = _score_groups(groups, indices, responses, where)
    summary = _summary(totals, signals, len(errors))
    if output:
        try:
            with open(output, "w", encoding="utf-8") as f:
                for k in range(len(totals)):
                    row = {"task_index": indices[k], "reward": totals[k], "signals": signals[k],
                           "extracted_answer": extracted[k]}
                    if k in errors:
                        row["error"] = errors[k]
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
        except OSError as e:
            _fail(f"cannot write {output}: {e}")
    if as_json:
        _emit_json({"summary": summary, "rewards": totals})
        return
    mean = summary["mean_reward"]
    click.echo(f"{name}: {len(totals)} responses, mean reward {mean:.4f}" if mean is not None
               else f"{name}: no responses")
    for k, s in summary["signals"].items():
        if s["count"]:
            click.echo(f"  {k:20s} mean {s['mean']:.4f}  min {s['min']:.4f}  max {s['max']:.4f}  ({s['count']})")
    if errors:
        first = min(errors)
        click.echo(f"  {len(errors)} responses could not be scored (reward 0.0); first, line item {first}: "
                   f"{errors[first]}")
    if output:
        click.echo(f"rewards written to {output}", err=True)


@cli.command("bench")
@click.option("--tasks", default="leg_counting", show_default=True,
              help="Comma-separated reasoning-gym task names, or 'all' (every native task).")
@click.option("--sizes", default="1024,16384", show_default=True, help="Comma-separated response sizes in bytes.")
@click.option("--repeats", default=7, show_default=True, type=int, help="Rounds per measurement (at least 1).")
@click.option("--prompts", default=512, show_default=True, type=int, help="Prompts in the scoring batch.")
@click.option("--samples", default=16, show_default=True, type=int, help="Responses per prompt.")
@click.option("--items", default=20000, show_default=True, type=int, help="Items of the generation benchmark.")
@click.option("--budget", default=8.0, show_default=True, type=float,
              help="Seconds per baseline measurement (slow baselines run on a prefix).")
@click.option("--skip", default="", help="Comma-separated sections to leave out: scoring, generation, single.")
@click.option("--million", is_flag=True, help="Also build a 1,000,000-item dataset (time, peak memory).")
@click.option("--clock", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
              help="wall: elapsed time; cpu: the process's CPU time, all threads summed (less disturbed by other "
                   "load; Go's work on two threads counts twice).")
def bench_command(tasks: str, sizes: str, repeats: int, prompts: int, samples: int, items: int, budget: float,
                  skip: str, million: bool, clock: str) -> None:
    """Benchmark llenvs-go against reasoning-gym side by side, on the same inputs in one run.

    Scoring a GRPO-shaped batch (--prompts x --samples responses per task and
    size) on reasoning-gym's paths and llenvs-go's, and generating --items
    items; tables show median microseconds per item, the spread and the
    speed-up. The baselines need reasoning-gym (the reasoning-gym extra).
    """
    from llenvs_go.bench import NEEDS_REASONING_GYM, BenchUsageError, check_options, run

    if importlib.util.find_spec("reasoning_gym") is None:
        _usage(NEEDS_REASONING_GYM)
    _library()
    try:
        options = check_options(tasks, sizes, repeats, prompts, samples, items, budget, skip, million, clock)
    except BenchUsageError as e:
        _usage(str(e))
    run(options)


def _dist_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _doctor_report() -> tuple[dict[str, Any], list[str]]:
    from llenvs_go import _native

    problems: list[str] = []
    report: dict[str, Any] = {
        "llenvs_go": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
    }
    lib: dict[str, Any] = {"abi_version_expected": _native.ABI_VERSION}
    try:
        lib["path"] = _native.library_path()
    except ImportError as e:
        lib["path"] = None
        lib["error"] = str(e)
    if lib.get("path"):
        try:
            handle = _native.lib()
        except (ImportError, OSError, RuntimeError, ValueError) as e:  # ValueError: a bad LLENVS_GO_THREADS
            lib["loaded"] = False
            lib["error"] = str(e)
        else:
            info = _native.call("info")
            lib.update(loaded=True, abi_version=handle.llenvs_abi_version(), go_version=info.get("go_version"),
                       json=info.get("json"), go_threads=info.get("max_procs"), cpus=info.get("num_cpu"))
    if not lib.get("loaded"):
        problems.append(f"the library cannot be loaded: {lib.get('error')}")
    lib["LLENVS_GO_LIB"] = os.environ.get("LLENVS_GO_LIB")
    lib["LLENVS_GO_THREADS"] = os.environ.get("LLENVS_GO_THREADS")
    report["library"] = lib
    report["optional"] = {
        module: {"found": importlib.util.find_spec(module) is not None, "version": _dist_version(dist),
                 "for": purpose}
        for module, dist, purpose in OPTIONAL
    }
    from llenvs_go.adapters.reasoning_gym import reasoning_gym_data_dir

    data: dict[str, Any] = {"data_dir": reasoning_gym_data_dir(), "tasks": {}}
    if lib.get("loaded"):
        from llenvs_go.core.registry import environment_registry
        from llenvs_go.integrations import DatasetProvider

        for task in DATA_FILE_TASKS:
            try:
                env = environment_registry.get(name=task, size=1, seed=0)
                DatasetProvider(env)[0]
                data["tasks"][task] = "ok"
            except Exception as e:  # noqa: BLE001 - reported, whatever it is
                data["tasks"][task] = f"error: {e}"
    report["reasoning_gym_data"] = data
    if lib.get("loaded"):
        report["sandbox"] = _sandbox_report()
    return report, problems


def _sandbox_report() -> dict[str, Any]:
    """The code sandbox on this machine: its capabilities and one isolated run of ``print(1)``."""
    from llenvs_go import code

    report: dict[str, Any] = code.capabilities()
    if report["user_namespaces"]:
        try:
            r = code.run("print(1)", timeout=10.0)
            report["isolated_run"] = "ok" if r.ok and r.stdout == "1\n" else f"{r.status}: {r.reason or r.stderr}"
        except Exception as e:  # noqa: BLE001 - reported, whatever it is
            report["isolated_run"] = f"error: {e}"
    return report


def _template_report(directory: str) -> tuple[dict[str, Any], list[str]]:
    """What the chat template of the tokenizer in ``directory`` does to multi-turn masks, and its problems."""
    try:
        import transformers
    except ImportError:
        raise click.UsageError("--tokenizer needs transformers: pip install transformers") from None
    from llenvs_go.integrations import TrajectoryMasker

    if not os.path.isdir(directory):
        raise click.UsageError(f"--tokenizer {directory!r} is not a directory (give a folder with tokenizer.json "
                               "and tokenizer_config.json)")
    try:
        tok = transformers.AutoTokenizer.from_pretrained(directory, local_files_only=True)
    except Exception as e:  # noqa: BLE001 - whatever transformers raises for a folder it cannot read
        return {"directory": directory, "error": f"{type(e).__name__}: {e}"}, [f"the tokenizer cannot be loaded: {e}"]
    report: dict[str, Any] = {"directory": directory, "chat_template": bool(getattr(tok, "chat_template", None))}
    if not report["chat_template"]:
        return report, ["the tokenizer has no chat template: masks use llenvs' layout (chat_template=False)"]
    report.update(TrajectoryMasker(tok).check_template())
    problems = [f"{shape} conversations: {why}" for shape, why in report["prefix_preserving"].items() if why]
    if not report["end_of_turn"]:
        problems.append("assistant turns do not end with a special token: model and environment text cannot be "
                        "told apart")
    return report, problems


@cli.command("doctor")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: library, optional packages, data files.")
@click.option("--tokenizer", "tokenizer_dir", default=None, metavar="DIR",
              help="Also check the chat template of the tokenizer in DIR (a local folder) for multi-turn masks.")
def doctor_command(as_json: bool, tokenizer_dir: str | None) -> None:
    """Check the install: library loaded, ABI version, Go threads, optional packages, reasoning-gym data files.

    With --tokenizer DIR, also check the tokenizer's chat template: its end-of-turn token, the roles it
    renders, what it does to earlier reasoning and whitespace, and whether it lays out feedback, system
    and tool conversations turn by turn (prefix-preserving), so that multi-turn masks are exact.

    Exit status 1 when the library cannot be loaded or the template would make masks inexact.
    """
    report, problems = _doctor_report()
    if tokenizer_dir is not None:
        report["tokenizer"], template_problems = _template_report(tokenizer_dir)
        problems += [f"chat template: {p}" for p in template_problems]
    if as_json:
        _emit_json({**report, "problems": problems})
    else:
        lib = report["library"]
        click.echo(f"llenvs-go {report['llenvs_go']} on {report['python']} ({report['platform']})")
        click.echo(f"library: {lib.get('path')}")
        if lib.get("loaded"):
            click.echo(f"  loaded, ABI version {lib['abi_version']} (package expects {lib['abi_version_expected']}), "
                       f"{lib['go_version']}, JSON codec {lib['json']}")
            click.echo(f"  Go threads (GOMAXPROCS) {lib['go_threads']} of {lib['cpus']} CPUs"
                       + (f" (LLENVS_GO_THREADS={lib['LLENVS_GO_THREADS']})" if lib["LLENVS_GO_THREADS"] else ""))
        else:
            click.echo(f"  NOT LOADED: {lib.get('error')}")
        click.echo("optional packages:")
        for module, row in report["optional"].items():
            state = f"{row['version'] or 'found'}" if row["found"] else "missing"
            click.echo(f"  {module:14s} {state:12s} {row['for']}")
        data = report["reasoning_gym_data"]
        click.echo(f"reasoning-gym data files: {data['data_dir'] or 'not found (pip install reasoning-gym==0.1.25)'}")
        for task, state in data["tasks"].items():
            click.echo(f"  {task:16s} {state}")
        box = report.get("sandbox")
        if box is not None:
            if box["user_namespaces"]:
                click.echo(f"code sandbox: namespaces available, seccomp {'on' if box['seccomp'] else 'off'}, "
                           f"programs run as {box['runs_as']}; isolated run: {box.get('isolated_run')}")
            else:
                click.echo(f"code sandbox: UNAVAILABLE, {box.get('problem')}; untrusted code is refused "
                           "(Sandbox(isolation='none') is for trusted code only)")
        t = report.get("tokenizer")
        if t is not None:
            click.echo(f"tokenizer: {t['directory']}")
            if "end_of_turn" in t:
                roles = ("tool" if t["tool_role"] else "no tool role (tool results sent as user turns)") + \
                    (", system" if t["system_role"] else ", no system role") + \
                    (", consecutive environment messages merged" if t["merges_turns"] else "")
                click.echo(f"  end of turn {t['end_of_turn']!r}; roles: {roles}")
                click.echo(f"  earlier reasoning {t['earlier_reasoning']}; contents "
                           + ("trimmed" if t["trims"] else "kept as written"))
                for shape, why in t["prefix_preserving"].items():
                    click.echo(f"  {shape:9s} " + ("exact (prefix-preserving)" if why is None else f"NOT EXACT: {why}"))
    if problems:
        raise click.exceptions.Exit(1)
