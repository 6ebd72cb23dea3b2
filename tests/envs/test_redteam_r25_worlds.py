"""Red-team regressions, session 25 (web, service, interactive, temporal)."""

from __future__ import annotations

from palaestra.core.registry import make_source

ROOMS = make_source("web/room_booking")


def _none_problems(level: int, count: int) -> list:
    problems = (ROOMS.sample(level, seed) for seed in range(60))
    return [p for p in problems if p.data["room"] is None][:count]


def test_room_booking_bare_none_earns_nothing() -> None:
    """v1 paid a bare "none" on every problem over budget (0.26/0.17/0.18 at levels 0/2/4); v2 asks for the room."""
    for level in (0, 4):
        problems = _none_problems(level, 3)
        assert problems
        for problem in problems:
            for bare in ("none", "No room.", "Nothing booked"):
                reward = ROOMS.replay(problem, [ROOMS.format_answer(bare)]).reward
                assert reward == 0.0, (level, problem.seed, bare)


def test_room_booking_none_with_the_right_room_wins_and_a_wrong_room_loses() -> None:
    problem = _none_problems(2, 1)[0]
    best = problem.data["route"][-1]
    room = problem.data["records"]["rooms"][best]
    for right in (f"none: {best}", f"None ({best}).", f"No room - {room['hotel']} {room['kind']}"):
        assert ROOMS.replay(problem, [ROOMS.format_answer(right)]).reward == 1.0, right
    cheaper = [p for p in problem.data["city_rooms"] if p != best]
    assert cheaper
    for wrong in (f"none: {cheaper[0]}", f"none: {best} or {cheaper[0]}", f"none: {best},{cheaper[0]}"):
        assert ROOMS.replay(problem, [ROOMS.format_answer(wrong)]).reward == 0.0, wrong
    assert "a bare 'none' is wrong" in problem.prompt
