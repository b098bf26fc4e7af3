"""The main job on built-in data: show a few leg_counting tasks and score a GRPO-sized batch.

    make demo
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from llenvs_go.core.registry import environment_registry
from llenvs_go.integrations import DatasetProvider, Scorer
from workload import make_responses


def main() -> None:
    env = environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)
    provider = DatasetProvider(env)
    print(f"environment: {env.spec.name} ({len(env)} tasks, seed {env.spec.metadata['seed']})\n")
    for item in provider.get_items([0, 1, 2]):
        question = item.prompt.strip().splitlines()[-1]
        print(f"task {item.task_index}: {question}\n  ground truth: {item.ground_truth}")
    print(f"\nsystem prompt of every item:\n  {item.messages[0]['content'].splitlines()[0]} ...\n")

    prompts, samples = 512, 16
    truths = [it.ground_truth for it in provider.get_items(range(prompts))]
    indices, responses = make_responses(truths, samples, size=1024)
    print(f"A GRPO-sized reward batch: {prompts} prompts x {samples} synthetic responses of ~1 KB each.\n"
          "A third answer correctly in <answer> tags, a third answer wrongly in tags, a third give no tags;\n"
          "so the expected mean reward is about 0.33. Each step scores the whole batch in one call into Go:\n")
    scorer = Scorer(env)
    total_t = 0.0
    steps = 5
    for step in range(steps):
        t0 = time.perf_counter()
        results = scorer.score_batch(indices, responses)
        dt = time.perf_counter() - t0
        total_t += dt
        rate = len(responses) / dt
        mean = sum(results.totals) / len(results)
        print(f"step {step + 1}/{steps}: scored {len(responses)} responses in {dt * 1e3:6.1f} ms "
              f"({rate:,.0f} responses/s, wall time of Scorer.score_batch), mean reward {mean:.3f}")
    r = results[0]
    print(f"\nfirst result (a correct response): total={r.total} signals={r.signals} "
          f"extracted={r.extracted_answer!r}")
    print(f"overall throughput: {steps * len(responses) / total_t:,.0f} responses/s")


if __name__ == "__main__":
    main()
