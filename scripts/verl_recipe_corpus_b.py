"""A generated corpus for checking recipes/prime_math*.go and recipes/geo3k.go against veRL itself.

Rows are {"data_source", "solution", "ground_truth", "expected"} as in scripts/verl_recipe_corpus.py:
Numina-style rows (data_source numina_*, the ground truth a reference's boxed answer, as the PRIME
recipe's Eurus data stores it) and geometry3k rows (hiyouga/geometry3k, the dataset's "answer" as
veRL's examples/data_preprocess/geo3k.py stores it, responses in its <think>...</think> \\boxed{}
format), with what veRL 0.9.1's own prime_math package and geo3k module return (a float).

prime_math imports ``verl.utils.py_functional`` (its multiprocessing timeout); that one file is
loaded by path under a stand-in ``verl`` package for the import and the stand-ins are removed again,
so ``import verl`` (ray, torch) is never needed. geo3k needs mathruler.

    python scripts/verl_recipe_corpus_b.py --out corpus_b.jsonl [--n 12000] [--seed 1]

``make_corpus(n, seed)``, ``reference(row)`` and ``family_of(data_source)`` are the reusable parts.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import random
import sys
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SOURCES = {
    "prime_math": ["numina_aops_forum", "numina_synthetic_math", "numina_amc_aime", "numina_synthetic_amc",
                   "numina_cn_k12", "numina_olympiads"],
    "geo3k": ["hiyouga/geometry3k"],
}


def _base() -> types.ModuleType:
    """scripts/verl_recipe_corpus.py, for its text pieces and veRL lookup."""
    name = "verl_recipe_corpus"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "verl_recipe_corpus.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def family_of(data_source: str) -> str:
    """The family veRL routes data_source to (prime_math or geo3k)."""
    for fam, names in SOURCES.items():
        if data_source in names:
            return fam
    raise KeyError(data_source)


_MODULES: dict[str, Any] = {}


def _load(name: str, path: Path, package: bool = False) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path,
                                                  submodule_search_locations=[str(path.parent)] if package else None)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def module(family: str) -> Any:
    """veRL's module of a family, loaded from its files."""
    if family in _MODULES:
        return _MODULES[family]
    rs = _base().reward_score_dir()
    if family == "geo3k":
        _MODULES[family] = _load("_verl_reward_geo3k", rs / "geo3k.py")
        return _MODULES[family]
    # prime_math does `from verl.utils.py_functional import timeout_limit`: stand-ins for the
    # packages above that file, only while it is imported.
    names = ["verl", "verl.utils", "verl.utils.metric", "verl.utils.py_functional"]
    saved = {n: sys.modules.get(n) for n in names}
    try:
        for n in names[:2]:
            pkg = types.ModuleType(n)
            pkg.__path__ = []
            sys.modules[n] = pkg
        metric = types.ModuleType("verl.utils.metric")
        metric.Metric = type("Metric", (), {})
        sys.modules["verl.utils.metric"] = metric
        _load("verl.utils.py_functional", rs.parent / "py_functional.py")
        _MODULES[family] = _load("_verl_reward_prime_math", rs / "prime_math" / "__init__.py", package=True)
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    return _MODULES[family]


def reference(row: dict[str, Any]) -> float:
    """What veRL's default_compute_score returns for a row: float() of the rule's value, or of the
    first item of prime_math's (is_correct, format_correctness, answer). Prints are swallowed."""
    fn = module(family_of(row["data_source"])).compute_score
    with contextlib.redirect_stdout(io.StringIO()):
        res = fn(row["solution"], row["ground_truth"])
    if isinstance(res, int | float | bool):
        return float(res)
    return float(res[0])


# ---------------------------------------------------------------------------------------------
# Answers: Numina-style references and forms of them a model writes

