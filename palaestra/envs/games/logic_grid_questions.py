"""Logic grid questions: pin down a hidden logic-grid assignment by yes/no questions, then state all of it.

A few people each have one value of every category (a house colour, a job, a pet, ...), no two people
the same value. The prompt states some clues (``Alice is not the baker``, ``the owner of the red house
keeps the cat``), true of the hidden assignment but leaving several assignments possible. Each turn the
model either asks one yes/no question linking two values of different categories (``Is Alice the
baker?``, ``Is the owner of the red house the pilot?``) and hears the truth, or states the whole
assignment (``solution: Alice red baker; Bob blue pilot; ...``), which ends the game: reward 1 when it
is the hidden one and the clues and the answers heard leave no other (a right guess while several still fit
loses: a deduced assignment wins, a lucky one does not). An unreadable question (more or fewer than two values, a value twice, two values of
one category, a negation or any word outside the question grammar) is refused and costs a turn.

The clues are drawn so that between 6 and 220 assignments (by level) remain; a player who ignores them
needs many more questions. The turn budget is the depth of the decision tree of the balanced questioner
(over the assignments still possible, ask the question whose yes and no sides are most even; the first
in a fixed order on ties) plus one turn for the solution, computed from the clues alone, so the budget
says nothing about the hidden assignment. The honest player (:meth:`LogicGridQuestions.honest_move`)
reads the clues (public facts of the problem) and the answers so far and asks those balanced questions,
then states the one assignment left; it always wins within the budget, and so does the oracle, which
plays the same way. A constant or random solution cannot win: it is a guess until the answers pin it down.

Version 2: a stated assignment wins only when it is the one left (it was any right one), and every level has five
people (levels 0-2 had three or four). Random questions (clue-blind) followed by an assignment that fits the
clues and answers won 0.46 / 0.27 / 0.32 / 0.18 / 0.19 at levels 0-4 (40 seeds), now about 0.06 / 0.04 / 0.03 /
0.03 / 0.02 (200 seeds); random questions among those not yet settled, with full deduction, still win 0.5-0.8 (the
budget is what separates them from the balanced questioner, who wins all).

Levels grow the assignments the clues leave. The difficulty measure is ``log2`` of the
assignments left plus the budget.

Generation speed: about 500 problems/s at level 4 on this 2-core machine. Clues are drawn while each is tested
against every assignment still possible (14,400 at first, as bit sets per question cached per configuration), and
the question budget is then the depth of a balanced question tree over the assignments left. Both are kept: the count of assignments left is what the level
promises and the budget must be one the best questioner meets.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.verifiers.moves import read_command

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
CATEGORIES = {
    "colour": ("red", "blue", "green", "white", "yellow", "black"),
    "job": ("baker", "doctor", "farmer", "pilot", "tailor", "smith"),
    "pet": ("cat", "dog", "fish", "parrot", "horse", "rabbit"),
    "drink": ("tea", "coffee", "milk", "juice", "water", "cocoa"),
}
PHRASES = {"colour": "the owner of the {} house", "job": "the {}", "pet": "the owner of the {}",
           "drink": "the {} drinker"}
FILLERS = frozenset(["is", "are", "does", "do", "the", "a", "an", "of", "owner", "house", "person", "same", "as",
                     "keeps", "keep", "own", "owns", "drinks", "drink", "drinker", "lives", "live", "in", "with",
                     "ask", "who", "one", "that", "also", "=", "?", "'s", "s"])
SOLUTION_WORDS = frozenset(["solution", "assignment", "is", "the", "final"])

Fact = tuple[int, int]  # (category index, value index); category 0 is the people
Solution = tuple[tuple[int, ...], ...]  # per non-anchor category, the owner (person index) of each value
Question = tuple[Fact, Fact]


@register
class LogicGridQuestions(MultiTurnTask):
    id = "games/logic_grid_questions"
    family = "games"
    description = "Find a hidden logic-grid assignment by yes/no questions on a budget, using the clues, then state it."
    tags = ("games", "multi-turn", "deduction", "logic-grid", "question-asking", "imperfect-information")
    version = 2  # v2: only a deduced assignment wins (a guess while several fit loses); five people at every level
    one_move_per_turn = True  # a reply holding several questions is refused (checked by the kit)
    hidden_information = True
    public_keys = ("people", "categories", "values", "clues")

    @dataclass(frozen=True)
    class Config:
        people: int
        categories: int  # besides the people
        left: tuple[int, int]  # how many assignments the clues leave (low, high)

    # five people at every level: with three or four, a random question is answered yes often enough (1 in 3 or 4)
    # that random questions settled the assignment in 0.15-0.2 (3 people) and 0.1-0.12 (4 people) of the games
    presets = (Config(5, 2, (6, 10)), Config(5, 2, (10, 24)), Config(5, 2, (20, 48)), Config(5, 2, (40, 100)),
               Config(5, 2, (100, 220)))
    bounded = "the assignments are enumerated, and their number grows factorially with the people"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kinds = rng.sample(sorted(CATEGORIES), config.categories)
        names = list(NAMES[:config.people])
        values = [rng.sample(CATEGORIES[kind], config.people) for kind in kinds]
        hidden = tuple(tuple(rng.sample(range(config.people), config.people)) for _ in kinds)
        clues = retry(lambda: _draw_clues(rng, hidden, config), what="clues leaving the level's number of assignments")
        data: dict[str, Any] = {"people": names, "categories": kinds, "values": values, "clues": clues,
                                "hidden": [list(owners) for owners in hidden]}
        left = _possible(config.people, len(kinds), _frozen_clues(clues))
        data["left"] = len(left)
        masks = _question_masks(config.people, len(kinds), _frozen_clues(clues))
        data["budget"] = _depth((1 << len(left)) - 1, masks) + 1
        listing = "\n".join(f"- {kind}: {', '.join(vals)}" for kind, vals in zip(kinds, values))
        clue_lines = "\n".join(f"- {_clue_text(data, clue)}" for clue in clues)
        group = " ".join(["NAME"] + ["VALUE"] * len(kinds))
        prompt = (
            f"{', '.join(names[:-1])} and {names[-1]} each have one value of every category below, no two of them "
            f"the same value:\n{listing}\n\nClues (all true):\n{clue_lines}\n\n"
            "Each turn, either ask one yes/no question linking two values of different categories, for example: "
            "Is Alice the baker? (or: Is the owner of the red house the owner of the cat?), and you get a true "
            f"answer; or state the whole assignment, one group per person, for example: solution: {group}; {group}; "
            "... Stating it ends the game, and it wins only when it is right and the clues and your answers leave "
            "no other assignment possible (a guess while several still fit loses, even a right one). "
            f"You have {data['budget']} turns in all; an unreadable question also takes a turn."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return math.log2(problem.data["left"]) + problem.data["budget"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"answers": []}  # [category, value, category, value, yes] per question answered

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        read = read_move(move, data)
        if read is None:
            return Outcome.invalid(state, "ask one question linking two values of different categories, such as Is "
                                          "Alice the baker?, or state the solution: solution: NAME VALUE VALUE; ...")
        hidden = _frozen_solution(data["hidden"])
        if read[0] == "solution":
            if read[1] != hidden:
                return Outcome(state, Verdict.wrong("wrong assignment"), "That is not the hidden assignment. Game over.",
                               True)
            fits = _remaining(data, _read_answers(state["answers"]))[1].bit_count()
            if fits > 1:
                return Outcome(state, Verdict.wrong(f"a guess: {fits} assignments still fit"),
                               f"That is the hidden assignment, but a guess: {fits} assignments still fit the clues "
                               "and the answers. Game over.", True)
            return Outcome(state, Verdict.right(), "That is the hidden assignment. You win!", True)
        first, second = read[1]
        truth = _linked(hidden, first, second)
        after = {"answers": [*state["answers"], [*first, *second, truth]]}
        said = _fact_text(data, first, capital=True) + (" is " if truth else " is not ") + _fact_text(data, second)
        return Outcome.goes_on(after, f"{'Yes' if truth else 'No'}: {said}.", "answered")

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        return read_move(piece, problem.data) is not None

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        """The balanced questioner's move (it wins within the budget, which is its decision tree's depth)."""
        return _balanced_move(problem.data, _read_answers(state["answers"]))

    def honest_move(self, view: View) -> str:
        """Ask the balanced question over the assignments the clues and the answers read so far leave; state the
        last one."""
        answers = []
        for move, observation in view.history:
            read = read_move(move, view.public)
            if read is not None and read[0] == "question" and observation.split(":")[0] in ("Yes", "No"):
                answers.append((*read[1], observation.startswith("Yes")))
        return _balanced_move(view.public, answers)

    def heuristics(self) -> dict[str, Policy]:
        return {"ask person by person, ignoring the clues": _clueless}


def _read_answers(rows: list[list[Any]]) -> list[tuple[Fact, Fact, bool]]:
    return [((c1, v1), (c2, v2), bool(yes)) for c1, v1, c2, v2, yes in rows]


def _remaining(data: dict[str, Any], answers: list[tuple[Fact, Fact, bool]]) -> tuple[tuple[Solution, ...], int]:
    """The clues' assignments and, as a bit set over them, those the ``answers`` leave."""
    people, kinds = len(data["people"]), len(data["categories"])
    clues = _frozen_clues(data["clues"])
    left, masks, questions = _possible(people, kinds, clues), _question_masks(people, kinds, clues), \
        _questions(people, kinds)
    remaining = (1 << len(left)) - 1
    for first, second, yes in answers:
        mask = masks[questions.index((first, second))]
        remaining &= mask if yes else ~mask
    return left, remaining


