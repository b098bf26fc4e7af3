"""RL-training integrations: scoring responses, serving datasets and masking multi-turn trajectories."""

from llenvs_go.integrations.dataset_provider import DatasetProvider, TaskItem
from llenvs_go.integrations.recording import TrajectoryRecorder, episode_to_trajectory
from llenvs_go.integrations.scoring import Scorer, ScoringResult, ScoringResults
from llenvs_go.integrations.token_mask import MaskedTrajectory, TokenSpan, TrajectoryMasker

__all__ = [
    "DatasetProvider",
    "MaskedTrajectory",
    "Scorer",
    "ScoringResult",
    "ScoringResults",
    "TaskItem",
    "TokenSpan",
    "TrajectoryMasker",
    "TrajectoryRecorder",
    "episode_to_trajectory",
]