PRIME_GT = [
    "5", "-3", "0", "12", "2016", "100", "1000", "5050", "-1", "7", "\\frac{1}{2}", "\\frac{3}{4}", "-\\frac{1}{3}",
    "\\dfrac{5}{6}", "\\frac{2}{3}", "\\frac{9}{2}", "\\dfrac{1}{4}", "\\frac{\\sqrt{3}}{2}", "2\\sqrt{3}", "\\sqrt{2}",
    "3\\sqrt{2}+1", "\\sqrt{5}-1", "4\\sqrt{2}", "-\\frac{\\sqrt{2}}{2}", "\\pi", "2\\pi", "\\frac{\\pi}{3}",
    "\\frac{3\\pi}{4}", "(1, 2)", "(-1, 3)", "(2, -1)", "[2, 5)", "(-\\infty, 1]", "(0, +\\infty)", "\\{1, 2, 3\\}",
    "x^2+1", "2x+3", "x=2", "y=2x-1", "a=3", "60^\\circ", "45^{\\circ}", "30^\\circ", "12\\%", "25\\%",
    "5 \\text{ cm}", "10\\text{ m}", "\\text{B}", "\\text{(C)}", "C", "A", "D", "0.5", "1.5", "2.25", "3.14", "0.75",
    "7.5", "1,000", "10^6", "2^{10}", "3 or 4", "\\infty", "e", "\\ln 2", "\\text{Monday}", "1, 2",
    "\\left( \\frac{1}{2}, 1 \\right)", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\$5", "2 \\frac{1}{2}", "1/2",
    "n=5", "-2", "\\frac{1}{6}", "6", "\\frac{5}{2}", "8", "9", "\\sqrt{3}", "3\\sqrt{3}", "\\frac{4}{3}\\pi",
]

GEO_GT = ["14", "6\\sqrt{3}", "66.5", "\\frac{40}{3}", "2\\sqrt{221}", "8.6", "25", "120", "3\\sqrt{2}", "\\frac{3}{2}",
          "7.5", "60", "\\frac{\\sqrt{3}}{2}", "10\\sqrt{3}", "4", "56.5", "12\\sqrt{5}", "5\\sqrt{2}", "18", "9.2",
          "\\frac{16}{3}", "45", "2", "24.5", "4\\sqrt{3}", "\\sqrt{73}", "31", "3", "1.5", "\\frac{7}{2}"]

# Plain values of the numeric references, for decimal and fraction forms.
VALUES: dict[str, Fraction] = {
    "\\frac{1}{2}": Fraction(1, 2), "\\frac{3}{4}": Fraction(3, 4), "-\\frac{1}{3}": Fraction(-1, 3),
    "\\dfrac{5}{6}": Fraction(5, 6), "\\frac{2}{3}": Fraction(2, 3), "\\frac{9}{2}": Fraction(9, 2),
    "\\dfrac{1}{4}": Fraction(1, 4), "\\frac{1}{6}": Fraction(1, 6), "\\frac{5}{2}": Fraction(5, 2),
    "0.5": Fraction(1, 2), "1.5": Fraction(3, 2), "2.25": Fraction(9, 4), "0.75": Fraction(3, 4),
    "7.5": Fraction(15, 2), "66.5": Fraction(133, 2), "8.6": Fraction(43, 5), "\\frac{40}{3}": Fraction(40, 3),
    "\\frac{3}{2}": Fraction(3, 2), "56.5": Fraction(113, 2), "9.2": Fraction(46, 5), "\\frac{16}{3}": Fraction(16, 3),
    "24.5": Fraction(49, 2), "\\frac{7}{2}": Fraction(7, 2), "1/2": Fraction(1, 2), "3.14": Fraction(157, 50),
}
FLOATS = {"\\sqrt{2}": 2 ** 0.5, "2\\sqrt{3}": 2 * 3 ** 0.5, "\\frac{\\sqrt{3}}{2}": 3 ** 0.5 / 2, "\\pi": 3.14159265,
          "2\\pi": 6.28318531, "\\frac{\\pi}{3}": 1.04719755, "6\\sqrt{3}": 6 * 3 ** 0.5, "3\\sqrt{2}": 3 * 2 ** 0.5,
          "10\\sqrt{3}": 10 * 3 ** 0.5, "2\\sqrt{221}": 2 * 221 ** 0.5, "4\\sqrt{3}": 4 * 3 ** 0.5,
          "\\sqrt{73}": 73 ** 0.5, "5\\sqrt{2}": 5 * 2 ** 0.5, "12\\sqrt{5}": 12 * 5 ** 0.5,
          "\\frac{3\\pi}{4}": 2.35619449, "\\frac{4}{3}\\pi": 4.18879020, "\\sqrt{3}": 3 ** 0.5}