def _balanced_move(data: dict[str, Any], answers: list[tuple[Fact, Fact, bool]]) -> str:
    left, remaining = _remaining(data, answers)
    if remaining.bit_count() == 1:
        return _solution_text(data, left[remaining.bit_length() - 1])
    people, kinds = len(data["people"]), len(data["categories"])
    masks = _question_masks(people, kinds, _frozen_clues(data["clues"]))
    first, second = _questions(people, kinds)[_balanced(remaining, masks)]
    return f"Is {_fact_text(data, first)} {_fact_text(data, second)}?"


def read_move(move: str, data: dict[str, Any]) -> tuple[str, Any] | None:
    """``("question", (fact, fact))`` or ``("solution", solution)`` from a reply, or None."""
    lookup = {name.lower(): (0, i) for i, name in enumerate(data["people"])}
    for c, values in enumerate(data["values"], start=1):
        lookup.update({value: (c, i) for i, value in enumerate(values)})
    people = len(data["people"])

    def parse(words: list[str]) -> tuple[str, Any] | None:
        tokens = [w.strip("?'\"()").removesuffix("'s").removesuffix("’s") for w in words]
        tokens = [t for t in tokens if t]
        facts = [lookup[t] for t in tokens if t in lookup]
        if tokens and tokens[0] in ("solution", "assignment") or len(facts) > 2:
            if any(t not in lookup and t not in SOLUTION_WORDS for t in tokens):
                return None
            solution = _read_solution(facts, people, len(data["values"]))
            return ("solution", solution) if solution is not None else None
        if len(facts) != 2 or any(t not in lookup and t not in FILLERS for t in tokens):
            return None
        first, second = sorted(facts)
        if first[0] == second[0]:
            return None
        return ("question", (first, second))

    return read_command(move, parse)


