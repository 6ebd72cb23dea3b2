"""Werewolf-style deduction: read the scripted players' claims, question them, and vote out every wolf.

Players P1..Pn are villagers or wolves; how many wolves there are is stated, who they are is hidden.
Every player knows every role. Villagers always tell the truth; wolves always lie (a wolf calls a
villager a wolf and a fellow wolf a villager). The prompt holds the morning's transcript: claims of the
form "Pi: Pj is a wolf / a villager". Each turn the model either asks one player about another (``ask P3
about P5``; the answer follows the same rules; a stated number of questions) or votes one player out
(``vote P4``); the voted player's role is then revealed. Voting out a villager loses at once; voting
out every wolf wins. Reward: 1 for a win, 0 otherwise.

A claim by Pi about Pj says "wolf" exactly when Pi and Pj are on different sides, so claims and
answers are parity constraints; with the number of wolves stated, the roles follow once the
constraints and the count leave one assignment. The generator draws roles and claims, then keeps
games where the claims alone leave at least :data:`MIN_CANDIDATES` (10) assignments (since version 2; the
model must ask: a player that asks nothing fixes its votes in advance, as only a wolf's reveal lets the game
go on, so it wins on one consistent assignment, ``1 / 10`` of them or less; version 1 left 2-4.5 assignments
on average and the "vote the player who is a wolf in most consistent assignments" rule, declared in
:meth:`Werewolf.heuristics`, won 0.27-0.47 of the games per level without a question; now 0.07-0.10 on 200
seeds a level), and where the
honest player (:meth:`Werewolf.honest_move`, which reads only the prompt and the answers: it votes
out a player who is a wolf in every assignment still consistent, else asks a player of one undecided
group of linked players about a player of another) wins within the questions allowed, which are
exactly as many as it needs. From level 2 a game that the rule "vote out the most accused players"
wins is kept only with the level's chance (0.3, 0.2, 0.1), so the accusation count does not decide it.

Random legal moves (a uniformly random question or vote) win about ``1 / C(n, wolves)`` of games or
less; the scripted players have no randomness. An unreadable move, an unknown player, a question about
oneself, from a player voted out, or one past the allowance is refused and the turn is spent. Levels grow the players, the wolves
and the claims (few claims for the village, so that many assignments stay open); past the presets two
players, a wolf and two claims more per level, up to 22 players, 7 wolves and 18 claims (the honest player enumerates the linked groups' colourings). The difficulty measure is the players plus the wolves plus the questions
needed plus log2 of the assignments the claims leave open.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import read_command

VILLAGER, WOLF = 0, 1
SIDE = ("a villager", "a wolf")
SLIPS = 2
MIN_CANDIDATES = 10  # the claims leave at least this many assignments: a vote without a question wins 1 / 10 or less
_PLAYER = r"(?:p|player ?)(\d{1,3})"
_MOVE = re.compile(rf"^(?:ask|question) {_PLAYER},? (?:about|whether|if) {_PLAYER}(?: is a wolf\??)?$"
                   rf"|^(?:vote(?: out| for| to eliminate)?|eliminate|lynch) {_PLAYER}(?: out)?$")
_CLAIM = re.compile(r"P(\d+)(?: says)?: P(\d+) is (a villager|a wolf)")
_VOTED = re.compile(r"P(\d+) was (a villager|a wolf)")
_WOLVES = re.compile(r"(\d+) of them are wolves")

Claim = tuple[int, int, int]  # speaker, subject, 1 when the claim differs in side ("wolf" iff the sides differ)


@register
class Werewolf(MultiTurnTask):
    id = "games/werewolf"
    family = "games"
    description = "Werewolf deduction: truthful villagers, lying wolves; question players and vote out every wolf."
    tags = ("games", "multi-turn", "deduction", "social", "imperfect-information", "logic")
    version = 2
    one_move_per_turn = True
    hidden_information = True  # the roles

    @dataclass(frozen=True)
    class Config:
        players: int
        wolves: int
        claims: int
        rule_keep: float  # the chance a game the "most accused" rule wins is kept

    presets = (Config(9, 2, 2, 1.0), Config(9, 3, 3, 1.0), Config(10, 4, 4, 0.3), Config(11, 4, 5, 0.2),
               Config(13, 5, 7, 0.1))
    # the honest player enumerates the groups' colourings: the village stops growing at 22 players
    growth = Growth(steps={"players": 2, "wolves": 1, "claims": 2}, limits={"players": 22, "wolves": 7, "claims": 18})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.players

        def draw() -> dict[str, Any] | None:
            wolves = sorted(rng.sample(range(n), config.wolves))
            roles = [WOLF if i in wolves else VILLAGER for i in range(n)]
            pairs = set()
            for _ in range(3 * config.claims):
                speaker, subject = rng.sample(range(n), 2)
                if (speaker, subject) not in pairs and (subject, speaker) not in pairs:
                    pairs.add((speaker, subject))
                if len(pairs) == config.claims:
                    break
            claims = [[s, t, int(roles[s] != roles[t])] for s, t in sorted(pairs)]
            candidates = len(_assignments(n, config.wolves, claims))
            if candidates < MIN_CANDIDATES:
                return None
            questions = _questions_needed(n, config.wolves, claims, roles)
            if questions is None:
                return None
            if _most_accused_wins(n, config.wolves, claims, roles) and rng.random() >= config.rule_keep:
                return None
            return {"players": n, "wolves": config.wolves, "claims": claims, "roles": roles,
                    "questions": questions, "candidates": candidates}

        data = retry(draw, what="a village where questions are needed")
        lines = "\n".join(_claim_text(s, t, differ, data["roles"]) for s, t, differ in data["claims"])
        prompt = (
            f"Let's play a werewolf deduction game. The players are P1 to P{n}; {config.wolves} of them are "
            "wolves, the others villagers, and every player knows every role. Villagers always tell the truth. "
            "Wolves always lie: a wolf calls a villager a wolf and a fellow wolf a villager.\n\n"
            f"This morning's claims:\n{lines}\n\n"
            "Each turn do one thing: ask a player about another player (they answer by the same rules; you may "
            f"ask {data['questions']} question{'s' if data['questions'] != 1 else ''} in all), or vote a player "
            "out (their role is then revealed). Voting out a villager loses the game at once; voting out every "
            "wolf wins it.\n\n"
            "Each turn write one move, for example: ask P2 about P7, or: vote P3"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("players", "wolves")

    def max_turns(self, problem: Problem) -> int:
        return problem.data["questions"] + problem.data["wolves"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["players"] + data["wolves"] + data["questions"] + math.log2(data["candidates"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"asked": 0, "out": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        action = read_move(move)
        if action is None:
            return Outcome.invalid(state, "write one move: ask Pi about Pj, or vote Pk")
        players = data["players"]
        unknown = [p for p in action[1:] if not 1 <= p <= players]
        if unknown:
            return Outcome.invalid(state, f"there is no player P{unknown[0]} (players P1 to P{players})")
        roles = data["roles"]
        if action[0] == "ask":
            speaker, subject = action[1], action[-1]
            if speaker == subject:
                return Outcome.invalid(state, "ask a player about another player")
            if state["asked"] >= data["questions"]:
                return Outcome.invalid(state, "no questions are left; vote a player out")
            if speaker - 1 in state["out"]:
                return Outcome.invalid(state, f"P{speaker} is out of the game; ask a player still in it")
            asked = state["asked"] + 1
            said = (f"{_claim_text(speaker - 1, subject - 1, int(roles[speaker - 1] != roles[subject - 1]), roles)} "
                    f"Questions left: {data['questions'] - asked}.")
            return Outcome.goes_on({**state, "asked": asked}, said)
        voted = action[1] - 1
        if voted in state["out"]:
            return Outcome.invalid(state, f"P{voted + 1} is already out")
        out = [*state["out"], voted]
        after = {**state, "out": out}
        if roles[voted] == VILLAGER:
            return Outcome(after, Verdict.wrong("voted out a villager"),
                           f"You vote P{voted + 1} out. P{voted + 1} was a villager: the wolves win.", True)
        left = sum(roles) - sum(roles[p] for p in out)
        if left == 0:
            return Outcome(after, Verdict.right(), f"You vote P{voted + 1} out. P{voted + 1} was a wolf. Every "
                                                   "wolf is out: the village wins.", True)
        return Outcome.goes_on(after, f"You vote P{voted + 1} out. P{voted + 1} was a wolf. Wolves left: {left}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        roles = problem.data["roles"]
        return f"vote P{next(p for p, role in enumerate(roles) if role == WOLF and p not in state['out']) + 1}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        n, out = problem.data["players"], state["out"]
        present = [p for p in range(n) if p not in out]
        moves = [f"vote P{p + 1}" for p in present]
        if state["asked"] < problem.data["questions"]:
            moves += [f"ask P{s + 1} about P{t + 1}" for s in present for t in range(n) if s != t]
        return moves

    def heuristics(self) -> dict[str, Policy]:
        def most_accused(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            order = _accused_order(problem.data["players"], problem.data["claims"])
            return f"vote P{next(p for p in order if p not in state['out']) + 1}"

        def ask_everyone(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            n = problem.data["players"]
            if state["asked"] < n - 1:
                return f"ask P1 about P{state['asked'] + 2}"
            return "vote P1"

        def likeliest_wolf(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            data = problem.data
            return _likeliest_wolf_vote(data["players"], data["wolves"], data["claims"], state["out"])

        return {"vote out the most accused players": most_accused,
                "ask P1 about everyone, one by one": ask_everyone,
                "ask nothing; vote the player who is a wolf in most consistent assignments": likeliest_wolf}

    def honest_move(self, view: View) -> str:
        """Collect the claims, the answers and the revealed roles from the text; vote out a certain wolf, else
        ask across two undecided groups."""
        n, wolves = view.public["players"], view.public["wolves"]
        texts = [view.prompt, *view.observations]
        claims = [[int(s) - 1, int(t) - 1, int(side == SIDE[WOLF])] for text in texts
                  for s, t, side in _CLAIM.findall(text)]
        known = {int(p) - 1: SIDE.index(side) for text in view.observations for p, side in _VOTED.findall(text)}
        return _honest(n, wolves, claims, known)


def read_move(move: str) -> tuple[str, int] | tuple[str, int, int] | None:
    """``("ask", i, j)`` or ``("vote", k)`` (player numbers from 1), or None.

    >>> read_move("Ask P2 about P5."), read_move("vote out player 3"), read_move("vote P3 and P4")
    (('ask', 2, 5), ('vote', 3), None)
    """
    groups = read_command(move, _MOVE)
    if groups is None:
        return None
    if len(groups) == 2:
        return "ask", int(groups[0]), int(groups[1])
    return "vote", int(groups[0])


def _claim_text(speaker: int, subject: int, differ: int, roles: list[int]) -> str:
    """``Pi: Pj is a wolf`` when the sides differ (what a villager or a wolf says under the rules), else a villager."""
    return f"P{speaker + 1}: P{subject + 1} is {SIDE[WOLF] if differ else SIDE[VILLAGER]}."


def _assignments(n: int, wolves: int, claims: list[list[int]], known: dict[int, int] | None = None
                 ) -> list[tuple[int, ...]]:
    """Every role assignment with ``wolves`` wolves that meets the claims (sides differ iff the claim says wolf)
    and the roles ``known``; linked players are grouped, so only the groups' two colourings are enumerated."""
    parent = list(range(n))
    parity = [0] * n

    def find(x: int) -> tuple[int, int]:
        flip = 0
        while parent[x] != x:
            flip ^= parity[x]
            x = parent[x]
        return x, flip

    for s, t, differ in claims:
        (rs, ps), (rt, pt) = find(s), find(t)
        if rs == rt:
            if ps ^ pt != differ:
                return []
            continue
        parent[rt], parity[rt] = rs, ps ^ pt ^ differ
    roots = sorted({find(p)[0] for p in range(n)})
    found = []
    for colouring in itertools.product((0, 1), repeat=len(roots)):
        base = dict(zip(roots, colouring))
        roles = tuple(base[find(p)[0]] ^ find(p)[1] for p in range(n))
        if sum(roles) == wolves and all(roles[p] == role for p, role in (known or {}).items()):
            found.append(roles)
    return found


