"""core/trajectory.py: transitions, checkpoints, branching (llenvs-spec §1.10)."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from llenvs_go.core.reward import RewardType, Signal, SignalBundle
from llenvs_go.core.state import Action, Observation, State, StateMetadata
from llenvs_go.core.trajectory import Checkpoint, Trajectory, Transition


def st(step: int, terminal: bool = False, episode: str = "ep-1") -> State[int]:
    return State(observation=Observation(prompt=f"turn {step}"), hidden=step,
                 metadata=StateMetadata(step=step, episode_id=episode, is_terminal=terminal))


def tr(step: int, reward: float | None, terminal: bool = False) -> Transition[int]:
    rewards = SignalBundle((Signal(name="r", reward_type=RewardType.STEP, reward=reward, weight=2.0),))
    return Transition(state=st(step), action=Action.from_text(str(step)), next_state=st(step + 1, terminal),
                      rewards=rewards)


def test_transition_defaults_and_frozen():
    t = tr(0, 1.0)
    assert t.resolved_action is None and t.extracted_action is None and t.info == {}
    assert t.info is not tr(0, 1.0).info
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.action = Action()  # type: ignore[misc]
    cp = Checkpoint(name="c", trajectory_id="ep", step_index=0, state=st(0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        cp.step_index = 1  # type: ignore[misc]


def test_create_copies_episode_id_and_starts_empty():
    traj = Trajectory.create(st(0, episode="abc"))
    assert traj.episode_id == "abc" and traj.initial_state == st(0, episode="abc")
    assert len(traj) == 0 and traj.transitions == ()
    assert traj.current_state is traj.initial_state
    assert traj.total_reward == 0.0 and not traj.is_terminal
    assert traj.parent_trajectory_id is None and traj.checkpoints == {}


def test_add_transition_current_state_total_and_terminal():
    traj = Trajectory.create(st(0))
    t0, t1 = tr(0, 1.0), tr(1, None)
    traj.add_transition(t0)
    assert traj.current_state == st(1) and not traj.is_terminal
    traj.add_transition(t1)
    t2 = tr(2, -0.25, terminal=True)
    traj.add_transition(t2)
    assert len(traj) == 3 and traj.transitions == (t0, t1, t2) and isinstance(traj.transitions, tuple)
    assert traj.current_state is t2.next_state and traj.is_terminal
    assert traj.total_reward == pytest.approx(1.0 * 2 + (-0.25) * 2)  # weighted, None skipped


def test_add_transition_does_not_check_continuity():
    traj = Trajectory.create(st(0))
    odd = Transition(state=st(7), action=Action(), next_state=st(9), rewards=SignalBundle.empty())
    traj.add_transition(odd)
    assert traj.current_state == st(9)


def test_state_at_bounds():
    traj = Trajectory.create(st(0))
    assert traj.state_at(0) is traj.initial_state
    with pytest.raises(IndexError):
        traj.state_at(1)
    traj.add_transition(tr(0, 1.0))
    traj.add_transition(tr(1, 1.0))
    assert traj.state_at(1) == st(1) and traj.state_at(2) == st(2)
    with pytest.raises(IndexError):
        traj.state_at(-1)
    with pytest.raises(IndexError):
        traj.state_at(3)


def test_checkpoint_records_position_and_rejects_duplicates():
    traj = Trajectory.create(st(0))
    traj.add_transition(tr(0, 1.0))
    cp = traj.checkpoint("one")
    assert cp == Checkpoint(name="one", trajectory_id="ep-1", step_index=1, state=st(1))
    with pytest.raises(ValueError, match="^Checkpoint 'one' already exists$"):
        traj.checkpoint("one")
    assert traj.checkpoints == {"one": cp}
    traj.checkpoints.clear()  # a copy
    assert "one" in traj.checkpoints


def test_branch_unknown_checkpoint():
    traj = Trajectory.create(st(0))
    with pytest.raises(KeyError):
        traj.branch("nope")


def test_branch_copies_up_to_checkpoint_with_new_episode_id():
    traj = Trajectory.create(st(0))
    t0, t1, t2 = tr(0, 1.0), tr(1, 0.5), tr(2, 0.25)
    traj.add_transition(t0)
    traj.checkpoint("start")
    traj.add_transition(t1)
    traj.checkpoint("mid")
    traj.add_transition(t2)

    b = traj.branch("mid")
    assert b.episode_id != traj.episode_id and str(uuid.UUID(b.episode_id)) == b.episode_id
    assert b.initial_state is traj.initial_state
    assert b.transitions == (t0, t1) and b.current_state == st(2)
    assert b.parent_trajectory_id == "ep-1" and b.checkpoints == {}
    assert b.total_reward == pytest.approx((1.0 + 0.5) * 2)

    b.add_transition(tr(2, 9.0))  # diverging does not touch the original
    assert len(traj) == 3 and traj.transitions[2] is t2
    assert traj.branch("start").transitions == (t0,)
    assert traj.branch("start").episode_id != traj.branch("start").episode_id


def test_checkpoint_at_start_branches_empty():
    traj = Trajectory.create(st(0))
    traj.checkpoint("zero")
    traj.add_transition(tr(0, 1.0))
    b = traj.branch("zero")
    assert len(b) == 0 and b.current_state is traj.initial_state
