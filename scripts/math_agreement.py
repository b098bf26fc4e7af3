"""Agreement of llenvs_go.math_verify with the math-verify package on the corpus.

For every case of python/tests/data/math_agreement.jsonl, runs
``verify(parse(gold), parse(answer))`` through both libraries with the case's
configuration and prints the agreement and every disagreement with both parses.
Needs math-verify installed (``pip install "math-verify[antlr4_13_2]"``).
Run: python scripts/math_agreement.py [corpus.jsonl]
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "python" / "tests" / "data" / "math_agreement.jsonl"


def load(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus cases."""
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


def extraction(lib: Any, name: str) -> list[Any]:
    """The extraction targets a case's "parse" names, built from lib's config classes."""
    if name == "default":
        return [lib.LatexExtractionConfig(), lib.ExprExtractionConfig()]
    if name == "expr":
        return [lib.ExprExtractionConfig()]
    if name == "latex":
        return [lib.LatexExtractionConfig()]
    if name == "latex_boxed0":
        return [lib.LatexExtractionConfig(boxed_match_priority=0)]
    if name == "string":
        return [lib.StringExtractionConfig()]
    raise ValueError(f"unknown parse configuration {name!r}")


def run(lib: Any, case: dict[str, Any]) -> tuple[bool, list[Any], list[Any]]:
    """verify(parse(gold), parse(answer)) with lib, and both parses."""
    cfg = extraction(lib, case["config"]["parse"])
    g = lib.parse(case["gold"], extraction_config=cfg)
    p = lib.parse(case["answer"], extraction_config=cfg)
    return bool(lib.verify(g, p, **case["config"]["verify"])), g, p


def compare(cases: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """Runs every case through both libraries; returns the number agreeing and the disagreements."""
    import math_verify as reference

    from llenvs_go import math_verify as ours

    logging.disable(logging.WARNING)
    agree = 0
    diffs = []
    for i, case in enumerate(cases):
        theirs, tg, tp = run(reference, case)
        mine, og, op = run(ours, case)
        if theirs == mine:
            agree += 1
        else:
            diffs.append({"index": i, "feature": case["feature"], "gold": case["gold"], "answer": case["answer"],
                          "math_verify": theirs, "llenvs_go": mine,
                          "math_verify_parse": [[str(x) for x in tg], [str(x) for x in tp]],
                          "llenvs_go_parse": [[str(x) for x in og], [str(x) for x in op]]})
    return agree, diffs


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS
    cases = load(path)
    agree, diffs = compare(cases)
    for d in diffs:
        print(f"[{d['index']}] {d['feature']}: math-verify={d['math_verify']} llenvs_go={d['llenvs_go']}")
        print(f"    gold:   {d['gold'][:200]!r}")
        print(f"    answer: {d['answer'][:200]!r}")
        print(f"    math-verify parsed: {d['math_verify_parse']}")
        print(f"    llenvs_go parsed:   {d['llenvs_go_parse']}")
    print(f"agreement: {agree}/{len(cases)} = {100 * agree / len(cases):.2f}% ({len(diffs)} disagreements)")


if __name__ == "__main__":
    main()
