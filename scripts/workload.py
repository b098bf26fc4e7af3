"""GRPO-shaped scoring workloads shared by the demo and the benchmarks (defined in ``llenvs_go.bench``)."""

from llenvs_go.bench import FILLER, make_responses

__all__ = ["FILLER", "make_responses"]
