"""Diff the native Go ports against the installed reasoning-gym, from the shell.

    python scripts/rg_compare.py chain_sum --seed 42 --n 1000 --params '{"min_terms": 3}'

Builds ``scripts/rgdump`` once, generates the same indices with both, and prints
the first mismatches of question, answer and metadata (tuples compared as lists).
Exit status 1 when anything differs. A developer tool; the tests that gate
changes live in ``python/tests``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def normalise(value: object) -> object:
    """Round-trip through JSON so tuples become lists and keys become strings."""
    return json.loads(json.dumps(value))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("task")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--params", default="{}")
    ap.add_argument("--data-dir", default="")
    ap.add_argument("--show", type=int, default=3, help="mismatches to print")
    args = ap.parse_args()

    import reasoning_gym

    params = json.loads(args.params)
    data_dir = args.data_dir
    if not data_dir:
        import importlib.resources

        data_dir = str(importlib.resources.files("reasoning_gym") / "data")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "rgdump")
        subprocess.run(["go", "build", "-o", exe, "./scripts/rgdump"], cwd=ROOT, check=True)
        out = subprocess.run(
            [exe, "-task", args.task, "-seed", str(args.seed), "-start", str(args.start), "-n", str(args.n),
             "-params", json.dumps(params), "-data-dir", data_dir],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
    ours = [json.loads(line) for line in out.splitlines()]
    ds = reasoning_gym.create_dataset(args.task, seed=args.seed, size=args.start + args.n, **params)
    bad = 0
    for k, got in enumerate(ours):
        i = args.start + k
        want = normalise(ds[i])
        for field in ("question", "answer", "metadata"):
            if got[field] != want[field]:
                bad += 1
                if bad <= args.show:
                    print(f"index {i} {field} differs:\n  go:     {got[field]!r}\n  python: {want[field]!r}")
                break
    print(f"{args.task} seed={args.seed} params={params}: {len(ours) - bad}/{len(ours)} identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
