"""Smoke test of an installed llenvs-go wheel (run by scripts/wheel_check.sh in a fresh venv without Go).

Checks that the package and its library come from the venv (not a checkout or
$LLENVS_GO_LIB), that a batch is scored with the rewards its ground truths
imply, that dataset items are built, that a multi-turn episode runs to its
end with a binary search, and that the ``llenvs-go`` command works. Exits
non-zero with a message on the first failure.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys


def check(cond: bool, what: str) -> None:
    """Stop with status 1 naming ``what`` unless ``cond``."""
    if not cond:
        print(f"wheel smoke test FAILED: {what}", file=sys.stderr)
        sys.exit(1)


def main() -> None:
    """Run the checks."""
    check("LLENVS_GO_LIB" not in os.environ, "LLENVS_GO_LIB must not be set")
    import llenvs_go
    from llenvs_go import _native
    from llenvs_go.core.registry import environment_registry
    from llenvs_go.core.state import Action
    from llenvs_go.integrations import DatasetProvider, Scorer

    prefix = os.path.realpath(sys.prefix)
    check(os.path.realpath(llenvs_go.__file__).startswith(prefix), f"llenvs_go imported from {llenvs_go.__file__}")
    check(os.path.realpath(_native.library_path()).startswith(prefix), f"library at {_native.library_path()}")
    check(llenvs_go.__version__ == importlib.metadata.version("llenvs-go"),
          f"__version__ {llenvs_go.__version__} != metadata {importlib.metadata.version('llenvs-go')}")
    info = _native.call("info")
    check(info["abi_version"] == _native.ABI_VERSION and not info["test_hooks"], f"library info {info}")

    env = environment_registry.get(name="leg_counting", size=64, seed=42)
    items = DatasetProvider(env).get_items(range(64))
    check(len(items) == 64 and all(it.ground_truth and it.prompt for it in items), "64 items with answers")
    responses = [f"<answer>{it.ground_truth}</answer>" if i % 2 == 0 else "<answer>-1</answer>"
                 for i, it in enumerate(items)]
    results = Scorer(env).score_batch(task_indices=list(range(64)), responses=responses)
    check(results.totals == [1.0 if i % 2 == 0 else 0.0 for i in range(64)], f"totals {results.totals}")
    check(results[0].extracted_answer == items[0].ground_truth, "extracted answer")

    game = environment_registry.get(name="guess_number", adapter="native", size=4, seed=7)
    state, _ = game.reset(options={"task_index": 2})
    lo, hi, steps, result = 1, 100, 0, None
    while True:
        guess = (lo + hi) // 2
        result = game.step(state, Action.from_text(f"<answer>{guess}</answer>"))
        steps += 1
        if result.done:
            break
        feedback = json.dumps(result.next_state.observation.messages[-1:], default=str).lower()
        if "higher" in feedback:
            lo = guess + 1
        elif "lower" in feedback:
            hi = guess - 1
        else:
            check(False, f"guess_number feedback without higher/lower: {feedback}")
        state = result.next_state
    check(result.rewards.by_name("correct").reward == 1.0 and steps <= 7, f"episode ended after {steps} steps")

    exe = os.path.join(os.path.dirname(sys.executable), "llenvs-go")
    out = subprocess.run([exe, "doctor", "--json"], capture_output=True, text=True)
    check(out.returncode == 0, f"llenvs-go doctor: {out.returncode} {out.stderr}")
    report = json.loads(out.stdout)
    check(report["library"]["loaded"] and report["library"]["path"].startswith(prefix), f"doctor {report}")
    out = subprocess.run([sys.executable, "-m", "llenvs_go", "list", "--json"], capture_output=True, text=True)
    check(out.returncode == 0 and any(r["name"] == "leg_counting" for r in json.loads(out.stdout)),
          f"python -m llenvs_go list: {out.returncode} {out.stderr}")
    print(f"wheel smoke test passed on {sys.implementation.name} {sys.version.split()[0]} "
          f"({info['go_version']}, {env.spec.name} and guess_number)")


if __name__ == "__main__":
    main()
