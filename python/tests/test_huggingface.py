"""The huggingface adapter: question/answer datasets from files, memory and the hub as environments."""

from __future__ import annotations

import json
import multiprocessing as mp
import pickle
import re
from pathlib import Path

import pytest

from llenvs_go import _native
from llenvs_go.adapters import huggingface as hf
from llenvs_go.adapters.huggingface import hub as hf_hub
from llenvs_go.core.registry import environment_registry
from llenvs_go.core.state import Action
from llenvs_go.integrations import DatasetProvider, Scorer

datasets = pytest.importorskip("datasets")
pa = pytest.importorskip("pyarrow")

DATA = Path(__file__).resolve().parent / "data"
GSM = DATA / "gsm8k_form.jsonl"
MATH = DATA / "math_form.jsonl"
AIME = DATA / "aime_form.jsonl"


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def gsm_truth(answer: str) -> str:
    """The expected answer of a GSM8K answer cell, computed here independently: the number after the last ####."""
    return re.findall(r"####\s*(-?[\d,]+)", answer)[-1].replace(",", "")


def boxed_truth(solution: str) -> str:
    """The content of the last \\boxed{...} of a solution, braces balanced, found here independently."""
    start = solution.rindex("\\boxed{") + len("\\boxed{")
    depth, i = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(solution[i], 0)
        i += 1
    return solution[start:i - 1]


def get(name, **kw):
    return environment_registry.get(name, adapter="huggingface", **kw)


# -- input kinds -----------------------------------------------------------------

@pytest.mark.parametrize("path", [GSM, DATA / "gsm8k_form.parquet", DATA / "gsm8k_form.csv"])
def test_gsm8k_files(path):
    env = get(str(path), preset="gsm8k")
    want = rows(GSM)
    assert len(env) == len(want)
    truths = DatasetProvider(env).to_hf_dataset()["ground_truth"]
    assert truths == [gsm_truth(r["answer"]) for r in want]
    state, info = env.reset(options={"task_index": 3})
    assert state.observation.prompt == want[3]["question"]
    assert state.hidden.entry["answer"] == want[3]["answer"]
    assert info["question"] == want[3]["question"] and info["task_index"] == 3


def test_json_file_with_a_list_under_one_key():
    env = get(str(DATA / "math_form.json"), preset="math", scoring="exact")
    assert DatasetProvider(env).to_hf_dataset()["ground_truth"] == [boxed_truth(r["solution"]) for r in rows(MATH)]


def test_in_memory_dataset_and_list_of_dicts():
    want = rows(GSM)
    ds = datasets.Dataset.from_list(want)
    for source in (ds, want):
        env = get(source, question_column="question", answer_column="answer", ground_truth_extractor="gsm8k")
        assert len(env) == len(want)
        assert env.reset(options={"task_index": 5})[0].hidden.expected_answer == gsm_truth(want[5]["answer"])
    # A Dataset that was itself shuffled and cut keeps its own order.
    sub = ds.shuffle(seed=3).select(range(4))
    env = get(sub, question_column="question", answer_column="answer", ground_truth_extractor="gsm8k")
    assert [env.reset(options={"task_index": i})[0].observation.prompt for i in range(4)] == sub["question"]


def test_large_string_chunked_and_sliced_columns():
    want = rows(MATH)
    q = [r["problem"] for r in want]
    s = [r["solution"] for r in want]
    first = pa.table({"problem": pa.array(q[:10], pa.large_string()), "solution": pa.array(s[:10], pa.large_string())})
    rest = pa.table({"problem": pa.array(q[10:], pa.large_string()), "solution": pa.array(s[10:], pa.large_string())})
    chunked = pa.concat_tables([first, rest])
    assert chunked.column("problem").num_chunks == 2
    env = get(datasets.Dataset(chunked), scoring="exact")
    assert [env.reset(options={"task_index": i})[0].hidden.expected_answer for i in range(len(q))] == \
        [boxed_truth(x) for x in s]
    # A slice of a string array starts at an offset inside its buffers.
    sliced = pa.table({"problem": pa.array(q, pa.string()).slice(7, 5),
                       "solution": pa.array(s, pa.string()).slice(7, 5)})
    assert sliced.column("problem").chunk(0).offset == 7
    env = get(sliced, scoring="exact")
    assert [env.reset(options={"task_index": i})[0].observation.prompt for i in range(5)] == q[7:12]