# Hand-written equivalent (and near) forms a model produces for some references.
FORMS = {
    "2\\sqrt{3}": ["\\sqrt{12}", "2 \\sqrt{3}", "2\\sqrt3", "2 \\cdot \\sqrt{3}", "\\sqrt{3} \\cdot 2", "2*sqrt(3)",
                   "sqrt(12)", "\\frac{6}{\\sqrt{3}}", "4\\sqrt{3}/2", "2\\sqrt{3}\\text{ cm}"],
    "\\frac{\\sqrt{3}}{2}": ["\\frac{1}{2}\\sqrt{3}", "\\sqrt{3}/2", "\\dfrac{\\sqrt3}{2}", "\\frac{3}{2\\sqrt{3}}",
                             "\\sqrt{\\frac{3}{4}}", "0.866", "\\frac{\\sqrt{6}}{2\\sqrt{2}}"],
    "3\\sqrt{2}+1": ["1+3\\sqrt{2}", "\\sqrt{18}+1", "3 \\sqrt{2} + 1", "1 + \\sqrt{18}"],
    "\\sqrt{5}-1": ["-1+\\sqrt{5}", "\\sqrt5 - 1", "\\frac{4}{\\sqrt{5}+1}"],
    "4\\sqrt{2}": ["\\sqrt{32}", "2\\sqrt{8}", "4 \\sqrt 2"],
    "-\\frac{\\sqrt{2}}{2}": ["-\\frac{1}{\\sqrt{2}}", "-\\sqrt{2}/2", "\\frac{-\\sqrt{2}}{2}"],
    "\\pi": ["3.14", "3.1416", "\\pi \\text{ cm}", "1\\pi", "180^\\circ"],
    "2\\pi": ["6.28", "6.283", "2 \\pi", "\\pi \\cdot 2", "\\frac{4\\pi}{2}", "2\\pi\\text{ cm}"],
    "\\frac{\\pi}{3}": ["\\pi/3", "\\dfrac{\\pi}{3}", "60^\\circ", "1.047", "\\frac{1}{3}\\pi", "\\frac13\\pi"],
    "\\frac{3\\pi}{4}": ["3\\pi/4", "\\frac{3}{4}\\pi", "2.356", "135^\\circ"],
    "\\frac{4}{3}\\pi": ["\\frac{4\\pi}{3}", "4\\pi/3", "4.19"],
    "(1, 2)": ["(1,2)", "\\left(1, 2\\right)", "( 1 , 2 )", "(2, 1)", "[1, 2]", "1, 2", "x=1, y=2", "(1, 2.0)"],
    "(-1, 3)": ["(-1,3)", "\\left( -1, 3 \\right)", "(- 1, 3)", "(3, -1)"],
    "(2, -1)": ["(2,-1)", "(2, - 1)", "x = 2, y = -1"],
    "[2, 5)": ["[2,5)", "\\left[2, 5\\right)", "[2, 5]", "(2, 5)", "2 \\le x < 5", "[2, 5.0)"],
    "(-\\infty, 1]": ["(-\\infty,1]", "\\left(-\\infty, 1\\right]", "x \\le 1", "(-\\infty, 1)"],
    "(0, +\\infty)": ["(0,+\\infty)", "(0, \\infty)", "x > 0"],
    "\\{1, 2, 3\\}": ["\\{1,2,3\\}", "1, 2, 3", "\\{3, 2, 1\\}", "{1, 2, 3}"],
    "x^2+1": ["x^{2}+1", "1+x^2", "x^2 + 1", "x*x+1", "(x^2+1)", "y=x^2+1", "x^2+2"],
    "2x+3": ["3+2x", "2 x + 3", "2*x+3", "x+x+3", "2x + 3.0", "2(x+1.5)", "2x-3"],
    "x=2": ["2", "x = 2", "x=2.0", "x=3"],
    "y=2x-1": ["2x-1", "y = 2x - 1", "y=-1+2x"],
    "a=3": ["3", "a = 3"],
    "n=5": ["5", "n = 5"],
    "60^\\circ": ["60", "60^{\\circ}", "60 degrees", "60°", "\\frac{\\pi}{3}", "60.0"],
    "45^{\\circ}": ["45", "45^\\circ", "45 degrees", "\\frac{\\pi}{4}"],
    "30^\\circ": ["30", "30 degrees", "30^{\\circ}"],
    "12\\%": ["12", "12%", "0.12", "12 \\%", "12.0\\%", "\\frac{12}{100}"],
    "25\\%": ["25", "25%", "0.25", "\\frac{1}{4}", "25 percent"],
    "5 \\text{ cm}": ["5", "5 cm", "5\\text{cm}", "5 centimeters", "5\\,\\text{cm}", "50 mm"],
    "10\\text{ m}": ["10", "10 m", "10 meters", "10\\text{ meters}"],
    "\\text{B}": ["B", "(B)", "b", "\\text{(B)}", "\\textbf{B}", "B: 12", "\\mathrm{B}"],
    "\\text{(C)}": ["C", "(C)", "\\text{C}", "c", "\\textbf{(C)}"],
    "C": ["\\text{C}", "(C)", "c", "C.", "\\text{(C) } 5"],
    "A": ["\\text{A}", "(A)", "a"],
    "D": ["\\text{D}", "(D)", "d", "D)"],
    "1,000": ["1000", "1,000", "1\\,000", "1{,}000", "1000.0", "10^3"],
    "1000": ["1,000", "1000.0", "10^3", "1\\,000", "1{,}000", "999.99"],
    "10^6": ["1000000", "1,000,000", "10^{6}", "1 million", "1e6"],
    "2^{10}": ["1024", "2^10", "2^{10}"],
    "3 or 4": ["3, 4", "4 or 3", "3 \\text{ or } 4", "3, 4", "4, 3"],
    "\\infty": ["+\\infty", "\\infty", "infinity", "∞"],
    "e": ["e", "\\mathrm{e}", "2.718"],
    "\\ln 2": ["\\log 2", "0.693", "\\ln(2)", "ln 2"],
    "\\text{Monday}": ["Monday", "monday", "\\text{monday}"],
    "1, 2": ["1,2", "2, 1", "(1, 2)", "1 \\text{ and } 2", "1 and 2"],
    "\\left( \\frac{1}{2}, 1 \\right)": ["(\\frac{1}{2}, 1)", "(0.5, 1)", "\\left(\\dfrac12, 1\\right)", "(1/2, 1)"],
    "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}": ["\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(1, 2)",
                                                 "\\begin{pmatrix} 1 \\\\ 3 \\end{pmatrix}"],
    "\\$5": ["5", "\\$5", "$5", "5 dollars", "\\$5.00"],
    "2 \\frac{1}{2}": ["\\frac{5}{2}", "2.5", "2\\frac12", "5/2"],
    "x^2": ["x^{2}", "x*x"],
    "6\\sqrt{3}": ["\\sqrt{108}", "6 \\sqrt{3}", "6\\sqrt3", "10.39", "10.392", "6*sqrt(3)", "\\frac{18}{\\sqrt{3}}",
                   "3\\sqrt{12}"],
    "2\\sqrt{221}": ["\\sqrt{884}", "29.73", "2 \\sqrt{221}"],
    "3\\sqrt{2}": ["\\sqrt{18}", "4.24", "\\frac{6}{\\sqrt{2}}"],
    "10\\sqrt{3}": ["\\sqrt{300}", "17.32", "10 \\sqrt 3"],
    "12\\sqrt{5}": ["\\sqrt{720}", "26.83", "6\\sqrt{20}"],
    "5\\sqrt{2}": ["\\sqrt{50}", "7.07", "\\frac{10}{\\sqrt{2}}"],
    "4\\sqrt{3}": ["\\sqrt{48}", "6.93", "2\\sqrt{12}"],
    "\\sqrt{73}": ["8.54", "\\sqrt {73}", "73^{1/2}"],
}


