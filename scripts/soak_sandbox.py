"""Soak test of the code sandbox: many runs from many threads, watching processes, descriptors and memory.

Runs N programs (default 10,000) from T threads (default 8), in batches of 10, in a fixed mix: programs
that print, raise, time out, allocate past the limit, flood stdout, fork children that outlive them, and
read stdin. Every 1,000 runs it prints the live processes under this one, the open descriptors and the
resident set size; at the end it checks that processes and descriptors are back to what they were after
the first batch (the worker started), that RSS grew by less than ``--rss-slack-mb``, and that every run
had the status its kind must have. Exit status 1 otherwise.

    python scripts/soak_sandbox.py
    python scripts/soak_sandbox.py --runs 2000 --threads 4
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from llenvs_go import code

MIX = [
    ("print", "print(sum(range(100)))", "ok"),
    ("raise", "raise ValueError('soak')", "error"),
    ("stdin", "import sys\nprint(sys.stdin.read()[::-1])", "ok"),
    ("timeout", "while True:\n    pass", "timeout"),
    ("memory", "x = bytearray(1 << 31)", "memory"),
    ("flood", "while True:\n    print('x' * 4096)", "output_limit"),
    ("daemon", "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\nprint('parent')", "ok"),
    ("print", "print('hello')", "ok"),
    ("print", "import json\nprint(json.dumps({'a': 1}))", "ok"),
    ("raise", "import sys\nsys.exit(3)", "error"),
]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def live_descendants() -> int:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    seen, todo = set(), [os.getpid()]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return len(seen)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--rss-slack-mb", type=float, default=64.0)
    args = ap.parse_args()
    if args.runs < 10 or args.threads < 1:
        ap.error("--runs must be at least 10 and --threads at least 1")
    box = code.Sandbox(timeout=1.0, memory_mb=256, output_bytes=16384)
    box.run_batch([src for _, src, _ in MIX])  # the worker starts; what is live after this is the baseline
    time.sleep(0.5)
    procs0, fds0, rss0 = live_descendants(), len(os.listdir("/proc/self/fd")), rss_mb()
    done = 0
    wrong: list[str] = []
    lock = threading.Lock()
    batches = args.runs // len(MIX)
    next_report = 1000

    def work() -> None:
        nonlocal done, next_report
        while True:
            with lock:
                if done >= batches * len(MIX):
                    return
                done += len(MIX)
                report = done >= next_report
                if report:
                    next_report += 1000
            results = box.run_batch([src for _, src, _ in MIX], stdins=["soak"] * len(MIX))
            for (kind, _, want), r in zip(MIX, results, strict=True):
                if r.status != want:
                    with lock:
                        wrong.append(f"{kind}: {r.status} ({r.reason})")
            if report:
                print(f"{done:7d} runs  processes {live_descendants():3d}  fds {len(os.listdir('/proc/self/fd')):3d}  "
                      f"rss {rss_mb():7.1f} MB", flush=True)

    start = time.monotonic()
    threads = [threading.Thread(target=work) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    time.sleep(1.0)
    procs1, fds1, rss1 = live_descendants(), len(os.listdir("/proc/self/fd")), rss_mb()
    print(f"{done} runs in {elapsed:.1f} s from {args.threads} threads; processes {procs0} -> {procs1}, "
          f"fds {fds0} -> {fds1}, rss {rss0:.1f} -> {rss1:.1f} MB, wrong statuses {len(wrong)}")
    ok = procs1 <= procs0 and fds1 <= fds0 and rss1 - rss0 < args.rss_slack_mb and not wrong
    for w in wrong[:10]:
        print("  wrong:", w)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