def test_hub_name_goes_through_load_dataset_with_the_preset(monkeypatch):
    calls = []

    def fake_load_dataset(path, **kw):  # the hub cannot be reached from tests: record the call, serve the fixture
        calls.append((path, kw))
        return datasets.Dataset.from_list(rows(GSM))

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    env = get("openai/gsm8k")
    assert calls == [("openai/gsm8k", {"split": "test", "name": "main"})]
    assert env.config["params"]["question_column"] == "question"
    assert env.spec.metadata["scoring"] == "numeric" and env.spec.metadata["ground_truth_extractor"] == "gsm8k"
    assert env.reset(options={"task_index": 0})[0].hidden.expected_answer == gsm_truth(rows(GSM)[0]["answer"])
    # Explicit arguments win over the preset; load_dataset keywords pass through.
    get("gsm8k", split="train", subset="socratic", revision="main", size=3)
    assert calls[-1] == ("gsm8k", {"split": "train", "name": "socratic", "revision": "main"})


def test_local_directory_is_loaded_by_datasets(tmp_path):
    d = tmp_path / "mydata"
    d.mkdir()
    (d / "test.jsonl").write_text(GSM.read_text(encoding="utf-8"), encoding="utf-8")
    env = get(str(d), question_column="question", answer_column="answer", ground_truth_extractor="gsm8k")
    assert len(env) == len(rows(GSM))


# -- presets -----------------------------------------------------------------------

@pytest.mark.parametrize("name, preset", [
    ("gsm8k", "gsm8k"), ("openai/gsm8k", "gsm8k"), ("HuggingFaceH4/MATH-500", "math"),
    ("hendrycks/competition_math", "math"), ("EleutherAI/hendrycks_math", "math"), ("lighteval/MATH", "math"),
    ("DigitalLearningGmbH/MATH-lighteval", "math"), ("AI-MO/aimo-validation-aime", "aime"),
    ("HuggingFaceH4/aime_2024", "aime"), ("MathArena/aime_2025", "aime"), ("opencompass/AIME2025", "aime"),
    ("meta-math/MetaMathQA", None), ("AI-MO/NuminaMath-CoT", None), ("squad", None), ("org/gsm8k-extra", None),
])
def test_preset_names(name, preset):
    assert hf.preset_name_for(name) == preset


def test_named_presets_with_their_own_columns():
    assert hf.preset_for("di-zhang-fdu/AIME_1983_2024").question_column == "Question"
    assert hf.preset_for("AI-MO/aimo-validation-aime").split == "train"


def test_math_preset_boxed_ground_truth_and_prompt():
    env = get(str(MATH), preset="math")
    assert env.config["params"]["scoring"] == "math" and env.config["answer_extractor"] == "boxed"
    assert get(str(MATH), preset="math", scoring="exact").config["params"]["scoring"] == "exact"  # an argument wins
    item = DatasetProvider(env)[0]
    assert "\\boxed{}" in item.messages[0]["content"]
    assert item.ground_truth == boxed_truth(rows(MATH)[0]["solution"])
    sol = rows(MATH)[1]["solution"]
    r = Scorer(env).score(1, f"Working... so the answer is $\\boxed{{{boxed_truth(sol)}}}$.")
    assert r.total == 1.0


def test_math_scoring_compares_values_not_text(tmp_path):
    path = tmp_path / "fractions.jsonl"
    path.write_text('{"problem": "Half of one?", "solution": "It is $\\\\boxed{\\\\frac{1}{2}}$."}\n', encoding="utf-8")
    math_env = get(str(path), preset="math")
    exact_env = get(str(path), preset="math", scoring="exact")
    for response, want in (("so \\boxed{0.5}", 1.0), ("so \\boxed{\\dfrac{2}{4}}", 1.0), ("so \\boxed{0.6}", 0.0)):
        assert Scorer(math_env).score(0, response).total == want, response
    assert Scorer(exact_env).score(0, "so \\boxed{0.5}").total == 0.0


