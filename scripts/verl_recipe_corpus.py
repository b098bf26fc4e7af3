"""A generated corpus for checking recipes/ (the Go ports of veRL's rules) against veRL itself.

Rows are {"data_source", "solution", "ground_truth", "expected"}: a veRL data source, a
model-style response, the ground truth in the shape veRL's data_preprocess scripts store it
(gsm8k: the number after "#### " without commas; MATH: the content of the reference's last
\\boxed{}; DAPO: the integer answer; Search-R1: {"target": [answers]}) and what veRL 0.9.1's
own rule returns for it (a float, or math_dapo's dict). In the JSONL file a ground truth that is
not a str is its json.dumps text, as our Go rules take it.

veRL's modules are loaded by file path: ``import verl`` would pull in ray and torch.

    python scripts/verl_recipe_corpus.py --out corpus.jsonl [--n 12000] [--seed 1]
    python scripts/verl_recipe_corpus.py --bench   # veRL vs Go per call, side by side

``make_corpus(n, seed)`` and ``reference(row)`` are the reusable parts.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# veRL's data_source names per family (default_compute_score's routing for the ported ones).
SOURCES = {
    "gsm8k": ["openai/gsm8k"],
    "math_reward": ["lighteval/MATH", "DigitalLearningGmbH/MATH-lighteval", "HuggingFaceH4/MATH-500"],
    "math_dapo": ["math_dapo", "math", "math_dapo_reasoning", "aime2024", "aime_2025"],
    "search_r1": ["searchR1_nq", "searchR1_triviaqa", "searchR1_popqa", "searchR1_hotpotqa",
                  "searchR1_2wikimultihopqa", "searchR1_musique", "searchR1_bamboogle"],
}
MODULE_FILES = {
    "gsm8k": "gsm8k.py",
    "math_reward": "math_reward.py",
    "math_dapo": "math_dapo.py",
    "search_r1": "search_r1_like_qa_em.py",
}


def family_of(data_source: str) -> str:
    """The ported family veRL routes data_source to."""
    for fam, names in SOURCES.items():
        if data_source in names:
            return fam
    if data_source.startswith("aime"):
        return "math_dapo"
    raise KeyError(data_source)


def reward_score_dir() -> Path:
    """veRL's verl/utils/reward_score folder, found without importing verl."""
    env = os.environ.get("VERL_REWARD_SCORE_DIR")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("veRL is not installed (pip install --no-deps verl==0.9.1)")
    return Path(list(spec.submodule_search_locations)[0]) / "utils" / "reward_score"


_MODULES: dict[str, ModuleType] = {}


