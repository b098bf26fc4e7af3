"""Scoring for the integrations: llenvs' ``llenvs.integrations.scoring`` import path.

The scorer is part of the model (:mod:`llenvs_go.core.scoring`), so that the
adapters can score with it without reaching up into the integrations; this
module names the same objects where llenvs' users import them.
"""

from llenvs_go.core.scoring import (
    STATUSES,
    Scorer,
    ScoringFailureWarning,
    ScoringResult,
    ScoringResults,
    item_statuses,
    native_scorer,
    result_from_step,
    status_of,
)

__all__ = ["STATUSES", "Scorer", "ScoringFailureWarning", "ScoringResult", "ScoringResults", "item_statuses",
           "native_scorer", "result_from_step", "status_of"]
