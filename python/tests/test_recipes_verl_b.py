"""recipes/ (Go ports of veRL 0.9.1's prime_math and geo3k rules) against veRL itself.

scripts/verl_recipe_corpus_b.py generates Numina-style rows (numina_* sources: boxed, "Answer:",
"the answer is" and unboxed responses; equivalent forms as fractions, decimals, LaTeX variants,
\\dfrac, spaces, units, percent, degrees, roots, pi, tuples, intervals; wrong, several boxes,
long reasoning, empty, unicode) and geometry3k rows (<think>...</think> \\boxed{} responses and
their broken forms), and fills in what veRL's own modules return; ``go test ./recipes -run
TestVerlCorpus`` then requires the Go rules to return exactly that for every row.
``test_compute_score_agrees_with_verl_end_to_end`` scores a corpus the way a user does, through
``llenvs_go.integrations.verl.compute_score`` (one call per sample) and ``compute_score_batch``,
across the C ABI.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
from types import ModuleType

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("verl") is None,
                       reason="needs veRL's reward_score modules (pip install --no-deps verl==0.9.1)"),
    pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in ("mathruler", "sympy", "pylatexenc")),
                       reason="veRL's prime_math and geo3k need sympy, pylatexenc and mathruler"),
]
needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="needs the Go toolchain")

ROWS = 12000  # 6000 per family
FAMILIES = ("prime_math", "geo3k")


def _corpus_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verl_recipe_corpus_b", REPO / "scripts" / "verl_recipe_corpus_b.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_corpus_covers_every_family_and_verdict() -> None:
    vc = _corpus_module()
    rows = vc.make_corpus(1500, seed=7)
    assert rows == vc.make_corpus(1500, seed=7)
    seen: dict[str, set[float]] = {f: set() for f in FAMILIES}
    for row in rows:
        seen[vc.family_of(row["data_source"])].add(vc.reference(row))
    assert seen["prime_math"] == {0.0, 1.0}
    assert seen["geo3k"] == {0.0, 0.1, 0.9, 1.0}


@needs_go
def test_go_rules_agree_with_verl_on_generated_corpus(tmp_path: pathlib.Path) -> None:
    corpus = tmp_path / "corpus_b.jsonl"
    subprocess.run([sys.executable, str(REPO / "scripts" / "verl_recipe_corpus_b.py"), "--out", str(corpus),
                    "--n", str(ROWS), "--seed", "1"], check=True, cwd=REPO, capture_output=True)
    env = dict(os.environ, RECIPES_CORPUS=str(corpus))
    proc = subprocess.run(["go", "test", "./recipes", "-run", "^TestVerlCorpus$", "-count=1", "-v"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-6000:]
    counts = dict(re.findall(r"(\w+)\s+(\d+/\d+) rows agree", out))
    assert set(counts) == set(FAMILIES), out[-3000:]
    for fam, frac in counts.items():
        agree, total = map(int, frac.split("/"))
        assert agree == total == ROWS // 2, f"{fam}: {frac}"


def test_compute_score_agrees_with_verl_end_to_end() -> None:
    from llenvs_go.integrations.verl import compute_score, compute_score_batch

    vc = _corpus_module()
    rows = vc.make_corpus(3000, seed=11)
    want = [vc.reference(r) for r in rows]
    infos = [{"split": "train", "index": k} for k in range(len(rows))]
    one = [compute_score(r["data_source"], r["solution"], r["ground_truth"], infos[k]) for k, r in enumerate(rows)]
    batch = compute_score_batch([r["data_source"] for r in rows], [r["solution"] for r in rows],
                                [r["ground_truth"] for r in rows], infos)
    bad = [(r["data_source"], r["solution"][-80:], r["ground_truth"], o, w)
           for r, o, w in zip(rows, one, want, strict=True) if o != w or type(o) is not type(w)]
    assert not bad, bad[:5]
    assert batch == want
