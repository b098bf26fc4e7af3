"""GRPO-shaped scoring workloads shared by the demo and the benchmarks."""

from __future__ import annotations

import random

FILLER = (
    "Let me think step by step. First I list what is given and count each part carefully, "
    "then I add the partial results and check the sum once more before answering. "
)


def make_responses(truths: list[str], samples: int, size: int, seed: int = 0) -> tuple[list[int], list[str]]:
    """``samples`` responses per task of about ``size`` characters each.

    A third answer correctly in ``<answer>`` tags, a third answer wrongly in
    tags, and a third give no tags at all; returns (task_indices, responses).
    """
    rng = random.Random(seed)
    indices: list[int] = []
    responses: list[str] = []
    for i, truth in enumerate(truths):
        for s in range(samples):
            body = (FILLER * (size // len(FILLER) + 1))[: max(0, size - 40)]
            kind = (i + s) % 3
            if kind == 0:
                tail = f"<answer>{truth}</answer>"
            elif kind == 1:
                tail = f"<answer>{rng.randint(0, 999)}</answer>"
            else:
                tail = f"So the total is {truth}."
            indices.append(i)
            responses.append(body + tail)
    return indices, responses
