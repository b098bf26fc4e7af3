"""reasoning-gym tasks without a native Go port, served by the reasoning-gym package itself.

Items come from ``reasoning_gym.create_dataset`` and correctness from the
dataset's own ``score_answer``; answer extraction and the other signals still
run in Go, so an answer is extracted the same way whichever backend serves the
task. Such environments report ``backend == "python"`` in their spec and in
every ``ScoringResult``.

``score_answer`` is third-party code with no budget of its own, so a Scorer
runs it in a worker process with a deadline per item
(:data:`llenvs_go._deadline.FALLBACK_TIMEOUT` seconds unless set otherwise;
see :meth:`PythonReasoningGymEnvironment.score_correctness`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

from llenvs_go import _deadline
from llenvs_go.adapters.reasoning_gym_environment import ReasoningGymEnvironment, ReasoningGymHidden
from llenvs_go.core.environment import EnvironmentSpec, StepResult
from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.scoring import ground_truth, native_scorer
from llenvs_go.core.state import Action, Observation, ObservationContent, State, StateMetadata

DEFAULT_SIZE = 500  # reasoning-gym's default dataset size
_CACHE_LIMIT = 1 << 16  # entries kept per environment, as in the Go core


def _finite(value: Any) -> float:
    v = float(value)
    return v if math.isfinite(v) else 0.0


class ScoreAnswer:
    """reasoning-gym's own ``score_answer`` of one task's dataset, for a worker process.

    Pickles as the dataset's parameters; ``prepare`` builds the dataset, and
    each call scores one ``(task_index, answer)`` as
    :meth:`PythonReasoningGymEnvironment.score_correctness` does in process.
    """

    def __init__(self, name: str, size: int, seed: Any, params: dict[str, Any]):
        self.name, self.size, self.seed, self.params = name, size, seed, params
        self._ds: Any = None
        self._entries: dict[int, dict[str, Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"name": self.name, "size": self.size, "seed": self.seed, "params": self.params}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def prepare(self) -> None:
        """Import reasoning-gym and build the dataset (before the first item's deadline starts)."""
        import reasoning_gym

        self._ds = reasoning_gym.create_dataset(self.name, size=self.size, seed=self.seed, **self.params)

    def __call__(self, item: tuple[int, str]) -> float:
        i, answer = item
        e = self._entries.get(i)
        if e is None:
            if len(self._entries) >= _CACHE_LIMIT:
                self._entries.clear()
            e = self._entries[i] = self._ds[i]
        return _finite(self._ds.score_answer(answer, e))


def reasoning_gym_task_names() -> list[str]:
    """Names of the tasks the installed reasoning-gym knows ([] when it is not installed)."""
    try:
        from reasoning_gym.factory import DATASETS
    except ImportError:
        return []
    return sorted(DATASETS)


class PythonReasoningGymEnvironment(ReasoningGymEnvironment):
    """A reasoning-gym task generated and scored by the reasoning-gym package."""

    backend = "python"

    #: The worker job that scores answers when a timeout is set (a subclass may give its own).
    score_answer_job: type[ScoreAnswer] = ScoreAnswer

    def __init__(self, config: dict[str, Any], **kwargs: Any):
        super().__init__(config, **kwargs)
        self._ds: Any = None
        self._ds_lock = threading.Lock()
        self._entries: dict[int, dict[str, Any]] = {}
        self._job: _deadline.SupervisedJob | None = None

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._ds = None
        self._ds_lock = threading.Lock()
        self._entries = {}
        self._job = None

    # -- the reasoning-gym dataset, built once per process ------------------
    @property
    def dataset(self) -> Any:
        """The ``reasoning_gym`` dataset behind this environment."""
        if self._ds is None:
            with self._ds_lock:
                if self._ds is None:
                    import reasoning_gym

                    c = self._config
                    self._ds = reasoning_gym.create_dataset(c["name"], size=self._size, seed=c["seed"],
                                                            **c.get("params", {}))
        return self._ds

    @property
    def _size(self) -> int:
        return int(self._config.get("size") or DEFAULT_SIZE)

    def _native_config(self) -> dict[str, Any]:
        c = self._config
        keep = ("answer_extractor", "answer_extractor_config", "answer_extractors", "pre_cleaners", "post_cleaners",
                "extra_rewards")
        cfg = {k: c[k] for k in keep if k in c}
        if "extra_rewards" in cfg:  # Python reward objects run in Python
            cfg["extra_rewards"] = [r for r in cfg["extra_rewards"] if isinstance(r, (str, dict))]
        cfg.update(name=c["name"], adapter="external", size=self._size)
        return cfg

    @property
    def spec(self) -> EnvironmentSpec:
        c = self._config
        return EnvironmentSpec(
            name=c["name"], adapter="reasoning_gym", max_steps=1, is_multi_turn=False, pure_step=True,
            metadata={"dataset_size": self._size, "dataset_name": c["name"], "seed": c["seed"], "backend": "python"},
        )

    def __len__(self) -> int:
        return self._size

    def entry(self, i: int) -> dict[str, Any]:
        """reasoning-gym's entry for task i (cached)."""
        e = self._entries.get(i)
        if e is None:
            if len(self._entries) >= _CACHE_LIMIT:
                self._entries.clear()
            e = self._entries[i] = self.dataset[i]
        return e

    def _begin(self, task_index: int, seed: int | None) -> tuple[Observation, ReasoningGymHidden, dict[str, Any]]:
        """reasoning-gym's entry of the task as llenvs' reset gives it: the question, the hidden entry, the info."""
        e = self.entry(task_index)
        q = e["question"]
        observation = Observation(prompt=q, task=ObservationContent(text=q))
        hidden = ReasoningGymHidden(entry=e, expected_answer=ground_truth(e), task_index=task_index,
                                    dataset_name=self._config["name"])
        return observation, hidden, {"task_index": task_index, "dataset_name": self._config["name"], "question": q}

    def _library_step(self, state: State, action: Action) -> StepResult:
        """Score ``action`` against the task of ``state``: one step, which ends the episode (a pure step)."""
        r = self._step(state.hidden.task_index, action.text)
        md = state.metadata
        next_state = State(observation=state.observation, hidden=state.hidden,
                           metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=True,
                                                  info={**md.info, "response": action.text}))
        signals = tuple(Signal(name=s["name"], reward_type=RewardType.from_name(s["reward_type"]), reward=s["reward"],
                               feedback=s.get("feedback"), metadata=s.get("metadata"), weight=s["weight"])
                        for s in r["signals"])
        signals += tuple(f.compute(state, action, next_state) for f in self.python_rewards)
        return StepResult(next_state=next_state, rewards=SignalBundle(signals), terminated=True, truncated=False,
                          extracted_action=r["extracted_action"], resolved_action=r["extracted_action"],
                          info=r["info"])

    def task_texts(self, indices: Sequence[int]) -> tuple[list[str], list[str | None]]:
        entries = [self.entry(self.check_index(i)) for i in indices]
        return [e["question"] for e in entries], [ground_truth(e) for e in entries]

    def entries(self, indices: list[int]) -> list[dict[str, Any]]:
        return [self.entry(self.check_index(i)) for i in indices]

    def score_answers(self, task_index: int, answers: list[str | None]) -> list[float]:
        e = self.entry(self.check_index(task_index))
        return [float(self.dataset.score_answer(a, e)) for a in answers]

    def correctness(self, task_index: int, answer: str) -> float:
        """``score_answer`` of an extracted answer, as a finite float (0.0 when it raises), in this process."""
        try:
            return _finite(self.dataset.score_answer(answer, self.entry(task_index)))
        except Exception:  # noqa: BLE001 - a scorer bug must not kill a training step
            return 0.0

    def score_correctness(self, items: Sequence[tuple[int, str]], timeout: float | None) -> list[_deadline.Outcome]:
        """reasoning-gym's ``score_answer`` of each ``(task_index, answer)``: an outcome per item, in order.

        With ``timeout`` (seconds per item) the answers are scored in a worker
        process that is stopped when an item runs past it: that item is
        ``"timeout"``, and one that kills the worker ``"error"``. With None
        (or inside a worker already) they are scored in this process. An
        exception of ``score_answer`` is that item's ``"error"``; a value that
        is not finite scores 0.0.
        """
        if not items:
            return []
        if timeout is None or _deadline.in_worker():
            out = []
            for i, answer in items:
                try:
                    out.append(_deadline.Outcome("ok", _finite(self.dataset.score_answer(answer, self.entry(i)))))
                except Exception as e:  # noqa: BLE001 - one item's failure is that item's outcome
                    out.append(_deadline.Outcome("error", f"{type(e).__name__}: {e}"))
            return out
        job = self._job
        if job is None:
            with self._ds_lock:
                job = self._job
                if job is None:
                    job = self._job = _deadline.SupervisedJob(
                        self._make_score_job(), f"reasoning-gym's score_answer for {self._config['name']!r}")
        return job.run(items, timeout)

    def _make_score_job(self) -> ScoreAnswer:
        """The worker job that scores this environment's answers (it rebuilds the dataset from its parameters)."""
        c = self._config
        return self.score_answer_job(c["name"], self._size, c["seed"], dict(c.get("params", {})))

    def _step(self, task_index: int, text: str | None) -> dict[str, Any]:
        specs = self.signal_specs
        if text is None:
            values = {s["name"]: 0.0 for s in specs}
            answer = None
            extraction: dict[str, Any] = {"found": False}
            expected = ground_truth(self.entry(task_index))
        else:
            r = native_scorer(self).score(task_index, text)
            values, answer = r.signals, r.extracted_answer
            extraction = r.metadata["correctness"]["extraction"]
            expected = ground_truth(self.entry(task_index))
        signals = []
        for s in specs:
            meta: dict[str, Any] = {"extraction": extraction}
            if s["name"] == "correctness":
                meta = {"extracted": answer, "extraction": extraction}
                if answer is not None:
                    meta["expected"] = expected
            signals.append({**s, "reward": values[s["name"]], "metadata": meta})
        total = sum(s["reward"] * s["weight"] for s in signals)
        return {"signals": signals, "total": total, "extracted_action": answer,
                "info": {"extracted_answer": answer, "expected_answer": expected, "extraction_metadata": extraction,
                         "backend": "python"}}
