"""Test cases in prime_code's shape (llenvs_go.code_tests), against veRL's own prime_code module.

veRL's ``verl/utils/reward_score/prime_code`` is taken from the veRL wheel on the package registry (no
dependencies: the module needs only numpy) and imported on its own, so that its ``compute_score(...,
continuous=True)`` scores the same rows beside ours.
"""

from __future__ import annotations

import copy
import importlib
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

import pytest

from llenvs_go import code_tests
from llenvs_go.integrations import verl

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")

VERL_VERSION = "0.9.1"


@pytest.fixture(scope="module")
def prime_code():
    """veRL's prime_code module, from its wheel (downloaded once into the temporary directory)."""
    pytest.importorskip("numpy")
    cache = pathlib.Path(tempfile.gettempdir()) / f"llenvs-verl-{VERL_VERSION}"
    package = cache / "pkg" / "verl_prime_code"
    if not package.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                               f"verl=={VERL_VERSION}", "-d", str(cache)], capture_output=True, text=True)
        wheels = sorted(cache.glob("verl-*.whl"))
        if done.returncode != 0 or not wheels:
            pytest.skip(f"the veRL wheel cannot be fetched: {done.stderr.strip()[-300:]}")
        prefix = "verl/utils/reward_score/prime_code/"
        with zipfile.ZipFile(wheels[0]) as z:
            for name in z.namelist():
                if name.startswith(prefix) and name.endswith(".py"):
                    target = package / name[len(prefix):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(z.read(name))
    sys.path.insert(0, str(package.parent))
    try:
        return importlib.import_module("verl_prime_code")
    finally:
        sys.path.remove(str(package.parent))


def stdin_case(inputs, outputs):
    return {"inputs": inputs, "outputs": outputs}


# (completion, test cases): right, wrong, partly right, and the comparison's corners.
CASES = [
    ("print(int(input()) * 2)", stdin_case(["2\n", "5\n"], ["4\n", "10\n"])),
    ("print(int(input()) * 2)", stdin_case(["2\n", "5\n"], ["4\n", "11\n"])),
    ("print(int(input()) * 2)", stdin_case(["1\n"] * 12, ["2\n"] * 11 + ["3\n"])),
    ("n = int(input())\nprint(sqrt(n))", stdin_case(["4\n", "2\n"], ["2.0\n", "1.41421356\n"])),
    ("import sys\nprint('  1 2 ')\nsys.exit(1)", stdin_case(["\n"], ["1 2"])),
    ("raise ValueError('no')", stdin_case(["\n"], ["1 2"])),
    ("print(1)\nprint()\nprint(2)", stdin_case(["\n"], ["1\n2\n"])),
    ("print('1.0000001 2')", stdin_case(["\n"], ["1 2"])),
    ("print(1.0000001)\nprint(2)", stdin_case(["\n"], ["1\n2"])),
    ("print('b a')", stdin_case(["\n"], ["a b"])),
    ("a, b = map(int, input().split())\nprint(a + b)", stdin_case(["1 2", "3 4"], ["3", "7"])),
    ("print(input())", stdin_case([["x", "y"]], [["x"]])),
    ("```python\nprint(int(input()) + 1)\n```\nThat is the code.", stdin_case(["1\n"], ["2\n"])),
    ("while True:\n    pass", stdin_case(["\n"], ["x"])),
    ("class Solution:\n    def add(self, a, b):\n        return a + b\n",
     {"fn_name": "add", "inputs": ["1\n2", "3\n4"], "outputs": ["3", "[7]"]}),
    ("def pair(a, b):\n    return (a, b)\n", {"fn_name": "pair", "inputs": ["1\n2"], "outputs": ["[1, 2]"]}),
    ("def pair(a, b):\n    return [b, a]\n", {"fn_name": "pair", "inputs": ["1\n2"], "outputs": ["[1, 2]"]}),
    ("def f(x):\n    print('noise')\n    return x * x\n",
     {"fn_name": "f", "inputs": ["3", "4"], "outputs": ["9", "16"]}),
    ("def f(x):\n    raise KeyError(x)\n", {"fn_name": "f", "inputs": ["3"], "outputs": ["9"]}),
    # a call-based solution sees the harness's imports (typing's List here), as in prime_code
    ("class Solution:\n    def total(self, nums: List[int]) -> int:\n        return sum(nums)\n",
     {"fn_name": "total", "inputs": ["[1, 2, 3]", "[]"], "outputs": ["6", "0"]}),
    ("from collections import Counter\nprint(Counter(input()).most_common(1)[0][0])",
     stdin_case(["aab\n"], ["a\n"])),
]


@pytest.mark.parametrize(("completion", "tests"), CASES, ids=[str(k) for k in range(len(CASES))])
def test_scores_equal_prime_codes_continuous_score(prime_code, completion, tests):
    theirs, _ = prime_code.compute_score(completion, copy.deepcopy(tests), continuous=True)
    assert code_tests.prime_code_score(completion, tests, continuous=True, timeout=3.0) == float(theirs)


def test_a_whole_batch_equals_prime_code_row_by_row(prime_code):
    completions = [c for c, _ in CASES]
    tests = [json.dumps(t) for _, t in CASES]  # veRL's rows carry them as JSON text
    ours = code_tests.check_tests_batch(completions, tests, timeout=3.0)
    theirs = [float(prime_code.compute_score(c, copy.deepcopy(t), continuous=True)[0]) for c, t in CASES]
    assert [r.fraction for r in ours] == theirs


def test_results_say_what_happened_to_each_test():
    r = code_tests.check_tests("print(int(input()) * 2)", stdin_case(["1\n", "2\n", "3\n"], ["2\n", "5\n", "6\n"]))
    assert r.results == ("passed", "failed", "passed") and not r.all_passed
    assert r.fraction == pytest.approx(2 / 3) and r.status == "incorrect"


def test_a_timeout_is_an_outcome_of_its_own_not_a_wrong_answer():
    r = code_tests.check_tests("import time\nx = int(input())\nif x > 1:\n    time.sleep(30)\nprint(x)",
                               stdin_case(["1\n", "2\n"], ["1\n", "2\n"]), timeout=1.0)
    assert r.results == ("passed", "timeout")
    assert r.status == "timeout" and r.fraction == 0.5


def test_tests_past_the_tenth_run_only_when_the_first_ten_pass():
    source = "x = int(input())\nprint(x if x < 11 else -x)"
    r = code_tests.check_tests(source, stdin_case([f"{k}\n" for k in range(15)], [f"{k}\n" for k in range(15)]))
    assert len(r.results) == 15 and r.results[11] == "failed" and r.fraction == 1.0 * 10 / 10
    assert r.status == "incorrect"
    wrong_early = code_tests.check_tests("print(0)", stdin_case([f"{k}\n" for k in range(15)],
                                                                [f"{k}\n" for k in range(15)]))
    assert len(wrong_early.results) == 10 and wrong_early.fraction == 0.1


@pytest.mark.parametrize(("tests", "error"), [
    ({"inputs": ["1"]}, ValueError), ({"inputs": ["1"], "outputs": []}, ValueError), ("not json", ValueError),
    ({"inputs": [1], "outputs": ["1"]}, TypeError), ({"fn_name": 3, "inputs": ["1"], "outputs": ["1"]}, TypeError),
])
def test_bad_test_cases_are_refused(tests, error):
    with pytest.raises(error):
        code_tests.check_tests("print(1)", tests)


def test_verl_code_sources_score_as_prime_code(prime_code):
    completion, tests = CASES[2]
    row_truth = json.dumps(tests)
    want = float(prime_code.compute_score(completion, copy.deepcopy(tests), continuous=True)[0])
    for source in ("codecontests", "apps", "codeforces", "taco"):
        assert verl.compute_score(source, completion, row_truth, None) == want
    batch = verl.compute_score_batch(["taco", "openai/gsm8k", "apps"], [completion, "#### 72", "print(1)"],
                                     [row_truth, "72", json.dumps(stdin_case(["\n"], ["1"]))], [None, None, None])
    assert batch == [want, 1.0, 1.0]