def test_aime_preset_with_integer_answers():
    env = get(str(AIME), preset="aime")
    want = rows(AIME)
    assert [env.reset(options={"task_index": i})[0].hidden.expected_answer for i in range(len(want))] == \
        [str(r["answer"]) for r in want]
    sc = Scorer(env)
    a = want[4]["answer"]
    assert sc.score(4, f"\\boxed{{{a}}}").total == 1.0
    assert sc.score(4, f"\\boxed{{{a + 1}}}").total == 0.0
    assert "\\boxed{}" in DatasetProvider(env)[0].messages[0]["content"]


def test_preset_can_be_switched_off_and_unknown_preset(monkeypatch):
    monkeypatch.setattr(datasets, "load_dataset", lambda path, **kw: datasets.Dataset.from_list(rows(MATH)))
    env = get("openai/gsm8k", preset=False)  # llenvs' defaults: problem / solution / boxed
    assert env.config["params"]["question_column"] == "problem"
    with pytest.raises(ValueError, match="did you mean 'gsm8k'"):
        get(str(GSM), preset="gsm8")


# -- size and seed -----------------------------------------------------------------

def test_size_and_seed_select_rows_as_datasets_shuffle_does():
    ds = datasets.Dataset.from_list(rows(GSM))
    env = get(str(GSM), preset="gsm8k", size=10, seed=7)
    want = ds.shuffle(seed=7).select(range(10))["question"]
    assert [env.reset(options={"task_index": i})[0].observation.prompt for i in range(10)] == want
    env = get(str(GSM), preset="gsm8k", size=5)
    assert [env.reset(options={"task_index": i})[0].observation.prompt for i in range(5)] == ds["question"][:5]
    assert len(get(str(GSM), preset="gsm8k", size=1000)) == len(ds)
    env = get(str(GSM), preset="gsm8k", seed=7)  # llenvs: without size the seed changes nothing
    assert env.reset(options={"task_index": 0})[0].observation.prompt == ds["question"][0]
    with pytest.raises(ValueError, match="positive"):
        get(str(GSM), preset="gsm8k", size=0)


# -- errors --------------------------------------------------------------------------

def test_missing_column_names_the_columns_that_exist():
    with pytest.raises(ValueError) as e:
        get(str(GSM), question_column="questions", answer_column="answer")
    assert "Question column 'questions' not found" in str(e.value)
    assert "['question', 'answer', 'id', 'difficulty']" in str(e.value) and "did you mean 'question'" in str(e.value)
    with pytest.raises(ValueError, match="Metadata column 'levl' not found"):
        get(str(MATH), scoring="exact", metadata_columns=["levl"])


def test_unknown_extractor_and_scoring_list_the_valid_ones():
    with pytest.raises(_native.UnknownNameError) as e:
        get(str(GSM), preset="gsm8k", ground_truth_extractor="gsm8")
    assert "did you mean 'gsm8k'" in str(e.value) and "'boxed'" in str(e.value) and "'last_line'" in str(e.value)
    with pytest.raises(_native.UnknownNameError) as e:
        get(str(GSM), preset="gsm8k", scoring="numerical")
    assert "did you mean 'numeric'" in str(e.value) and "'exact'" in str(e.value)
    assert e.value.valid == hf.adapter_options()["scorings"]


def test_unknown_keyword_suggests_the_nearest():
    with pytest.raises(ValueError, match="unknown key 'answer_colum'; did you mean 'answer_column'"):
        get(str(GSM), answer_colum="answer")
    with pytest.raises(ValueError, match="only hub datasets"):
        get(str(GSM), preset="gsm8k", revision="main")
    with pytest.raises(ValueError, match="streaming"):
        get("openai/gsm8k", streaming=True)


def test_bad_sources():
    with pytest.raises(FileNotFoundError):
        get("no/such/file.jsonl")
    with pytest.raises(TypeError, match="DatasetDict"):
        get(datasets.DatasetDict({"train": datasets.Dataset.from_list(rows(GSM))}))
    with pytest.raises(TypeError, match="must be a dict"):
        get([{"problem": "a", "solution": "1"}, "b"])
    with pytest.raises(TypeError, match="name must be"):
        get(42)


def test_empty_dataset():
    empty = datasets.Dataset.from_dict({"problem": [], "solution": []},
                                       features=datasets.Features({"problem": datasets.Value("string"),
                                                                   "solution": datasets.Value("string")}))
    with pytest.raises(ValueError, match="has no rows"):
        get(empty)


