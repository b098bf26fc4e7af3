"""Held-out agreement of llenvs_go.math_verify with the math-verify package.

Generates cases of the kinds math-verify's own test suite covers where the two used to
disagree (matrices and vectors, units in \\textbf{}/\\textnormal{}/\\mathrm{}, ``x \\approx v``,
named tuples against bare ones, chained inequalities and absolute values against intervals
and unions), each a (gold, response, verify options) triple, and compares
``verify(parse(gold), parse(response))`` of both libraries. math-verify's verdict is computed
live by the installed package; nothing is stored.

Two splits, built by different generators from different seeds: ``dev`` (the cases the rules
were tuned on) and ``heldout`` (other phrasings, other shapes and value ranges, never looked
at while tuning). Report the held-out figure.

Run: python scripts/math_heldout.py [--split heldout|dev|both] [--n 600] [--show 20]
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Case:
    """One comparison: a reference, a response, the kind it tests and verify's options."""

    kind: str
    gold: str
    answer: str
    allow_set_relation_comp: bool = False
    boxed_first: bool = True  # LatexExtractionConfig(boxed_match_priority=0), as math-verify's tests parse
    extra: dict[str, Any] = field(default_factory=dict)


# ---- pieces ----

def frac_tex(q: Fraction, style: str = "frac") -> str:
    """q in LaTeX: an integer, \\frac{a}{b} (or \\dfrac, or a/b), with its sign in front."""
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    a, b = abs(q.numerator), q.denominator
    if style == "slash":
        return f"{sign}{a}/{b}"
    return f"{sign}\\{style}{{{a}}}{{{b}}}"


def entry(rng: random.Random, hard: bool) -> tuple[str, str]:
    """A matrix entry and an equal way of writing it."""
    k = rng.randrange(5 if hard else 3)
    if k == 0:
        n = rng.randint(-9, 12)
        return str(n), str(n)
    if k == 1:
        q = Fraction(rng.randint(-7, 9), rng.randint(2, 9))
        return frac_tex(q), frac_tex(q, "dfrac")
    if k == 2:
        a, b, v = rng.randint(1, 5), rng.randint(1, 6), rng.choice("xyt")
        return f"{a}{v}+{b}", f"{b}+{a}{v}"
    if k == 3:
        n = rng.randint(2, 7)
        return f"\\sqrt{{{n * n * 2}}}", f"{n}\\sqrt{{2}}"
    q = Fraction(rng.randint(1, 19), rng.choice([2, 4, 5, 8]))
    return frac_tex(q), f"{float(q):g}"


def matrix_tex(rows: list[list[str]], env: str) -> str:
    """rows as a LaTeX matrix in env ("pmatrix", "bmatrix", "matrix", "array" in brackets)."""
    body = " \\\\ ".join(" & ".join(r) for r in rows)
    if env == "array":
        return f"\\left[\\begin{{array}}{{{'c' * len(rows[0])}}}{body}\\end{{array}}\\right]"
    if env == "left-matrix":
        return f"\\left[\\begin{{matrix}}{body}\\end{{matrix}}\\right]"
    return f"\\begin{{{env}}}{body}\\end{{{env}}}"


def wrap(rng: random.Random, tex: str, phrasing: list[str]) -> str:
    """tex set in a short response."""
    return rng.choice(phrasing).format(a=tex)


DEV_PHRASES = ["The answer is $\\boxed{{{a}}}$.", "Therefore $ {a} $.", "So we get $\\boxed{{{a}}}$",
               "$${a}$$", "Final result: $ {a} $"]
HELD_PHRASES = ["Putting it together, the result is \\[ \\boxed{{{a}}} \\]", "Hence \\( {a} \\).",
                "We conclude that the answer is $ {a} $. I hope it is correct.", "Final Answer: $\\boxed{{{a}}}$",
                "which gives \\boxed{{{a}}}."]


# ---- generators: each returns one Case ----

