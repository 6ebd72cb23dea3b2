"""Red-team regressions (round 3, session 19, agent2) for interactive/meeting_scheduling and interactive/negotiation:
no-skill rules of the multi-turn envs that won too much, each pinned by a test that fails on the old code."""

from __future__ import annotations

import random

import palaestra
from palaestra.kit.play import play_episode


def _task(env_id: str):
    return palaestra.make(env_id, level=0).unwrapped.task


# --- interactive/meeting_scheduling: proposing the own free slots blindly, in any fixed order --------------------

ORDERS = {
    "earliest first": lambda free: free,
    "latest first": lambda free: free[::-1],
    "latest hour first": lambda free: sorted(free, key=lambda slot: (-slot[1], slot[0])),
    "hour by hour": lambda free: sorted(free, key=lambda slot: (slot[1], slot[0])),
    "Friday first": lambda free: sorted(free, key=lambda slot: (-slot[0], slot[1])),
    "shuffled": lambda free: random.Random(len(free)).sample(free, len(free)),
}


def test_meeting_scheduling_blind_enumeration_rarely_books_the_meeting():
    from palaestra.envs.interactive import meeting_scheduling as ms

    task = _task("interactive/meeting_scheduling")
    seeds = range(300, 330)
    for level in (2, 3, 4):  # the levels with one common free slot
        problems = [task.sample(level, seed) for seed in seeds]
        wins = dict.fromkeys(ORDERS, 0)
        honest = 0
        for problem in problems:
            free = [slot for slot in ms._slots() if ms._free(problem.data["mine"], slot)]
            for name, arrange in ORDERS.items():
                order = arrange(list(free))

                def blind(state, history, order=order):
                    day, hour = order[len(history) % len(order)]
                    return f"{ms.DAYS[day]} {hour}:00"

                wins[name] += play_episode(task, problem, blind)[1]
            honest += play_episode(
                task, problem, lambda state, history, p=problem: task.honest_move(task.view(p, history))
            )[1]
        # v3: 0.30-0.47 per order and level (200 games); v4: at most 0.20
        worst = max(wins.values()) / len(problems)
        assert worst <= 0.3, (level, wins)
        assert honest >= 0.85 * len(problems), (level, honest)
        assert honest / len(problems) >= worst + 0.5


def test_meeting_scheduling_declares_the_fixed_orders():
    names = " ".join(_task("interactive/meeting_scheduling").heuristics())
    for order in ("in order", "latest first", "latest hour first", "hour by hour", "Friday first", "random order"):
        assert order in names


def test_meeting_scheduling_every_colleague_names_its_day_on_a_failed_proposal():
    from palaestra.envs.interactive import meeting_scheduling as ms

    task = _task("interactive/meeting_scheduling")
    problem = task.sample(4, 7)
    common = set(ms._common(problem.data))
    slot = next(s for s in ms._slots() if ms._free(problem.data["mine"], s) and s not in common)
    outcome = task.play(problem, {}, f"{ms.DAYS[slot[0]]} {slot[1]}:00")
    assert not outcome.done
    for person in problem.data["people"]:
        assert f'{person["name"]}: "' in outcome.observation


# --- interactive/negotiation: waiting, then accepting the buyer's last bid ---------------------------------------


def _accept_last_bid(task, problem):
    def choose(state, history):
        return "accept" if state["round"] >= problem.data["rounds"] - 1 else f"offer {3 * problem.data['cost']}"

    return min(1.0, play_episode(task, problem, choose)[0])


def test_negotiation_accepting_the_last_bid_scores_little():
    task = _task("interactive/negotiation")
    for level, bound in ((0, 0.3), (2, 0.25), (4, 0.2)):  # v3 (before): 0.68, 0.58, 0.38 (150 games)
        problems = [task.sample(level, seed) for seed in range(500, 560)]
        accept = sum(_accept_last_bid(task, p) for p in problems) / len(problems)
        honest = sum(
            min(1.0, play_episode(task, p, lambda state, history, p=p: task.honest_move(task.view(p, history)))[0])
            for p in problems
        ) / len(problems)
        assert accept <= bound, (level, accept)
        assert honest >= accept + 0.35, (level, honest, accept)


def test_negotiation_bids_hold_back_half_the_concession():
    from palaestra.envs.interactive import negotiation as neg

    task = _task("interactive/negotiation")
    problem = task.sample(0, 3)
    data = problem.data
    last = data["rounds"] - 2
    assert neg._bid(data, last) <= data["opening"] + 0.5 * (neg._threshold(data, last) - data["opening"])
    assert "halfway between its opening bid and its current threshold" in problem.prompt