def _read_solution(facts: list[Fact], people: int, kinds: int) -> Solution | None:
    """Groups that each start with a person and hold one value of every category, every value once."""
    if len(facts) != people * (kinds + 1):
        return None
    owners = [[-1] * people for _ in range(kinds)]
    person = -1
    seen_people: set[int] = set()
    for category, value in facts:
        if category == 0:
            if value in seen_people:
                return None
            person = value
            seen_people.add(value)
            continue
        if person < 0 or owners[category - 1][value] >= 0 or \
                any(owners[category - 1][v] == person for v in range(people)):
            return None
        owners[category - 1][value] = person
    if any(-1 in row for row in owners):
        return None
    return tuple(tuple(row) for row in owners)


def _owner(solution: Solution, fact: Fact) -> int:
    category, value = fact
    return value if category == 0 else solution[category - 1][value]


def _linked(solution: Solution, first: Fact, second: Fact) -> bool:
    return _owner(solution, first) == _owner(solution, second)


def _frozen_solution(rows: list[list[int]]) -> Solution:
    return tuple(tuple(row) for row in rows)


def _frozen_clues(clues: list[list[Any]]) -> tuple[tuple[bool, Fact, Fact], ...]:
    return tuple((bool(yes), (a[0], a[1]), (b[0], b[1])) for yes, a, b in clues)


