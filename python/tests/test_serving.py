"""The reward server (llenvs_go.serve, `llenvs-go serve`) with real clients: OpenRLHF's own HTTP request code.

OpenRLHF 0.11's SingleTurnAgentExecutor posts {"query", "prompts", "labels"} to every --reward.remote_url with
aiohttp (openrlhf/utils/agent.py, _fetch_rewards_via_http); its module is loaded here from the installed
package by path, without the package's __init__ (which imports torch and deepspeed).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
import types
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from framework_mocks import QEnvironment

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations.openrlhf import make_openrlhf_dataset, reward_func
from llenvs_go.serving import serve


def _post(url: str, body: object, token: str | None = None, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


@pytest.fixture(scope="module")
def openrlhf_agent(tmp_path_factory):
    """openrlhf.utils.agent from the installed OpenRLHF, loaded by path."""
    pytest.importorskip("aiohttp")
    spec = importlib.util.find_spec("openrlhf")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("openrlhf is not installed (make install puts it in .venv without its dependencies)")
    root = spec.submodule_search_locations[0]
    saved = {k: sys.modules.get(k) for k in ("openrlhf", "openrlhf.utils", "openrlhf.utils.logging_utils")}
    pkg = types.ModuleType("openrlhf")
    pkg.__path__ = [root]
    utils = types.ModuleType("openrlhf.utils")
    utils.__path__ = [os.path.join(root, "utils")]
    sys.modules.update({"openrlhf": pkg, "openrlhf.utils": utils})
    try:
        for name in ("logging_utils", "agent"):
            path = os.path.join(root, "utils", f"{name}.py")
            s = importlib.util.spec_from_file_location(f"openrlhf.utils.{name}", path)
            mod = importlib.util.module_from_spec(s)
            sys.modules[f"openrlhf.utils.{name}"] = mod
            s.loader.exec_module(mod)
        yield sys.modules["openrlhf.utils.agent"]
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        sys.modules.pop("openrlhf.utils.agent", None)


@pytest.fixture(scope="module")
def legs():
    return environment_registry.get("leg_counting", seed=11, size=64)


def _plain(values) -> list[float]:
    return [float(x) for x in (values.tolist() if hasattr(values, "tolist") else values)]


def _as_reward_func(got: list[float], want) -> list[float]:
    """The server's floats (JSON, float64) at the precision reward_func gives them: a float32 tensor where torch
    is installed (OpenRLHF's own type), plain floats otherwise."""
    if hasattr(want, "dtype"):
        import torch

        return torch.tensor(got, dtype=want.dtype).tolist()
    return got


def _queries(env, rows, right_every: int = 2) -> tuple[list[str], list[str], list[str]]:
    _, truths = env.task_texts(range(len(rows)))
    prompts = [f"<|im_start|>user\nQ{i}<|im_end|>\n<|im_start|>assistant\n" for i in range(len(rows))]
    queries = [p + (f"<answer>{t}</answer>" if i % right_every == 0 else f"<answer>{t}9</answer>" if i % 3 else "none")
               + "<|im_end|>" for i, (p, t) in enumerate(zip(prompts, truths, strict=True))]
    return queries, prompts, [r["label"] for r in rows]


def test_openrlhf_http_client_gets_what_reward_func_gives(legs, openrlhf_agent):
    rows = make_openrlhf_dataset(legs)
    queries, prompts, labels = _queries(legs, rows)
    # ground-truth labels (math verification), and a row whose fingerprint is not its task's
    queries += ["P: the answer is \\boxed{\\frac{1}{2}}", "P: \\boxed{3}", queries[0]]
    prompts += ["P:", "P:", prompts[0]]
    i, fp, ref = labels[1].split(":", 3)[1:]
    labels += ["0.5", "4", f"llenvs:0:{fp}:{ref}"]
    want = reward_func(queries, prompts, labels)
    with serve(legs, port=0) as a, serve(legs, port=0) as b:
        executor = openrlhf_agent.SingleTurnAgentExecutor([a.url + "/get_reward", b.url])  # both paths, sharded
        got = asyncio.run(executor._fetch_rewards_via_http(queries, prompts, labels))
    assert len(got) == 2
    assert got[0]["rewards"] + got[1]["rewards"] == _plain(want["rewards"])
    assert got[0]["scores"] + got[1]["scores"] == _plain(want["scores"])
    rewards = _plain(want["rewards"])
    assert sum(rewards) > 0 and 0 in rewards and rewards[-3:] == [1.0, 0.0, 0.0]
    for key in ("llenvs/unscored", "llenvs/env_mismatch", "llenvs/error"):
        assert sum(g["extra_logs"][key] for g in got) == want["extra_logs"][key], key
    assert want["extra_logs"]["llenvs/env_mismatch"] == 1


def test_rows_of_an_environment_not_served_are_refused(legs, openrlhf_agent):
    # In process, reward_func rebuilds a procedural environment a row names; the server scores only what it serves.
    other = make_openrlhf_dataset(environment_registry.get("leg_counting", seed=12, size=4))
    _, truths = environment_registry.get("leg_counting", seed=12, size=4).task_texts(range(4))
    queries = [f"P<answer>{t}</answer>" for t in truths]
    with serve(legs, port=0) as server:
        executor = openrlhf_agent.SingleTurnAgentExecutor(server.url + "/get_reward")
        (got,) = asyncio.run(executor._fetch_rewards_via_http(queries, ["P"] * 4, [r["label"] for r in other]))
    assert got["rewards"] == [0.0] * 4 and got["statuses"] == ["error"] * 4
    assert got["extra_logs"]["llenvs/refused_reference"] == 4 and got["extra_logs"]["llenvs/unscored"] == 4
    assert _plain(reward_func(queries, ["P"] * 4, [r["label"] for r in other])["rewards"]) == [1.0] * 4


def test_one_request_per_sample_as_the_executor_sends_it(legs, openrlhf_agent):
    rows = make_openrlhf_dataset(legs)
    queries, prompts, labels = _queries(legs, rows)
    want = reward_func(queries, prompts, labels)["rewards"]

    async def one_each(executor):
        return await asyncio.gather(*(executor._fetch_rewards_via_http([q], [p], [lab])
                                      for q, p, lab in zip(queries, prompts, labels, strict=True)))

    with serve(legs, port=0, concurrency=2, queue=8) as server:
        executor = openrlhf_agent.SingleTurnAgentExecutor(server.url + "/get_reward")
        got = asyncio.run(one_each(executor))
    assert [g[0]["rewards"][0] for g in got] == _plain(want)


def test_score_endpoint_equals_in_process_scoring(legs):
    from llenvs_go.integrations import Scorer

    _, truths = legs.task_texts(range(16))
    responses = [f"<answer>{t}</answer>" if i % 2 else "<answer>zz</answer>" for i, t in enumerate(truths)]
    indices = list(range(16))
    want = Scorer(legs).score_batch(indices, responses)
    with serve({"legs": legs}, port=0) as server:
        body = {"environment": "legs", "task_indices": indices, "responses": responses}
        code, got = _post(server.url + "/score", body)
    assert code == 200
    assert got["totals"] == [r.total for r in want]
    assert got["statuses"] == want.statuses
    assert got["answers"] == [r.extracted_answer for r in want]


ARROW = "application/vnd.apache.arrow.stream"


def _post_arrow(url: str, table, accept: str = ARROW) -> tuple[int, str, bytes]:
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as w:
        for batch in table.to_batches(max_chunksize=7):  # several record batches
            w.write_batch(batch)
    headers = {"Content-Type": ARROW, "Accept": accept}
    req = urllib.request.Request(url, data=sink.getvalue().to_pybytes(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["Content-Type"], e.read()


def test_score_in_arrow_ipc_equals_json_and_in_process_scoring(legs):
    pa = pytest.importorskip("pyarrow")
    from llenvs_go.integrations import Scorer

    n = 40
    _, truths = legs.task_texts(range(n))
    responses = [f"<answer>{t}</answer>" if i % 3 else ("no answer" if i % 2 else f"<answer>{t}1</answer>")
                 for i, t in enumerate(truths)]
    indices = list(range(n))
    want = Scorer(legs).score_batch(indices, responses)
    body = {"environment": "legs", "task_indices": indices, "responses": responses}
    table = pa.table({"task_indices": indices, "responses": responses}, metadata={"environment": "legs"})
    truth_body = {"ground_truths": ["0.5", "4", None],
                  "responses": ["\\boxed{\\frac{1}{2}}", "\\boxed{3}", "\\boxed{1}"]}
    with serve({"legs": legs}, port=0) as server:
        code, as_json = _post(server.url + "/score", body)
        assert code == 200
        code, kind, raw = _post_arrow(server.url + "/score", table)
        assert (code, kind) == (200, ARROW)
        got = pa.ipc.open_stream(raw).read_all()
        # An Arrow body answered in JSON, and ground truths with a null.
        code, _, plain = _post_arrow(server.url + "/score", table, accept="application/json")
        truths_json = _post(server.url + "/score", truth_body)[1]
        code2, _, truths_raw = _post_arrow(server.url + "/score", pa.table(truth_body))
        # Refusals stay JSON with a clear message.
        bad_code, bad_kind, bad = _post_arrow(server.url + "/score", pa.table({"responses": ["a"], "prompt": ["p"]}))
        big_code, _, big = _post_arrow(server.url + "/score", pa.table({"responses": [1.5]}))
    assert got.schema.metadata == {b"environment": b"legs"}
    columns = got.to_pydict()
    assert columns["totals"] == as_json["totals"] == [r.total for r in want]
    assert columns["statuses"] == as_json["statuses"] == want.statuses
    assert columns["answers"] == as_json["answers"] == [r.extracted_answer for r in want]
    assert columns["errors"] == as_json["errors"]
    assert columns["signals.correctness"] == as_json["signals"]["correctness"]
    assert code == 200 and json.loads(plain) == as_json
    assert code2 == 200 and pa.ipc.open_stream(truths_raw).read_all().to_pydict() == {
        k: truths_json[k] for k in ("totals", "statuses", "answers", "errors")}
    assert truths_json["statuses"] == ["correct", "incorrect", "error"]
    assert (bad_code, bad_kind) == (400, "application/json") and 'unknown column "prompt"' in json.loads(bad)["error"]
    assert big_code == 400 and "float64" in json.loads(big)["error"]


def test_python_environment_is_served_through_the_gil():
    env = QEnvironment(n=6)
    rows = make_openrlhf_dataset(env)
    responses = ["0", "5", "2", "x", "4", "nope"]
    with serve(env, port=0) as server:
        code, got = _post(server.url + "/score", {"task_indices": list(range(6)), "responses": responses})
        assert code == 200
        assert got["totals"] == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
        assert got["signals"] == {"correctness": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]}
        # OpenRLHF labels of a Python environment name no reference: the one served environment scores them,
        # and their ground-truth fingerprints are checked through the callback
        labels = [r["label"] for r in rows]
        code, reply = _post(server.url + "/get_reward", {"query": [f"P{r}" for r in responses],
                                                          "prompts": ["P"] * 6, "labels": labels})
        assert code == 200 and reply["rewards"] == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
        wrong = make_openrlhf_dataset(QEnvironment(n=6, offset=1))[0]["label"]
        code, reply = _post(server.url + "/get_reward", {"query": ["P1"], "prompts": ["P"], "labels": [wrong]})
        assert code == 200 and reply["statuses"] == ["error"] and reply["extra_logs"]["llenvs/env_mismatch"] == 1


def test_a_failing_python_environment_is_an_error_status_not_a_dead_server():
    class Broken(QEnvironment):
        def step(self, state, action):
            raise RuntimeError("boom")

    with serve(Broken(n=3), port=0) as server:
        code, got = _post(server.url + "/score", {"task_indices": [0, 1], "responses": ["0", "1"]})
        assert code == 200 and got["statuses"] == ["error", "error"] and "boom" in got["errors"][0]
        code, _ = _post(server.url + "/score", {"task_indices": [0], "responses": ["0"]})
        assert code == 200


def test_token_bad_requests_and_limits(legs):
    with serve(legs, port=0, token="s3cret", max_items=4, max_body_bytes=4096) as server:
        ok = {"task_indices": [0], "responses": ["<answer>1</answer>"]}
        assert _post(server.url + "/score", ok)[0] == 401
        assert _post(server.url + "/score", ok, token="wrong")[0] == 401
        assert _post(server.url + "/score", ok, token="s3cret")[0] == 200
        with urllib.request.urlopen(server.url + "/health") as r:  # liveness needs no token
            assert r.status == 200
        code, err = _post(server.url + "/score", None, token="s3cret", raw=b"{not json")
        assert code == 400 and "JSON" in err["error"]
        code, err = _post(server.url + "/score", {"task_indices": [0] * 5, "responses": ["a"] * 5}, token="s3cret")
        assert code == 413 and "4" in err["error"]
        code, err = _post(server.url + "/score", {"task_indices": [0], "responses": ["a" * 10000]}, token="s3cret")
        assert code == 413
        code, err = _post(server.url + "/score", {"environment": "nope", "task_indices": [0], "responses": ["a"]},
                          token="s3cret")
        assert code == 404 and "leg_counting" in err["error"]
        code, err = _post(server.url + "/score", {"task_indices": [64], "responses": ["a"]}, token="s3cret")
        assert code == 200 and err["statuses"] == ["error"]


def test_metrics_count_requests_and_items(legs):
    with serve(legs, port=0) as server:
        for _ in range(3):
            _post(server.url + "/score", {"task_indices": [0, 1], "responses": ["a", "b"]})
        with urllib.request.urlopen(server.url + "/metrics") as r:
            text = r.read().decode()
    lines = {ln.rsplit(" ", 1)[0]: float(ln.rsplit(" ", 1)[1]) for ln in text.splitlines() if ln and ln[0] != "#"}
    assert lines['llenvs_requests_total{endpoint="score",code="200"}'] == 3
    assert sum(v for k, v in lines.items() if k.startswith("llenvs_items_total")) == 6


def test_concurrent_load_against_a_small_queue_is_answered_or_refused(legs):
    body = {"task_indices": list(range(64)), "responses": ["<answer>3</answer>"] * 64}
    with serve(legs, port=0, concurrency=1, queue=4) as server:
        with ThreadPoolExecutor(32) as pool:
            codes = list(pool.map(lambda _: _post(server.url + "/score", body)[0], range(200)))
    assert set(codes) <= {200, 429}
    assert 200 in codes


def test_bad_arguments_are_clear(legs):
    with pytest.raises(ValueError, match="port"):
        serve(legs, port=70000)
    with pytest.raises(ValueError, match="labels"):
        serve(legs, labels="fuzzy")
    with pytest.raises(ValueError, match="queue"):
        serve(legs, port=0, queue=-1)
    with pytest.raises(ValueError, match="named 'leg_counting'"):
        serve([legs, legs], port=0)
    with pytest.raises(TypeError, match="multi-turn"):
        serve(environment_registry.get("guess_number", adapter="native", size=4), port=0)
    with serve(legs, port=0) as server:
        port = int(server.address.rsplit(":", 1)[1])
        with pytest.raises(ValueError, match="cannot listen"):
            serve(legs, port=port)


def test_stop_answers_every_accepted_request(legs):
    body = {"task_indices": list(range(64)) * 64, "responses": ["<answer>3</answer>"] * 4096}
    server = serve(legs, port=0, concurrency=2, queue=64)
    results: list[int] = []

    def client():
        for _ in range(20):
            try:
                results.append(_post(server.url + "/score", body)[0])
            except (urllib.error.URLError, ConnectionError):
                results.append(-1)  # refused at connect after the listener closed: never accepted
                return

    threads = [threading.Thread(target=client) for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    assert server.stop(30.0) is True
    for t in threads:
        t.join()
    assert 200 in results
    assert set(results) <= {200, 503, -1}


@pytest.mark.parametrize("labels", ["math"])
def test_cli_serves_and_drains_on_sigterm(tmp_path, labels):
    token = tmp_path / "token"
    token.write_text("tok\n")
    proc = subprocess.Popen([sys.executable, "-m", "llenvs_go", "serve", "leg_counting", "--size", "32", "--seed", "3",
                             "--port", "0", "--token-file", str(token), "--labels", labels],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line + proc.stderr.read()
        url = line.split()[-1].rstrip("/")
        code, got = _post(url + "/score", {"task_indices": [0], "responses": ["<answer>1</answer>"]}, token="tok")
        assert code == 200 and got["environment"] == "leg_counting"
        assert _post(url + "/score", {"task_indices": [0], "responses": ["x"]})[0] == 401
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out + err
