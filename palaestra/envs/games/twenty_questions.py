"""Twenty questions over a generated table: find the hidden creature with yes/no questions about attributes.

The prompt lists invented creatures (made-up names, so no outside knowledge helps), each with
the same attributes: some categorical (colour, habitat, diet, pattern) and some numeric (legs,
weight in kg). One creature is hidden. Each turn the model asks one question in the stated
grammar and hears yes or no, or makes its guess:

- ``colour = red?`` (also ``is colour red?``, ``colour is red``): a categorical test;
- ``legs > 4?``, ``weight < 30?``, ``legs = 4?``: a numeric test;
- ``guess NAME`` (or ``is it NAME?``): ends the episode, reward 1 when right.

An unreadable question, or one naming an unknown attribute or value, costs a turn. Every
creature differs from every other in some attribute, so the table can always be narrowed down
to one. The question budget is what a greedy questioner (always the question that splits the
remaining creatures most evenly) needs in the worst case over the table (version 2: no longer
for the hidden creature, which let the budget hint at it), plus the guess, plus the level's
spare turns. The prompt's example guess is the table's first creature (version 3; version 2 named the row after
the hidden one, so the secret could be read off the prompt). The oracle knows the creature and guesses it; the honest player
(:meth:`TwentyQuestions.honest_move`) asks the greedy questions and guesses the one creature left.

Levels grow the table and its attributes and remove the spare turns. The difficulty measure
is the base-2 logarithm of the number of creatures.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

CATEGORIES = {
    "colour": ["red", "blue", "green", "yellow", "black", "white"],
    "habitat": ["forest", "desert", "river", "mountain", "cave"],
    "diet": ["plants", "insects", "fish", "fruit"],
    "pattern": ["plain", "striped", "spotted"],
}
NUMBERS = {"legs": [0, 2, 4, 6, 8], "weight": list(range(1, 100))}
ORDER = ("colour", "legs", "habitat", "weight", "diet", "pattern")
SYLLABLES = ("ba", "ko", "ri", "zu", "me", "ta", "lo", "vi", "ne", "su", "gra", "pli", "dro", "fen", "mar", "tul",
             "quo", "xan", "bel", "ros")
_QUESTION = re.compile(r"^(?:is\s+)?(?:the\s+)?([a-z]+)\s*(=|==|>|<|is)\s*([a-z0-9]+)\s*\??$")
_SWAPPED = re.compile(r"^is\s+(?:the\s+)?([a-z]+)\s+([a-z]+)\s*\??$")
_GUESS = re.compile(r"^(?:guess:?|is\s+it|it\s+is|it's|the\s+creature\s+is)\s+(?:the\s+)?([a-z]+)\s*[?.!]?$")


@register
class TwentyQuestions(MultiTurnTask):
    id = "games/twenty_questions"
    family = "games"
    description = "Find a hidden creature in a generated attribute table with yes/no questions in a stated grammar."
    tags = ("games", "multi-turn", "deduction", "information-gain")
    version = 3  # v3: the guess example is the table's first creature (v2 named the row after the secret)
    hidden_information = True
    public_keys = ("table", "attributes")  # the prompt lists the table

    @dataclass(frozen=True)
    class Config:
        creatures: int
        attributes: int  # the first this many of ORDER
        spare: int  # turns beyond the greedy questioner's

    presets = (Config(8, 3, 3), Config(14, 4, 2), Config(24, 5, 1), Config(36, 6, 1), Config(50, 6, 0))
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        attributes = ORDER[: config.attributes]

        def draw() -> list[dict[str, Any]] | None:
            names: list[str] = []
            for _ in range(config.creatures * 4):
                name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
                if name not in names:
                    names.append(name)
                if len(names) == config.creatures:
                    break
            rows = []
            for name in names:
                row: dict[str, Any] = {"name": name}
                for attribute in attributes:
                    row[attribute] = rng.choice(CATEGORIES.get(attribute) or NUMBERS[attribute])
                rows.append(row)
            profiles = {tuple(row[a] for a in attributes) for row in rows}
            return rows if len(rows) == config.creatures and len(profiles) == len(rows) else None

        table = retry(draw, what="creatures that all differ")
        secret = rng.randrange(config.creatures)
        # The budget is the greedy questioner's worst case over the whole table, so it says nothing of the secret.
        questions = _greedy_depth(table, attributes)
        turns = questions + 1 + config.spare
        header = " | ".join(["name", *(f"{a} (kg)" if a == "weight" else a for a in attributes)])
        lines = [" | ".join([row["name"], *(str(row[a]) for a in attributes)]) for row in table]
        numeric = [a for a in attributes if a in NUMBERS]
        categorical = [a for a in attributes if a in CATEGORIES]
        example = f"{categorical[0]} = {CATEGORIES[categorical[0]][0]}?"
        prompt = (
            "I am thinking of one of these creatures:\n\n" + header + "\n" + "\n".join(lines) + "\n\n"
            "Find it. Each turn, ask one yes/no question about one attribute, or make your guess:\n"
            f"- a value test on {', '.join(categorical)}: ATTRIBUTE = VALUE?, for example: {example}\n"
            + (f"- a number test on {', '.join(numeric)}: ATTRIBUTE > N?, ATTRIBUTE < N? or ATTRIBUTE = N?, for "
               f"example: {numeric[0]} > 3?\n" if numeric else "")
            # The example is the table's first creature whatever the secret (it was the row after the secret, which
            # gave the secret away): guessing it wins one game in len(table), as any guess does.
            + f"- guess NAME, for example: guess {table[0]['name']}; the guess ends the "
            f"game.\nYou have {turns} turns in all; an unreadable question costs a turn."
        )
        data = {"table": table, "attributes": list(attributes), "secret": secret, "turns": turns}
        return Problem(prompt=prompt, answer=table[secret]["name"], data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """log2 of the candidates, plus half the candidates that differ from the secret in one attribute only
        (near-twins take extra questions) and a quarter of those sharing at least half its attributes."""
        table, attributes = problem.data["table"], problem.data["attributes"]
        secret = table[problem.data["secret"]]
        differing = [sum(row[a] != secret[a] for a in attributes) for row in table]
        alike = sum(1 for d in differing if 0 < d <= len(attributes) / 2)
        return math.log2(len(table)) + differing.count(1) / 2 + alike / 4

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        table, secret = data["table"], data["table"][data["secret"]]
        asked = read_question(move, data["attributes"], [row["name"] for row in table])
        if asked is None:
            why = "ask ATTRIBUTE = VALUE?, ATTRIBUTE > N?, ATTRIBUTE < N?, or write guess NAME"
            return Outcome.invalid(state, why, "question")
        if asked[0] == "guess":
            if asked[1] == secret["name"]:
                return Outcome(state, Verdict.right(), f"Yes, it is {secret['name']}!", True)
            return Outcome(state, Verdict.wrong("wrong guess"), f"No, it was {secret['name']}.", True)
        return Outcome(state, Verdict.wrong("asked"), "Yes." if _holds(secret, asked) else "No.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return f"guess {problem.answer}"

    def honest_move(self, view: View) -> str:
        table, attributes = view.public["table"], tuple(view.public["attributes"])
        names = [row["name"] for row in table]
        rows = list(table)
        for move, observation in view.history:
            asked = read_question(move, list(attributes), names)
            if asked and asked[0] != "guess" and observation in ("Yes.", "No."):
                rows = [r for r in rows if _holds(r, asked) == (observation == "Yes.")]
        if len(rows) == 1:
            return f"guess {rows[0]['name']}"
        attribute, op, value = min(_questions(rows, attributes),
                                   key=lambda q: abs(2 * sum(_holds(r, q) for r in rows) - len(rows)))
        return f"{attribute} {op} {value}?"


Question = tuple[str, ...]


def read_question(move: str, attributes: list[str], names: list[str]) -> tuple[Any, ...] | None:
    """``("guess", name)``, ``(attribute, "=", value)`` or ``(attribute, ">" | "<", number)``, or None."""
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[Any, ...] | None:
        s = " ".join(strip_wrappers(text).lower().split()).rstrip(".")
        guess = _GUESS.match(s)
        if guess:
            return ("guess", guess.group(1)) if guess.group(1) in names else None
        if s.rstrip("?") in names:
            return ("guess", s.rstrip("?"))
        match = _QUESTION.match(s)
        if match:
            attribute, op, value = match.group(1), match.group(2), match.group(3)
        else:
            swapped = _SWAPPED.match(s)
            if not swapped:
                return None
            attribute, op, value = swapped.group(1), "=", swapped.group(2)
        attribute = {"color": "colour", "leg": "legs", "weighs": "weight"}.get(attribute, attribute)
        if attribute not in attributes:
            return None
        op = "=" if op in ("==", "is") else op
        if attribute in CATEGORIES:
            return (attribute, "=", value) if op == "=" and value in CATEGORIES[attribute] else None
        return (attribute, op, int(value)) if value.isdigit() and len(value) <= 4 else None

    return read_move_answer(move, read)


def _holds(row: dict[str, Any], question: tuple[Any, ...]) -> bool:
    attribute, op, value = question
    actual = row[attribute]
    return actual == value if op == "=" else actual > value if op == ">" else actual < value


def _questions(table: list[dict[str, Any]], attributes: tuple[str, ...]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for attribute in attributes:
        if attribute in CATEGORIES:
            out += [(attribute, "=", v) for v in CATEGORIES[attribute]]
        else:
            values = sorted({row[attribute] for row in table})
            out += [(attribute, ">", v) for v in values[:-1]]
    return out


def _greedy_depth(rows: list[dict[str, Any]], attributes: tuple[str, ...]) -> int:
    """The most questions the greedy questioner asks before one creature is left, over every hidden creature
    (the depth of its question tree: the same as the longest of its paths, built once)."""
    # The creatures left are a bit mask over ``rows``, and each question's answers over the whole table are worked
    # out once: the same questions are weighed again at every node of the tree. A node's questions are the whole
    # table's, in the same order, less the number questions on values none of its creatures has or on its largest.
    answers: dict[tuple[Any, ...], int] = {}  # question -> the creatures (bits) it holds for
    for attribute in attributes:
        having: dict[Any, int] = {}
        for i, row in enumerate(rows):
            having[row[attribute]] = having.get(row[attribute], 0) | 1 << i
        if attribute in CATEGORIES:
            answers.update({(attribute, "=", v): having.get(v, 0) for v in CATEGORIES[attribute]})
        else:
            above = 0
            for v in sorted(having, reverse=True):
                answers[attribute, ">", v] = above
                above |= having[v]
    questions = _questions(rows, attributes)
    masks = [answers[q] for q in questions]
    numeric = [a for a in attributes if a not in CATEGORIES]

    def depth(left: int) -> int:
        size = left.bit_count()
        if size <= 1:
            return 0
        members = [row for i, row in enumerate(rows) if left >> i & 1]
        asked = {a: {row[a] for row in members} for a in numeric}
        for values in asked.values():
            values.discard(max(values))
        _, best = min((abs(2 * (masks[k] & left).bit_count() - size), k) for k, (attribute, op, value)
                      in enumerate(questions) if op == "=" or value in asked[attribute])
        yes = masks[best] & left
        return 1 + max(depth(yes), depth(left & ~yes))

    return depth((1 << len(rows)) - 1)
