"""Writes the math-verify agreement corpus, python/tests/data/math_agreement.jsonl.

Each line is {"feature", "gold", "answer", "config"}: a reference text, a model-style
answer text and the configuration both libraries run with ("parse": which extraction
targets, "verify": keyword arguments of verify). The cases come from templates filled
with seeded random numbers (the file is the same on every run) and from hand-written
adversarial ones. Run: python scripts/gen_math_corpus.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "python" / "tests" / "data" / "math_agreement.jsonl"

rng = random.Random(20241201)
cases: list[dict] = []

INTROS = [
    "Let's solve this step by step.",
    "We start by writing down what we know.",
    "First, note the given quantities.",
    "To begin, set up the equation.",
]
OUTROS = [
    "Therefore, the answer is $\\boxed{{{a}}}$.",
    "So the final answer is \\boxed{{{a}}}.",
    "Thus we get $\\boxed{{{a}}}$.",
    "The answer is \\boxed{{{a}}}.",
    "Hence, \\[\\boxed{{{a}}}\\]",
]


def solution(answer: str, noise: bool = True) -> str:
    """A model-style solution that ends in \\boxed{answer}, with other numbers on the way."""
    parts = [rng.choice(INTROS)]
    if noise:
        a, b = rng.randint(2, 40), rng.randint(2, 40)
        parts.append(f"We have $a = {a}$ and $b = {b}$, so $a + b = {a + b}$.")
        parts.append(f"Multiplying gives ${a} \\cdot {b} = {a * b}$, which we keep for later.")
    parts.append(rng.choice(OUTROS).format(a=answer))
    return "\n\n".join(parts)


def add(feature: str, gold: str, answer: str, *, parse: str = "default", **verify_kw) -> None:
    cases.append({"feature": feature, "gold": gold, "answer": answer,
                  "config": {"parse": parse, "verify": verify_kw}})


def both(feature: str, gold: str, right: str, wrong: str, wrap: bool = True) -> None:
    """An equal and an unequal answer for one reference, as boxed model solutions."""
    add(feature, f"${gold}$", solution(right) if wrap else right)
    add(feature, f"${gold}$", solution(wrong) if wrap else wrong)


# integers
for _ in range(25):
    n = rng.randint(-500, 5000)
    both("integer", str(n), str(n), str(n + rng.choice([-2, -1, 1, 3, 10])))
# plain-text integers (expression extraction)
for _ in range(15):
    n = rng.randint(1, 999)
    add("integer_plain", str(n), f"After adding the parts we get {n - 7} + 7 = {n}. The answer is {n}.")
    add("integer_plain", str(n), f"The total is {n + 1}.")
# decimals and rounding
for _ in range(15):
    p, q = rng.randint(1, 30), rng.choice([2, 4, 5, 8, 10, 20, 25])
    val = p / q
    both("decimal", f"\\frac{{{p}}}{{{q}}}", f"{val:g}", f"{val + 0.5:g}")
for p, q in [(1, 3), (2, 3), (1, 7), (5, 6), (22, 7), (1, 9)]:
    v = p / q
    add("rounding", f"$\\frac{{{p}}}{{{q}}}$", solution(f"{v:.6f}"))
    add("rounding", f"$\\frac{{{p}}}{{{q}}}$", solution(f"{v:.2f}"))
    add("rounding", f"$\\frac{{{p}}}{{{q}}}$", solution(f"{v:.8f}"))
    add("rounding", f"$\\frac{{{p}}}{{{q}}}$", solution(f"{v:.2f}"), float_rounding=2)
# thousands separators
for _ in range(12):
    n = rng.randint(1000, 9_999_999)
    both("thousands", f"{n:,}", str(n), f"{n + 1000:,}")
    add("thousands", f"${n}$", f"The total comes to {n:,} dollars.")
# fractions
for _ in range(20):
    p, q = rng.randint(1, 40), rng.randint(2, 41)
    k = rng.randint(2, 5)
    cmd = rng.choice(["frac", "dfrac", "tfrac"])
    both("fraction", f"\\frac{{{p}}}{{{q}}}", f"\\{cmd}{{{p * k}}}{{{q * k}}}", f"\\frac{{{p + 1}}}{{{q}}}")
    add("fraction", f"$\\frac{{{p}}}{{{q}}}$", f"The ratio is {p}/{q}.")
add("fraction", "$\\frac{1}{2}$", solution("\\frac12"))
add("fraction", "$-\\frac{3}{4}$", solution("\\frac{-3}{4}"))
add("fraction", "$-\\frac{3}{4}$", solution("-0.75"))
add("fraction", "$\\frac{3}{4}$", solution("-\\frac{3}{4}"))
# mixed numbers
for _ in range(10):
    w, p, q = rng.randint(1, 9), rng.randint(1, 5), rng.randint(6, 9)
    both("mixed", f"{w}\\frac{{{p}}}{{{q}}}", f"\\frac{{{w * q + p}}}{{{q}}}", f"\\frac{{{w * p}}}{{{q}}}")
# percentages
for _ in range(10):
    n = rng.randint(1, 99)
    both("percent", f"{n}\\%", f"{n}\\%", f"{n + 1}\\%")
    add("percent", f"${n}\\%$", solution(f"{n / 100:g}"))
    add("percent", f"${n}\\%$", solution(str(n)))
    add("percent", f"${n}\\%$", f"So the rate is {n} percent.")
add("percent", "$12.5\\%$", solution("0.125"))
add("percent", "$12.5\\%$", solution("12.5"))
# scientific notation
for m, e in [(1.5, 3), (2.25, 4), (3, -2), (6.02, 5), (7, 6), (4.5, -3)]:
    val = m * 10 ** e
    both("scientific", f"{m}\\times 10^{{{e}}}", f"{val:g}" if abs(e) < 5 else f"{m} \\cdot 10^{{{e}}}",
         f"{m}\\times 10^{{{e + 1}}}")
# square roots and other roots
roots = [("\\sqrt{8}", "2\\sqrt{2}", "\\sqrt{2}"), ("\\sqrt{12}", "2\\sqrt{3}", "3\\sqrt{2}"),
         ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}", "\\frac{1}{2}"), ("\\sqrt[3]{27}", "3", "9"),
         ("\\sqrt{50}", "5\\sqrt{2}", "5\\sqrt{3}"), ("2+\\sqrt{3}", "\\sqrt{3}+2", "2-\\sqrt{3}"),
         ("\\sqrt{2}", "1.414214", "1.41"), ("3\\sqrt{5}", "\\sqrt{45}", "\\sqrt{15}"),
         ("\\frac{3\\sqrt{2}}{4}", "\\frac{3}{4}\\sqrt{2}", "\\frac{3}{2\\sqrt{2}}+1"),
         ("\\sqrt{18}", "3\\sqrt2", "\\sqrt{9}")]
for g, r, w in roots:
    both("sqrt", g, r, w)
# pi
for g, r, w in [("2\\pi", "\\pi \\cdot 2", "\\pi"), ("\\frac{\\pi}{2}", "\\frac{1}{2}\\pi", "\\frac{\\pi}{3}"),
                ("\\pi", "\\pi", "3.14"), ("4\\pi", "4 \\pi", "12.566371"), ("\\frac{3\\pi}{4}", "0.75\\pi", "\\pi"),
                ("36\\pi", "36 \\pi", "6\\pi"), ("\\pi r^2", "r^2 \\pi", "2\\pi r")]:
    both("pi", g, r, w)
# arithmetic expressions
for _ in range(10):
    a, b, c = rng.randint(2, 20), rng.randint(2, 20), rng.randint(2, 9)
    both("arithmetic", str(a * b + c), f"{a}\\cdot{b}+{c}", f"{a}\\cdot({b}+{c})")
for g, r, w in [("1024", "2^{10}", "2^{9}"), ("120", "5!", "4!"),
                ("\\frac{7}{12}", "\\frac{1}{3}+\\frac{1}{4}", "\\frac{2}{7}"), ("25", "5^2", "2^5"),
                ("-8", "(-2)^3", "2^3")]:
    both("arithmetic", g, r, w)
# signs
for _ in range(8):
    n = rng.randint(1, 99)
    both("sign", f"-{n}", f"-{n}", str(n))
# units and text around numbers
for n, unit in [(5, "cm"), (12, "meters"), (30, "minutes"), (7, "hours"), (45, "km"), (3, "kg"), (16, "inches")]:
    both("units", str(n), f"{n} \\text{{ {unit}}}", f"{n + 1} \\text{{ {unit}}}")
    add("units", f"${n}$", solution(f"{n}\\text{{{unit}}}"))
for n in [5, 12, 99]:
    both("currency", str(n), f"\\${n}", f"\\${n + 1}")
    add("currency", f"${n}$", f"It costs ${n}.00 in total, so the answer is \\boxed{{\\${n}.00}}.")
add("text", "$\\text{Monday}$", solution("\\text{Monday}"))
add("text", "$\\text{Monday}$", solution("\\text{Tuesday}"))
add("text", "$\\text{even}$", solution("\\text{even}"))
# boxed forms
for _ in range(10):
    n = rng.randint(1, 300)
    add("boxed", f"${n}$", f"First we guess \\boxed{{{n + 5}}}, but that is wrong. Correcting it gives \\boxed{{{n}}}.")
    add("boxed", f"${n}$", f"The answer is \\fbox{{{n}}}.")
    add("boxed", f"${n}$", f"\\boxed {{{n}}}")
    add("boxed", f"$\\frac{{{n}}}{{7}}$", f"We get $\\boxed{{\\frac{{{n}}}{{7}}}}$ as required.")
# degrees
for d in [30, 45, 60, 90, 120, 135]:
    both("degrees", f"{d}^\\circ", f"{d}^{{\\circ}}", f"{d + 15}^\\circ")
    add("degrees", f"${d}^\\circ$", solution(str(d)))
# tuples
for _ in range(8):
    a, b = rng.randint(-9, 9), rng.randint(-9, 9)
    c = rng.randint(-9, 9)
    both("tuple", f"({a}, {b}, {c})", f"({a},{b},{c})", f"({b},{a},{c + 1})")
    both("tuple", f"\\left({a}, {b}\\right)", f"({a}, {b})", f"({a}, {b + 1})")
# sets
for _ in range(8):
    xs = sorted(rng.sample(range(-9, 20), 3))
    perm = xs[:]
    rng.shuffle(perm)
    both("set", "\\{" + ",".join(map(str, xs)) + "\\}", "\\{" + ", ".join(map(str, perm)) + "\\}",
         "\\{" + ",".join(map(str, xs[:2])) + "\\}")
    add("set", "$" + ", ".join(map(str, xs)) + "$", solution(", ".join(map(str, perm))))
# intervals
for g, r, w in [("[1, 2)", "[1,2)", "[1,2]"), ("(0, \\infty)", "(0,\\infty)", "[0,\\infty)"),
                ("(-\\infty, 3] \\cup (5, \\infty)", "(-\\infty,3]\\cup(5,\\infty)", "(-\\infty,3)\\cup(5,\\infty)"),
                ("[-2, 5]", "\\left[-2, 5\\right]", "[-2, 4]"), ("(-1, 1)", "(-1,1)", "(-1,2)"),
                ("[\\frac{1}{2}, 3)", "[0.5, 3)", "(\\frac{1}{2}, 3)")]:
    both("interval", g, r, w)
# multiple answers
for _ in range(8):
    a, b = rng.randint(-9, 9), rng.randint(10, 20)
    add("multiple", f"${a}, {b}$", f"The solutions are $x = {a}$ and $x = {b}$. So the answer is \\boxed{{{a}, {b}}}.")
    add("multiple", f"${a}, {b}$", f"So \\boxed{{{b}}} and \\boxed{{{a}}}.")
    add("multiple", f"${a}, {b}$", f"So the answers are ${a}$ and ${b + 1}$.")
    add("multiple", f"${a} \\pm {b}$", solution(f"{a - b}, {a + b}"))
# equations
for _ in range(8):
    n = rng.randint(-20, 20)
    both("equation", f"x = {n}", str(n), str(n + 1))
    add("equation", f"${n}$", solution(f"x = {n}"))
    add("equation", f"${n}$", solution(f"y = {n + 2}"))
for g, r, w in [("y = 2x + 1", "y = 1 + 2x", "y = 2x - 1"), ("x + 1 = 3", "x = 2", "x = 3"),
                ("2x + 4 = 0", "x = -2", "x = 2"), ("y = x^2", "y = x \\cdot x", "y = x^3")]:
    both("equation", g, r, w)
# algebraic expressions
alg = [("x^2+2x+1", "(x+1)^2", "(x-1)^2"), ("(a+b)^2", "a^2+2ab+b^2", "a^2+b^2"),
       ("\\frac{x^2-1}{x-1}", "x+1", "x-1"), ("2x", "x+x", "x^2"), ("3x^2 - 6x", "3x(x-2)", "3x(x+2)"),
       ("\\frac{1}{x} + \\frac{1}{y}", "\\frac{x+y}{xy}", "\\frac{1}{x+y}"), ("x^3-1", "(x-1)(x^2+x+1)", "(x-1)^3"),
       ("\\frac{x}{2}", "0.5x", "2x"), ("\\sin^2 x + \\cos^2 x", "1", "2"),
       ("2\\sin x \\cos x", "\\sin(2x)", "\\sin x"),
       ("e^{2x}", "(e^x)^2", "e^{x}"), ("\\sqrt{x^2}", "|x|", "x"), ("\\ln(xy)", "\\ln x + \\ln y", "\\ln x \\ln y"),
       ("n(n+1)/2", "\\frac{n^2+n}{2}", "\\frac{n^2}{2}"), ("4a^2b", "4ba^2", "4ab^2")]
for g, r, w in alg:
    both("algebra", g, r, w)
# inequalities
for g, r, w in [("x > 3", "3 < x", "x < 3"), ("x \\geq 2", "x \\ge 2", "x > 2"),
                ("x \\le -1", "-1 \\geq x", "x \\leq 1"),
                ("1 < x < 4", "1 < x < 4", "1 < x < 5"), ("2x > 4", "x > 2", "x > 4")]:
    both("inequality", g, r, w)
add("inequality", "$(3, \\infty)$", solution("x > 3"))
add("inequality", "$x > 3$", solution("(3, \\infty)"))
# non-strict variables and other verify options
for g, r in [("x+1", "y+1"), ("a^2", "b^2"), ("t(t+1)", "s^2+s")]:
    add("nonstrict", f"${g}$", solution(r), strict=False)
    add("nonstrict", f"${g}$", solution(r))
# extraction configurations
for _ in range(8):
    n = rng.randint(1, 500)
    add("expr_only", str(n), f"The result is {n}.", parse="expr")
    add("expr_only", str(n), f"We compute {n + 4} - 4 = {n}", parse="expr")
for letter in "ABCD":
    wrong = "B" if letter != "B" else "C"
    add("string", letter, f"After checking each option, the answer is {letter}.", parse="string")
    add("string", letter, f"Answer: {wrong}", parse="string")
for _ in range(5):
    n = rng.randint(1, 99)
    add("boxed_first", f"${n}$", f"The final answer is ${n + 1}$. Actually \\boxed{{{n}}}", parse="latex_boxed0")
    add("latex_only", f"${n}$", f"Thus $x = {n}$.", parse="latex")
# anchors without boxes
for _ in range(8):
    n = rng.randint(1, 999)
    add("anchor", f"${n}$", f"We computed several values: $3$, $17$. The final answer is ${n}$. I hope it is correct.")
    add("anchor", f"${n}$", f"Answer: ${n}$")
    add("anchor", f"${n}$", f"Answer: {n}")
    add("anchor", f"${n}$", f"So, the final answer for the total is ${n + 2}$")
# free-text model solutions (long, several math environments, boxed at the end)
for _ in range(20):
    a, b = rng.randint(2, 30), rng.randint(2, 30)
    total = a * b + a
    steps = "\n".join(f"Step {i + 1}: we find that $t_{i + 1} = {rng.randint(1, 99)}$."
                      for i in range(rng.randint(3, 8)))
    resp = (f"We need to find the total. There are {a} rows with {b} seats each, plus {a} extra seats.\n{steps}\n"
            f"So the total number of seats is ${a} \\times {b} + {a} = {total}$.\n"
            f"Therefore the answer is $\\boxed{{{total if rng.random() < 0.6 else total + 1}}}$.")
    add("free_text", f"${total}$", resp)
# adversarial inputs
adversarial = [
    ("$9^{9^{9^{9}}}$", "\\boxed{9^{9^{9^{9}}}+1}"),
    ("$10^{10^{10}}$", "\\boxed{10^{10^{10}}}"),
    ("$10^{10^{10}}$", "\\boxed{10^{10^{10}} - 1}"),
    ("$2^{100}$", "\\boxed{1267650600228229401496703205376}"),
    ("$2^{100}$", "\\boxed{1267650600228229401496703205377}"),
    ("$1$", "\\boxed{" + "(" * 40 + "1" + ")" * 40 + "}"),
    ("$1$", "\\boxed{" + "(" * 300 + "1" + ")" * 300 + "}"),
    ("$1$", "\\boxed{}"),
    ("$1$", "\\boxed{1"),
    ("$1$", "\\boxed{\\frac{1}{0}}"),
    ("$0$", "\\boxed{0}"),
    ("$1$", "$$$$"),
    ("$1$", ""),
    ("$1$", "no numbers here at all"),
    ("$5$", "\\boxed{\\text{five}}"),
    ("$\\frac{1}{2}$", "\\boxed{\\frac{1}{2}" + "}" * 50),
    ("$3$", "\\boxed{3}" * 200),
    ("$7$", "x" * 20000 + " \\boxed{7}"),
    ("$7$", "\\boxed{" + "+".join(["1"] * 7) + "}"),
    ("$x$", "\\boxed{x}"),
    ("$e$", "\\boxed{e}"),
    ("$\\infty$", "\\boxed{\\infty}"),
    ("$-\\infty$", "\\boxed{\\infty}"),
    ("$\\emptyset$", "\\boxed{\\emptyset}"),
    ("$1$", "\\boxed{1.0}"),
    ("$1$", "\\boxed{0.999999999}"),
    ("$100$", "\\boxed{1e2}"),
    ("$\\frac{1}{3}$", "\\boxed{0.3333333333333333}"),
    ("$3$", "\\boxed{\\sqrt{9}}"),
    ("$3$", "\\boxed{-\\sqrt{9}}"),
    ("$2$", "\\boxed{\\log_2 4}"),
    ("$\\text{(A)}$", "\\boxed{\\text{(A)}}"),
    ("$12$", "The answer is $12$. \\boxed{"),
    ("$\\$12$", "\\boxed{12}"),
    ("$1{,}000$", "\\boxed{1000}"),
    ("$3.5$", "\\boxed{3,5}"),
    ("$(1,2)$", "\\boxed{1, 2}"),
    ("$1,2$", "\\boxed{(1, 2)}"),
    ("$\\{1,2\\}$", "\\boxed{(1,2)}"),
    ("$0.5$", "\\boxed{50\\%}"),
    ("$x \\in [1,2]$", "\\boxed{[1,2]}"),
    ("$\\frac{a}{b}$", "\\boxed{a/b}"),
    ("$\\sqrt{-1}$", "\\boxed{i}"),
    ("$5$", "\\boxed{5}\\boxed{6}"),
    ("$5$", "\\boxed{\\boxed{5}}"),
    ("$\\frac{1}{2}$", "\\boxed{\\dfrac{1}{2}}"),
    ("$42$", "\u0000\\boxed{42}\u0000"),
    ("$42$", "\\boxed{４２}"),
    ("$-1$", "\\boxed{−1}"),
    ("$\\pi$", "\\boxed{π}"),
    ("$1$", "\\boxed{1}" + "\\" * 100),
    ("$1$", "\\boxed{\\left(\\left(\\left(1\\right)\\right)\\right)}"),
    ("$0$", "\\boxed{x - x}"),
    ("$2$", "\\boxed{\\frac{4}{2}}"),
    ("$2$", "\\boxed{2^{1}}"),
    ("$1$", "\\boxed{0^0}"),
    ("$1$", "\\boxed{" + "x^" * 100 + "1}"),
    ("$7$", "\\boxed{7} " + "\\frac{1}{2} " * 500),
]
for g, a in adversarial:
    add("adversarial", g, a)

OUT.parent.mkdir(parents=True, exist_ok=True)
with OUT.open("w") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + "\n")
print(f"wrote {len(cases)} cases to {OUT}")