def module(family: str) -> ModuleType:
    """veRL's module of a family, loaded from its file."""
    if family not in _MODULES:
        path = reward_score_dir() / MODULE_FILES[family]
        spec = importlib.util.spec_from_file_location(f"_verl_reward_{family}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _MODULES[family] = mod
    return _MODULES[family]


def reference(row: dict[str, Any]) -> Any:
    """What veRL's default_compute_score returns for a row: its family's compute_score with the
    defaults, a dict kept as it is and a number made a float. The rules' prints are swallowed."""
    fn = module(family_of(row["data_source"])).compute_score
    with contextlib.redirect_stdout(io.StringIO()):
        res = fn(row["solution"], row["ground_truth"])
    if isinstance(res, dict):
        return res
    if isinstance(res, int | float | bool):
        return float(res)
    return float(res[0])


def encode_ground_truth(gt: Any) -> str:
    """The ground truth as the Go rules take it: a str as it is, anything else as JSON."""
    return gt if isinstance(gt, str) else json.dumps(gt)


# ---------------------------------------------------------------------------------------------
# Text pieces

WORDS = ("we first compute the total then subtract what was used so the remaining amount is "
         "found by dividing each part equally among the groups and checking the result again").split()
UNICODE_BITS = ["é", "中文", "数学", "ü", "ß", "Ω", "😀", "→", "∑", "İ", "ſ", "\u00a0", "\u3000", "naïve",
                "\u2028", "ﬁ", "Σ", "ＡＢ", "١٢", "²", "\x1c", "\v", "\r"]


def prose(rng: random.Random, n_words: int, unicode: bool = False) -> str:
    """Reasoning-like filler with numbers, optionally sprinkled with non-ASCII."""
    out = []
    for _ in range(n_words):
        r = rng.random()
        if r < 0.12:
            out.append(str(rng.randint(0, 999)))
        elif unicode and r < 0.3:
            out.append(rng.choice(UNICODE_BITS))
        else:
            out.append(rng.choice(WORDS))
    text = " ".join(out)
    if rng.random() < 0.3:
        text = text.replace(" then ", ".\n", 2)
    return text


def filler(rng: random.Random, unicode: bool) -> str:
    """Reasoning before the answer: none, short, a few hundred characters or long."""
    r = rng.random()
    if r < 0.1:
        return ""
    if r < 0.5:
        return prose(rng, rng.randint(3, 30), unicode) + "\n"
    if r < 0.9:
        return prose(rng, rng.randint(40, 120), unicode) + "\n"
    return prose(rng, rng.randint(300, 1500), unicode) + "\n"


def pad_to(rng: random.Random, text_after: str, target: int, unicode: bool) -> str:
    """Filler such that filler + text_after is target code points long (clip-boundary cases)."""
    need = target - len(text_after)
    base = prose(rng, need // 3 + 10, unicode)
    return base[-need:] if need > 0 else ""


# ---------------------------------------------------------------------------------------------
# gsm8k: "#### 72" answers; veRL's preprocessing stores the number without commas


def gsm8k_row(rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.75:
        n = rng.choice([rng.randint(0, 100), rng.randint(0, 10000), rng.randint(10000, 10**7), -rng.randint(1, 500)])
        gt = str(n)
    elif r < 0.9:
        gt = f"{rng.randint(0, 99)}.{rng.randint(0, 99)}"
    else:
        gt = rng.choice(["0", "1000", "1,000", "-0", "00", "3.50", "7", ".5"])
    uni = rng.random() < 0.25
    kind = rng.choice(["correct", "correct", "commas", "wrong", "unboxed", "several", "clip", "clip", "clip_wide",
                       "odd", "empty", "dollar", "nospace", "trailing"])
    ans = gt
    if kind == "commas" and gt.lstrip("-").isdigit() and len(gt.lstrip("-")) > 3:
        neg = gt.startswith("-")
        ans = ("-" if neg else "") + f"{int(gt.lstrip('-')):,}"
    elif kind == "wrong":
        ans = str(rng.randint(-50, 20000))
    head = filler(rng, uni)
    if kind in ("correct", "commas", "wrong"):
        sol = head + rng.choice(["#### ", "The answer is:\n#### ", "##### ", "So #### "]) + ans
        if rng.random() < 0.3:
            sol += rng.choice(["", "\n", " ", ".", " dollars", "<|im_end|>", "\n\n" + prose(rng, 5, uni)])
    elif kind == "unboxed":
        sol = head + f"The answer is {ans}."
    elif kind == "several":
        other = str(rng.randint(0, 999))
        first, second = (ans, other) if rng.random() < 0.5 else (other, ans)
        redo = prose(rng, rng.randint(0, 20), uni)
        sol = head + f"#### {first}\nwait, let me redo this.\n{redo}\n#### {second}"
    elif kind == "clip":
        # "#### <answer>" placed so that the 300-code-point clip falls around it.
        tail = f"#### {ans}"
        after = prose(rng, rng.randint(0, 60), uni)
        total = 300 + rng.randint(-len(tail) - 3, 3)
        body = tail + after
        sol = pad_to(rng, body, max(total + len(after), len(body)), uni) + body
        if rng.random() < 0.5:
            sol = prose(rng, 40, uni) + sol
        cut = len(sol) - 300 + rng.randint(-6, 6)
        if 0 < cut < len(sol) and rng.random() < 0.5:
            sol = sol[:cut] + tail + sol[cut:]
    elif kind == "clip_wide":
        # multibyte text after the answer: 300 code points reach much further back than 300 bytes
        tail = f"#### {ans}"
        k = 300 - len(tail) + rng.randint(-4, 4)
        wide = "".join(rng.choice(["中", "é", "😀", "文", " ", "Ω"]) for _ in range(k))
        sol = prose(rng, rng.randint(5, 60), uni) + " " + tail + wide
    elif kind == "odd":
        sol = head + rng.choice(["#### -" + ans, "#### --" + ans, "#### " + ans + ".", "#### .", "#### ,",
                                 "#### " + ans + ".5.2", "####\t" + ans, "#### ７２", "#### " + ans + ",000",
                                 "#### -", "#### $" + ans, "####  " + ans, "#### " + ans + "\u00a0"])
    elif kind == "empty":
        sol = rng.choice(["", " ", "\n", "####", "#### "])
    elif kind == "dollar":
        sol = head + f"#### ${ans}"
    elif kind == "nospace":
        sol = head + f"####{ans}"
    else:  # trailing text after the answer that keeps the match intact
        sol = head + f"#### {ans}\n\n" + prose(rng, rng.randint(1, 40), uni)
    return {"data_source": "openai/gsm8k", "solution": sol, "ground_truth": gt}


# ---------------------------------------------------------------------------------------------
# MATH (math_reward): \boxed{...} solutions; the ground truth is the reference's boxed content

MATH_GT = [
    "5", "-3", "0", "12", "1000", "\\frac{1}{2}", "\\frac{3}{4}", "\\dfrac{5}{6}", "\\tfrac{1}{3}", "\\frac12",
    "\\sqrt{2}", "2\\sqrt{3}", "\\sqrt3", "\\frac{\\sqrt{3}}{2}", "(1,2)", "\\left( 3, -1 \\right)", "\\text{(C)}",
    "x^2+1", "10\\%", "90^\\circ", "45^{\\circ}", "0.5", ".5", "\\$5", "k=3", "\\infty", "[2,5)", "\\pi",
    "5\\text{ cm}", "1/2", "3.14", "\\text{Monday}", "a", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
    "y = 2x + 3", "\\{1,2,3\\}", "2, 3", "\\frac{-1}{2}", "-\\frac{1}{2}", "\\!5", "1,\\!000", "\\mbox{odd}",
    "0.25", "10/4", "07/2", "\\frac{a}{b}", "x\\in[0,1]", "\\sqrt{x^2+1}", "e^{i\\pi}", "中文", "ÿ",
    # fractions at CPython's int() digit limit (4300 digits), which decides whether "a/b" becomes \frac{a}{b}
    "\\frac{" + "1" * 4300 + "}{2}", "\\frac{" + "1" * 4301 + "}{2}",
    # a "\frac" with a single character after it makes fix_fracs give up on the whole string
    "\\frac12\\frac3", "\\frac1", "\\sqrt2\\frac1",
    # a trailing "\frac" or "\sqrt" makes strip_string raise, and is_equiv compares the raw strings
    "\\frac{1}{2}\\frac", "x\\sqrt",
]


def math_equivalent(rng: random.Random, gt: str) -> str:
    """A form of gt that Hendrycks' normalization may or may not map to the same string."""
    ops = [
        lambda s: s.replace("\\frac", "\\dfrac"),
        lambda s: s.replace("\\frac", "\\tfrac"),
        lambda s: " ".join(s),
        lambda s: s.replace("(", "\\left(").replace(")", "\\right)"),
        lambda s: "x = " + s,
        lambda s: "xyz = " + s,
        lambda s: s + "^\\circ",
        lambda s: s + "\\text{ cm}",
        lambda s: s + "\\text{ cm}\\text{ m}",
        lambda s: "\\$" + s,
        lambda s: s + "\\%",
        lambda s: s.replace("{", "{ ").replace("}", " }"),
        lambda s: "\\!" + s,
        lambda s: s.replace("\\frac{1}{2}", "0.5"),
        lambda s: s.replace("\\frac{1}{2}", "1/2"),
        lambda s: s.replace("0.5", ".5"),
        lambda s: s.replace("\\frac{", "\\frac").replace("}{", "").replace("}", "") if len(s) < 14 else s,
        lambda s: s.replace("\\sqrt{", "\\sqrt").replace("}", ""),
        lambda s: s + "\n",
        lambda s: s.replace("\\", "\\\\"),
        lambda s: s + "\\sqrt",
        lambda s: s + "\\frac",
        lambda s: "\\frac\\frac" + s,
        lambda s: s + "=",
        lambda s: "=" + s,
        lambda s: s.replace(",", ", "),
        lambda s: s + "\\frac1",
        lambda s: "\\frac1{" + s + "}",
        lambda s: "\\frac" + s + "{2}",
        lambda s: s.replace("\\frac{", "").replace("}{", "/").replace("}", ""),
        lambda s: s.replace("/", "/-"),
        lambda s: s.replace("/", "/0"),
        lambda s: re.sub(r"\\frac(\d)(\d)", r"\\frac{\1}{\2}", s),
    ]
    s = gt
    for _ in range(rng.randint(1, 2)):
        s = rng.choice(ops)(s)
    return s


def math_wrong(rng: random.Random, gt: str) -> str:
    if rng.random() < 0.5:
        return str(rng.randint(-20, 200))
    return rng.choice(MATH_GT)


def boxed(rng: random.Random, a: str) -> str:
    return rng.choice(["$\\boxed{%s}$", "\\boxed{%s}", "\\[\\boxed{%s}\\]", "$$\\boxed{%s}.$$"]) % a


def math_row(rng: random.Random) -> dict[str, Any]:
    gt = rng.choice(MATH_GT)
    uni = rng.random() < 0.25
    head = filler(rng, uni)
    kind = rng.choice(["correct", "correct", "equiv", "equiv", "equiv", "wrong", "unboxed", "several", "space",
                       "fbox", "broken", "empty", "reasoning_boxes", "long"])
    if kind == "correct":
        sol = head + "The answer is " + boxed(rng, gt)
    elif kind == "equiv":
        sol = head + "So we get " + boxed(rng, math_equivalent(rng, gt))
    elif kind == "wrong":
        sol = head + "Therefore " + boxed(rng, math_wrong(rng, gt))
    elif kind == "unboxed":
        sol = head + f"The answer is ${gt}$."
    elif kind == "several":
        a, b = gt, math_wrong(rng, gt)
        if rng.random() < 0.5:
            a, b = b, a
        sol = head + boxed(rng, a) + "\nHmm, no: " + prose(rng, rng.randint(0, 15), uni) + " " + boxed(rng, b)
    elif kind == "space":
        # "\boxed 5" (space form) wins over any braced box, wherever it is.
        a = gt if rng.random() < 0.6 else math_wrong(rng, gt)
        sol = head + rng.choice([f"$\\boxed {a}$", f"\\boxed {a}", f"$\\boxed {a}$ and later \\boxed{{7}}",
                                 f"\\boxed{{{gt}}} then $\\boxed {a}$. Done", f"\\boxed  {a}$"])
    elif kind == "fbox":
        sol = head + rng.choice([f"\\fbox{{{gt}}}", f"\\boxed\n{{{gt}}}", f"\\boxedx{{{gt}}}",
                                 f"\\boxed{{{gt}}}\\fbox{{1}}"])
    elif kind == "broken":
        sol = head + rng.choice([f"\\boxed{{{gt}", f"\\boxed}}{{{gt}}}", f"\\boxed{{{gt}}}}}", "\\boxed{}", "\\boxed",
                                 f"\\boxed{{\\frac{{{gt}}}", f"\\boxed{{{gt}}}\\boxed{{"])
    elif kind == "empty":
        sol = rng.choice(["", " ", "\\boxed{}", "$$"])
    elif kind == "reasoning_boxes":
        guess = math_wrong(rng, gt)
        sol = head + f"Let $x=\\boxed{{{guess}}}$ be a guess. " + prose(rng, 30, uni) + " " + boxed(rng, gt)
    else:
        sol = prose(rng, rng.randint(500, 3000), uni) + " so " + boxed(rng, rng.choice([gt, math_equivalent(rng, gt)]))
    if rng.random() < 0.2:
        sol += rng.choice(["", "\n", " <|im_end|>", "\n" + prose(rng, 8, uni)])
    return {"data_source": rng.choice(SOURCES["math_reward"]), "solution": sol, "ground_truth": gt}


# ---------------------------------------------------------------------------------------------
# math_dapo: DAPO-style "Answer: 34" responses; ground truths mostly integers

DAPO_GT = ["34", "0", "5", "-2", "1000", "123", "\\frac{1}{2}", "2\\sqrt{3}", "\\sqrt{2}", "3.5", "12 dollars",
           "\\text{A}", "[INVALID]", "x=4", "1,234", "a 5", "\\$10", "10\\%", "90^\\circ", "(1, 2)", "\\frac12", "²,³"]


def dapo_answer_form(rng: random.Random, a: str) -> str:
    ops = [
        lambda s: s, lambda s: s, lambda s: f"${s}$", lambda s: f"\\boxed{{{s}}}", lambda s: f"{s} dollars",
        lambda s: f"x = {s}", lambda s: f"\\text{{{s}}}", lambda s: f"{s}.", lambda s: f"{s} units",
        lambda s: f"${s}$ and $7$", lambda s: s.replace("\\frac{1}{2}", "\\frac12"), lambda s: f"{s}^\\circ",
        lambda s: f"\\textbf{{{s}}}", lambda s: f"\\overline{{{s}}}",
        lambda s: f"{int(s):,}" if s.isascii() and s.isdigit() else s,
        lambda s: f" {s} \u3000", lambda s: s + "\r", lambda s: f"an {s}", lambda s: f"\\mbox{{{s}}}",
        lambda s: f"\\boxed{{{s}}} \\boxed{{3}}", lambda s: f"\\sqrt{s}", lambda s: f"\\frac{s}3",
    ]
    return rng.choice(ops)(a)


def dapo_row(rng: random.Random) -> dict[str, Any]:
    gt = rng.choice(DAPO_GT)
    uni = rng.random() < 0.25
    head = filler(rng, uni)
    wrong = str(rng.randint(-10, 2000))
    kind = rng.choice(["correct", "correct", "correct", "wrong", "wrong", "boxed", "boxed_far", "several", "clip",
                       "case", "spaces", "empty", "invalid", "none"])
    ans = gt if kind != "wrong" else wrong
    if kind in ("correct", "wrong"):
        sol = head + rng.choice(["Answer: ", "answer: ", "ANSWER : ", "Answer:\n", "Answer:", "The final Answer: "])
        sol += dapo_answer_form(rng, ans)
    elif kind == "boxed":
        sol = head + "so the result is " + boxed(rng, rng.choice([gt, wrong]))
    elif kind == "boxed_far":
        # the box more than 100 code points before the end
        sol = head + boxed(rng, gt) + " " + prose(rng, rng.randint(15, 40), uni)
    elif kind == "several":
        a, b = (gt, wrong) if rng.random() < 0.5 else (wrong, gt)
        sol = head + f"Answer: {a}\nActually, let me recheck. " + prose(rng, rng.randint(0, 10), uni) + f"\nAnswer: {b}"
    elif kind == "clip":
        tail = f"Answer: {gt}"
        after = "\n" + prose(rng, rng.randint(0, 50), uni)
        body = tail + after
        total = 300 + rng.randint(-len(tail) - 2, 2) + len(after)
        sol = pad_to(rng, body, max(total, len(body)), uni) + body
        if rng.random() < 0.5:
            sol = prose(rng, 40, uni) + sol
    elif kind == "case":
        lead = rng.choice(["AnſWER: ", "aNsWeR: ", "Answer\u00a0:\u00a0", "Answer\v:\x1c", "Answers: ",
                           "Answer\t:\t", "answer is: ", "Answer :", "Final answer: "])
        sol = head + lead + dapo_answer_form(rng, gt)
    elif kind == "spaces":
        sol = head + rng.choice(["Answer:   ", "Answer: \n", "Answer:\n\n", "Answer: \t\n", "Answer:\u3000\n\n",
                                 "Answer:\n \n", f"Answer: \n{gt}", f"Answer:\n\n{gt}\n", "Answer: \x1c\n"])
    elif kind == "empty":
        sol = rng.choice(["", " ", "Answer:", "Answer: ", "\\boxed{}", "Answer: \\boxed{}", "Answer: ,", "Answer: ,,",
                          head + "Answ", head + "answer", head + "Answer", "Answer: 1,2,3", "Answer: ²,³"])
    elif kind == "invalid":
        sol = head + rng.choice(["Answer: [INVALID]", "Answer: [INVALID]\n" + boxed(rng, gt), "Answer: =" + gt,
                                 "Answer: $" + gt, "Answer: $$", "Answer: \\text{" + gt, "Answer: \\boxed{" + gt])
    else:
        sol = head + f"I think it is {gt}."
    if rng.random() < 0.15:
        sol += rng.choice(["<|im_end|>", "\n", "\n\n" + prose(rng, 6, uni)])
    return {"data_source": rng.choice(SOURCES["math_dapo"]), "solution": sol, "ground_truth": gt}


# ---------------------------------------------------------------------------------------------
# search_r1: <answer>...</answer>; ground truth {"target": [answers]} as Search-R1's preprocessing stores it

QA = [
    ["Paris"], ["Barack Obama", "Obama"], ["The Beatles"], ["1969"], ["New York City", "NYC"], ["Ángela Merkel"],
    ["İstanbul"], ["ΟΔΥΣΣΕΥΣ"], ["U.S.", "United States"], ["a"], ["The The"], ["naïve art"], ["中华人民共和国"],
    ["Rock 'n' roll"], ["an apple a day"], ["Straße"], ["e.e. cummings"], ["ﬁsh"], ["x_y"], ["3.14"],
]


def qa_variant(rng: random.Random, a: str) -> str:
    ops = [
        lambda s: s, lambda s: s.lower(), lambda s: s.upper(), lambda s: f"the {s}", lambda s: f"  {s}.  ",
        lambda s: s.replace(" ", "  "), lambda s: f"A {s}!", lambda s: s + "\n", lambda s: s.replace(" ", "\u00a0"),
        lambda s: s.replace(" ", "\u3000"), lambda s: f"«{s}»", lambda s: s.casefold(), lambda s: f"é{s}",
        lambda s: f"{s}s", lambda s: s.replace("a", "à"), lambda s: f"\"{s}\"", lambda s: s.replace(" ", "_"),
        lambda s: s.replace(" ", "-"), lambda s: f"the·{s}", lambda s: f"an\u2028{s}",
        # an article glued to a non-ASCII letter is part of that word for Python's \b
        lambda s: s + "the", lambda s: "a" + s, lambda s: s + " the", lambda s: s + "an",
    ]
    return rng.choice(ops)(a)


def search_r1_row(rng: random.Random) -> dict[str, Any]:
    targets = list(rng.choice(QA))
    target: Any = targets if rng.random() < 0.85 else targets[0]
    uni = rng.random() < 0.3
    think = f"<think>{prose(rng, rng.randint(0, 60), uni)}</think>\n" if rng.random() < 0.8 else ""
    if rng.random() < 0.3:
        info = prose(rng, rng.randint(5, 200), uni)
        think += f"<search>{prose(rng, 4, uni)}</search>\n<information>{info}</information>\n"
    right = qa_variant(rng, rng.choice(targets))
    wrong = qa_variant(rng, rng.choice(rng.choice(QA)))
    kind = rng.choice(["correct", "correct", "correct", "wrong", "none", "unclosed", "several", "many_tags",
                       "ten_tags", "nested", "multiline", "long", "empty"])
    if kind == "correct":
        sol = think + f"<answer>{right}</answer>"
    elif kind == "wrong":
        sol = think + f"<answer>{wrong}</answer>"
    elif kind == "none":
        sol = think + f"The answer is {right}."
    elif kind == "unclosed":
        sol = think + rng.choice([f"<answer>{right}", f"<answer>{right}</answer", f"{right}</answer>",
                                  f"<Answer>{right}</Answer>", f"<answer>{wrong}</answer><answer>{right}"])
    elif kind == "several":
        a, b = (right, wrong) if rng.random() < 0.5 else (wrong, right)
        sol = think + f"<answer>{a}</answer> hmm <answer>{b}</answer>"
    elif kind in ("many_tags", "ten_tags"):
        k = rng.randint(11, 20) if kind == "many_tags" else rng.randint(9, 10)
        pieces = [f"<answer>{rng.choice([right, wrong])}</answer>" for _ in range(k - 1)]
        sol = think + " ".join(pieces) + f" <answer>{right}</answer>"
        if rng.random() < 0.3:
            sol += rng.choice(["</answer>", "<answer>", "</answer>" * 2])
    elif kind == "nested":
        sol = think + rng.choice([f"<answer><answer>{right}</answer>", f"<answer>x<answer>{right}</answer></answer>"])
    elif kind == "multiline":
        sol = think + f"<answer>\n{right}\n</answer>"
    elif kind == "long":
        sol = prose(rng, rng.randint(2000, 6000), uni) + f"<answer>{rng.choice([right, wrong])}</answer>"
    else:
        sol = rng.choice(["", "<answer></answer>", "<answer> </answer>", "<answer>the</answer>"])
    return {"data_source": rng.choice(SOURCES["search_r1"]), "solution": sol, "ground_truth": {"target": target}}


# ---------------------------------------------------------------------------------------------
# Token soup: random strings made of the pieces the rules react to, for the cases no template thought of

SOUP = {
    "gsm8k": ["#### ", "####", "#", " ", "-", "1", "72", ".", ",", "$", "\n", "中", "é", "x", "7,2"],
    "math_reward": ["\\boxed", "\\boxed ", "\\boxed{", "\\fbox{", "{", "}", "$", " ", "\\frac", "\\dfrac", "\\sqrt",
                    "1", "2", "/", ".", "=", "x", "\\text{ ", "\\text{", "\\left", "\\right", "^\\circ", "\\%",
                    "\\$", "\\!", "\\\\", "\n", "-", "0", "中"],
    "math_dapo": ["Answer", "answer", "ANSWER", "ſ", ":", " ", "\n", "\u3000", "\v", "$", "\\boxed{", "{", "}", "1",
                  "2", ",", "=", "frac", "sqrt", "\\text{", "\\textbf{", "\\overline{", "an ", "a ", "units", "\\", "²",
                  "[INVALID]", ".", "x"],
    "search_r1": ["<answer>", "</answer>", " ", "the", "a", "an", "The", "Paris", "paris", ".", "_", "'", "中", "é",
                  "\u00a0", "\n", "İ", "Σ", "x", "-"],
}


def soup(rng: random.Random, family: str, max_pieces: int) -> str:
    return "".join(rng.choice(SOUP[family]) for _ in range(rng.randint(0, max_pieces)))


def soup_row(rng: random.Random, family: str) -> dict[str, Any]:
    sol = soup(rng, family, 40)
    if rng.random() < 0.5:
        sol = prose(rng, rng.randint(0, 120), rng.random() < 0.3) + sol
    if family == "gsm8k":
        gt = rng.choice(["72", "1", "-1", "7.2", "", "11"])
    elif family == "search_r1":
        gt = {"target": rng.choice([["Paris"], ["the Paris"], ["a"], [""], ["İ"], "paris", ["Σ", "x"]])}
    else:
        gt = soup(rng, family, 6) if rng.random() < 0.5 else rng.choice(["1", "12", "\\frac{1}{2}", "2", "x"])
    return {"data_source": rng.choice(SOURCES[family]), "solution": sol, "ground_truth": gt}


TEMPLATES = {"gsm8k": gsm8k_row, "math_reward": math_row, "math_dapo": dapo_row, "search_r1": search_r1_row}
SOUP_SHARE = 0.15


def _row(family: str, rng: random.Random) -> dict[str, Any]:
    if rng.random() < SOUP_SHARE:
        return soup_row(rng, family)
    return TEMPLATES[family](rng)


GENERATORS = {fam: (lambda rng, fam=fam: _row(fam, rng)) for fam in TEMPLATES}


def make_corpus(n: int, seed: int) -> list[dict[str, Any]]:
    """n generated rows (without "expected"), the four families in turn; the same for the same seed."""
    rng = random.Random(seed)
    fams = list(GENERATORS)
    return [GENERATORS[fams[i % len(fams)]](rng) for i in range(n)]


def write_corpus(path: Path, rows: list[dict[str, Any]]) -> None:
    """Writes rows as JSONL with veRL's verdict in "expected" and the ground truth encoded for Go."""
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            out = dict(row, ground_truth=encode_ground_truth(row["ground_truth"]), expected=reference(row))
            f.write(json.dumps(out, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------------------------
# --bench: veRL's own function per call against the Go rule, same rows


def time_verl(rows: list[dict[str, Any]], repeats: int = 5) -> dict[str, list[float]]:
    """Microseconds per call of each family's compute_score, one figure per repeat."""
    out: dict[str, list[float]] = {}
    for fam in GENERATORS:
        fn = module(fam).compute_score
        items = [(r["solution"], r["ground_truth"]) for r in rows if family_of(r["data_source"]) == fam]
        runs = []
        with contextlib.redirect_stdout(io.StringIO()):
            for _ in range(repeats):
                t0 = time.perf_counter()
                for s, gt in items:
                    fn(s, gt)
                runs.append((time.perf_counter() - t0) / len(items) * 1e6)
        out[fam] = runs
    return out


def time_go(corpus: Path, count: int = 5) -> dict[str, list[float]]:
    """Microseconds per call from BenchmarkVerlFamilies run on the corpus file."""
    env = dict(os.environ, RECIPES_CORPUS=str(corpus))
    proc = subprocess.run(["go", "test", "./recipes", "-run", "^$", "-bench", "BenchmarkVerlFamilies",
                           "-count", str(count), "-benchtime", "20000x"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    out: dict[str, list[float]] = {}
    for m in re.finditer(r"BenchmarkVerlFamilies/(\w+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", proc.stdout):
        out.setdefault(m.group(1), []).append(float(m.group(2)) / 1000)
    return out


def bench(n: int, seed: int) -> None:
    rows = make_corpus(n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.jsonl"
        write_corpus(path, rows)
        go = time_go(path)
    py = time_verl(rows)
    print(f"{'family':<12} {'rows':>6} {'veRL µs/call':>22} {'Go µs/call':>22} {'ratio':>7}")
    for fam in GENERATORS:
        k = sum(1 for r in rows if family_of(r["data_source"]) == fam)
        p, g = py[fam], go.get(fam, [float("nan")])
        spread = lambda v: f"{statistics.median(v):8.3f} [{min(v):.3f}-{max(v):.3f}]"  # noqa: E731
        print(f"{fam:<12} {k:>6} {spread(p):>22} {spread(g):>22} {statistics.median(p) / statistics.median(g):6.1f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="JSONL file to write")
    ap.add_argument("--n", type=int, default=12000, help="rows (the four families in turn)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bench", action="store_true", help="time veRL and the Go rules on the corpus")
    args = ap.parse_args(argv)
    if args.bench:
        bench(args.n, args.seed)
        return 0
    if args.out is None:
        ap.error("--out is required (or --bench)")
    write_corpus(args.out, make_corpus(args.n, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
