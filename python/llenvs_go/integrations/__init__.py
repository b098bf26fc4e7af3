"""RL-training integrations: scoring responses and serving datasets."""

from llenvs_go.integrations.dataset_provider import DatasetProvider, TaskItem
from llenvs_go.integrations.scoring import Scorer, ScoringResult, ScoringResults

__all__ = ["DatasetProvider", "Scorer", "ScoringResult", "ScoringResults", "TaskItem"]
