"""The class of reasoning-gym tasks served by the reasoning-gym package, as a :class:`ReasoningGymEnvironment`."""

from __future__ import annotations

from llenvs_go.adapters.reasoning_gym import ReasoningGymEnvironment
from llenvs_go.core.python_backend import PythonReasoningGymEnvironment


class PythonBackedReasoningGymEnvironment(PythonReasoningGymEnvironment, ReasoningGymEnvironment):
    """A reasoning-gym task without a native port: generated and scored by reasoning-gym, answers extracted in Go."""
