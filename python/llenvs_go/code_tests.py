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
completions is one call into Go (``envs/codetests``), which assembles the programs, runs them and compares
their output.

    >>> from llenvs_go.code_tests import check_tests
    >>> r = check_tests("print(int(input()) * 2)", {"inputs": ["2\\n", "5\\n"], "outputs": ["4\\n", "10\\n"]})
    >>> r.fraction, r.all_passed, r.status
    (1.0, True, 'correct')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from llenvs_go import _native
from llenvs_go import code as _code

CONTINUOUS_TESTS = 10
"""How many tests the fraction counts, as prime_code's ``continuous=True`` does: the first ten."""


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
        fraction: prime_code's ``continuous=True`` score: 1.0 when all pass, else the passed share of the
            first ten.
        status: the scoring outcome: ``correct``, ``incorrect``, or ``timeout`` when a test ran out of time
            and none failed outright (a timeout is not a wrong answer).
        feedback: how many tests passed and how the others failed, as text for a model's next turn.
    """

    results: tuple[str, ...]
    total: int
    all_passed: bool
    fraction: float = 0.0
    status: str = "incorrect"
    feedback: str = ""


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
    """Check every completion against its test cases, all runs in parallel, in one call into Go.

    The first ten tests of every completion run first; the rest only for the completions that passed those,
    as prime_code only needs them then.

    Args:
        completions: model outputs (their last ```python block is the code when ``extract``).
        tests: one set of test cases per completion: a mapping or its JSON text.
        timeout: wall-clock seconds per test run.
        extract: take the code out of a fenced block as prime_code does.
        sandbox: other limits (its timeout is replaced by ``timeout``).
    """
    from llenvs_go.core.columns import BatchSlot

    completions = list(completions)
    cases = [_parse_tests(t) for t in tests]
    if len(cases) != len(completions):
        raise ValueError(f"{len(cases)} test sets for {len(completions)} completions: give one per completion")
    for k, c in enumerate(completions):
        if not isinstance(c, str):
            raise TypeError(f"completions[{k}] must be a str, got {type(c).__name__}")
    if not completions:
        return []
    box = _code.Sandbox(timeout=timeout) if sandbox is None else _code._with_timeout(sandbox, timeout)
    box.check_isolation()
    spec = box._spec("main")
    codes = _native.TextArrays([extract_code(c) if extract else c for c in completions], "completions")
    cells = _native.TextArrays([json.dumps(c) for c in cases], "tests")
    slot = BatchSlot()
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    rc = _native.lib().llenvs_code_check(spec, len(spec), codes.ptrs, codes.lens, cells.ptrs, cells.lens,
                                          len(completions), slot.schema, slot.array, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, data)
    cols = slot.take().to_pydict()
    return [TestsResult(results=tuple(results), total=total, all_passed=status == "correct", fraction=score,
                        status=status, feedback=feedback)
            for results, total, score, status, feedback in zip(cols["results"], cols["total"], cols["score"],
                                                                 cols["status"], cols["feedback"], strict=True)]


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
