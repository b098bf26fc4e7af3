"""A reasoning-gym environment over a dataset object the user built: ``ReasoningGymEnvironment(dataset=...)``.

As in llenvs, the dataset is any object with ``__getitem__`` (an entry
``{"question", "answer", "metadata"}`` per index), ``__len__`` and
``score_answer(answer, entry)``: a reasoning-gym ``ProceduralDataset`` the
user configured or wrote, or a stand-in. It is served by the Python backend:
items come from the dataset and correctness from its own ``score_answer``.
Answer extraction runs in Go when the extractor is one of
``llenvs_go.core.extraction`` (or an extractor name); an extractor that runs
Python code (a ``NativeExtractor``, a user's own object with ``extract``) is
called in Python, and the environment is then stepped as llenvs steps it.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Sequence
from typing import Any

from llenvs_go import _deadline
from llenvs_go.adapters.reasoning_gym_environment import CorrectnessRewardFunction, ReasoningGymEnvironment
from llenvs_go.adapters.reasoning_gym_package import PythonReasoningGymEnvironment, ScoreAnswer, _finite
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.extraction import extractor_settings
from llenvs_go.core.reward import SignalBundle
from llenvs_go.core.scoring import ground_truth
from llenvs_go.core.state import Action, Observation, State, StateMetadata

__all__ = ["DatasetEnvironment", "DatasetScoreAnswer"]

_DATASET_NEEDS = ("__getitem__", "__len__", "score_answer")


def check_dataset(dataset: Any) -> None:
    """Raise TypeError unless ``dataset`` has ``__getitem__``, ``__len__`` and ``score_answer``."""
    missing = [m for m in _DATASET_NEEDS if not callable(getattr(dataset, m, None))]
    if missing:
        raise TypeError("ReasoningGymEnvironment(dataset=...) needs a reasoning-gym dataset (an object with "
                        f"__getitem__, __len__ and score_answer(answer, entry)), got {type(dataset).__name__} "
                        f"(missing: {', '.join(missing)})")


def _task_name_of(dataset: Any) -> str:
    """The reasoning-gym task name of a dataset of one of its classes, else ``"reasoning_gym"`` (llenvs' name)."""
    try:
        from reasoning_gym.factory import DATASETS
    except ImportError:
        return "reasoning_gym"
    names = [n for n, (cls, _) in DATASETS.items() if type(dataset) is cls]
    return names[0] if len(names) == 1 else "reasoning_gym"


class DatasetScoreAnswer(ScoreAnswer):
    """``score_answer`` of a user's dataset object, for a worker process: the dataset itself is pickled."""

    def __init__(self, dataset: Any):  # noqa: D107 - the class docstring says it
        self.dataset = dataset
        self._entries: dict[int, dict[str, Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"dataset": self.dataset}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["dataset"])  # type: ignore[misc]

    def prepare(self) -> None:
        """Nothing to build: the dataset came with the job."""
        self._ds = self.dataset


class DatasetEnvironment(PythonReasoningGymEnvironment):
    """llenvs' ``ReasoningGymEnvironment(dataset, answer_extractor=None, extra_rewards=())``.

    Built by ``ReasoningGymEnvironment(dataset=...)``. ``spec.name`` is the
    dataset's ``name`` attribute when it has one, else the reasoning-gym task
    whose class the dataset is (llenvs says ``"reasoning_gym"`` for every
    reasoning-gym dataset), else ``"reasoning_gym"``;
    the size is ``len(dataset)``. It pickles with its dataset (cloudpickle
    or pickle must be able to carry the dataset to ship it to a worker).

    Args:
        dataset: an object with ``__getitem__``, ``__len__`` and
            ``score_answer(answer, entry)``.
        answer_extractor: an extractor object (``TagBasedExtractor()`` when
            None), or an extractor name.
        extra_rewards: signals beside ``correctness``: names, mappings
            ``{"name", "weight"}``, or reward function objects.
        system_prompt: the answer-format system message of dataset items
            (as for ``environment_registry.get``).
        prompt_template: optional ``{question}`` template of dataset items.
        name: the task name (``spec.name``) when the dataset's own is not it.
        settings: the Go extraction settings (``answer_extractor``,
            ``answer_extractor_config``, ``answer_extractors``, ``pre_cleaners``,
            ``post_cleaners``), as ``ReasoningGymAdapter`` passes them.
    """

    def __init__(self, dataset: Any, answer_extractor: Any = None, extra_rewards: Any = (), *,
                 name: str | None = None, settings: dict[str, Any] | None = None,
                 system_prompt: Any = "default", prompt_template: str | None = None):
        check_dataset(dataset)
        if isinstance(extra_rewards, (str, dict)) or not isinstance(extra_rewards, (list, tuple)):
            raise TypeError(f"extra_rewards must be a list or tuple of signal names, mappings or reward functions, "
                            f"got {extra_rewards!r}")
        if name is None:
            name = getattr(dataset, "name", None)
            name = name if isinstance(name, str) and name else _task_name_of(dataset)
        config: dict[str, Any] = {"name": name, "adapter": "reasoning_gym", "size": len(dataset),
                                  "seed": getattr(getattr(dataset, "config", None), "seed", None)}
        python_extractor = None
        if settings:
            config.update(settings)
        if isinstance(answer_extractor, str):
            config["answer_extractor"] = answer_extractor
        elif answer_extractor is not None:
            try:
                config.update(extractor_settings(answer_extractor))
            except (TypeError, ValueError):
                if not callable(getattr(answer_extractor, "extract", None)):
                    raise TypeError("answer_extractor must be an extractor name or an object with "
                                    f"extract(text) -> (answer, metadata), got {type(answer_extractor).__name__}") \
                        from None
                python_extractor = answer_extractor
        if extra_rewards:
            config["extra_rewards"] = list(extra_rewards)
        super().__init__(config, system_prompt=system_prompt, prompt_template=prompt_template)
        self._ds = dataset
        self._picklable: bool | None = None
        self._name_arg, self._settings_arg = name, settings
        self._answer_extractor_arg = answer_extractor
        self._extra_rewards_arg = tuple(extra_rewards)
        self._python_extractor = python_extractor
        self._python_correctness = (None if python_extractor is None
                                    else CorrectnessRewardFunction(dataset, python_extractor))

    # -- pickling: with the dataset ---------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {"dataset": self._ds, "answer_extractor": self._answer_extractor_arg, "name": self._name_arg,
                "settings": self._settings_arg,
                "extra_rewards": self._extra_rewards_arg, "system_prompt": self.system_prompt,
                "prompt_template": self.prompt_template}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._entries = {}
        self._ds_lock = threading.Lock()
        self._job = None
        self.__init__(state["dataset"], state["answer_extractor"], state["extra_rewards"],  # type: ignore[misc]
                      name=state["name"], settings=state["settings"], system_prompt=state["system_prompt"],
                      prompt_template=state["prompt_template"])

    def __repr__(self) -> str:
        return f"ReasoningGymEnvironment(dataset={type(self._ds).__name__}, name={self._config['name']!r})"

    # -- the dataset ---------------------------------------------------------
    @property
    def dataset(self) -> Any:
        """The dataset object this environment serves."""
        return self._ds

    @property
    def _size(self) -> int:
        return len(self._ds)

    def _make_score_job(self) -> ScoreAnswer:
        return DatasetScoreAnswer(self._ds)

    def score_correctness(self, items: Sequence[tuple[int, str]], timeout: float | None) -> list[_deadline.Outcome]:
        """As for reasoning-gym's tasks; a dataset that cannot be pickled is scored in this process, without a
        deadline (it cannot reach a worker), and a warning says so once."""
        if timeout is not None and not self._reaches_workers():
            timeout = None
        return super().score_correctness(items, timeout)

    def _reaches_workers(self) -> bool:
        if self._picklable is None:
            try:
                _deadline._job_pickler.dumps(self._ds)
                self._picklable = True
            except Exception as e:  # noqa: BLE001 - pickle raises TypeError, PicklingError, AttributeError, ...
                self._picklable = False
                warnings.warn(f"the dataset of {self._config['name']!r} ({type(self._ds).__name__}) cannot be "
                              f"pickled ({type(e).__name__}: {e}), so its score_answer runs in this process, "
                              "without a deadline", RuntimeWarning, stacklevel=3)
        return self._picklable

    @property
    def spec(self) -> EnvironmentSpec:
        c = self._config
        return EnvironmentSpec(
            name=c["name"], adapter="reasoning_gym", max_steps=1, observation_type=Observation, action_type=Action,
            is_multi_turn=False, pure_step=True,
            metadata={"dataset_size": self._size, "dataset_name": c["name"], "seed": c["seed"], "backend": "python"},
        )

    @property
    def python_extractor(self) -> Any:
        """The extractor run in Python (one Go cannot serve), or None when extraction runs in Go."""
        return self._python_extractor

    @property
    def reward_functions(self) -> tuple[Any, ...]:
        """``correctness``, then the extra rewards, in signal order."""
        if self._python_correctness is None:
            return super().reward_functions
        return (self._python_correctness, *self._python_rewards)

    def score_answers(self, task_index: int, answers: list[str | None]) -> list[float]:
        e = self.entry(self.check_index(task_index))
        return [_finite(self._ds.score_answer(answer=a, entry=e)) for a in answers]

    # -- a step with a Python extractor, as llenvs takes it ----------------------
    def _library_step(self, state: State, action: Action) -> StepResult:
        if self._python_extractor is None:
            return super()._library_step(state, action)
        md = state.metadata
        signals = [self._python_correctness.compute(state, action, state)]  # type: ignore[union-attr]
        signals += [f.compute(state, action, state) for f in self._python_rewards]
        next_state = State(observation=state.observation, hidden=state.hidden,
                           metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=True,
                                                  info={**md.info, "response": action.text}))
        if action.text is None:
            extracted, meta = None, {"found": False}
        else:
            extracted, meta = self._python_extractor.extract(action.text)
        return StepResult(next_state=next_state, rewards=SignalBundle(tuple(signals)), terminated=True,
                          truncated=False, extracted_action=extracted, resolved_action=extracted,
                          info={"extracted_answer": extracted, "expected_answer": ground_truth(state.hidden.entry),
                                "extraction_metadata": meta, "backend": "python"})


ReasoningGymEnvironment.dataset_class = DatasetEnvironment