def _honest(n: int, wolves: int, claims: list[list[int]], known: dict[int, int]) -> str:
    """The honest player's move from what it has read (see :meth:`Werewolf.honest_move`)."""
    options = _assignments(n, wolves, claims, known)
    for p in range(n):
        if p not in known and options and all(roles[p] == WOLF for roles in options):
            return f"vote P{p + 1}"
    undecided = [p for p in range(n) if p not in known and len({roles[p] for roles in options}) > 1]
    first = undecided[0]
    linked = {p for p in undecided if len({roles[p] ^ roles[first] for roles in options}) == 1}
    # another undecided group, else a player whose role is certain (one voted out included): the answer settles it
    other = next((p for p in undecided if p not in linked), None)
    if other is None:
        other = next(p for p in range(n) if p != first and len({roles[p] for roles in options}) == 1)
    return f"ask P{first + 1} about P{other + 1}"


def _likeliest_wolf_vote(n: int, wolves: int, claims: list[list[int]], out: list[int]) -> str:
    """The no-question vote: the player still in who is a wolf in most assignments consistent with the claims and
    the wolves voted out (the lower number on a tie)."""
    options = _assignments(n, wolves, claims, {p: WOLF for p in out})
    votes = [sum(roles[p] for roles in options) for p in range(n)]
    return f"vote P{max((p for p in range(n) if p not in out), key=lambda p: (votes[p], -p)) + 1}"


def _questions_needed(n: int, wolves: int, claims: list[list[int]], roles: list[int]) -> int | None:
    """How many questions the honest player asks before its last vote (None if it would vote out a villager)."""
    claims, asked = [list(c) for c in claims], 0
    known: dict[int, int] = {}
    for _ in range(2 * n):
        move = read_move(_honest(n, wolves, claims, known))
        assert move is not None
        if move[0] == "ask":
            s, t = move[1] - 1, move[-1] - 1
            claims.append([s, t, int(roles[s] != roles[t])])
            asked += 1
            continue
        voted = move[1] - 1
        if roles[voted] == VILLAGER:
            return None
        known[voted] = WOLF
        if sum(1 for role in known.values() if role == WOLF) == wolves:
            return asked
    return None


def _accused_order(n: int, claims: list[list[int]]) -> list[int]:
    """Players by how often they are called a wolf, most first (the lower number on a tie)."""
    accused = [0] * n
    for _, subject, differ in claims:
        accused[subject] += differ
    return sorted(range(n), key=lambda p: (-accused[p], p))


def _most_accused_wins(n: int, wolves: int, claims: list[list[int]], roles: list[int]) -> bool:
    return all(roles[p] == WOLF for p in _accused_order(n, claims)[:wolves])
