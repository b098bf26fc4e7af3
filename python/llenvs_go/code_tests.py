"""Programs checked against test cases in the shape veRL's ``prime_code`` reads, run in the code sandbox.

Test cases are ``{"inputs": [...], "outputs": [...]}`` of str, optionally with ``"fn_name"`` (a test
whose input or output is a list fails, as prime_code cannot read it):

- without ``fn_name`` (standard input): each input is the program's stdin and its stdout must match the
  output under prime_code's comparison (the texts equal once stripped, or line by line stripped, or with
  empty lines dropped, or as numbers within ``numpy.allclose``'s default tolerances);
- with ``fn_name`` (call-based): each input is one JSON value per line, the arguments of ``fn_name``
  (a method of ``Solution`` when the code defines that class), and the returned value must equal the
  JSON output (or its first element, when the output is a non-empty list).

Both run the program after the same star imports prime_code gives it (``math``, ``collections``,
``itertools``, ...), so code that relies on them behaves alike. Every test is one sandboxed run; a batch of
completions is one call into Go for all their tests.

    >>> from llenvs_go.code_tests import check_tests
    >>> r = check_tests("print(int(input()) * 2)", {"inputs": ["2\\n", "5\\n"], "outputs": ["4\\n", "10\\n"]})
    >>> r.fraction, r.all_passed, r.status
    (1.0, True, 'correct')
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go import code as _code

CONTINUOUS_TESTS = 10
"""How many tests the fraction counts, as prime_code's ``continuous=True`` does: the first ten."""

