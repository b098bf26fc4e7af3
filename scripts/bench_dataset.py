"""Speed of the huggingface adapter against llenvs' Python approach, side by side in one run.

    python scripts/bench_dataset.py                  # 1,024 GSM8K-style rows x 8 responses = 8,192
    python scripts/bench_dataset.py --rows 4096 --samples 16 --repeats 9

The dataset is a GSM8K-form JSONL file written to a temporary directory
(question, worked answer ending in ``#### <number>``). Responses are a few
hundred tokens of reasoning ending in ``<answer>...</answer>``: a third right
(some with thousands separators), a third wrong, a third without tags.

Baselines, in Python as llenvs does it:

- ``llenvs path``: per response, the row's ground truth is extracted from its
  answer cell with a regex (llenvs' reset does this on every reset), the
  answer is extracted with the tag regex, scored with llenvs' ``numeric`` rule,
  and a result record (total, signals, answer) is built;
- ``python recipe``: ground truths extracted once up front, then per response
  the tag regex and the numeric rule, a float out;
- ``to_hf_dataset``: rows loaded, ground truth per row by regex, the four
  columns built as Python lists and ``datasets.Dataset.from_dict``.

Ours: ``Scorer.score_batch`` with every result read (total, signals,
extracted answer), ``Scorer.totals`` (floats only), and
``DatasetProvider.to_hf_dataset()``; plus building the environment from the
file against loading the rows and extracting ground truths in Python. Every
result of ours is checked against the baseline's before anything is timed.
Each measurement is repeated; the table shows the median microseconds per
item, the min-max spread and the ratio of medians. The machine is shared and
noisy: compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GT = re.compile(r"####\s*\$?(-?[\d,]+(?:\.\d+)?)")
TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
FILLER = ("First, I read the problem carefully and note every quantity it gives. "
          "Then I set up the arithmetic step by step, checking each partial result. ")


def make_rows(n: int, rng: random.Random) -> list[dict[str, str]]:
    rows = []
    for k in range(n):
        per, count = rng.randint(3, 400), rng.randint(2, 600)
        total = per * count
        q = f"A shop packs {per} pens in each of {count} boxes. How many pens are packed in all? (case {k})"
        a = f"There are {count} boxes of {per} pens, so {count} * {per} = <<{count}*{per}={total}>>{total} pens.\n" \
            f"#### {total:,}"
        rows.append({"question": q, "answer": a})
    return rows


def make_responses(truths: list[str], samples: int, rng: random.Random) -> tuple[list[int], list[str]]:
    idx, texts = [], []
    for i, t in enumerate(truths):
        for s in range(samples):
            body = FILLER * rng.randint(6, 10)
            kind = (i + s) % 3
            if kind == 0:
                shown = f"{int(t):,}" if s % 2 else t
                texts.append(f"{body}So the total is {shown}.\n<answer>{shown}</answer>")
            elif kind == 1:
                texts.append(f"{body}So the total is {int(t) + 7}.\n<answer>{int(t) + 7}</answer>")
            else:
                texts.append(f"{body}So the total is {t}.")
            idx.append(i)
    return idx, texts


# -- llenvs' Python rules ---------------------------------------------------------

def py_truth(cell: str) -> str:
    found = GT.findall(cell)
    return found[-1].replace(",", "") if found else cell.strip()


def py_extract(text: str) -> str | None:
    found = TAG.findall(text)
    return found[-1].strip() if found else None


def py_key(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.10g}"


def py_numeric(pred: str, gold: str) -> float:
    try:
        return 1.0 if py_key(float(pred.replace(",", ""))) == py_key(float(gold.replace(",", ""))) else 0.0
    except (ValueError, OverflowError):
        return 0.0


# -- timing -------------------------------------------------------------------------

def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def row(label: str, times: list[float], n: int, base: float | None) -> float:
    us = [t / n * 1e6 for t in times]
    med = statistics.median(us)
    ratio = "" if base is None else f"{base / med:8.1f}x"
    print(f"  {label:<34} {med:9.3f} µs  [{min(us):8.3f} - {max(us):8.3f}]  {ratio}")
    return med


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1024)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()

    import datasets

    from llenvs_go.core.registry import environment_registry
    from llenvs_go.integrations import DatasetProvider, Scorer

    rng = random.Random(0)
    rows = make_rows(args.rows, rng)
    tmp = Path(tempfile.mkdtemp())
    path = tmp / "gsm8k_bench.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    def build():
        return environment_registry.get(str(path), adapter="huggingface", preset="gsm8k")

    env = build()
    truths = [py_truth(r["answer"]) for r in rows]
    idx, texts = make_responses(truths, args.samples, rng)
    n = len(texts)
    scorer = Scorer(env)

    # Check ours against the baseline before timing anything.
    pairs = list(zip(idx, texts, strict=True))
    want = [py_numeric(a, truths[i]) if (a := py_extract(t)) is not None else 0.0 for i, t in pairs]
    res = scorer.score_batch(idx, texts)
    assert res.totals == want, "score_batch disagrees with the Python rules"
    assert [r.extracted_answer for r in res] == [py_extract(t) for t in texts]
    assert scorer.totals(idx, texts) == want
    ds = DatasetProvider(env).to_hf_dataset()
    assert ds["ground_truth"] == truths and ds["prompt"] == [r["question"] for r in rows]

    def llenvs_path():
        out = []
        for i, t in pairs:
            gold = py_truth(rows[i]["answer"])  # llenvs' reset extracts it every time
            a = py_extract(t)
            v = 0.0 if a is None else py_numeric(a, gold)
            out.append({"total": v, "signals": {"correctness": v}, "extracted_answer": a})
        return out

    def python_recipe():
        return [0.0 if (a := py_extract(t)) is None else py_numeric(a, truths[i]) for i, t in pairs]

    def ours_score_batch():
        return [(r.total, r.signals, r.extracted_answer) for r in scorer.score_batch(idx, texts)]

    def ours_totals():
        return scorer.totals(idx, texts)

    system = DatasetProvider(env)._system_text

    def py_build():
        loaded = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        return loaded, [py_truth(r["answer"]) for r in loaded]

    def py_hf_dataset():
        loaded, gts = py_build()
        prompts = [r["question"] for r in loaded]
        return datasets.Dataset.from_dict({
            "task_index": list(range(len(loaded))), "prompt": prompts, "ground_truth": gts,
            "messages": [[{"role": "system", "content": system}, {"role": "user", "content": p}] for p in prompts]})

    def ours_hf_dataset():
        return DatasetProvider(build()).to_hf_dataset()

    print(f"{args.rows} GSM8K-style rows, {n} responses (~{sum(map(len, texts)) // n} bytes each); "
          f"median µs per item [min - max] over {args.repeats} runs; ratio = baseline median / ours")
    print(f"scoring ({n} responses)")
    r = args.repeats
    base = row("llenvs path (Python)", timed(llenvs_path, r), n, None)
    recipe = row("python recipe (truths known)", timed(python_recipe, r), n, base)
    sb = row("score_batch, every result read", timed(ours_score_batch, r), n, base)
    tt = row("totals (reward-function path)", timed(ours_totals, r), n, base)
    print(f"  vs the python recipe: score_batch {recipe / sb:.1f}x, totals {recipe / tt:.1f}x")
    print(f"datasets ({args.rows} rows, from the file)")
    b2 = row("Python: load + regex + from_dict", timed(py_hf_dataset, r), args.rows, None)
    row("build env + to_hf_dataset", timed(ours_hf_dataset, r), args.rows, b2)
    b3 = row("Python: load + regex ground truths", timed(py_build, r), args.rows, None)
    row("build the environment", timed(build, r), args.rows, b3)


if __name__ == "__main__":
    main()
