"""A reasoning-gym task served by the Go core: the environment, its hidden state and its correctness signal."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from llenvs_go.core.extraction import TagBasedExtractor
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.reward import AnswerExtractor, RewardType, Signal
from llenvs_go.core.scoring import native_scorer
from llenvs_go.core.state import Action, State

__all__ = ["CorrectnessRewardFunction", "ReasoningGymEnvironment", "ReasoningGymHidden"]


@dataclass(frozen=True)
class ReasoningGymHidden:
    """The hidden part of a reasoning-gym state (what the model does not see).

    Attributes:
        entry: reasoning-gym's entry ``{"question", "answer", "metadata"}``.
        expected_answer: the ground truth, ``str(entry["answer"])``.
        task_index: the task's index in its environment.
        dataset_name: the task name.
        episode: the Go episode behind the state, if any (not compared, not shown).
    """

    entry: dict[str, Any]
    expected_answer: str
    task_index: int
    dataset_name: str
    episode: Any = field(default=None, compare=False, repr=False)


class ReasoningGymEnvironment(NativeEnvironment):
    """A reasoning-gym task as a single-turn environment (``environment_registry.get(name)``).

    ``state.hidden`` is a :class:`ReasoningGymHidden` carrying reasoning-gym's
    entry. Build it with ``environment_registry.get(...)`` or
    ``ReasoningGymAdapter().get_environment(...)``; or, as in llenvs, over a
    dataset object of your own: ``ReasoningGymEnvironment(dataset,
    answer_extractor=None, extra_rewards=())``, where ``dataset`` has
    ``__getitem__``, ``__len__`` and ``score_answer(answer, entry)`` (a
    reasoning-gym ``ProceduralDataset``, for instance). That one is served by
    the Python backend
    (``llenvs_go.adapters.reasoning_gym_dataset.DatasetEnvironment``).
    """

    #: The class of ``ReasoningGymEnvironment(dataset=...)``, a subclass; set by
    #: ``llenvs_go.adapters.reasoning_gym_dataset``, which builds on this module.
    dataset_class: type[ReasoningGymEnvironment] | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> ReasoningGymEnvironment:
        # llenvs' constructor takes a dataset; the registry's takes a configuration (a dict).
        if cls is ReasoningGymEnvironment and ("dataset" in kwargs or (args and not isinstance(args[0], dict))):
            if ReasoningGymEnvironment.dataset_class is None:
                raise RuntimeError("ReasoningGymEnvironment(dataset=...) needs llenvs_go.adapters imported")
            return super().__new__(ReasoningGymEnvironment.dataset_class)
        return super().__new__(cls)

    def _make_hidden(self, task_index: int, expected_answer: str | None, entry: dict[str, Any] | None,
                     episode: Any) -> ReasoningGymHidden:
        """The :class:`ReasoningGymHidden` of task ``task_index`` (the entry is fetched when not given)."""
        if entry is None:
            entry = self.entries([task_index])[0]
        if expected_answer is None:
            expected_answer = None if entry["answer"] is None else str(entry["answer"])
        return ReasoningGymHidden(entry=entry, expected_answer=expected_answer, task_index=task_index,
                                  dataset_name=self._config["name"], episode=episode)


class CorrectnessRewardFunction:
    """llenvs' ``correctness`` signal (OUTCOME): the task's own ``score_answer`` of the extracted answer.

    Args:
        env_or_dataset: a reasoning-gym environment from the registry (its task's
            own scoring, in Go for native ports), or any object with
            ``score_answer(answer, entry)``, such as a ``reasoning_gym`` dataset
            (scored against ``state.hidden.entry``).
        answer_extractor: an object with ``extract(text) -> (answer | None,
            metadata)``, such as ``llenvs_go.core.extraction.TagBasedExtractor()``.
            None uses the environment's own configured extraction (in Go)
            for an environment, and ``TagBasedExtractor()`` for a dataset.

    The value is 0.0 when nothing is extracted (``score_answer`` is then not
    called). Metadata: ``{"extracted": None, "extraction": meta}`` on failure,
    ``{"extracted", "expected", "extraction"}`` on success.
    """

    def __init__(self, env_or_dataset: Any, answer_extractor: AnswerExtractor | None = None):
        native = isinstance(env_or_dataset, NativeEnvironment)
        if not native and not callable(getattr(env_or_dataset, "score_answer", None)):
            raise TypeError(
                "CorrectnessRewardFunction needs an environment from environment_registry.get(...) or an object "
                f"with score_answer(answer, entry) (a reasoning_gym dataset), got {type(env_or_dataset).__name__}"
            )
        if answer_extractor is not None and not callable(getattr(answer_extractor, "extract", None)):
            raise TypeError(f"answer_extractor must have extract(text) -> (answer, metadata), "
                            f"got {type(answer_extractor).__name__}")
        if answer_extractor is None and not native:
            answer_extractor = TagBasedExtractor()
        self.source = env_or_dataset
        self.answer_extractor = answer_extractor

    @property
    def name(self) -> str:
        """``"correctness"``."""
        return "correctness"

    @property
    def reward_type(self) -> RewardType:
        """OUTCOME."""
        return RewardType.OUTCOME

    def compute(self, state: State[Any], action: Action, next_state: State[Any]) -> Signal:
        """The correctness signal of ``action`` on the task of ``state``."""
        hidden = state.hidden
        if self.answer_extractor is None:
            return self._native_signal(hidden.task_index, action.text)
        if action.text is None:
            answer, meta = None, {"found": False}
        else:
            answer, meta = self.answer_extractor.extract(action.text)
        if answer is None:
            return Signal(name=self.name, reward_type=self.reward_type, reward=0.0,
                          metadata={"extracted": None, "extraction": meta})
        if isinstance(self.source, NativeEnvironment):
            reward = self.source.score_answers(hidden.task_index, [answer])[0]
        else:
            reward = float(self.source.score_answer(answer=answer, entry=hidden.entry))
        return Signal(name=self.name, reward_type=self.reward_type, reward=reward,
                      metadata={"extracted": answer, "expected": hidden.expected_answer, "extraction": meta})

    def _native_signal(self, task_index: int, text: str | None) -> Signal:
        if text is None:
            return Signal(name=self.name, reward_type=self.reward_type, reward=0.0,
                          metadata={"extracted": None, "extraction": {"found": False}})
        r = native_scorer(self.source).score(task_index, text)
        reward = r.signals["correctness"]
        return Signal(name=self.name, reward_type=self.reward_type,
                      reward=reward if reward is not None and math.isfinite(reward) else 0.0,
                      metadata=r.metadata["correctness"])