# The names prime_code's harness gives a program before it runs: star imports of these modules, the
# modules themselves, and a high recursion limit.
_STAR_MODULES = ("string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                 "statistics", "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing")
_PLAIN_MODULES = ("string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                  "statistics", "itertools", "functools", "operator", "io", "sys", "json")
PRELUDE = ("".join(f"from {m} import *\n" for m in _STAR_MODULES)
           + "".join(f"import {m}\n" for m in _PLAIN_MODULES) + "sys.setrecursionlimit(6*10**5)\n")

_CALL_HARNESS = """
import io as _llenvs_io, json as _llenvs_json, sys as _llenvs_sys
_llenvs_stdout = _llenvs_sys.stdout
_llenvs_args = [_llenvs_json.loads(line) for line in _llenvs_sys.stdin.read().split("\\n")]
_llenvs_sys.stdout = _llenvs_io.StringIO()
_llenvs_namespace = {"__name__": "solution"}
exec(compile(%(source)r, "solution.py", "exec"), _llenvs_namespace)
_llenvs_owner = _llenvs_namespace["Solution"]() if %(has_class)r else None
_llenvs_fn = getattr(_llenvs_owner, %(fn)r) if _llenvs_owner is not None else _llenvs_namespace[%(fn)r]
_llenvs_result = _llenvs_fn(*_llenvs_args)
_llenvs_stdout.write(_llenvs_json.dumps(_llenvs_result))
"""


def extract_code(completion: str) -> str:
    """The code of a completion as prime_code takes it: the last fenced ```python block, else the whole text."""
    return completion.split("```python")[-1].split("```")[0]


@dataclass(frozen=True)
class TestsResult:
    """How a program did on its test cases.

    Attributes:
        results: per test run, ``"passed"``, ``"failed"`` (wrong output or an exception) or the sandbox
            status that ended it (``"timeout"``, ``"memory"``, ``"output_limit"``, ``"killed"``).
        total: the number of test cases (tests past the first ten are run only when those all pass).
        all_passed: every test case passed.
    """

    results: tuple[str, ...]
    total: int
    all_passed: bool

    @property
    def fraction(self) -> float:
        """prime_code's ``continuous=True`` score: 1.0 when all pass, else the passed share of the first ten."""
        if self.all_passed:
            return 1.0
        first = self.results[:CONTINUOUS_TESTS]
        return sum(r == "passed" for r in first) / max(1, len(first))

    @property
    def status(self) -> str:
        """The scoring outcome: ``correct``, ``incorrect``, or ``timeout`` when a test ran out of time and none
        failed outright (a timeout is not a wrong answer)."""
        if self.all_passed:
            return "correct"
        if "failed" not in self.results and "timeout" in self.results:
            return "timeout"
        return "incorrect"


def _is_int_text(s: str) -> bool:
    return s.isdigit()


def stdout_matches(output: str, expected: str | list[str]) -> bool:
    """prime_code's comparison of a standard-input program's stdout with the expected output."""
    want = "\n".join(expected) if isinstance(expected, list) else expected
    lines = output.splitlines()
    if "\n".join(lines).strip() == want.strip():
        return True
    if "\n".join(line.strip() for line in lines).strip() == want.strip():
        return True
    if lines == [want]:
        return True
    want_lines = [x.strip() for x in want.split("\n") if x]
    if lines == want_lines:
        return True
    kept = [line for line in lines if line]
    if kept == want_lines:
        return True
    if len(kept) == len(want_lines) and not all(_is_int_text(a) and _is_int_text(b) for a, b in zip(kept, want_lines,
                                                                                                  strict=True)):
        try:
            got = [float(x) for x in kept]
            ref = [float(x) for x in want_lines]
        except ValueError:
            return False
        # numpy.allclose's defaults: |a - b| <= 1e-8 + 1e-5 * |b|
        return all(math.isclose(a, b, rel_tol=0, abs_tol=0) or abs(a - b) <= 1e-8 + 1e-5 * abs(b)
                   for a, b in zip(got, ref, strict=True))
    return False


def _returned_matches(output: str, expected_json: str) -> bool:
    try:
        got = json.loads(output)
        want = json.loads(expected_json)
    except ValueError:
        return False
    if got == want:
        return True
    return isinstance(want, list) and bool(want) and got == want[0]


def _program(source: str, tests: Mapping[str, Any]) -> str:
    fn = tests.get("fn_name")
    if fn is None:
        return PRELUDE + source
    return PRELUDE + _CALL_HARNESS % {"source": source, "has_class": "class Solution" in source, "fn": fn}


def _verdict(tests: Mapping[str, Any], k: int, r: _code.RunResult) -> str:
    call_based = tests.get("fn_name") is not None
    if r.status in ("timeout", "memory", "output_limit", "killed"):
        return r.status
    if call_based:
        return "passed" if r.ok and _returned_matches(r.stdout, tests["outputs"][k]) else "failed"
    # prime_code lets a program leave through SystemExit; an uncaught exception fails the test.
    if r.verdict.startswith("exception "):
        return "failed"
    return "passed" if stdout_matches(r.stdout, tests["outputs"][k]) else "failed"


def _parse_tests(tests: Any) -> Mapping[str, Any]:
    if isinstance(tests, (str, bytes)):
        tests = json.loads(tests)
    if not isinstance(tests, Mapping) or not isinstance(tests.get("inputs"), list) or not isinstance(
            tests.get("outputs"), list):
        raise ValueError('test cases must be {"inputs": [...], "outputs": [...]} (optionally "fn_name"), '
                         f"got {type(tests).__name__}")
    if len(tests["inputs"]) != len(tests["outputs"]):
        raise ValueError(f"test cases have {len(tests['inputs'])} inputs for {len(tests['outputs'])} outputs")
    if tests.get("fn_name") is not None and not isinstance(tests["fn_name"], str):
        raise TypeError(f"fn_name must be a str, got {type(tests['fn_name']).__name__}")
    for k, v in enumerate(tests["inputs"] + tests["outputs"]):
        if not isinstance(v, (str, list)):
            raise TypeError(f"a test input or output must be a str, got {type(v).__name__} at position {k}")
    return tests


def check_tests_batch(completions: Sequence[str], tests: Sequence[Any], *, timeout: float = 5.0,
                      extract: bool = True, sandbox: _code.Sandbox | None = None) -> list[TestsResult]:
    """Check every completion against its test cases, all runs in parallel, in at most two calls into Go.

    The first ten tests of every completion run first; the rest only for the completions that passed those,
    as prime_code only needs them then.

    Args:
        completions: model outputs (their last ```python block is the code when ``extract``).
        tests: one set of test cases per completion: a mapping or its JSON text.
        timeout: wall-clock seconds per test run.
        extract: take the code out of a fenced block as prime_code does.
        sandbox: other limits (its timeout is replaced by ``timeout``).
    """
    completions = list(completions)
    cases = [_parse_tests(t) for t in tests]
    if len(cases) != len(completions):
        raise ValueError(f"{len(cases)} test sets for {len(completions)} completions: give one per completion")
    box = _code.Sandbox(timeout=timeout) if sandbox is None else _code._with_timeout(sandbox, timeout)
    sources = [extract_code(c) if extract else c for c in completions]
    verdicts: list[list[str]] = [[] for _ in completions]

    def run_round(ranges: list[range]) -> None:
        progs, stdins, owners = [], [], []
        found: list[dict[int, str]] = [{} for _ in ranges]
        for i, which in enumerate(ranges):
            program = _program(sources[i], cases[i])
            for k in which:
                if not isinstance(cases[i]["inputs"][k], str) or not isinstance(cases[i]["outputs"][k], str):
                    found[i][k] = "failed"  # prime_code cannot read a list here: the test fails there too
                    continue
                progs.append(program)
                stdins.append(cases[i]["inputs"][k])
                owners.append((i, k))
        for (i, k), r in zip(owners, box.run_batch(progs, stdins=stdins), strict=True):
            found[i][k] = _verdict(cases[i], k, r)
        for i, which in enumerate(ranges):
            verdicts[i] += [found[i][k] for k in which]

    run_round([range(min(CONTINUOUS_TESTS, len(c["inputs"]))) for c in cases])
    rest = [range(CONTINUOUS_TESTS, len(c["inputs"])) if all(v == "passed" for v in verdicts[i]) else range(0)
            for i, c in enumerate(cases)]
    if any(rest):
        run_round(rest)
    return [TestsResult(results=tuple(v), total=len(c["inputs"]),
                        all_passed=len(v) == len(c["inputs"]) and all(x == "passed" for x in v))
            for v, c in zip(verdicts, cases, strict=True)]


def check_tests(completion: str, tests: Any, *, timeout: float = 5.0, extract: bool = True,
                sandbox: _code.Sandbox | None = None) -> TestsResult:
    """Check one completion against its test cases (see :func:`check_tests_batch`)."""
    return check_tests_batch([completion], [tests], timeout=timeout, extract=extract, sandbox=sandbox)[0]


def prime_code_score(completion: str, tests: Any, continuous: bool = False, *, timeout: float = 5.0) -> float:
    """The value veRL's ``prime_code.compute_score(completion, tests, continuous)`` gives, as a float.

    1.0 when every test passes; otherwise, with ``continuous``, the passed share of the first ten tests,
    and 0.0 without.
    """
    r = check_tests(completion, tests, timeout=timeout)
    if r.all_passed:
        return 1.0
    return r.fraction if continuous else 0.0
