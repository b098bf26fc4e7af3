"""Write the small question/answer fixtures of python/tests/data/ (GSM8K form and MATH form).

The problems are made up here from templates, with their answers computed, so
the files are our own text. Run from the repository root:

    python scripts/make_dataset_fixtures.py
"""

from __future__ import annotations

import csv
import json
import random
from math import gcd
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

OUT = Path(__file__).resolve().parent.parent / "python" / "tests" / "data"

NAMES = ["Ada", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Goran", "Hana", "Ines", "Jomo", "Kiri", "Lars"]
ITEMS = [("apples", "baskets"), ("marbles", "jars"), ("stickers", "sheets"), ("pencils", "boxes"),
         ("shells", "buckets"), ("cards", "decks")]


def gsm8k_rows(n: int, rng: random.Random) -> list[dict[str, str]]:
    """Word problems whose worked answers end in "#### <number>", as GSM8K's do."""
    rows = []
    for k in range(n):
        who = NAMES[k % len(NAMES)]
        thing, holder = ITEMS[k % len(ITEMS)]
        per = rng.randint(3, 40)
        count = rng.randint(2, 60)
        given = rng.randint(1, per * count - 1)
        kind = k % 3
        if kind == 0:
            total = per * count - given
            q = (f"{who} has {count} {holder} with {per} {thing} in each. {who} gives away {given} {thing}. "
                 f"How many {thing} does {who} have left?")
            a = (f"{who} starts with {count} * {per} = <<{count}*{per}={per * count}>>{per * count} {thing}.\n"
                 f"After giving away {given}, {per * count} - {given} = <<{per * count}-{given}={total}>>{total} "
                 f"remain.\n#### {total:,}" if total >= 1000 else
                 f"{who} starts with {count} * {per} = <<{count}*{per}={per * count}>>{per * count} {thing}.\n"
                 f"After giving away {given}, {per * count} - {given} = <<{per * count}-{given}={total}>>{total} "
                 f"remain.\n#### {total}")
        elif kind == 1:
            price = rng.randint(2, 90) * 25
            total = price * count
            q = (f"One of the {holder} costs ${price / 100:.2f}. {who} buys {count} of them. How many cents does "
                 f"{who} spend?")
            a = (f"Each costs {price} cents, so {count} cost {count} * {price} = <<{count}*{price}={total}>>{total} "
                 f"cents.\n#### {total:,}")
        else:
            total = -(given % 17 + 1)
            q = (f"The temperature at dawn was {given % 9} degrees. By midnight it had fallen by "
                 f"{given % 9 - total} degrees. What was the temperature at midnight?")
            a = f"{given % 9} - {given % 9 - total} = {total}.\n#### {total}"
        rows.append({"question": q, "answer": a, "id": f"g{k:03d}", "difficulty": kind + 1})
    return rows


def math_rows(n: int, rng: random.Random) -> list[dict[str, object]]:
    """Competition-style problems whose solutions box the answer, as MATH's do."""
    rows = []
    for k in range(n):
        kind = k % 4
        a, b = rng.randint(2, 19), rng.randint(2, 19)
        if kind == 0:
            g = gcd(a, a + b)
            ans = f"\\frac{{{a // g}}}{{{(a + b) // g}}}"
            problem = (f"A bag holds ${a}$ red and ${b}$ blue tokens. What is the probability that a token drawn "
                       "at random is red? Express your answer as a common fraction.")
            solution = (f"There are ${a}+{b}={a + b}$ tokens, of which ${a}$ are red, so the probability is "
                        f"$\\boxed{{{ans}}}$.")
            typ = "Counting & Probability"
        elif kind == 1:
            ans = str(a * (a + b))
            problem = f"Evaluate $x^2 + {b}x$ when $x = {a}$."
            solution = f"We get $x(x+{b}) = {a}\\cdot {a + b}$, so the value is $\\boxed{{{ans}}}$."
            typ = "Algebra"
        elif kind == 2:
            ans = f"{a}\\sqrt{{{b if b not in (4, 9, 16) else b + 1}}}"
            r = b if b not in (4, 9, 16) else b + 1
            problem = f"Simplify $\\sqrt{{{a * a * r}}}$."
            solution = f"Since ${a * a * r} = {a}^2 \\cdot {r}$, we have $\\sqrt{{{a * a * r}}} = \\boxed{{{ans}}}$."
            typ = "Prealgebra"
        else:
            ans = f"({a}, {-b})"
            problem = f"Find the point where the lines $y = x - {a + b}$ and $x = {a}$ meet."
            solution = f"Substituting $x = {a}$ gives $y = {a} - {a + b} = {-b}$, so the point is $\\boxed{{{ans}}}$."
            typ = "Algebra"
        rows.append({"problem": problem, "solution": solution, "answer": ans, "level": f"Level {kind + 1}",
                     "type": typ, "unique_id": f"m{k:03d}"})
    return rows


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20240601)
    gsm = gsm8k_rows(36, rng)
    mth = math_rows(32, rng)
    with open(OUT / "gsm8k_form.jsonl", "w", encoding="utf-8") as f:
        for r in gsm:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pq.write_table(pa.Table.from_pylist(gsm), OUT / "gsm8k_form.parquet")
    with open(OUT / "gsm8k_form.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(gsm[0]))
        w.writeheader()
        w.writerows(gsm)
    with open(OUT / "math_form.jsonl", "w", encoding="utf-8") as f:
        for r in mth:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pq.write_table(pa.Table.from_pylist(mth), OUT / "math_form.parquet")
    with open(OUT / "math_form.json", "w", encoding="utf-8") as f:
        json.dump({"data": mth}, f, ensure_ascii=False, indent=1)
    aime = [{"problem": f"Find the remainder when ${7 + k}^{{{k + 3}}}$ is divided by $1000$.",
             "answer": pow(7 + k, k + 3, 1000), "year": 2000 + k} for k in range(12)]
    with open(OUT / "aime_form.jsonl", "w", encoding="utf-8") as f:
        for r in aime:
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