@functools.lru_cache(maxsize=256)
def _possible(people: int, kinds: int, clues: tuple[tuple[bool, Fact, Fact], ...]) -> tuple[Solution, ...]:
    """Every assignment the clues allow, in :func:`_everything`'s order."""
    everything, yes_masks = _everything(people, kinds), _yes_masks(people, kinds)
    allowed = (1 << len(everything)) - 1
    for yes, a, b in clues:
        mask = yes_masks[min(a, b), max(a, b)]
        allowed &= mask if yes else ~mask
    bits = bin(allowed)[:1:-1]  # bit i of the set at place i
    places = []
    place = bits.find("1")
    while place >= 0:
        places.append(place)
        place = bits.find("1", place + 1)
    return tuple(everything[i] for i in places)


# per person, a bytes.translate table writing "1" for that person's index and "0" for any other
_DIGIT_OF = [bytes(ord("1") if byte == person else ord("0") for byte in range(256)) for person in range(len(NAMES))]


@functools.lru_cache(maxsize=8)
def _yes_masks(people: int, kinds: int) -> dict[Question, int]:
    """Per question, the bit set of :func:`_everything`'s assignments on which the answer is yes. Cached per
    configuration: drawing clues and listing what they allow are then ANDs of these sets rather than a test of
    every assignment (that test was most of generation)."""
    everything = _everything(people, kinds)
    full = (1 << len(everything)) - 1
    held: dict[Fact, list[int]] = {}  # fact -> per person, the assignments where that person holds it
    for c in range(kinds + 1):
        for v in range(people):
            if c == 0:
                held[(c, v)] = [full if person == v else 0 for person in range(people)]
            else:
                owners = bytes(solution[c - 1][v] for solution in reversed(everything))  # the last assignment first
                held[(c, v)] = [int(owners.translate(_DIGIT_OF[person]), 2) for person in range(people)]
    return {(a, b): functools.reduce(operator.or_, (x & y for x, y in zip(held[a], held[b])))
            for a, b in _questions(people, kinds)}


@functools.lru_cache(maxsize=16)
def _questions(people: int, kinds: int) -> tuple[Question, ...]:
    facts = [(c, v) for c in range(kinds + 1) for v in range(people)]
    return tuple((a, b) for a, b in itertools.combinations(facts, 2) if a[0] < b[0])


@functools.lru_cache(maxsize=256)
def _question_masks(people: int, kinds: int, clues: tuple[tuple[bool, Fact, Fact], ...]) -> tuple[int, ...]:
    """Per question (in :func:`_questions`' order), the bit set of the clues' assignments on which the answer is yes."""
    facts = [(c, v) for c in range(kinds + 1) for v in range(people)]
    place = {fact: i for i, fact in enumerate(facts)}
    owners = [[_owner(s, fact) for fact in facts] for s in _possible(people, kinds, clues)]
    return tuple(sum(1 << i for i, row in enumerate(owners) if row[place[a]] == row[place[b]])
                 for a, b in _questions(people, kinds))


def _balanced(remaining: int, masks: tuple[int, ...]) -> int:
    """The index of the question whose yes and no sides split the ``remaining`` bit set most evenly (the first such)."""
    total = remaining.bit_count()
    even = total & 1  # no split is more even than this: the first question reaching it is the answer
    chosen, best = 0, total + 1
    for q, mask in enumerate(masks):
        gap = abs(2 * (remaining & mask).bit_count() - total)
        if gap < best:
            chosen, best = q, gap
            if gap == even:
                break
    return chosen


