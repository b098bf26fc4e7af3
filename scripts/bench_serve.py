"""Benchmark: the reward server (`llenvs-go serve`) beside what users write today, a FastAPI/uvicorn server.

Both servers speak OpenRLHF's remote reward protocol (POST /get_reward with {"query", "prompts", "labels"}),
run as one worker process each on loopback, and get the same 8,192 responses (512 leg_counting tasks, 16
responses each, right and wrong answers, a few hundred characters of reasoning) from the same load client
(scripts/loadgen, in Go, so that the client is not what is measured):

- one request per sample, 64 concurrent clients (OpenRLHF's SingleTurnAgentExecutor pattern);
- batches of 512 samples, 4 concurrent clients.

The baseline scores with reasoning-gym's own leg_counting ``score_answer`` after a regex extraction of
``<answer>...</answer>``, in an ``async def`` endpoint (the usual wrapper); `--math` adds a second workload,
MATH-style ``\\boxed{}`` answers against ground-truth labels, the baseline verifying with math-verify.
Prints elapsed time, throughput, p50/p99 request latency, the ratios, and whether the two servers' rewards
agree item by item. Needs fastapi and uvicorn (pip install fastapi uvicorn), Go, reasoning-gym.

Run: python scripts/bench_serve.py [--n 8192] [--math] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED, TASKS = 3, 512

BASELINE = '''
import re
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


@app.post("/get_reward")
async def get_reward(request: Request):
    data = await request.json()
    rewards = []
    for query, prompt, label in zip(data["query"], data["prompts"], data["labels"]):
        response = query[len(prompt):] if query.startswith(prompt) else query
        rewards.append(score(response, label))
    return {{"rewards": rewards, "scores": rewards, "extra_logs": {{}}}}
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


def load(loadgen: str, url: str, path: str, concurrency: int, replies: str) -> dict:
    out = subprocess.run([loadgen, "-url", url, "-bodies", path, "-concurrency", str(concurrency), "-replies", replies],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rewards_of(path: str) -> list[float]:
    got: list[float] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            got.extend(float(r) for r in json.loads(line)["rewards"])
    return got


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


def run_workload(workload: str, n: int, loadgen: str, tmp: str) -> list[dict]:
    queries, prompts, ours, theirs = (legs_workload if workload == "legs" else math_workload)(n)
    urls, procs = start_servers(workload, tmp)
    rows = []
    try:
        for mode, batch, conc in (("1 per request", 1, 64), ("batches of 512", 512, 4)):
            got: dict[str, dict] = {}
            rewards: dict[str, list[float]] = {}
            for name, labels in (("fastapi", theirs), ("llenvs-go", ours)):
                path = os.path.join(tmp, f"{workload}-{name}-{batch}.jsonl")
                bodies(path, queries, prompts, labels, batch)
                replies = path + ".replies"
                load(loadgen, urls[name] + "/get_reward", path, conc, replies)  # warm-up round
                got[name] = load(loadgen, urls[name] + "/get_reward", path, conc, replies)
                rewards[name] = rewards_of(replies)
            base, fast = got["fastapi"], got["llenvs-go"]
            agree = sum(a == b for a, b in zip(rewards["fastapi"], rewards["llenvs-go"], strict=True))
            rows.append({"workload": workload, "mode": mode, "n": n, "fastapi": base, "llenvs-go": fast,
                         "throughput_ratio": base["elapsed_s"] / fast["elapsed_s"],
                         "p99_ratio": base["p99_ms"] / max(fast["p99_ms"], 1e-9),
                         "agree": agree, "correct": sum(rewards["llenvs-go"])})
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=8192, help="responses per measurement")
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
        rows = run_workload("legs", args.n, loadgen, tmp)
        if args.math:
            rows += run_workload("math", args.n, loadgen, tmp)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'workload':9} {'mode':15} {'server':10} {'elapsed s':>9} {'resp/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for r in rows:
        for name in ("fastapi", "llenvs-go"):
            g = r[name]
            print(f"{r['workload']:9} {r['mode']:15} {name:10} {g['elapsed_s']:9.2f} {r['n'] / g['elapsed_s']:9.0f} "
                  f"{g['p50_ms']:8.2f} {g['p99_ms']:8.2f}")
        print(f"{'':9} {'':15} ratio: throughput {r['throughput_ratio']:.1f}x, p99 {r['p99_ratio']:.1f}x lower; "
              f"rewards agree on {r['agree']}/{r['n']} ({r['correct']:.0f} correct)")
        codes = {k: v for name in ("fastapi", "llenvs-go") for k, v in r[name]["codes"].items() if k != "200"}
        if codes:
            print(f"{'':9} {'':15} non-200 answers: {codes}")


if __name__ == "__main__":
    main()