def number_forms(rng: random.Random, gt: str) -> list[str]:
    """Decimal, fraction, spacing and unit forms of a reference with a known value."""
    out: list[str] = []
    if gt in VALUES:
        v = VALUES[gt]
        out += [str(float(v)), f"{float(v):.3f}", f"{float(v):.2f}", f"{v.numerator}/{v.denominator}",
                f"\\frac{{{v.numerator}}}{{{v.denominator}}}", f"\\dfrac{{{v.numerator}}}{{{v.denominator}}}",
                f"\\frac{{{2 * v.numerator}}}{{{2 * v.denominator}}}", f"{2 * v.numerator}/{2 * v.denominator}",
                f"\\frac{v.numerator}{v.denominator}" if abs(v.numerator) < 10 and v.denominator < 10 else str(v),
                f"{float(v) * 1.00003:.6f}", f"{float(v) * 100:g}\\%", f"{float(v) + 1:g}"]
    if gt in FLOATS:
        f = FLOATS[gt]
        out += [f"{f:.2f}", f"{f:.4f}", f"{f:.1f}", f"{f * 1.01:.3f}"]
    if gt.lstrip("-").isdigit():
        n = int(gt)
        out += [f"{n}.0", f"{n:,}", f"{n + 1}", f"{n - 1}", f"{n}.00", f"{n}\\text{{ cm}}", f"{n}^\\circ",
                f"{n} \\text{{ units}}", f"\\${n}", f"${n}", f"{n}\\%", f"{n}%", f"x = {n}", f"{n}.", f"0{n}",
                f"{n / 100:g}", f"{n * 100}", f"{n}.000001", f"{n}.0001", f"{n}_{{10}}", f"\\frac{{{2 * n}}}{{2}}",
                f"{2 * n}/2", f"\\sqrt{{{n * n}}}", f"{n} \\frac{{1}}{{2}}", f"+{n}", f"{n}e0", f"{n}\\text{{ and }}1"]
    return out


