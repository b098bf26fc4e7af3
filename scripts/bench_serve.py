"""Benchmark: the reward server (`llenvs-go serve`) beside what users write today, a FastAPI/uvicorn server.

Both servers speak OpenRLHF's remote reward protocol (POST /get_reward with {"query", "prompts", "labels"}),
run as one worker process each on loopback, and get the same 8,192 responses (512 leg_counting tasks, 16
responses each, right and wrong answers, a few hundred characters of reasoning) from the same load client
(scripts/loadgen, in Go, so that the client is not what is measured):

- one request per sample, 64 concurrent clients (OpenRLHF's SingleTurnAgentExecutor pattern);
- the same requests to an endpoint that does nothing (our /health, the baseline's POST /noop): the most
  any server could reach over HTTP through this client on this machine, the cap of the row above;
- batches of 512 samples, 4 concurrent clients, JSON to /get_reward;
- batches of 512 as Arrow IPC streams (task indices or ground truths, and responses): to our /score, answered
  in Arrow IPC; to the baseline's /score_arrow, which reads them with pyarrow and answers JSON.

The baseline scores with reasoning-gym's own leg_counting ``score_answer`` after a regex extraction of
``<answer>...</answer>``, in an ``async def`` endpoint (the usual wrapper); `--math` adds a second workload,
MATH-style ``\\boxed{}`` answers against ground-truth labels, the baseline verifying with math-verify.
Each measurement is run --repeat times (after a warm-up round), the two servers in turn; prints the median
elapsed time with its spread (min-max), throughput, median p50/p99 request latency, the ratios of the medians,
and whether the two servers' rewards agree item by item. Needs fastapi and uvicorn (pip install fastapi
uvicorn), pyarrow, Go, reasoning-gym.

Run: python scripts/bench_serve.py [--n 8192] [--repeat 5] [--math] [--json]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import pyarrow as pa

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED, TASKS = 3, 512

BASELINE = '''
import re
import pyarrow as pa
import reasoning_gym
from fastapi import FastAPI, Request

app = FastAPI()
WORKLOAD = {workload!r}
TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
if WORKLOAD == "legs":
    dataset = reasoning_gym.create_dataset("leg_counting", size={tasks}, seed={seed})
else:
    from math_verify import parse, verify


def score(response, label):
    if WORKLOAD == "legs":
        found = TAG.findall(response)
        if not found:
            return 0.0
        return float(dataset.score_answer(found[-1].strip(), {{"answer": label}}))
    gold = parse("\\\\boxed{{" + label + "}}")
    return 1.0 if verify(gold, parse(response)) else 0.0


@app.get("/health")
async def health():
    return {{"ok": True}}


@app.post("/noop")
async def noop():
    return {{"ok": True}}


@app.post("/get_reward")
async def get_reward(request: Request):
    data = await request.json()
    rewards = []
    for query, prompt, label in zip(data["query"], data["prompts"], data["labels"]):
        response = query[len(prompt):] if query.startswith(prompt) else query
        rewards.append(score(response, label))
    return {{"rewards": rewards, "scores": rewards, "extra_logs": {{}}}}


@app.post("/score_arrow")
async def score_arrow(request: Request):
    table = pa.ipc.open_stream(await request.body()).read_all()
    rewards = [score(r, t) for r, t in zip(table["responses"].to_pylist(), table["ground_truths"].to_pylist())]
    return {{"totals": rewards}}
'''

FILLER = ["Let me count the legs of each animal in turn.", "A spider has 8 legs and a bird has 2.",
          "Adding these up carefully, one group at a time.", "I double-check the multiplication before answering.",
          "Each cow contributes 4 legs to the total.", "So far the running total is consistent."]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, proc: subprocess.Popen, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode} before it served")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{what} did not answer /health within {timeout} s")


def legs_workload(n: int) -> tuple[list[str], list[str], list[str], list[str]]:
    """Queries, prompts, our labels (make_openrlhf_dataset's) and the baseline's (ground truths)."""
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations.openrlhf import make_openrlhf_dataset

    env = environment_registry.get("leg_counting", seed=SEED, size=TASKS)
    rows = make_openrlhf_dataset(env)
    _, truths = env.task_texts(range(TASKS))
    rng = random.Random(0)
    queries, prompts, ours, theirs = [], [], [], []
    for k in range(n):
        i = k % TASKS
        prompt = f"<|im_start|>user\n{rows[i]['input'][-1]['content']}<|im_end|>\n<|im_start|>assistant\n"
        answer = truths[i] if rng.random() < 0.5 else str(int(truths[i]) + rng.randint(1, 9))
        reasoning = " ".join(rng.choice(FILLER) for _ in range(6))
        queries.append(f"{prompt}{reasoning} <answer>{answer}</answer><|im_end|>")
        prompts.append(prompt)
        ours.append(rows[i]["label"])
        theirs.append(truths[i])
    return queries, prompts, ours, theirs


def math_workload(n: int) -> tuple[list[str], list[str], list[str], list[str]]:
    rng = random.Random(1)
    queries, prompts, labels = [], [], []
    for k in range(n):
        p, q = rng.randint(1, 40), rng.randint(2, 40)
        gold = f"\\frac{{{p}}}{{{q}}}"
        shown = f"\\frac{{{p * 2}}}{{{q * 2}}}" if k % 3 == 0 else (gold if k % 3 == 1 else f"{p + 1}/{q}")
        prompt = f"<|im_start|>user\nProblem {k}<|im_end|>\n<|im_start|>assistant\n"
        queries.append(f"{prompt}We simplify step by step. The answer is $\\boxed{{{shown}}}$.<|im_end|>")
        prompts.append(prompt)
        labels.append(gold)
    return queries, prompts, labels, labels


def bodies(path: str, queries: list[str], prompts: list[str], labels: list[str], batch: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for lo in range(0, len(queries), batch):
            f.write(json.dumps({"query": queries[lo:lo + batch], "prompts": prompts[lo:lo + batch],
                                "labels": labels[lo:lo + batch]}) + "\n")


ARROW = "application/vnd.apache.arrow.stream"


def arrow_bodies(path: str, columns: dict[str, list], batch: int) -> None:
    """Arrow IPC streams of `batch` rows, one per line in base64 (loadgen -base64)."""
    table = pa.table(columns)
    with open(path, "w", encoding="utf-8") as f:
        for lo in range(0, table.num_rows, batch):
            sink = pa.BufferOutputStream()
            part = table.slice(lo, batch)
            with pa.ipc.new_stream(sink, part.schema) as w:
                w.write_table(part)
            f.write(base64.b64encode(sink.getvalue().to_pybytes()).decode() + "\n")


def load(loadgen: str, url: str, path: str, concurrency: int, replies: str, arrow: str = "") -> dict:
    args = [loadgen, "-url", url, "-bodies", path, "-concurrency", str(concurrency), "-replies", replies]
    if arrow:
        args += ["-base64", "-content-type", ARROW, "-accept", arrow]
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rewards_of(path: str, arrow: str = "") -> list[float]:
    got: list[float] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if arrow == ARROW:
                got.extend(pa.ipc.open_stream(base64.b64decode(line)).read_all()["totals"].to_pylist())
            elif arrow:
                reply = json.loads(base64.b64decode(line))
                if "totals" not in reply:
                    raise SystemExit(f"{path}: an answer without totals: {reply!r:.300}")
                got.extend(float(r) for r in reply["totals"])
            else:
                got.extend(float(r) for r in json.loads(line)["rewards"])
    return got


def summary(runs: list[dict]) -> dict:
    """The median run's figures, with the spread of the elapsed times."""
    elapsed = [r["elapsed_s"] for r in runs]
    codes: dict[str, int] = {}
    for r in runs:
        for k, v in r["codes"].items():
            codes[k] = codes.get(k, 0) + v
    return {"elapsed_s": statistics.median(elapsed), "elapsed_min_s": min(elapsed), "elapsed_max_s": max(elapsed),
            "p50_ms": statistics.median(r["p50_ms"] for r in runs),
            "p99_ms": statistics.median(r["p99_ms"] for r in runs), "codes": codes, "runs": len(runs)}


def start_servers(workload: str, tmp: str) -> tuple[dict, list[subprocess.Popen]]:
    app = os.path.join(tmp, f"baseline_{workload}.py")
    with open(app, "w", encoding="utf-8") as f:
        f.write(BASELINE.format(workload=workload, tasks=TASKS, seed=SEED))
    base_port, our_port = free_port(), free_port()
    baseline = subprocess.Popen([sys.executable, "-m", "uvicorn", f"baseline_{workload}:app", "--port", str(base_port),
                                 "--workers", "1", "--log-level", "warning", "--no-access-log"], cwd=tmp,
                                stderr=subprocess.DEVNULL)
    args = ["leg_counting", "--size", str(TASKS), "--seed", str(SEED)] if workload == "legs" else []
    ours = subprocess.Popen([sys.executable, "-m", "llenvs_go", "serve", *args, "--port", str(our_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    urls = {"fastapi": f"http://127.0.0.1:{base_port}", "llenvs-go": f"http://127.0.0.1:{our_port}"}
    wait_ready(urls["fastapi"], baseline, "the FastAPI baseline")
    wait_ready(urls["llenvs-go"], ours, "llenvs-go serve")
    return urls, [baseline, ours]


def run_workload(workload: str, n: int, repeat: int, loadgen: str, tmp: str) -> list[dict]:
    queries, prompts, ours, theirs = (legs_workload if workload == "legs" else math_workload)(n)
    responses = [q[len(p):] for q, p in zip(queries, prompts, strict=True)]
    our_columns = ({"task_indices": [k % TASKS for k in range(n)]} if workload == "legs" else {"ground_truths": theirs})
    our_columns["responses"] = responses
    urls, procs = start_servers(workload, tmp)
    modes = [  # name, batch, concurrency, {server: (path, labels or Arrow columns, Accept of Arrow bodies)}
        ("1 per request", 1, 64, {"fastapi": ("/get_reward", theirs, ""), "llenvs-go": ("/get_reward", ours, "")}),
        ("no-op, 1 per request", 1, 64, {"fastapi": ("/noop", theirs, ""), "llenvs-go": ("/health", ours, "")}),
        ("batches of 512", 512, 4, {"fastapi": ("/get_reward", theirs, ""), "llenvs-go": ("/get_reward", ours, "")}),
        ("512, Arrow IPC", 512, 4, {"fastapi": ("/score_arrow", {"ground_truths": theirs, "responses": responses},
                                                "application/json"),
                                    "llenvs-go": ("/score", our_columns, ARROW)}),
    ]
    rows = []
    try:
        for mode, batch, conc, servers in modes:
            runs: dict[str, list[dict]] = {name: [] for name in servers}
            rewards: dict[str, list[float]] = {}
            files = {}
            for name, (endpoint, data, arrow) in servers.items():
                path = os.path.join(tmp, f"{workload}-{name}-{mode.replace(' ', '_').replace(',', '')}.body")
                if arrow:
                    arrow_bodies(path, data, batch)
                else:
                    bodies(path, queries, prompts, data, batch)
                files[name] = (urls[name] + endpoint, path, path + ".replies", arrow)
                load(loadgen, files[name][0], path, conc, files[name][2], arrow)  # warm-up round
            for _ in range(repeat):  # the servers in turn, so that noise falls on both
                for name, (url, path, replies, arrow) in files.items():
                    runs[name].append(load(loadgen, url, path, conc, replies, arrow))
            base, fast = summary(runs["fastapi"]), summary(runs["llenvs-go"])
            row = {"workload": workload, "mode": mode, "n": n, "fastapi": base, "llenvs-go": fast,
                   "throughput_ratio": base["elapsed_s"] / fast["elapsed_s"],
                   "p99_ratio": base["p99_ms"] / max(fast["p99_ms"], 1e-9)}
            if not mode.startswith("no-op"):
                for name, (_, _, replies, arrow) in files.items():
                    rewards[name] = rewards_of(replies, arrow)
                row["agree"] = sum(a == b for a, b in zip(rewards["fastapi"], rewards["llenvs-go"], strict=True))
                row["correct"] = sum(rewards["llenvs-go"])
            rows.append(row)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=8192, help="responses per measurement")
    ap.add_argument("--repeat", type=int, default=5, help="measured runs of each mode (after a warm-up round)")
    ap.add_argument("--math", action="store_true", help="also the math workload (math-verify baseline)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    for mod in ("fastapi", "uvicorn", "reasoning_gym"):
        try:
            __import__(mod)
        except ImportError:
            raise SystemExit(f"bench_serve needs {mod}: pip install fastapi uvicorn reasoning-gym") from None
    with tempfile.TemporaryDirectory() as tmp:
        loadgen = os.path.join(tmp, "loadgen")
        subprocess.run(["go", "build", "-o", loadgen, "./scripts/loadgen"], cwd=ROOT, check=True)
        rows = run_workload("legs", args.n, args.repeat, loadgen, tmp)
        if args.math:
            rows += run_workload("math", args.n, args.repeat, loadgen, tmp)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'workload':9} {'mode':21} {'server':10} {'elapsed s (min-max)':>22} {'resp/s':>9} "
          f"{'p50 ms':>8} {'p99 ms':>8}")
    for r in rows:
        for name in ("fastapi", "llenvs-go"):
            g = r[name]
            spread = f"{g['elapsed_s']:.3f} ({g['elapsed_min_s']:.3f}-{g['elapsed_max_s']:.3f})"
            print(f"{r['workload']:9} {r['mode']:21} {name:10} {spread:>22} {r['n'] / g['elapsed_s']:9.0f} "
                  f"{g['p50_ms']:8.2f} {g['p99_ms']:8.2f}")
        line = f"ratio: throughput {r['throughput_ratio']:.1f}x, p99 {r['p99_ratio']:.1f}x lower"
        if "agree" in r:
            line += f"; rewards agree on {r['agree']}/{r['n']} ({r['correct']:.0f} correct)"
        print(f"{'':9} {'':21} {line}")
        codes = {k: v for name in ("fastapi", "llenvs-go") for k, v in r[name]["codes"].items() if k != "200"}
        if codes:
            print(f"{'':9} {'':21} non-200 answers: {codes}")


if __name__ == "__main__":
    main()