def test_cells_that_are_not_text_or_missing():
    with pytest.raises(ValueError, match="question column 'problem' holds int64 values"):
        get([{"problem": 1, "solution": "2"}])
    with pytest.raises(ValueError, match=r"answer column 'solution' holds list<item: string> values"):
        get([{"problem": "a", "solution": ["2"]}])
    with pytest.raises(ValueError, match="one type"):
        get([{"problem": "a", "solution": "2"}, {"problem": 3, "solution": "4"}])
    with pytest.raises(ValueError, match="1 missing \\(None\\) cells, the first in row 1"):
        get([{"problem": "a", "solution": "\\boxed{2}"}, {"problem": "b", "solution": None}])
    with pytest.raises(ValueError, match="question column 'problem' has 2 missing"):
        get([{"problem": None, "solution": "1"}, {"problem": None, "solution": "2"}, {"problem": "c", "solution": "3"}])
    env = get([{"problem": "a", "solution": 2.5}, {"problem": "b", "solution": 7}], ground_truth_extractor="direct")
    assert [env.reset(options={"task_index": i})[0].hidden.expected_answer for i in range(2)] == ["2.5", "7"]


# -- scoring -------------------------------------------------------------------------

def test_scoring_correct_incorrect_unformatted():
    env = get(str(GSM), preset="gsm8k", extra_rewards=("format",))
    truths = DatasetProvider(env).to_hf_dataset()["ground_truth"]
    n = len(truths)
    texts = ([f"Let me think.\n<answer>{t}</answer>" for t in truths] + ["<answer>999999</answer>"] * n
             + [f"The answer is {t}." for t in truths])
    idx = list(range(n)) * 3
    res = Scorer(env).score_batch(idx, texts)
    assert res.totals[:n] == [2.0] * n  # correctness + format
    assert res.totals[n:2 * n] == [1.0] * n  # formatted, wrong
    assert res.totals[2 * n:] == [0.0] * n  # right number, but no <answer> tags: nothing extracted
    r = res[0]
    assert r.signals == {"correctness": 1.0, "format": 1.0} and r.extracted_answer == truths[0]
    assert r.metadata["correctness"]["expected"] == truths[0]
    assert res[2 * n].extracted_answer is None
    assert Scorer(env).totals(idx, texts) == res.totals


def test_numeric_scoring_reads_commas_and_decimals():
    env = get(str(GSM), preset="gsm8k")
    big = next(i for i, r in enumerate(rows(GSM)) if re.search(r"#### \d+,\d", r["answer"]))
    truth = gsm_truth(rows(GSM)[big]["answer"])
    with_commas = f"{int(truth):,}"
    sc = Scorer(env)
    assert sc.score(big, f"<answer>{with_commas}</answer>").total == 1.0
    assert sc.score(big, f"<answer>{truth}.00</answer>").total == 1.0
    assert sc.score(big, f"<answer>{int(truth) + 1}</answer>").total == 0.0


def test_step_and_episode():
    env = get(str(GSM), preset="gsm8k")
    state, _ = env.reset(options={"task_index": 2, "episode_id": "e1"})
    truth = state.hidden.expected_answer
    result = env.step(state, Action.from_text(f"<answer>{truth}</answer>"))
    assert result.terminated and result.next_state.metadata.is_terminal
    assert result.rewards.total == 1.0 and result.extracted_action == truth
    assert result.info["expected_answer"] == truth
    with pytest.raises(ValueError, match="out of bounds"):
        env.reset(options={"task_index": len(env)})


# -- datasets ------------------------------------------------------------------------

def test_dataset_provider_columns_and_metadata():
    env = get(str(MATH), scoring="exact", answer_extractor="boxed", metadata_columns=["level", "unique_id"])
    p = DatasetProvider(env)
    ds = p.to_hf_dataset()
    assert ds.column_names == ["task_index", "prompt", "ground_truth", "messages"]
    want = rows(MATH)
    assert ds["prompt"] == [r["problem"] for r in want]
    assert ds[0]["messages"][0] == {"role": "system", "content": hf.BOXED_REASONING}
    items = p.get_items([3, 5])
    assert [it.ground_truth for it in items] == [boxed_truth(want[i]["solution"]) for i in (3, 5)]
    assert items[0].metadata["level"] == want[3]["level"] and items[1].metadata["unique_id"] == want[5]["unique_id"]
    assert items[0].metadata["task_index"] == 3
    _, info = env.reset(options={"task_index": 5})
    assert info["level"] == want[5]["level"]
    # Non-text metadata keeps its type.
    env = get(str(GSM), preset="gsm8k", metadata_columns=["difficulty"])
    assert DatasetProvider(env)[2].metadata["difficulty"] == rows(GSM)[2]["difficulty"]