def _depth(remaining: int, masks: tuple[int, ...]) -> int:
    """The most questions the balanced questioner asks before one assignment of ``remaining`` is left."""
    if remaining.bit_count() <= 1:
        return 0
    question = _balanced(remaining, masks)
    return 1 + max(_depth(remaining & masks[question], masks), _depth(remaining & ~masks[question], masks))


def _draw_clues(rng: random.Random, hidden: Solution, config: LogicGridQuestions.Config) -> list[list[Any]] | None:
    """True clues, mostly negative, added while each keeps at least ``low`` assignments; None unless the count
    ends within the level's range."""
    people, kinds = config.people, config.categories
    low, high = config.left
    facts = list(_questions(people, kinds))
    rng.shuffle(facts)
    clues: list[list[Any]] = []
    yes_masks = _yes_masks(people, kinds)
    count = len(_everything(people, kinds))
    left = (1 << count) - 1  # the assignments still possible, as a bit set over _everything
    for first, second in facts:
        if count <= high:
            break
        yes = _linked(hidden, first, second)
        if yes and rng.random() < 0.7:
            continue  # positive clues cut deep: keep them rare
        kept = left & (yes_masks[first, second] if yes else ~yes_masks[first, second])
        if low <= kept.bit_count() < count:
            clues.append([yes, list(first), list(second)])
            left, count = kept, kept.bit_count()
    return clues if low <= count <= high else None


@functools.lru_cache(maxsize=8)
def _everything(people: int, kinds: int) -> tuple[Solution, ...]:
    return tuple(itertools.product(itertools.permutations(range(people)), repeat=kinds))


def _fact_text(data: dict[str, Any], fact: Fact, capital: bool = False) -> str:
    category, value = fact
    if category == 0:
        return data["people"][value]
    text = PHRASES[data["categories"][category - 1]].format(data["values"][category - 1][value])
    return text[0].upper() + text[1:] if capital else text


def _clue_text(data: dict[str, Any], clue: list[Any]) -> str:
    yes, first, second = clue
    return f"{_fact_text(data, tuple(first), capital=True)} is {'' if yes else 'not '}{_fact_text(data, tuple(second))}."


def _solution_text(data: dict[str, Any], solution: Solution) -> str:
    groups = []
    for person, name in enumerate(data["people"]):
        groups.append(" ".join([name] + [data["values"][c][row.index(person)] for c, row in enumerate(solution)]))
    return "solution: " + "; ".join(groups)


def _clueless(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
    """Person by person, ask each value of each category in turn until a yes (the last value inferred), ignoring
    the clues; state the assignment once every person's values are known (or the turns are nearly out)."""
    data = problem.data
    people, kinds = len(data["people"]), len(data["values"])
    known: dict[tuple[int, int], int] = {}  # (category, person) -> value
    ruled_out: set[tuple[int, int, int]] = set()
    for move, observation in history:
        read = read_move(move, data)
        if read is None or read[0] != "question":
            continue
        (_, person), (category, value) = read[1]
        if observation.startswith("Yes"):
            known[(category, person)] = value
        else:
            ruled_out.add((category, person, value))
    for category in range(1, kinds + 1):
        for person in range(people):
            if (category, person) in known:
                continue
            free = [v for v in range(people) if (category, person, v) not in ruled_out
                    and v not in [known.get((category, p)) for p in range(people)]]
            if len(free) == 1:
                known[(category, person)] = free[0]
                continue
            if len(history) + 1 < data["budget"]:
                return f"Is {data['people'][person]} {_fact_text(data, (category, free[0]))}?"
    rows = []
    for category in range(1, kinds + 1):
        owners = [-1] * people
        for person in range(people):
            value = known.get((category, person))
            if value is not None and owners[value] < 0:
                owners[value] = person
        spare = [p for p in range(people) if p not in owners]
        rows.append(tuple(p if p >= 0 else spare.pop() for p in owners))
    return _solution_text(data, tuple(rows))
