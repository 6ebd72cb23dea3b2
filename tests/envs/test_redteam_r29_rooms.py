"""Red-team regressions for web/room_booking (round 3, session 29): misreadings of the travel policy's star rule that
read every price and free night but not "at least X stars" earned reward.

Each rule below books the cheapest room that passes its own star test and is free for the stay (or answers "none"
with that room, over budget): it is right exactly when that room is the answer's. Shares measured on these seeds before
the fix are in the comments; each is asserted well below them.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import palaestra
from palaestra.core.registry import make_source


def _problems(level: int, count: int, base: int = 29_000) -> list[palaestra.Problem]:
    source = make_source("web/room_booking")
    return [source.sample(level, base + seed) for seed in range(count)]


def _rules(problem: palaestra.Problem) -> tuple[int, dict[str, bool]]:
    """The stars asked, and which star misreadings pick the answer's room."""
    data = problem.data
    rooms = data["records"]["rooms"]
    asked = int(re.search(r"at least (\d) stars", problem.prompt).group(1))  # type: ignore[union-attr]
    start = date.fromisoformat(data["check_in"])
    stay = {(start + timedelta(days=n)).isoformat() for n in range(data["nights"])}
    best = data["route"][-1]
    free = [path for path in sorted(data["city_rooms"], key=lambda path: rooms[path]["price"])
            if stay <= set(rooms[path]["free"])]

    def first(test) -> bool:
        return [path for path in free if test(rooms[path]["stars"])][:1] == [best]

    enough = sorted({rooms[path]["stars"] for path in free if rooms[path]["stars"] >= asked})
    return asked, {
        "exactly": first(lambda stars: stars == asked),
        "more than": first(lambda stars: stars > asked),
        **{f"{t} and up": first(lambda stars, t=t: stars >= t) for t in (2, 3, 4, 5)},
        "lowest rating of enough": bool(enough) and first(lambda stars: stars == enough[0]),
        "second free, stars unread": free[1:2] == [best],
    }


def _shares(problems: list[palaestra.Problem]) -> dict[str, float]:
    picks = [_rules(problem)[1] for problem in problems]
    return {rule: sum(pick[rule] for pick in picks) / len(picks) for rule in picks[0]}


def test_room_booking_reading_at_least_as_exactly_pays_half_at_most() -> None:
    # v4: the answer's hotel had just the stars asked at odds 0.85 below 4 asked and always at 4: "exactly X" was right
    # in 0.90-0.95 of 300 seeds a level (0.87 / 0.89 on these seeds at levels 0 / 4). v5: just the stars asked or one
    # more at even odds, so "exactly" and "more than" (right in complementary problems) each near one half.
    for level in (0, 4):
        shares = _shares(_problems(level, 150))
        assert shares["exactly"] <= 0.62 and shares["more than"] <= 0.62, (level, shares)
        assert max(shares[f"{t} and up"] for t in (2, 3, 4, 5)) <= 0.56, (level, shares)


def test_room_booking_best_misreading_for_each_threshold_asked_pays_half_at_most() -> None:
    # v4 always put the answer's hotel at 4 stars when 4 were asked: choosing "exactly" or "more than" by the stars
    # asked was right in 0.88 of these seeds (all of those asking 4 stars); v5 draws even odds at every threshold
    problems = _problems(0, 150) + _problems(3, 150)
    right = {asked: [0, 0, 0] for asked in (2, 3, 4)}
    for problem in problems:
        asked, picks = _rules(problem)
        right[asked][0] += 1
        right[asked][1] += picks["exactly"]
        right[asked][2] += picks["more than"]
    assert all(count >= 30 for count, _, _ in right.values()), right
    for asked, (count, exactly, more) in right.items():
        assert max(exactly, more) / count <= 0.66, (asked, right)
    assert sum(max(exactly, more) for _, exactly, more in right.values()) / len(problems) <= 0.6, right


def test_room_booking_lowest_rating_of_enough_stars_is_no_shortcut() -> None:
    # v4: the cheapest free room of the lowest rating of enough stars with a free room was right in 0.92-0.97 of 300
    # seeds a level (0.94 / 0.91 here); v5 puts a decoy of just the stars asked, with a pricier free room, below an
    # answer's hotel of one star more
    for level in (1, 4):
        shares = _shares(_problems(level, 150))
        assert shares["lowest rating of enough"] <= 0.62, (level, shares)


def test_room_booking_second_free_room_stars_unread_is_rare() -> None:
    # v4 left one free room of too few stars below the answer in about half the problems: the second-cheapest free
    # room of the city, stars unread, was right in 0.40-0.55 of 300 seeds a level (0.43 / 0.51 here at levels 0 / 1);
    # v5 leaves 1-4 of them free, mostly more than one
    for level in (0, 1):
        shares = _shares(_problems(level, 150))
        assert shares["second free, stars unread"] <= 0.38, (level, shares)