def test_tag_based_prompt_by_default():
    env = get(str(GSM), preset="gsm8k")
    assert "<answer>" in DatasetProvider(env)[0].messages[0]["content"]
    env = get(str(GSM), preset="gsm8k", answer_extractor="gsm8k")
    assert DatasetProvider(env)[0].messages[0]["content"] == hf.GSM8K_REASONING


# -- pickling and processes ----------------------------------------------------------

def _child_scores(env, texts, q):
    q.put((Scorer(env).score_batch(list(range(len(texts))), texts).totals, len(env)))


def _in_spawned_child(env, texts):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_child_scores, args=(env, texts, q))
    p.start()
    got = q.get(timeout=180)
    p.join(60)
    return got


def test_file_environment_pickles_by_configuration_and_rebuilds_in_a_spawned_process():
    env = get(str(GSM), preset="gsm8k", size=8, seed=3)
    blob = pickle.dumps(env)
    assert b"Ada has" not in blob  # the rows do not travel: the file is read again
    truths = DatasetProvider(env).to_hf_dataset()["ground_truth"]
    texts = [f"<answer>{t}</answer>" for t in truths]
    totals, n = _in_spawned_child(env, texts)
    assert n == 8 and totals == [1.0] * 8


def test_in_memory_environment_pickles_by_value():
    want = rows(GSM)[:6]
    env = get(datasets.Dataset.from_list(want), question_column="question", answer_column="answer",
              ground_truth_extractor="gsm8k")
    assert want[0]["question"].encode() in pickle.dumps(env)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.reset(options={"task_index": 1})[0].hidden.expected_answer == gsm_truth(want[1]["answer"])
    texts = [f"<answer>{gsm_truth(r['answer'])}</answer>" for r in want]
    totals, n = _in_spawned_child(env, texts)
    assert n == 6 and totals == [1.0] * 6


# -- framework adapters ----------------------------------------------------------------

def test_verl_rows_and_shipped_compute_score_rebuild_the_environment():
    from llenvs_go.integrations import _references, verl

    env = get(str(GSM), preset="gsm8k", size=12, seed=1)
    rows_ = verl.make_verl_dataset(env)
    assert len(rows_) == 12
    ref = rows_[0]["extra_info"]["env_reference"]
    assert json.loads(ref)["adapter"] == "huggingface"
    _references._BUILT.clear()
    row = rows_[0]
    # A reference may not load a dataset on its own: the user configures it.
    with pytest.raises(_references.RefusedReferenceError, match="adapter 'huggingface' is not a procedural"):
        verl.compute_score(row["data_source"], "<answer>1</answer>", "", row["extra_info"])
    assert ref not in _references._BUILT
    verl.allow_environments(env)
    for row in rows_[:4]:
        truth = row["reward_model"]["ground_truth"]
        good = verl.compute_score(row["data_source"], f"<answer>{truth}</answer>", truth, row["extra_info"])
        bad = verl.compute_score(row["data_source"], "<answer>-1234567</answer>", truth, row["extra_info"])
        assert (good, bad) == (1.0, 0.0)
    assert _references._ALLOWED[ref].environment is env  # the configured environment serves its rows
    own = verl.make_verl_reward_fn(env)
    assert own(row["data_source"], f"<answer>{truth}</answer>", truth, row["extra_info"]) == 1.0


def test_verl_in_memory_rows_need_the_environment_at_hand():
    from llenvs_go.integrations import verl

    env = get(rows(GSM), question_column="question", answer_column="answer", ground_truth_extractor="gsm8k")
    row = verl.make_verl_dataset(env, 2)[1]
    assert row["extra_info"]["env_reference"] == ""
    truth = row["reward_model"]["ground_truth"]
    assert verl.make_verl_reward_fn(env)(row["data_source"], f"<answer>{truth}</answer>", truth,
                                         row["extra_info"]) == 1.0
    with pytest.raises(verl.UnscorableRowError):
        verl.compute_score(row["data_source"], f"<answer>{truth}</answer>", truth, row["extra_info"])


