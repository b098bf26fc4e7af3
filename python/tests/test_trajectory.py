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


# -- from an episode played with reset/step ---------------------------------------------------------


def _leg_episode(answers: list[str]):
    """A real iterative leg_counting episode played with reset/step: the initial state and the steps."""
    from llenvs_go.core.registry import environment_registry

    env = environment_registry.get("leg_counting", size=20, seed=3, iterative={"max_turns": 3})
    state, _ = env.reset(options={"task_index": 2})
    s0, steps = state, []
    for text in answers:
        action = Action.from_text(text)
        result = env.step(state, action)
        steps.append((action, result))
        state = result.next_state
        if result.done:
            break
    return s0, steps


def test_from_steps_carries_what_each_step_returned():
    s0, steps = _leg_episode(["<answer>-1</answer>", "no tags at all", "<answer>-2</answer>"])
    traj = Trajectory.from_steps(s0, steps)
    assert len(traj) == 3 and traj.initial_state is s0 and traj.episode_id == s0.metadata.episode_id
    prev = s0
    for t, (action, result) in zip(traj.transitions, steps, strict=True):
        assert t.state is prev and t.action is action and t.next_state is result.next_state
        assert t.rewards == result.rewards
        assert t.resolved_action == result.resolved_action and t.extracted_action == result.extracted_action
        assert t.info == dict(result.info) and type(t.info) is dict
        prev = result.next_state
    assert traj.transitions[0].extracted_action == "-1"  # the step's own extraction, not dropped
    assert traj.transitions[0].info["turn"] == 1 and "turns_remaining" in traj.transitions[0].info
    assert traj.total_reward == sum(r.rewards.total for _, r in steps)
    assert traj.current_state is steps[-1][1].next_state and traj.is_terminal == steps[-1][1].done


def test_from_steps_of_nothing_is_the_initial_state():
    s0, _ = _leg_episode([])
    traj = Trajectory.from_steps(s0, iter(()))
    assert len(traj) == 0 and traj.current_state is s0


def test_transition_from_step_is_what_from_steps_builds():
    from llenvs_go.core.trajectory import transition_from_step

    s0, steps = _leg_episode(["<answer>-1</answer>"])
    action, result = steps[0]
    assert transition_from_step(s0, action, result) == Trajectory.from_steps(s0, steps).transitions[0]
    with pytest.raises(TypeError, match=r"result must be the .*StepResult.*got a tuple"):
        transition_from_step(s0, action, (result.next_state, 0.0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"action must be .*Action.*got str"):
        transition_from_step(s0, "<answer>1</answer>", result)  # type: ignore[arg-type]


def test_from_steps_refuses_what_is_not_a_state_and_pairs():
    s0, steps = _leg_episode(["<answer>-1</answer>", "<answer>-2</answer>"])
    action, result = steps[0]
    with pytest.raises(TypeError, match=r"initial_state must be .*State, got a tuple \(env.reset returns"):
        Trajectory.from_steps((s0, {}), steps)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="steps must be an iterable of .action, step_result. pairs, got int"):
        Trajectory.from_steps(s0, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="steps must be an iterable"):
        Trajectory.from_steps(s0, "abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"step 1 must be an \(action, step_result\) pair, got a tuple of length 3"):
        Trajectory.from_steps(s0, [steps[0], (action, result, 1.0)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"step 0 must be an \(Action, StepResult\) pair.*got \(StepResult, Action\)"):
        Trajectory.from_steps(s0, [(result, action)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"got \(str, StepResult\)"):
        Trajectory.from_steps(s0, [("<answer>-1</answer>", result)])  # type: ignore[list-item]