def generic_forms(rng: random.Random, a: str) -> str:
    """A surface change that veRL's normalizations may or may not undo."""
    ops = [
        lambda s: s, lambda s: s.replace("\\frac", "\\dfrac"), lambda s: s.replace("\\frac", "\\tfrac"),
        lambda s: f" {s} ", lambda s: s.replace(",", ", "), lambda s: s.replace(" ", ""),
        lambda s: f"\\left({s}\\right)", lambda s: f"{s}\\text{{ cm}}", lambda s: f"\\text{{{s}}}",
        lambda s: f"{s}.", lambda s: f"${s}$", lambda s: s.upper(), lambda s: s.lower(),
        lambda s: s.replace("\\sqrt{", "\\sqrt {"), lambda s: f"{s}^\\circ", lambda s: f"\\mathrm{{{s}}}",
        lambda s: f"{{{s}}}", lambda s: s.replace("\\pi", "π"), lambda s: s.replace("\\infty", "∞"),
        lambda s: f"{s}\\%", lambda s: f"x={s}", lambda s: s + "\n", lambda s: f"\\boxed{{{s}}}",
    ]
    return rng.choice(ops)(a)


def answer_for(rng: random.Random, gt: str, pool: list[str]) -> tuple[str, str]:
    """(kind, answer text): the reference, an equivalent or near form, or another reference."""
    r = rng.random()
    if r < 0.25:
        return "same", gt
    if r < 0.65:
        forms = FORMS.get(gt, []) + number_forms(rng, gt)
        if forms:
            a = rng.choice(forms)
            return "form", generic_forms(rng, a) if rng.random() < 0.25 else a
        return "form", generic_forms(rng, gt)
    if r < 0.8:
        return "generic", generic_forms(rng, gt)
    return "other", rng.choice(pool) if rng.random() < 0.7 else str(rng.randint(-20, 300))