def test_trl_dataset_and_reward_function():
    from llenvs_go.integrations import trl

    env = get(str(MATH), scoring="exact", answer_extractor="boxed")
    ds = trl.make_trl_dataset(env, 6)
    fn = trl.make_trl_reward_fn(env)
    completions = [[{"role": "assistant", "content": f"so \\boxed{{{t}}}"}] for t in ds["ground_truth"]]
    completions[1] = [{"role": "assistant", "content": "so \\boxed{nope}"}]
    kwargs = {k: ds[k] for k in ds.column_names if k != "prompt"}
    assert fn(prompts=ds["prompt"], completions=completions, **kwargs) == [1.0, 0.0, 1.0, 1.0, 1.0, 1.0]


# -- the ABI entry point --------------------------------------------------------------

def _new_columns(offsets, width, data, n_cols_named=1, rows=2):
    from llenvs_go._native import ffi

    cfg = json.dumps({"name": "abi", "adapter": "huggingface",
                      "params": {"question_column": "q", "answer_column": "q", "ground_truth_extractor": "raw",
                                 "scoring": "exact", "columns": ["q"] * n_cols_named}}).encode()
    offs = ffi.new("int32_t[]" if width == 4 else "int64_t[]", offsets)
    body = ffi.new("char[]", data)
    args = [ffi.new("void *[]", [offs]), ffi.new("int32_t[]", [width]), ffi.new("int64_t[]", [0]),
            ffi.new("char *[]", [body]), ffi.new("int64_t[]", [len(data)]), ffi.new("uint8_t *[]", [ffi.NULL])]
    h = ffi.new("uint64_t *")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = _native.lib().llenvs_env_new_columns(cfg, len(cfg), 1, rows, *args, h, out, out_len)
    reply = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, reply)
    _native.lib().llenvs_env_close(h[0])
    return json.loads(reply)


def test_abi_refuses_bad_buffers_without_crashing():
    assert _new_columns([0, 2, 5], 4, b"abcde")["len"] == 2
    assert _new_columns([0, 2, 5], 8, b"abcde")["len"] == 2
    with pytest.raises(ValueError, match="outside the 5 bytes of data"):
        _new_columns([0, 2, 9], 4, b"abcde")
    with pytest.raises(ValueError, match="row 0: offsets 0..4 are not in order"):
        _new_columns([0, 4, 3], 8, b"abcde")
    with pytest.raises(ValueError, match="offset width must be 4 or 8"):
        _new_columns([0, 2, 5], 2, b"abcde")
    with pytest.raises(ValueError, match="names 2 columns but 1 were handed over"):
        _new_columns([0, 2, 5], 4, b"abcde", n_cols_named=2)
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        _new_columns([0, 2, 4], 4, b"ab\xff\xfe")


def test_openrlhf_rows_and_shipped_reward_function():
    from llenvs_go.integrations import openrlhf

    env = get(str(GSM), preset="gsm8k", size=5)
    rows_ = openrlhf.make_openrlhf_dataset(env)
    prompts = ["Q"] * 5
    truths = [gsm_truth(r["answer"]) for r in rows(GSM)[:5]]
    queries = [f"Q<answer>{t}</answer>" for t in truths]
    queries[2] = "Q<answer>wrong</answer>"
    out = openrlhf.reward_func(queries, prompts, [r["label"] for r in rows_])
    assert [float(x) for x in out["rewards"]] == [0.0] * 5  # not configured: refused, counted
    assert out["extra_logs"][openrlhf.REFUSED_KEY] == 5.0
    openrlhf.allow_environments(env)
    out = openrlhf.reward_func(queries, prompts, [r["label"] for r in rows_])
    assert [float(x) for x in out["rewards"]] == [1.0, 1.0, 0.0, 1.0, 1.0]
    assert out["extra_logs"][openrlhf.REFUSED_KEY] == 0.0
    own = openrlhf.make_openrlhf_reward_fn(env)(queries, prompts, [r["label"] for r in rows_])
    assert [float(x) for x in own["rewards"]] == [1.0, 1.0, 0.0, 1.0, 1.0]


