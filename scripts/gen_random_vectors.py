"""Write the CPython ``random.Random`` transcript the Go RNG port is tested against.

    python scripts/gen_random_vectors.py > pycompat/testdata/random_vectors.json

CPython is the oracle: each record is a seed and the results of a fixed
program of calls (random, getrandbits, randint, randrange with a step,
choice, sample in both of its branches, shuffle, uniform, choices with and
without weights), long enough to cross several twists of the state.
"""

from __future__ import annotations

import json
import random
import sys

SEEDS = [0, 1, 42, 7, 2**32 - 1, 2**32, 2**32 + 7, 2**33 + 17, 2**63 - 1, 2**64 + 3, -5, -(2**40), 10**30]


def program(r: random.Random) -> list[object]:
    out: list[object] = []
    for k in (0, 1, 5, 31, 32, 33, 53, 64):
        out.append(["getrandbits", k, str(r.getrandbits(k))])
    for _ in range(330):  # 660 words: crosses the first twist
        out.append(["random", repr(r.random())])
    for a, b in ((0, 0), (1, 10), (-1000, 1000), (0, 2**31), (5, 2**40)):
        out.append(["randint", a, b, r.randint(a, b)])
    for start, stop, step in ((0, 100, 7), (10, -10, -3), (1, 2, 1)):
        out.append(["randrange", start, stop, step, r.randrange(start, stop, step)])
    for n in (1, 2, 3, 37, 1000):
        out.append(["choice", n, r.choice(range(n))])
    for n, k in ((37, 3), (37, 5), (37, 6), (37, 20), (2227, 10), (100, 100), (30, 22), (1000, 341), (2000, 342)):
        out.append(["sample", n, k, r.sample(range(n), k)])
    for n in (2, 10, 52):
        x = list(range(n))
        r.shuffle(x)
        out.append(["shuffle", n, x])
    for a, b in ((-100.0, 100.0), (0.0, 1.0)):
        out.append(["uniform", a, b, repr(r.uniform(a, b))])
    for n in (1, 4, 26):
        out.append(["choices", n, r.choices(range(n), k=1)[0]])
    for w in ([0.4, 0.4, 0.2], [1, 2, 3, 4], [0.5]):
        out.append(["weighted", w, r.choices(range(len(w)), weights=w, k=1)[0]])
    for _ in range(700):
        out.append(["u32", r.getrandbits(32)])
    return out


def main() -> None:
    records = [{"seed": str(s), "calls": program(random.Random(s))} for s in SEEDS]
    json.dump({"python": sys.version.split()[0], "records": records}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