# ---------------------------------------------------------------------------------------------
# Responses

def prime_response(rng: random.Random, ans: str, uni: bool) -> str:
    b = _base()
    head = b.filler(rng, uni)
    steps = f"Step 1: {b.prose(rng, rng.randint(3, 25), uni)}\nStep 2: {b.prose(rng, rng.randint(3, 25), uni)}\n"
    kind = rng.choice(["boxed", "boxed", "boxed", "steps", "steps", "answer_colon", "answer_is", "unboxed_eq",
                       "several", "is_answer", "long", "fbox", "empty", "no_digit", "dollar", "sentence_after",
                       "broken", "unicode_case"])
    if kind == "boxed":
        return head + rng.choice(["The answer is $\\boxed{%s}$.", "Thus, the final answer is \\boxed{%s}",
                                  "\\[\\boxed{%s}\\]", "So we get \\boxed{%s}. Done."]) % ans
    if kind == "steps":
        return steps + rng.choice(["Step 3: Therefore \\boxed{%s}", "The answer is: \\boxed{%s}",
                                   "Step 3: so $x = \\boxed{%s}$."]) % ans
    if kind == "answer_colon":
        return head + rng.choice(["Answer: %s", "answer: %s\n", "Final Answer: %s", "ANSWER: %s."]) % ans
    if kind == "answer_is":
        return head + rng.choice(["The answer is %s", "so the answer is %s.", "The answers are %s",
                                  "Hence the final answer is %s. Thanks"]) % ans
    if kind == "unboxed_eq":
        return head + rng.choice(["so x = %s", "we get %s", "It must be %s", "the value is\n%s"]) % ans
    if kind == "several":
        other = rng.choice(PRIME_GT)
        first, second = (ans, other) if rng.random() < 0.5 else (other, ans)
        return head + f"First guess \\boxed{{{first}}}. {b.prose(rng, rng.randint(0, 12), uni)} " \
                      f"Actually, \\boxed{{{second}}}"
    if kind == "is_answer":
        return head + rng.choice(["%s is the answer.", "So %s is answer", "\\boxed{%s} is the answer"]) % ans
    if kind == "long":
        return b.prose(rng, rng.randint(400, 2000), uni) + f" Therefore the answer is \\boxed{{{ans}}}."
    if kind == "fbox":
        return head + rng.choice(["\\fbox{%s}", "\\boxed{%s}\\fbox{1}", "\\boxed %s", "\\boxed{}%s"]) % ans
    if kind == "empty":
        return rng.choice(["", " ", "\n", "\\boxed{}", "Answer:", "The answer is"])
    if kind == "no_digit":
        return head + rng.choice(["I cannot tell.", "The answer is unknown.", "It is \\boxed{x}."])
    if kind == "dollar":
        return head + f"The total is ${ans}$ dollars, so the answer is ${ans}$."
    if kind == "sentence_after":
        return head + f"The answer is \\boxed{{{ans}}}. {b.prose(rng, rng.randint(1, 10), uni)}."
    if kind == "broken":
        return head + rng.choice(["\\boxed{%s", "\\boxed}{%s}", "\\boxed{{%s}", "answer is \\boxed{%s}}"]) % ans
    return head + rng.choice(["İ think the ANSWER IS %s", "Die Antwort ist: answer: %s", "答案是 answer: %s",
                              "The answer is İİ %s"]) % ans