def test_environment_config_builds_a_dataset_environment():
    from llenvs_go.core.config import EnvironmentConfig

    cfg = EnvironmentConfig(name=str(GSM), adapter="huggingface", size=4, seed=2,
                            params={"question_column": "question", "answer_column": "answer",
                                    "ground_truth_extractor": "gsm8k"})
    env = cfg.build()
    direct = get(str(GSM), question_column="question", answer_column="answer", ground_truth_extractor="gsm8k",
                 size=4, seed=2)
    assert [env.reset(options={"task_index": i})[0].observation.prompt for i in range(4)] == \
        [direct.reset(options={"task_index": i})[0].observation.prompt for i in range(4)]


# -- math scoring reads the extracted answer whole -----------------------------------

#: Reference answers for the generated attacks below.
_GOLDS = ("7", "-3", "12", "0.25", "\\frac{1}{2}", "\\frac{3}{4}", "2\\sqrt{3}", "\\pi", "x^2+1", "(1, 2)",
          "\\{1, 3\\}", "50\\%", "x = 4", "[0, 1)", "\\text{Monday}")

_DEEP = "(" * 70 + "1" + ")" * 70  # past the verifier's nesting budget of 64

#: Answers that hold the gold ``g`` as a proper sub-expression (and two that are the gold).
_ATTACKS = ("\\frac{{{g}}}{{3}}", "\\frac{{\\frac{{{g}}}{{2}}}}{{3}}", "x + {g}", "{g} + 1", "({g})^2", "2({g})",
            "2 \\cdot {g}", "({g}, 1)", "\\sqrt{{{g}}}", "{g} + " + _DEEP, "3 + {g} + " + _DEEP, "-({g})",
            "y({g})", "\\{{{g}, 5\\}}", "{g} \\cdot x", "{g}")


def _attacks():
    for g in _GOLDS:
        for a in _ATTACKS:
            yield g, a.format(g=g)


# The padded answers reach the verifier's budget: they are timeouts (total 0.0, a ScoringFailureWarning from totals).
@pytest.mark.filterwarnings("ignore::llenvs_go.integrations.scoring.ScoringFailureWarning")
def test_math_scoring_never_matches_a_part_of_the_answer():
    """scoring="math" through the huggingface adapter, with the boxed and the tag_based extractors, gives the
    verdict math-verify gives for the answer boxed: an answer that holds the gold inside a larger expression (or
    is padded past a budget) is never scored 1.0 where math-verify says it is wrong."""
    mvr = pytest.importorskip("math_verify")
    import logging

    cases = list(_attacks())
    golds = list(dict.fromkeys(g for g, _ in cases))
    rows_ = [{"problem": f"q{i}", "solution": f"So \\boxed{{{g}}}."} for i, g in enumerate(golds)]
    index = {g: i for i, g in enumerate(golds)}
    logging.disable(logging.WARNING)
    try:
        theirs = [bool(mvr.verify(mvr.parse(f"\\boxed{{{g}}}"), mvr.parse(f"\\boxed{{{a}}}"))) for g, a in cases]
    finally:
        logging.disable(logging.NOTSET)
    assert any(theirs) and not all(theirs)
    tasks = [index[g] for g, _ in cases]
    for extractor, response in (("boxed", "Thus \\boxed{{{}}}."), ("tag_based", "<answer>{}</answer>")):
        env = environment_registry.get(rows_, adapter="huggingface", scoring="math", answer_extractor=extractor)
        ours = Scorer(env).totals(tasks, [response.format(a) for _, a in cases])
        differ = [(extractor, g, a, t, o) for (g, a), t, o in zip(cases, theirs, ours, strict=True) if o != float(t)]
        # The one known difference, in the safe direction: math-verify reads an equation inside brackets or a
        # fraction (\frac{x = 4}{3}, 2(x = 4)) as its right side alone and matches the gold x = 4; we do not.
        wrong = [d for d in differ if not (d[4] == 0.0 and "=" in d[1] and d[1] != d[2])]
        assert not wrong, "\n".join(f"{x}: gold {g!r}, answer {a!r}: math-verify {t}, ours {o}"
                                    for x, g, a, t, o in wrong)
        assert all(o == 0.0 for *_, o in differ)


