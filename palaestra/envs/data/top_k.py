"""Rank players by a total computed from a results table and list the top k, with ties broken as stated.

A CSV of game results (one row per player per game: game, player, points) is given. The totals per
player must be computed first; the question asks for the k players with the most total points, in
order, ties broken by a stated rule: alphabetical order of the name, fewer games played then name, or
the higher best single game then name. Problems are redrawn until two players tie within the first k + 1
places and each of the other two rules gives another top k, so the stated rule matters (v1 only asked the
name rule to differ, and always breaking ties by the best game paid 0.71 of level 4).
Since v3 a fewer-games or best-game rule's final "then alphabetically by name" also decides (the top k differs
with tied players left in table order, or in reverse name order): skipping it answered 0.45-0.67 of v2's problems.
The answer is an ordered list of k names; the verifier reads the list with the shared reader (names in
any letter case) and names the first wrong position.

Difficulty: the table's rows plus the players plus k plus the ties the rule decides among the first k + 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import one_of, read_list

EXAMPLE = "Xena, Yuri, Zoltan"  # a fixed placeholder (names no table uses): never derived from the answer
RULES = {
    "name": "players with equal totals are ordered alphabetically by name",
    "games": "players with equal totals are ordered by fewer games played, and then alphabetically by name",
    "best": "players with equal totals are ordered by the higher best single-game points, and then "
            "alphabetically by name",
}


def ranking(rows: list[list], rule: str, last: str = "name") -> tuple[list[str], dict[str, int]]:
    """Every player in rank order under ``rule`` and their totals; ``last`` misreads the final tie-break, for the
    generator's checks: ``table`` (players left in the order they first appear in the table) or ``reverse``
    (reverse alphabetical order)."""
    totals: dict[str, int] = {}
    games: dict[str, int] = {}
    best: dict[str, int] = {}
    for _, player, points in rows:
        totals[player] = totals.get(player, 0) + points
        games[player] = games.get(player, 0) + 1
        best[player] = max(best.get(player, points), points)

    first = {player: index for index, (_, player, _) in reversed(list(enumerate(rows)))}

    def key(player: str) -> tuple:
        second = {"name": 0, "games": games[player], "best": -best[player]}[rule]
        third = {"name": player, "table": first[player], "reverse": (*(-ord(c) for c in player), 1)}[last]
        return (-totals[player], second, third)

    return sorted(totals, key=key), totals


@register
class TopK(Task):
    id = "data/top_k"
    family = "data"
    description = "Total a results table per player and list the top k in order, ties broken by a stated rule."
    tags = ("data", "tables", "ranking")
    version = 3  # v3: "then by name" decides too; v2: every other tie-break rule gives another top k

    @dataclass(frozen=True)
    class Config:
        players: int
        rows: int
        k: int

    presets = (Config(5, 12, 2), Config(7, 18, 3), Config(9, 26, 3), Config(12, 36, 4), Config(15, 50, 5))
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"players": 3, "rows": 12, "k": 1}, limits={"players": 30, "rows": 338, "k": 29})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rule = rng.choice(tuple(RULES)) if config.k > 2 else rng.choice(("name", "games"))
        names = rng.sample(WORDS["first_names"], config.players)

        def draw() -> list[list]:
            rows = [[game, player, rng.randint(1, 9)] for game, player in
                    enumerate(names + [rng.choice(names) for _ in range(config.rows - config.players)])]
            if rule != "name":  # two players with the same scores tie on every rule but the name
                played: dict[str, list[list[Any]]] = {player: [row for row in rows if row[1] == player] for player in names}
                totals = {player: sum(row[2] for row in played[player]) for player in names}
                leaders = sorted(names, key=lambda player: -totals[player])[: config.k + 1]
                pairs = [(a, b) for a in leaders for b in names if a != b and len(played[a]) == len(played[b])]
                if pairs:
                    a, b = rng.choice(pairs)  # b copies a leader's scores
                    for mine, theirs in zip(played[b], played[a], strict=True):
                        mine[2] = theirs[2]
            rng.shuffle(rows)
            return [[f"G{100 + game}", player, points] for game, (_, player, points) in enumerate(rows)]

        def decisive(rows: list[list]) -> bool:
            order, totals = ranking(rows, rule)
            ties = [i for i in range(config.k) if totals[order[i]] == totals[order[i + 1]]]
            if not ties:
                return False
            # every other rule must give another top k, so a fixed rule (not the stated one) does not pay
            if any(ranking(rows, other)[0][: config.k] == order[: config.k] for other in RULES if other != rule):
                return False
            # and with a first rule that is not the name, its "then by name" too (v2: leaving the tied players
            # in table order answered 0.45-0.67 of all problems)
            return rule == "name" or all(ranking(rows, rule, last)[0][: config.k] != order[: config.k]
                                         for last in ("table", "reverse"))

        rows = retry(draw, decisive, attempts=3000, what="a tie the rule must break")
        order, totals = ranking(rows, rule)
        top = order[: config.k]
        table = csv_text(["game", "player", "points"], rows)
        prompt = (
            f"Here are game results, one row per player per game:\n\n{table}\n\nRank the players by their total "
            f"points over all their games, highest first; {RULES[rule]}. Who are the top {config.k} players, in "
            f"rank order?\n\nList the names in order, separated by commas, for example: {EXAMPLE}"
        )
        ties = sum(1 for i in range(config.k) if totals[order[i]] == totals[order[i + 1]])
        data = {"top": top, "players": names, "rule": rule, "rows": len(rows), "ties": ties}
        return Problem(prompt=prompt, answer=", ".join(top), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_list(answer, one_of(problem.data["players"]), max_items=100)
        if given is None:
            return Verdict.unparsed(f"expected player names separated by commas, such as {EXAMPLE}")
        top = problem.data["top"]
        for position, (mine, theirs) in enumerate(zip(given, top, strict=False), start=1):
            if mine != theirs:
                return Verdict.wrong(f"place {position} is not {mine}")
        if len(given) != len(top):
            return Verdict.wrong(f"the question asks for exactly {len(top)} names")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Rows + players + k + ties among the first k + 1 places."""
        data = problem.data
        return float(data["rows"] + len(data["players"]) + len(data["top"]) + data["ties"])

    def spellings(self, problem: Problem) -> list[str]:
        top = problem.data["top"]
        return [*markup_spellings(problem.answer or ""), "\n".join(f"{i}. {n}" for i, n in enumerate(top, 1)),
                " and ".join([", ".join(top[:-1]), top[-1]]), ", ".join(n.upper() for n in top)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        top = problem.data["top"]
        others = [p for p in problem.data["players"] if p not in top]
        return [", ".join([*top[:-1], rng.choice(others)]), ", ".join([top[1], top[0], *top[2:]]),
                ", ".join(top[:-1]), ", ".join(sorted(top)) if sorted(top) != top else ", ".join(reversed(top))]