def geo_response(rng: random.Random, ans: str, uni: bool) -> str:
    b = _base()
    think = b.prose(rng, rng.randint(0, 80), uni)
    kind = rng.choice(["ok", "ok", "ok", "ok", "no_think", "unclosed", "box_in_think", "no_box", "several", "nested",
                       "empty_box", "after", "long", "empty", "space_box", "upper"])
    if kind == "ok":
        return f"<think>{think}</think> " + rng.choice(["The answer is \\boxed{%s}.", "\\boxed{%s}",
                                                         "So $x = \\boxed{%s}$", "\n\n\\boxed{%s}\n"]) % ans
    if kind == "no_think":
        return f"{think}\nThe answer is \\boxed{{{ans}}}."
    if kind == "unclosed":
        return f"<think>{think} so \\boxed{{{ans}}}"
    if kind == "box_in_think":
        return f"<think>{think} \\boxed{{{ans}}}</think> The answer is {ans}."
    if kind == "no_box":
        return f"<think>{think}</think> The answer is {ans}."
    if kind == "several":
        other = rng.choice(GEO_GT)
        first, second = (ans, other) if rng.random() < 0.5 else (other, ans)
        return f"<think>{think} maybe \\boxed{{{first}}}</think> \\boxed{{{second}}}"
    if kind == "nested":
        return f"<think>{think}</think> \\boxed{{x = {{{ans}}}}}"
    if kind == "empty_box":
        return f"<think>{think}</think> \\boxed{{}}"
    if kind == "after":
        return f"<think>{think}</think> \\boxed{{{ans}}} {b.prose(rng, rng.randint(1, 20), uni)}"
    if kind == "long":
        return f"<think>{b.prose(rng, rng.randint(400, 1500), uni)}</think>\n\\boxed{{{ans}}}"
    if kind == "empty":
        return rng.choice(["", "<think></think>", "<think></think>\\boxed{}", " <think>x</think>\\boxed{1}"])
    if kind == "space_box":
        return f"<think>{think}</think> \\boxed {{{ans}}}"
    return f"<THINK>{think}</THINK> \\boxed{{{ans}}}"


SOUP = ["\\boxed{", "}", "{", "\\frac", "{1}", "{2}", "\\sqrt", "2", "3", "x", "=", " ", "is ", "answer: ", ". ",
        "\\pi", "(", ")", ",", "[", "]", "-", "+", "^", "0.5", "\\%", "\\text{", "cm", "\\circ", "<think>", "</think>",
        "\\dfrac", "/", "\\left(", "\\right)", "\n", "1", "be ", "The answer is ", "\\cdot", "\\infty", "_", "$"]


def soup(rng: random.Random, max_pieces: int) -> str:
    return "".join(rng.choice(SOUP) for _ in range(rng.randint(0, max_pieces)))


def prime_row(rng: random.Random) -> dict[str, Any]:
    uni = rng.random() < 0.2
    if rng.random() < 0.1:
        gt = rng.choice(PRIME_GT) if rng.random() < 0.7 else soup(rng, 5)
        return {"data_source": rng.choice(SOURCES["prime_math"]), "solution": soup(rng, 25), "ground_truth": gt}
    gt = rng.choice(PRIME_GT)
    _, ans = answer_for(rng, gt, PRIME_GT)
    return {"data_source": rng.choice(SOURCES["prime_math"]), "solution": prime_response(rng, ans, uni),
            "ground_truth": gt}


def geo_row(rng: random.Random) -> dict[str, Any]:
    uni = rng.random() < 0.2
    if rng.random() < 0.1:
        gt = rng.choice(GEO_GT) if rng.random() < 0.7 else soup(rng, 5)
        return {"data_source": "hiyouga/geometry3k", "solution": soup(rng, 25), "ground_truth": gt}
    gt = rng.choice(GEO_GT)
    _, ans = answer_for(rng, gt, GEO_GT)
    return {"data_source": "hiyouga/geometry3k", "solution": geo_response(rng, ans, uni), "ground_truth": gt}


GENERATORS = {"prime_math": prime_row, "geo3k": geo_row}


def make_corpus(n: int, seed: int) -> list[dict[str, Any]]:
    """n generated rows (without "expected"), the two families in turn; the same for the same seed."""
    rng = random.Random(seed)
    fams = list(GENERATORS)
    return [GENERATORS[fams[i % len(fams)]](rng) for i in range(n)]


def write_corpus(path: Path, rows: list[dict[str, Any]]) -> None:
    """Writes rows as JSONL with veRL's verdict in "expected"."""
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(dict(row, expected=reference(row)), ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    ap.add_argument("--n", type=int, default=12000, help="rows (the two families in turn)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    write_corpus(args.out, make_corpus(args.n, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