@pytest.mark.parametrize(("solution", "response", "preset"), [
    ("\\boxed{\\frac{1}{2}}", "<answer>\\frac{\\frac{1}{2}}{3}</answer>", None),
    ("\\boxed{7}", "<answer>x + 7</answer>", None),
    ("\\boxed{7}", "\\boxed{x + 7}", "math"),
    ("\\boxed{\\frac{1}{2}}", "<answer>3 + \\frac{1}{2} + " + _DEEP + "</answer>", None),
    ("\\boxed{\\frac{1}{2}}", "\\boxed{3 + \\frac{1}{2} + " + _DEEP + "}", "math"),
])
def test_math_scoring_reported_attacks(solution, response, preset):
    kw = {"preset": preset} if preset else {"scoring": "math"}
    env = environment_registry.get([{"problem": "q", "solution": solution}], adapter="huggingface", **kw)
    assert Scorer(env).score(0, response).total == 0.0


# -- found under attack ----------------------------------------------------------------

def test_a_lone_surrogate_in_rows_names_the_row_and_column():
    # Found under attack: the adapter raised the codec's UnicodeEncodeError.
    data = [{"problem": "1+1", "solution": "2"}, {"problem": "what is x\ud800?", "solution": "3"}]
    with pytest.raises(ValueError, match=r"rows\[1\]\['problem'\] holds a lone surrogate \('\\ud800' at position 9 "
                                         r"of 'what is x\\ud800\?'\); a lone surrogate is not valid UTF-8") as info:
        get(data)
    assert not isinstance(info.value, UnicodeError)
    with pytest.raises(ValueError, match=r"rows\[0\]\['meta'\] holds a lone surrogate"):
        get([{"problem": "q", "solution": "1", "meta": [{"k": "ok"}, {"k": "\udfff"}]}], metadata_columns=["meta"])
    with pytest.raises(ValueError, match=r"rows\[0\]: the column name 'x\\udc80' holds a lone surrogate"):
        get([{"problem": "q", "solution": "1", "x\udc80": 1}])


def _no_proxy(monkeypatch):
    for k in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(k, raising=False)


def test_an_unknown_name_offline_fails_fast_without_trying_the_hub(monkeypatch, tmp_path):
    # Found under attack: an unknown name retried the hub for 23 s, then raised the builtin ConnectionError.
    import time

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_hub, "hub_unreachable", lambda: pytest.fail("the hub was probed in offline mode"))
    start = time.monotonic()
    with pytest.raises(hf.DatasetUnavailableError,
                       match=r"'0' is not a local file \(\.jsonl, \.json, \.parquet, \.csv\) or directory, "
                             r"HF_HUB_OFFLINE is set, so the hub was not tried, and it is not in the datasets "
                             r"cache") as info:
        get("0", cache_dir=str(tmp_path))
    assert time.monotonic() - start < 10
    assert isinstance(info.value, ValueError) and isinstance(info.value, ConnectionError)
    assert (info.value.name, info.value.offline) == ("0", True)
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args


def test_an_unknown_name_with_the_hub_unreachable_fails_fast(monkeypatch, tmp_path):
    import socket
    import time

    import datasets.config

    _no_proxy(monkeypatch)
    import huggingface_hub.constants

    for k in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    with socket.socket() as s:  # a local port nothing listens on: connecting is refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", f"http://127.0.0.1:{port}")
    start = time.monotonic()
    with pytest.raises(hf.DatasetUnavailableError,
                       match=rf"'0' is not a local file .* or directory, http://127.0.0.1:{port} cannot be reached "
                             r"\(ConnectionRefusedError: .*\), so the hub was not tried, and it is not in the "
                             r"datasets cache .*set HF_HUB_OFFLINE=1") as info:
        get("0", cache_dir=str(tmp_path))
    assert time.monotonic() - start < 10
    assert info.value.offline is False
    # The cache is still read when the hub cannot be reached: load_dataset runs in offline mode.
    seen = []

    def fake_load_dataset(path, **kw):
        seen.append(datasets.config.HF_HUB_OFFLINE)
        return datasets.Dataset.from_list(rows(GSM))

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    assert len(get("openai/gsm8k")) == len(rows(GSM)) and seen == [True]
    assert datasets.config.HF_HUB_OFFLINE is False


def test_the_hub_probe_goes_through_a_proxy(monkeypatch):
    import datasets.config

    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", "https://huggingface.co")
    monkeypatch.setenv("https_proxy", "http://proxy.example:3128")
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    assert hf_hub._hub_address()[:2] == ("proxy.example", 3128)
