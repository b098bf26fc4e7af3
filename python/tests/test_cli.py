"""The llenvs-go command: each command's output checked against the library's own API."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest

click = pytest.importorskip("click")
from click.testing import CliRunner  # noqa: E402

from llenvs_go import __version__, _native  # noqa: E402
from llenvs_go.cli import build_config, cli  # noqa: E402
from llenvs_go.core.config import EnvironmentConfig  # noqa: E402
from llenvs_go.core.registry import environment_registry  # noqa: E402
from llenvs_go.integrations import DatasetProvider, Scorer  # noqa: E402


def run(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def invoke_ok(*args: str, input: str | None = None) -> click.testing.Result:
    result = run(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("command", [[], ["list"], ["show"], ["export"], ["score"], ["doctor"], ["bench"]])
def test_help_everywhere(command):
    result = invoke_ok(*command, "--help")
    assert result.output.startswith("Usage: ")
    assert "--json" in result.output or command in ([], ["export"], ["bench"])
    assert "Options:" in result.output and "-h, --help" in result.output


def test_version():
    assert invoke_ok("--version").output.strip() == f"llenvs-go, version {__version__}"


def test_list_matches_registry():
    rows = json.loads(invoke_ok("list", "--json").stdout)
    expected = sorted(environment_registry.describe_environments(), key=lambda r: (r["name"], r["adapter"]))
    assert rows == expected
    assert {"name": "leg_counting", "adapter": "reasoning_gym", "backend": "native"} in rows
    assert {"name": "guess_number", "adapter": "native", "backend": "native"} in rows
    native = json.loads(invoke_ok("list", "--backend", "native", "--json").stdout)
    assert native and all(r["backend"] == "native" for r in native)
    assert len(native) < len(rows)
    text = invoke_ok("list").output
    assert text.splitlines()[0].split() == ["name", "adapter", "backend"]
    assert f"{len(rows)} environments" in text


def test_show_sample_is_the_configured_environments_item():
    info = json.loads(invoke_ok("show", "leg_counting", "seed=3", "size=20", "max_animals=4", "--index", "5",
                                "--json").stdout)
    env = environment_registry.get(name="leg_counting", seed=3, size=20, max_animals=4)
    item = DatasetProvider(env)[5]
    assert info["sample"]["task_index"] == 5
    assert info["sample"]["ground_truth"] == item.ground_truth
    assert info["sample"]["messages"] == [dict(m) for m in item.messages]
    assert info["backend"] == "native" and info["adapter"] == "reasoning_gym" and info["size"] == 20
    assert info["spec"]["name"] == "leg_counting" and info["spec"]["metadata"]["seed"] == 3
    assert info["options"]["answer_extractor"] == "tag_based" and info["options"]["system_prompt"] == "default"
    assert [s["name"] for s in info["signals"]] == ["correctness"]


def test_show_task_fields_are_reasoning_gyms():
    pytest.importorskip("reasoning_gym")
    from reasoning_gym.factory import DATASETS

    info = json.loads(invoke_ok("show", "leg_counting", "--json").stdout)
    cls = DATASETS["leg_counting"][1]
    expected = {f.name: f.default for f in dataclasses.fields(cls) if f.name not in ("seed", "size")}
    assert info["task_fields"] == expected


def test_show_native_adapter_is_found_by_name():
    info = json.loads(invoke_ok("show", "guess_number", "max_value=10", "--json").stdout)
    assert info["adapter"] == "native" and info["spec"]["is_multi_turn"] is True
    assert info["spec"]["metadata"]["max_value"] == 10
    assert 1 <= int(info["sample"]["ground_truth"]) <= 10


def test_show_explicit_adapter():
    info = json.loads(invoke_ok("show", "guess_number", "adapter=native", "--json").stdout)
    assert info["adapter"] == "native"
    result = run("show", "leg_counting", "adapter=native")
    assert result.exit_code == 2 and "leg_counting" in result.output


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_show_config_file(tmp_path, suffix):
    data = {"seed": 9, "size": 12, "params": {"min_animals": 2, "max_animals": 2}}
    path = tmp_path / f"cfg{suffix}"
    if suffix == ".yaml":
        yaml = pytest.importorskip("yaml")
        path.write_text(yaml.safe_dump(data))
    else:
        path.write_text(json.dumps(data))
    info = json.loads(invoke_ok("show", "leg_counting", "--config", str(path), "--json").stdout)
    env = environment_registry.get(name="leg_counting", seed=9, size=12, min_animals=2, max_animals=2)
    assert info["sample"]["ground_truth"] == DatasetProvider(env)[0].ground_truth
    assert info["size"] == 12
    # key=value wins over the file
    info = json.loads(invoke_ok("show", "leg_counting", "--config", str(path), "seed=10", "--json").stdout)
    assert info["spec"]["metadata"]["seed"] == 10


@pytest.mark.parametrize(("args", "message"), [
    (["show", "leg_countin"], "did you mean 'leg_counting'"),
    (["show", "leg_counting", "max_animal=3"], "max_animals"),
    (["show", "leg_counting", "size=-4"], "size must be a positive integer from 1 to 2**40"),
    (["show", "leg_counting", "novalue"], "expected key=value"),
    (["show", "leg_counting", "--config", "/nonexistent/cfg.json"], "cannot read --config"),
    (["show", "leg_counting", "--index", "99999"], "--index 99999"),
    (["export", "leg_counting", "--format", "csv", "-o", "x"], "'csv' is not one of"),
    (["list", "--adapter", "nope"], "nope"),
])
def test_usage_errors_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_bad_config_file_contents(tmp_path):
    bad = tmp_path / "cfg.json"
    bad.write_text("{not json")
    result = run("show", "leg_counting", "--config", str(bad))
    assert result.exit_code == 2 and "not valid JSON" in result.output
    bad.write_text("[1, 2]")
    result = run("show", "leg_counting", "--config", str(bad))
    assert result.exit_code == 2 and "must hold a mapping" in result.output
    bad.write_text('{"seed": 1, "sede": 2}')
    result = run("show", "leg_counting", "--config", str(bad))
    assert result.exit_code == 2 and "sede" in result.output


def _env(size=37, seed=5):
    # The command builds environments from an EnvironmentConfig, whose answer_extractor is explicit
    # (and so part of the configuration the framework rows carry).
    return EnvironmentConfig(name="leg_counting", size=size, seed=seed).build()


def test_export_verl_rows_equal_the_adapters(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from llenvs_go.integrations.verl import make_verl_dataset

    out = tmp_path / "train.parquet"
    result = invoke_ok("export", "leg_counting", "--format", "verl", "--size", "37", "--seed", "5", "-o", str(out),
                       "--chunk-size", "8", "--json")
    assert json.loads(result.stdout) == {"path": str(out), "format": "verl", "rows": 37}
    rows = pq.read_table(out).to_pylist()
    assert rows == make_verl_dataset(_env())
    assert [r["extra_info"]["index"] for r in rows] == list(range(37))


def test_export_openrlhf_rows_equal_the_adapters(tmp_path):
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset

    out = tmp_path / "train.jsonl"
    invoke_ok("export", "leg_counting", "--format", "openrlhf", "--size", "37", "--seed", "5", "-o", str(out),
              "--chunk-size", "10")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows == make_openrlhf_dataset(_env())
    out_text = tmp_path / "text.jsonl"
    invoke_ok("export", "leg_counting", "--format", "openrlhf", "--size", "37", "--seed", "5", "-o", str(out_text),
              "--text")
    assert isinstance(json.loads(out_text.read_text().splitlines()[0])["input"], str)


@pytest.mark.parametrize("name", ["train.parquet", "train.jsonl", "train_dir"])
def test_export_trl(tmp_path, name):
    datasets = pytest.importorskip("datasets")
    from llenvs_go.integrations.trl import make_trl_dataset

    out = tmp_path / name
    invoke_ok("export", "leg_counting", "--format", "trl", "--size", "37", "--seed", "5", "-o", str(out),
              "--chunk-size", "16")
    if name.endswith(".parquet"):
        ds = datasets.Dataset.from_parquet(str(out))
    elif name.endswith(".jsonl"):
        ds = datasets.Dataset.from_json(str(out))
    else:
        ds = datasets.load_from_disk(str(out))
    assert ds.to_list() == make_trl_dataset(_env()).to_list()


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_export_provider_columns(tmp_path, fmt):
    datasets = pytest.importorskip("datasets")
    out = tmp_path / f"items.{fmt}"
    invoke_ok("export", "leg_counting", "--format", fmt, "--size", "37", "--seed", "5", "-o", str(out),
              "--no-progress")
    ds = datasets.Dataset.from_json(str(out)) if fmt == "jsonl" else datasets.Dataset.from_parquet(str(out))
    expected = DatasetProvider(_env()).to_hf_dataset()
    assert ds.to_list() == expected.to_list()


@pytest.mark.parametrize(("fmt", "name"), [("verl", "x.parquet"), ("parquet", "x.parquet"), ("trl", "x.parquet")])
def test_export_streams_one_row_group_per_chunk(tmp_path, fmt, name):
    # Each chunk is written as it is made (memory bounded by --chunk-size, not --size): 30 tasks in chunks of 7
    # are 5 row groups, and the file reads back as the whole dataset.
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("datasets")
    out = tmp_path / name
    invoke_ok("export", "leg_counting", "--format", fmt, "--size", "30", "--seed", "5", "-o", str(out),
              "--chunk-size", "7")
    f = pq.ParquetFile(out)
    assert f.num_row_groups == 5 and [f.metadata.row_group(k).num_rows for k in range(5)] == [7, 7, 7, 7, 2]
    rows = pq.read_table(out).to_pylist()
    env = _env(30, 5)
    if fmt == "verl":
        from llenvs_go.integrations.verl import make_verl_dataset

        assert rows == make_verl_dataset(env)
    elif fmt == "trl":
        from llenvs_go.integrations.trl import make_trl_dataset

        assert rows == make_trl_dataset(env).to_list()
    else:
        assert rows == DatasetProvider(env).to_hf_dataset().to_list()


MULTI_TURN_LINES = {"guess_number": ["guess_number"], "calculator": ["calculator_arithmetic"],
                    "iterative": ["leg_counting", 'iterative={"max_turns": 3}']}


@pytest.mark.parametrize("fmt", ["verl", "trl", "openrlhf", "jsonl", "parquet"])
@pytest.mark.parametrize("line", list(MULTI_TURN_LINES.values()), ids=list(MULTI_TURN_LINES))
def test_export_multi_turn_in_every_format(tmp_path, line, fmt):
    """A multi-turn environment exports (no single-turn scorer involved) with the rows of its function, in
    chunks as any other; the rows are the same in one chunk or many."""
    pytest.importorskip("datasets")
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset
    from llenvs_go.integrations.trl import make_trl_dataset
    from llenvs_go.integrations.verl import make_verl_dataset

    suffix = {"verl": "parquet", "trl": "jsonl", "openrlhf": "jsonl"}.get(fmt, fmt)
    out = tmp_path / f"rows.{suffix}"
    result = invoke_ok("export", *line, "--format", fmt, "--size", "7", "--seed", "4", "-o", str(out),
                       "--chunk-size", "3", "--json")
    assert json.loads(result.stdout)["rows"] == 7
    env = build_config(line[0], None, line[1:], 7, 4).build()
    if fmt == "verl":
        import pyarrow.parquet as pq

        assert pq.read_table(out).to_pylist() == make_verl_dataset(env)
    elif fmt == "openrlhf":
        assert [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()] == make_openrlhf_dataset(env)
    elif fmt == "trl":
        import datasets

        make_trl_dataset(env).to_json(str(tmp_path / "direct.jsonl"), lines=True)
        assert datasets.Dataset.from_json(str(out)).to_list() == \
            datasets.Dataset.from_json(str(tmp_path / "direct.jsonl")).to_list()
    else:
        import datasets

        ds = datasets.Dataset.from_json(str(out)) if fmt == "jsonl" else datasets.Dataset.from_parquet(str(out))
        assert ds["task_index"] == list(range(7))


def test_export_multi_turn_options(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "rows.parquet"
    invoke_ok("export", "guess_number", "--format", "verl", "--size", "3", "--agent-name", "mine", "-o", str(out))
    assert [r["agent_name"] for r in pq.read_table(out).to_pylist()] == ["mine"] * 3
    result = run("export", "guess_number", "--format", "verl", "--size", "3", "--agent-name", "", "-o", str(out))
    assert result.exit_code == 2 and "--agent-name must not be empty" in result.output
    for fmt in ("trl", "openrlhf"):
        result = run("export", "guess_number", "--format", fmt, "--size", "3", "--text", "-o", str(tmp_path / "x"))
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert "guess_number is multi-turn" in result.output and "verl, trl, openrlhf, jsonl, parquet" in result.output
        assert not (tmp_path / "x").exists()


def test_export_to_missing_directory_is_a_file_that_cannot_be_written(tmp_path):
    # docs/cli.md: exit status 1 when a file cannot be written (2 is for usage errors).
    result = run("export", "leg_counting", "--format", "verl", "--size", "3", "-o", str(tmp_path / "no" / "x.parquet"))
    assert result.exit_code == 1 and "does not exist" in result.output and "cannot write" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("args", "echoed"), [
    (["export", "leg_counting", "--format", "openrlhf", "--size", "5", "-o", "{tmp}/x.jsonl"], True),
    (["export", "leg_counting", "--format", "openrlhf", "--size", "5", "--seed", "8", "-o", "{tmp}/x.jsonl"], False),
    (["show", "leg_counting", "--json"], True),
    (["show", "leg_counting", "seed=8", "--json"], False),
])
def test_drawn_seed_is_printed(tmp_path, args, echoed):
    result = invoke_ok(*[a.format(tmp=tmp_path) for a in args])
    lines = [line for line in result.stderr.splitlines() if "drew seed" in line]
    assert bool(lines) == echoed, result.stderr
    if echoed:
        seed = int(lines[0].split("drew seed ")[1].split()[0])
        assert f"--seed {seed}" in lines[0]
        if args[0] == "export":
            ref = json.loads(json.loads((tmp_path / "x.jsonl").read_text().splitlines()[0])["label"]
                             .split(":", 3)[3])
            assert ref["seed"] == seed
        else:
            assert json.loads(result.stdout)["spec"]["metadata"]["seed"] == seed


def _responses(tmp_path, env, n=30):
    items = DatasetProvider(env).get_items(range(n))
    lines, indices, texts = [], [], []
    for it in items:
        text = f"<answer>{it.ground_truth}</answer>" if it.task_index % 3 else "I think <answer>-7</answer>"
        lines.append(json.dumps({"task_index": it.task_index, "response": text}))
        indices.append(it.task_index)
        texts.append(text)
    path = tmp_path / "responses.jsonl"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return path, indices, texts


def test_score_rewards_and_summary(tmp_path):
    env = environment_registry.get(name="leg_counting", size=40, seed=11, extra_rewards=("format",))
    path, indices, texts = _responses(tmp_path, env)
    expected = Scorer(env).score_batch(task_indices=indices, responses=texts)
    out = tmp_path / "rewards.jsonl"
    result = invoke_ok("score", "leg_counting", "--size", "40", "--seed", "11", 'extra_rewards=["format"]',
                       "-i", str(path), "-o", str(out), "--json")
    data = json.loads(result.stdout)
    assert data["rewards"] == expected.totals
    summary = data["summary"]
    assert summary["responses"] == 30
    assert summary["mean_reward"] == pytest.approx(sum(expected.totals) / 30)
    correctness = [r.signals["correctness"] for r in expected]
    assert summary["signals"]["correctness"]["mean"] == pytest.approx(sum(correctness) / 30)
    assert summary["signals"]["correctness"]["min"] == 0.0 and summary["signals"]["correctness"]["max"] == 1.0
    assert set(summary["signals"]) == {"correctness", "format"}
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["reward"] for r in rows] == expected.totals
    assert [r["task_index"] for r in rows] == indices
    assert rows[1]["extracted_answer"] == expected[1].extracted_answer
    text = invoke_ok("score", "leg_counting", "--size", "40", "--seed", "11", "-i", str(path)).output
    plain = Scorer(environment_registry.get(name="leg_counting", size=40, seed=11)).totals(indices, texts)
    assert f"mean reward {sum(plain) / 30:.4f}" in text


def test_score_without_a_seed_is_an_error(tmp_path):
    env = _env(40, 11)
    path, _, _ = _responses(tmp_path, env)
    result = run("score", "leg_counting", "--size", "40", "-i", str(path))
    assert result.exit_code == 2, result.output
    assert "score needs the seed" in result.output and "--seed" in result.output and "env_reference" in result.output
    assert "mean reward" not in result.output


def _trl_rows(tmp_path, *args):
    out = tmp_path / "train.jsonl"
    invoke_ok("export", "leg_counting", "--format", "trl", "--size", "30", *args, "-o", str(out), "--chunk-size", "7")
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_score_rows_with_their_references_need_no_seed(tmp_path):
    pytest.importorskip("datasets")
    rows = _trl_rows(tmp_path)  # a drawn seed, carried by env_reference
    seed = json.loads(rows[0]["env_reference"])["seed"]
    lines = [json.dumps({"task_index": r["task_index"], "env_reference": r["env_reference"],
                         "response": f"<answer>{r['ground_truth']}</answer>" if r["task_index"] % 2 else "no"})
             for r in rows]
    path = tmp_path / "responses.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke_ok("score", "leg_counting", "-i", str(path), "--json")
    data = json.loads(result.stdout)
    assert "scoring each row against the environment its env_reference names" in result.stderr
    noted = invoke_ok("score", "leg_counting", "--size", "30", "-i", str(path))
    assert "--size not used" in noted.stderr and "mean reward 0.5000" in noted.stdout
    env = environment_registry.get(name="leg_counting", size=30, seed=seed)
    texts = [json.loads(line)["response"] for line in lines]
    assert data["rewards"] == Scorer(env).totals(list(range(30)), texts)
    assert data["summary"]["mean_reward"] == pytest.approx(0.5)
    # With a seed, the references are checked against it.
    other = run("score", "leg_counting", "--size", "30", "--seed", str(seed + 1), "-i", str(path))
    assert other.exit_code == 2 and "another environment" in other.output and "seed" in other.output
    same = json.loads(invoke_ok("score", "leg_counting", "--size", "30", "--seed", str(seed), "-i", str(path),
                                "--json").stdout)
    assert same["rewards"] == data["rewards"]
    # A reference to another task, or rows only some of which carry one, are usage errors.
    wrong = run("score", "basic_arithmetic", "-i", str(path))
    assert wrong.exit_code == 2 and "names 'leg_counting'" in wrong.output
    path.write_text(lines[0] + "\n" + json.dumps({"task_index": 1, "response": "x"}) + "\n", encoding="utf-8")
    mixed = run("score", "leg_counting", "-i", str(path))
    assert mixed.exit_code == 2 and "some rows carry an env_reference" in mixed.output


def test_score_from_stdin():
    env = _env(10, 1)
    truth = DatasetProvider(env)[4].ground_truth
    line = json.dumps({"task_index": 4, "response": f"<answer>{truth}</answer>"})
    data = json.loads(invoke_ok("score", "leg_counting", "--size", "10", "--seed", "1", "-i", "-", "--json",
                                input=line + "\n").stdout)
    assert data["rewards"] == [1.0]


@pytest.mark.parametrize(("content", "message"), [
    ("not json\n", "line 1 is not JSON"),
    ('{"task_index": 0}\n', "line 1 needs the keys task_index and response"),
    ('{"task_index": 0, "response": "x"}\n{"task_index": "1", "response": "x"}\n', "line 2: task_index must be an int"),
    ('{"task_index": 0, "response": 5}\n', "response must be a string"),
    ('{"task_index": 10, "response": "x"}\n', "out of bounds"),
])
def test_score_bad_input_exit_2(tmp_path, content, message):
    path = tmp_path / "r.jsonl"
    path.write_text(content)
    result = run("score", "leg_counting", "--size", "10", "--seed", "1", "-i", str(path))
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_doctor_reports_the_loaded_library():
    report = json.loads(invoke_ok("doctor", "--json").stdout)
    info = _native.call("info")
    lib = report["library"]
    assert lib["loaded"] is True and lib["path"] == _native.library_path()
    assert lib["abi_version"] == _native.ABI_VERSION == lib["abi_version_expected"]
    assert lib["go_threads"] == info["max_procs"] and lib["go_version"] == info["go_version"]
    assert report["optional"]["click"]["found"] is True
    assert report["problems"] == []
    if report["optional"]["reasoning_gym"]["found"]:
        assert os.path.isdir(report["reasoning_gym_data"]["data_dir"])
        assert set(report["reasoning_gym_data"]["tasks"].values()) == {"ok"}


def _subprocess(args, **env):
    e = {k: v for k, v in os.environ.items() if k not in env}
    e.update({k: v for k, v in env.items() if v is not None})
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=e, timeout=300)


def test_doctor_exit_1_when_the_library_cannot_load(tmp_path):
    bogus = tmp_path / "libllenvs.so"
    bogus.write_bytes(b"not an ELF file")
    out = _subprocess(["-m", "llenvs_go", "doctor"], LLENVS_GO_LIB=str(bogus))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "NOT LOADED" in out.stdout and str(bogus) in out.stdout
    out = _subprocess(["-m", "llenvs_go", "list"], LLENVS_GO_LIB=str(bogus))
    assert out.returncode == 1 and "cannot load the llenvs-go library" in out.stderr


def test_missing_click_says_which_extra():
    code = "import sys; sys.modules['click'] = None; from llenvs_go.__main__ import main; main()"
    out = _subprocess(["-c", code])
    assert out.returncode == 1
    assert 'pip install "llenvs-go[cli]"' in out.stderr


def test_console_script_entry_point():
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution("llenvs-go")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("llenvs-go is not installed (run against PYTHONPATH)")
    import llenvs_go

    if os.path.realpath(str(dist.locate_file("llenvs_go/__init__.py"))) != os.path.realpath(llenvs_go.__file__):
        pytest.skip("the llenvs-go installed is not the package under test")
    scripts = {e.name: e.value for e in dist.entry_points if e.group == "console_scripts"}
    assert scripts == {"llenvs-go": "llenvs_go.__main__:main"}
    exe = os.path.join(os.path.dirname(sys.executable), "llenvs-go")
    if os.path.exists(exe):
        out = subprocess.run([exe, "list", "--json"], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0 and any(r["name"] == "leg_counting" for r in json.loads(out.stdout))


def test_bench_runs_the_side_by_side_benchmark():
    pytest.importorskip("reasoning_gym")
    out = _subprocess(["-m", "llenvs_go", "bench", "--skip", "generation,single", "--sizes", "256", "--repeats", "1",
                       "--prompts", "4", "--samples", "3", "--budget", "0.2"])
    assert out.returncode == 0, out.stderr
    assert "leg_counting: scoring 12 responses of ~256 bytes" in out.stdout
    assert "llenvs path" in out.stdout and "score_batch" in out.stdout
    helped = _subprocess(["-m", "llenvs_go", "bench", "--help"])
    assert helped.returncode == 0 and "--million" in helped.stdout
    bad = _subprocess(["-m", "llenvs_go", "bench", "--repeats", "x"])
    assert bad.returncode == 2 and "'x' is not a valid integer" in bad.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--tasks", "leg_countin"], "unknown task 'leg_countin'; did you mean 'leg_counting'?"),
    (["--tasks", "leg_counting,nope_nope"], "unknown task 'nope_nope'"),
    (["--sizes", "abc"], "--sizes 'abc': 'abc' is not a positive number of bytes"),
    (["--sizes", "1024,0"], "'0' is not a positive number of bytes"),
    (["--repeats", "0"], "--repeats 0: must be at least 1"),
    (["--prompts", "-1"], "--prompts -1: must be at least 1"),
    (["--skip", "scorng"], "unknown section 'scorng'; did you mean 'scoring'? (sections: scoring, generation, single)"),
])
def test_bench_argument_errors_are_usage_errors(args, message):
    pytest.importorskip("reasoning_gym")
    result = run("bench", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    if args[0] == "--tasks":
        assert "leg_counting" in result.output.split("valid:")[1]
    # python -m llenvs_go.bench (argparse, no click) checks the same way.
    out = _subprocess(["-m", "llenvs_go.bench", *args])
    assert out.returncode == 2 and message in out.stderr, out.stderr


@pytest.mark.parametrize("explicit", [False, True])
def test_exported_rows_are_scored_by_the_environment_the_readme_builds(tmp_path, explicit):
    # An environment with omitted or explicit defaults is the same environment, in both directions:
    # rows from `llenvs-go export` (an EnvironmentConfig, answer_extractor explicit) scored by
    # environment_registry.get(...), and rows from get(...) with explicit defaults scored the same way.
    pq = pytest.importorskip("pyarrow.parquet")
    datasets = pytest.importorskip("datasets")
    from llenvs_go.integrations import openrlhf, trl, verl
    from llenvs_go.integrations._references import EnvironmentMismatchError

    defaults = {"max_animals": 10, "pre_cleaners": [], "answer_extractor_config": {}, "answer_extractor": "tag_based"}
    scorer = environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=40, seed=42,
                                      **(defaults if explicit else {}))
    invoke_ok("export", "leg_counting", "--format", "verl", "--size", "40", "--seed", "42", "-o",
              str(tmp_path / "v.parquet"))
    invoke_ok("export", "leg_counting", "--format", "openrlhf", "--size", "40", "--seed", "42", "-o",
              str(tmp_path / "o.jsonl"))
    invoke_ok("export", "leg_counting", "--format", "trl", "--size", "40", "--seed", "42", "-o",
              str(tmp_path / "t.parquet"))
    other = environment_registry.get(name="leg_counting", size=40, seed=42, **({} if explicit else defaults))
    row_sets = [pq.read_table(tmp_path / "v.parquet").to_pylist()[:4], verl.make_verl_dataset(other, num_tasks=4)]
    for rows in row_sets:
        fn = verl.make_verl_reward_fn(scorer)
        for row in rows:
            truth = row["reward_model"]["ground_truth"]
            assert fn(row["data_source"], f"<answer>{truth}</answer>", truth, row["extra_info"]) == 1.0
    labels = [json.loads(line)["label"] for line in (tmp_path / "o.jsonl").read_text().splitlines()[:4]]
    labels += [r["label"] for r in openrlhf.make_openrlhf_dataset(other, num_tasks=4)]
    truths = [scorer.reset(options={"task_index": i})[0].hidden.expected_answer for i in range(4)] * 2
    out = openrlhf.make_openrlhf_reward_fn(scorer)([f"<answer>{t}</answer>" for t in truths], None, labels)
    assert [float(x) for x in out["rewards"]] == [1.0] * 8 and out["extra_logs"][openrlhf.MISMATCH_KEY] == 0.0
    for ds in (datasets.Dataset.from_parquet(str(tmp_path / "t.parquet")).select(range(4)),
               trl.make_trl_dataset(other, num_tasks=4)):
        fn = trl.make_trl_reward_fn(scorer)
        assert fn(prompts=ds["prompt"], completions=[f"<answer>{t}</answer>" for t in ds["ground_truth"]],
                  task_index=ds["task_index"], ground_truth=ds["ground_truth"],
                  env_reference=ds["env_reference"]) == [1.0] * 4
    # A different seed, size or option value is still another environment.
    for changed in ({"seed": 43}, {"size": 41}, {"max_animals": 9}, {"answer_extractor": "last_number"}):
        kw = {"size": 40, "seed": 42, **changed}
        rows = verl.make_verl_dataset(environment_registry.get("leg_counting", **kw), num_tasks=1)
        with pytest.raises(EnvironmentMismatchError, match=next(iter(changed))):
            verl.make_verl_reward_fn(scorer)("x", "<answer>1</answer>", "", rows[0]["extra_info"])
        label = openrlhf.make_openrlhf_dataset(environment_registry.get("leg_counting", **kw), num_tasks=1)[0]["label"]
        out = openrlhf.make_openrlhf_reward_fn(scorer)(["<answer>1</answer>"], None, [label])
        assert out["extra_logs"][openrlhf.MISMATCH_KEY] == 1.0
