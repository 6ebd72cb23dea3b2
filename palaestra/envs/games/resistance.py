"""Resistance-style missions: choose teams, read the sabotage counts, and succeed before the spies do.

Players P1..Pn include a stated number of hidden spies. Each turn the model proposes a team of the
stated size for a mission. Every spy on a mission sabotages it (the stated rule), and the result
reports how many sabotage cards were played: zero means the mission succeeds, any other count that it
fails. The model wins on reaching the stated number of successful missions, and loses on reaching
the stated number of failures. Reward: 1 for a win, 0 otherwise.

The prompt also lists a few earlier missions led by others (teams and sabotage counts, drawn with
the problem so that at least three spy sets stay consistent with them). A result says exactly how many
spies the team held, so the spy sets consistent with the results are those meeting every count. The honest player (:meth:`Resistance.honest_move`) reads only the results:
it proposes the team (of players in order, the first on a tie) that is spy-free under the most spy
sets still consistent, i.e. the most likely to succeed when every consistent set is equally likely.
A mission can fail whatever the player knows, so even that player can lose; it wins at least
``honest_win_share`` (80%) of games at every level (the kit plays it). Uniformly random teams win
rarely (0-8% per level measured on 24 games: four spy-free draws are needed before four failures).

Version 2: no earlier mission in the prompt succeeded. A team that succeeded holds no spy, so sending it again wins
every mission; version 1 listed one in 40% of the problems at level 4, and the rule "send a team seen to succeed
(else the first players), again and again" won 48% of the games there (now 11%, the first players' luck). With
every earlier mission failed, the declared rule "the first players never on a failed mission" would win 38% at
level 4 (44% in version 1), so from level 2 a game it wins is kept only half the time (it now wins 20%, 7%, 21% at
levels 2-4; the honest player still wins every game measured, 150 per level).

The spies are drawn with the problem and act by the fixed rule, so a replay gives the same episode.
An unreadable team, a team of the wrong size, an unknown player or a repeated one is refused and the
turn is spent (the budget allows two such slips). Levels grow the table, the spies and the team
(bounded: the honest player scores every team against every spy set). The difficulty measure is the
players plus the spies plus log2 of the number of possible spy sets, plus half the spies on the team
of the first players in order (a blind first pick that fails).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.envs.games._social import read_command

SLIPS = 2
SPACE_ENUMERATION_LIMIT = 20_000  # (spy set, earlier missions) draws counted exactly for a level's space_size
_TEAM = re.compile(r"^(?:propose|send|choose|pick|team:?)?(?: the)?(?: team)?:? "
                   r"?(p\d{1,2}(?:(?:,? and |, | )p\d{1,2})*)$")
_RESULT = re.compile(r"Mission(?: \d+)? with ([P\d, ]+): (\d+) sabotage")


@register
class Resistance(MultiTurnTask):
    id = "games/resistance"
    family = "games"
    description = "Resistance-style missions: propose teams, deduce hidden spies from sabotage counts, win the missions."
    tags = ("games", "multi-turn", "deduction", "social", "imperfect-information")
    one_move_per_turn = True
    hidden_information = True  # the spies
    honest_win_share = 0.8
    version = 2

    @dataclass(frozen=True)
    class Config:
        players: int
        spies: int
        team: int
        successes: int  # successful missions needed to win
        failures: int  # failed missions that lose
        earlier: int  # missions run before the game (by other leaders), shown in the prompt
        rule_keep: float = 1.0  # a game the rule "avoid players seen on a failed mission" wins is kept this often

    presets = (Config(6, 2, 3, 4, 4, 2), Config(7, 3, 3, 4, 4, 2), Config(8, 3, 3, 4, 4, 2, 0.5),
               Config(9, 3, 4, 4, 4, 3, 0.5), Config(10, 4, 3, 4, 4, 3, 0.5))
    bounded = "the honest player scores every team against every spy set, which grows combinatorially"

    def space_size(self, level: int) -> int | None:
        """The (spy set, earlier missions) draws generation keeps, counted where they are few (level 0)."""
        return _kept_draws(self.level_config(level))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            spies = sorted(rng.sample(range(config.players), config.spies))
            earlier = []
            for _ in range(config.earlier):
                team = sorted(rng.sample(range(config.players), config.team))
                earlier.append([team, sum(1 for p in team if p in spies)])
            if any(count == 0 for _, count in earlier):  # a clean team of the size asked: repeating it wins
                return None
            left = len(_consistent(config.players, config.spies, _results(earlier)))
            if left < 3:
                return None
            if config.rule_keep < 1.0 and _avoid_failed_wins(config, spies, earlier) \
                    and rng.random() >= config.rule_keep:
                return None
            return {"players": config.players, "spies": spies, "spy_count": config.spies, "team": config.team,
                    "successes": config.successes, "failures": config.failures, "earlier": earlier,
                    "open": left}

        data = retry(draw, what="earlier missions that leave the spies open")
        lines = "\n".join(_mission_text(team, count) for team, count in data["earlier"])
        prompt = (
            f"Let's play a Resistance-style mission game. The players are P1 to P{config.players}; {config.spies} "
            f"of them are hidden spies. Each turn propose a team of {config.team} different players for a mission. "
            "Every spy on a mission sabotages it, and you are told how many sabotage cards were played: 0 means "
            f"the mission succeeds, any other number that it fails. You win when {config.successes} missions "
            f"have succeeded and lose when {config.failures} have failed.\n\n"
            f"Earlier missions, led by others (they do not count for you):\n{lines}\n\n"
            f"Each turn write one team, for example: propose {' '.join(f'P{i + 1}' for i in range(config.team))}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("players", "spy_count", "team", "successes", "failures")

    def max_turns(self, problem: Problem) -> int:
        return problem.data["successes"] + problem.data["failures"] - 1 + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        blind = sum(1 for p in range(data["team"]) if p in data["spies"])  # spies on the first team in order
        return data["players"] + data["spy_count"] + math.log2(data["open"]) + blind / 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"won": 0, "lost": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        team = read_team(move)
        if team is None:
            return Outcome.invalid(state, f"write one team of {data['team']} players, such as propose P1 P2")
        if len(set(team)) != len(team) or len(team) != data["team"]:
            return Outcome.invalid(state, f"a team is {data['team']} different players")
        if any(not 1 <= p <= data["players"] for p in team):
            return Outcome.invalid(state, f"the players are P1 to P{data['players']}")
        sabotage = sum(1 for p in team if p - 1 in data["spies"])
        number = state["won"] + state["lost"] + 1
        after = {"won": state["won"] + (sabotage == 0), "lost": state["lost"] + (sabotage > 0)}
        said = (f"Mission {number} {_mission_text([p - 1 for p in sorted(team)], sabotage)[8:-1]}: "
                f"{'success' if sabotage == 0 else 'failure'}. "
                f"Successes {after['won']} of {data['successes']}, failures {after['lost']} of {data['failures']}.")
        if after["won"] == data["successes"]:
            return Outcome(after, Verdict.right(), f"{said} You win.", True)
        if after["lost"] == data["failures"]:
            return Outcome(after, Verdict.wrong("the spies won"), f"{said} The spies win.", True)
        return Outcome.goes_on(after, said)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        loyal = [p for p in range(data["players"]) if p not in data["spies"]]
        return _spell(loyal[:data["team"]])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [_spell(team) for team in itertools.combinations(range(problem.data["players"]), problem.data["team"])]

    def heuristics(self) -> dict[str, Policy]:
        def first_players(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            return _spell(range(problem.data["team"]))

        def avoid_failed(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            """The first players never seen on a failed mission (earlier ones included), topped up in order."""
            texts = [problem.prompt, *(text for _, text in history)]
            results = [[[int(p) - 1 for p in re.findall(r"\d+", names)], int(count)]
                       for text in texts for names, count in _RESULT.findall(text)]
            return _spell(_avoid_failed_team(problem.data["players"], problem.data["team"], results))

        return {"the first players in order, always": first_players,
                "the first players never on a failed mission": avoid_failed}

    def honest_move(self, view: View) -> str:
        """The team spy-free under the most spy sets consistent with the sabotage counts so far."""
        public = view.public
        results = tuple((tuple(int(p) - 1 for p in re.findall(r"\d+", names)), int(count))
                        for text in (view.prompt, *view.observations) for names, count in _RESULT.findall(text))
        return _spell(_likeliest_team(public["players"], public["spy_count"], public["team"], results))


def read_team(move: str) -> list[int] | None:
    """The player numbers of a team: ``propose P1, P3``, ``P1 P3``, ``team: P1 and P3``; or None.

    >>> read_team("Propose P1, P3 and P4."), read_team("propose P1 P2, then P3 P4")
    ([1, 3, 4], None)
    """
    groups = read_command(move, _TEAM)
    return [int(p) for p in re.findall(r"\d+", groups[0])] if groups else None


def _spell(team: Any) -> str:
    return "propose " + " ".join(f"P{p + 1}" for p in team)  # no commas: a plan of teams is cut between teams


Results = tuple[tuple[tuple[int, ...], int], ...]  # (team, sabotage count) per mission


def _results(missions: list[list[Any]]) -> Results:
    return tuple((tuple(team), count) for team, count in missions)


def _mission_text(team: list[int], count: int) -> str:
    return (f"Mission with {', '.join(f'P{p + 1}' for p in team)}: {count} sabotage card"
            f"{'s' if count != 1 else ''}.")


@functools.cache
def _kept_draws(config: Resistance.Config) -> int | None:
    """How many (spies, earlier missions) draws without a successful mission leave at least three spy sets open, or
    None when too many to count."""
    teams = list(itertools.combinations(range(config.players), config.team))
    spy_sets = list(itertools.combinations(range(config.players), config.spies))
    if len(spy_sets) * len(teams) ** config.earlier > SPACE_ENUMERATION_LIMIT:
        return None
    return sum(1 for spies in spy_sets for missions in itertools.product(teams, repeat=config.earlier)
               if all(_spies_on(team, spies) for team in missions)  # no earlier mission succeeded (version 2)
               and len(_consistent(config.players, config.spies,
                                   tuple((team, _spies_on(team, spies)) for team in missions))) >= 3)


def _avoid_failed_team(players: int, size: int, results: list[list[Any]]) -> list[int]:
    """The rule "the first players never seen on a failed mission" (topped up in order) after ``results``."""
    suspects = {p for team, count in results if count for p in team}
    order = [p for p in range(players) if p not in suspects] + [p for p in range(players) if p in suspects]
    return sorted(order[:size])


def _avoid_failed_wins(config: Resistance.Config, spies: list[int], earlier: list[list[Any]]) -> bool:
    """Whether that rule wins the game (every mission it sends is judged by the spies' fixed rule)."""
    results, won, lost = list(earlier), 0, 0
    while won < config.successes and lost < config.failures:
        team = _avoid_failed_team(config.players, config.team, results)
        count = _spies_on(tuple(team), tuple(spies))
        results.append([team, count])
        won, lost = won + (count == 0), lost + (count > 0)
    return won == config.successes


def _spies_on(team: tuple[int, ...], spies: tuple[int, ...]) -> int:
    return sum(1 for p in team if p in spies)


def _consistent(players: int, spies: int, results: Results) -> list[set[int]]:
    """The spy sets that meet every sabotage count."""
    return [set(spy_set) for spy_set in itertools.combinations(range(players), spies)
            if all(sum(1 for p in team if p in spy_set) == count for team, count in results)]


@functools.lru_cache(maxsize=4096)
def _likeliest_team(players: int, spies: int, size: int, results: Results) -> tuple[int, ...]:
    consistent = _consistent(players, spies, results)
    return max(itertools.combinations(range(players), size),
               key=lambda team: sum(1 for spy_set in consistent if not spy_set.intersection(team)))