def gen_matrix(rng: random.Random, held: bool) -> Case:
    r, c = rng.choice([(2, 2), (2, 1), (3, 1), (1, 3), (3, 3), (2, 3)] if held else [(2, 2), (2, 1), (3, 1), (2, 2)])
    pairs = [[entry(rng, held) for _ in range(c)] for _ in range(r)]
    gold_rows = [[p[0] for p in row] for row in pairs]
    envs = ["pmatrix", "bmatrix", "matrix", "array", "left-matrix"] if held else ["pmatrix", "bmatrix", "array"]
    genv, penv = rng.choice(envs[:2]), rng.choice(envs)
    mode = rng.randrange(7)
    pred_rows = [[p[1] for p in row] for row in pairs]
    if mode == 0:  # one entry changed
        i, j = rng.randrange(r), rng.randrange(c)
        pred_rows[i][j] = pred_rows[i][j] + "+1"
        pred = matrix_tex(pred_rows, penv)
    elif mode == 1 and r != c:  # the transpose written out: another shape
        pred = matrix_tex([list(x) for x in zip(*pred_rows, strict=True)], penv)
    elif mode == 2:  # a scalar multiple of a matrix of integers
        k = rng.randint(2, 4)
        ints = [[rng.randint(-5, 9) for _ in range(c)] for _ in range(r)]
        gold_rows = [[str(k * v) for v in row] for row in ints]
        pred = f"{k}{matrix_tex([[str(v) for v in row] for row in ints], penv)}"
    elif mode == 3:  # a sum of two matrices
        a = [[rng.randint(-5, 9) for _ in range(c)] for _ in range(r)]
        b = [[rng.randint(-5, 9) for _ in range(c)] for _ in range(r)]
        gold_rows = [[str(x + y) for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]
        if rng.random() < 0.3:
            gold_rows[0][0] = str(int(gold_rows[0][0]) + 1)
        pred = (matrix_tex([[str(v) for v in row] for row in a], penv) + " + "
                + matrix_tex([[str(v) for v in row] for row in b], penv))
    elif mode == 4 and held and r == c:  # a transpose
        pred = matrix_tex([list(x) for x in zip(*pred_rows, strict=True)], penv) + "^T"
    elif mode == 5:  # a tuple for a vector
        pred = "(" + ", ".join(v for row in pred_rows for v in row) + ")"
    else:
        pred = matrix_tex(pred_rows, penv)
    gold = f"${matrix_tex(gold_rows, genv)}$"
    return Case("matrix", gold, wrap(rng, pred, HELD_PHRASES if held else DEV_PHRASES))


UNITS = ["meters", "miles", "cm", "km", "inches", "feet", "dollars", "apples", "hours", "seconds", "units", "kg",
         "square units", "degrees", "minutes", "days", "students", "liters"]
STYLES = ["\\textbf{{{u}}}", "\\textnormal{{ {u}}}", "\\text{{ {u}}}", "\\textit{{{u}}}", "\\mathrm{{{u}}}",
          "\\textrm{{ {u}}}", "\\mbox{{ {u}}}"]


def gen_units(rng: random.Random, held: bool) -> Case:
    k = rng.randrange(4)
    if k == 0:
        v = str(rng.randint(2, 999))
        alt = v
    elif k == 1:
        q = Fraction(rng.randint(1, 20), rng.randint(2, 9))
        v, alt = frac_tex(q), frac_tex(q, "slash") if q.denominator != 1 else str(q)
    elif k == 2:
        x = rng.randint(1, 999) / 10
        v, alt = f"{x:g}", f"{x:g}"
    else:
        n = rng.randint(2, 9)
        v, alt = f"{n}\\sqrt{{{rng.choice([2, 3, 5])}}}", None
        alt = v
    unit = rng.choice(UNITS)
    style = rng.choice(STYLES if held else STYLES[:3])
    wrong = rng.random() < 0.3
    shown = f"{alt}+1" if wrong else alt
    sep = rng.choice(["", " ", "\\ "]) if held else ""
    pred_tex = f"{shown}{sep}{style.format(u=unit)}"
    gold = f"${v}$" if rng.random() < 0.7 else f"${v}$ {unit}"
    if held and rng.random() < 0.3:  # the unit on the gold's side
        gold, pred_tex = f"${v}{style.format(u=unit)}$", shown
    return Case("units", gold, wrap(rng, pred_tex, HELD_PHRASES if held else DEV_PHRASES))


def gen_approx(rng: random.Random, held: bool) -> Case:
    q = Fraction(rng.randint(1, 40), rng.choice([3, 7, 9, 11, 6]))
    dec = f"{float(q):.{rng.choice([2, 3, 6])}f}"
    var = rng.choice("xyk" if not held else "tnabh")
    k = rng.randrange(6)
    if k == 0:
        gold, pred = f"${dec}$", f"{var} \\approx {dec}"
    elif k == 1:
        gold, pred = f"${frac_tex(q)}$", f"{var}\\approx{dec}"
    elif k == 2:
        gold, pred = f"${frac_tex(q)}$", f"{frac_tex(q)} \\approx {dec}"
    elif k == 3:
        gold, pred = f"${dec}$", f"{frac_tex(q)} \\approx {dec}"
    elif k == 4:
        gold, pred = f"${var} = {frac_tex(q)}$", f"{var} = {frac_tex(q)} \\approx {dec}"
    else:
        n = rng.randint(2, 99)
        gold, pred = f"${n}$", f"{var} \\approx {n if rng.random() < 0.7 else n + 1}"
    return Case("approx", gold, wrap(rng, pred, HELD_PHRASES if held else DEV_PHRASES))


def gen_named_tuple(rng: random.Random, held: bool) -> Case:
    n = rng.choice([2, 3] if not held else [2, 3, 4])
    names = rng.sample("pqrstabcmn" if held else "pqrxyz", n)
    vals = [str(rng.randint(-9, 20)) for _ in range(n)]
    if held and rng.random() < 0.4:
        vals[rng.randrange(n)] = frac_tex(Fraction(rng.randint(1, 9), rng.randint(2, 7)))
    named = f"({','.join(names)})=({','.join(vals)})"
    bare_vals = list(vals)
    k = rng.randrange(5)
    if k == 0:
        bare_vals = bare_vals[::-1]
    elif k == 1:
        bare_vals[0] = str(rng.randint(30, 60))
    bare = f"({', '.join(bare_vals)})"
    if held and k == 4:
        bare = ", ".join(f"{a}={b}" for a, b in zip(names, bare_vals, strict=True))
    if rng.random() < 0.75:
        gold, pred = f"${named}$", bare
    else:
        gold, pred = f"${bare}$", named
    return Case("named tuple", gold, wrap(rng, pred, HELD_PHRASES if held else DEV_PHRASES))


def interval_tex(lo: str, hi: str, lo_closed: bool, hi_closed: bool, left_right: bool) -> str:
    """An interval in LaTeX, with \\left/\\right when asked."""
    opener, closer = ("[" if lo_closed else "("), ("]" if hi_closed else ")")
    if left_right:
        return f"\\left{opener}{lo}, {hi}\\right{closer}"
    return f"{opener}{lo}, {hi}{closer}"


def gen_inequality(rng: random.Random, held: bool) -> Case:
    v = rng.choice("xz" if not held else "xtyu")
    le = rng.choice(["\\le", "\\leq", "<="] if held else ["\\leq", "\\le"])
    lr = rng.random() < 0.5
    k = rng.randrange(6 if held else 4)
    a = Fraction(rng.randint(1, 6), rng.choice([1, 1, 2, 3]))
    b = a + Fraction(rng.randint(1, 6), rng.choice([1, 2]))
    A, B, mA, mB = frac_tex(a), frac_tex(b), frac_tex(-a), frac_tex(-b)
    wrong = rng.random() < 0.3
    if k == 0:  # a <= |v| <= b against [-b, -a] U [a, b]
        rel = f"{A}{le}|{v}|{le} {B}"
        hi_c = not wrong
        s = (interval_tex(mB, mA, True, True, lr) + " \\cup " + interval_tex(A, B, True, hi_c, lr))
    elif k == 1:  # |v - c| < r against (c - r, c + r)
        c, r = rng.randint(-5, 5), rng.randint(1, 6)
        strict = rng.random() < 0.5
        op = "<" if strict else le
        rel = f"|{v}{'-' if c >= 0 else '+'}{abs(c)}| {op} {r}"
        closed = not strict if not wrong else strict
        s = interval_tex(str(c - r), str(c + r), closed, closed, lr)
    elif k == 2:  # |v| > a against the two rays
        rel = f"|{v}| > {A}"
        s = (interval_tex("-\\infty", mA, False, wrong, lr) + " \\cup " + interval_tex(A, "\\infty", False, False, lr))
    elif k == 3:  # a < p v + q <= b against an interval
        p, q = rng.randint(1, 4), rng.randint(-5, 5)
        lo, hi = rng.randint(-10, 0), rng.randint(1, 12)
        rel = f"{lo} < {p}{v}{'+' if q >= 0 else '-'}{abs(q)} {le} {hi}"
        s = interval_tex(frac_tex(Fraction(lo - q, p)), frac_tex(Fraction(hi - q, p) + (1 if wrong else 0)), False,
                         True, lr)
    elif k == 4:  # v^2 >= a^2 (integers) against the rays
        n = rng.randint(1, 7)
        rel = f"{v}^2 \\geq {n * n}"
        s = (interval_tex("-\\infty", str(-n), False, True, lr) + " \\cup "
             + interval_tex(str(n + (1 if wrong else 0)), "\\infty", True, False, lr))
    else:  # v != a against the line without it
        n = rng.randint(-9, 9)
        rel = f"{v} \\neq {n}"
        s = (interval_tex("-\\infty", str(n), False, False, lr) + " \\cup "
             + interval_tex(str(n if not wrong else n + 1), "\\infty", False, False, lr))
    in_form = f"{v} \\in {s}" if rng.random() < 0.6 else s
    asr = rng.random() < 0.5
    if rng.random() < 0.7:
        gold, pred = f"${rel}$", in_form
    else:
        gold, pred = f"${in_form}$", rel
    return Case("inequality", gold, wrap(rng, pred, HELD_PHRASES if held else DEV_PHRASES),
                allow_set_relation_comp=asr, boxed_first=rng.random() < 0.8)


GENERATORS: list[Callable[[random.Random, bool], Case]] = [gen_matrix, gen_units, gen_approx, gen_named_tuple,
                                                          gen_inequality]


def cases(split: str, n: int) -> list[Case]:
    """n cases of the split ("dev" or "heldout"), the kinds in turn."""
    held = split == "heldout"
    rng = random.Random(20260 if held else 7)
    return [GENERATORS[i % len(GENERATORS)](rng, held) for i in range(n)]


def run(lib: Any, case: Case) -> bool:
    """verify(parse(gold), parse(answer)) with lib's classes."""
    if case.boxed_first:
        cfg = [lib.LatexExtractionConfig(boxed_match_priority=0), lib.ExprExtractionConfig()]
    else:
        cfg = [lib.LatexExtractionConfig(), lib.ExprExtractionConfig()]
    g, p = lib.parse(case.gold, cfg), lib.parse(case.answer, cfg)
    return bool(lib.verify(g, p, allow_set_relation_comp=case.allow_set_relation_comp))


def compare(items: list[Case]) -> tuple[int, list[tuple[Case, bool, bool]]]:
    """The number of cases on which both libraries agree, and the others with both verdicts."""
    import math_verify as reference

    from llenvs_go import math_verify as ours

    logging.disable(logging.WARNING)
    agree, diffs = 0, []
    for c in items:
        theirs, mine = run(reference, c), run(ours, c)
        if theirs == mine:
            agree += 1
        else:
            diffs.append((c, theirs, mine))
    return agree, diffs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=["dev", "heldout", "both"], default="heldout")
    ap.add_argument("--n", type=int, default=600, help="cases per split")
    ap.add_argument("--show", type=int, default=20, help="disagreements to print")
    args = ap.parse_args()
    for split in (["dev", "heldout"] if args.split == "both" else [args.split]):
        items = cases(split, args.n)
        agree, diffs = compare(items)
        for c, theirs, mine in diffs[: args.show]:
            print(f"  [{split}] {c.kind}: math-verify={theirs} llenvs_go={mine} asr={c.allow_set_relation_comp} "
                  f"gold={c.gold!r} answer={c.answer!r}")
        by_kind: dict[str, list[int]] = {}
        for c in items:
            by_kind.setdefault(c.kind, [0, 0])[1] += 1
        for c, _, _ in diffs:
            by_kind[c.kind][0] += 1
        kinds = ", ".join(f"{k} {t - d}/{t}" for k, (d, t) in by_kind.items())
        print(f"{split}: agreement {agree}/{len(items)} = {100 * agree / len(items):.2f}% ({kinds})")


if __name__ == "__main__":
    main()
