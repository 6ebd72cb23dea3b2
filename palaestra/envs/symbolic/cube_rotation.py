"""Colour-cube rotations: after turning a coloured cube several times, which colour is on each side?

A cube has six differently coloured faces (top, bottom, front, back, left, right). Whole-cube
rotations, each defined in the prompt by where the faces go (turn left or right about the
vertical axis, tip forward or backward, roll left or right, and from level 2 the half turn
"turn around"), are applied in sequence; the answer is the whole final cube: the colour on every
side (``top = red, bottom = blue, front = ..., back = ..., left = ..., right = ...``), graded by
applying the rotations (unique).

Version 3: the question asked for the colour of one side, six possible answers, so a constant
colour earned 0.12-0.14 at every level (the top included) and a guess 0.17. Now the answer is the
cube's final orientation, one of 24: a blind guess of the orientation earns 1/24 ≈ 0.04 (1/23
knowing the start is never the answer, 1/20 at level 0), a constant answer about nothing (the colours
are drawn per problem). The orientation is drawn uniformly first among those the level's moves can reach,
then a sequence is drawn to fit, so no fixed orientation (one constant turn of the start) is
favoured. No move is followed by its inverse, and a sequence is redrawn when a cheap rule gives its
final orientation: the start unchanged, only the first or only the last move applied, the moves
applied in reverse order, each move applied the other way (declared as ``heuristics``; each scores 0).
Level 0 has two or three moves (one move made "only the first move" the answer) and uses the rolls
(turns and tips alone leave 12 fair orientations: one fixed orientation would earn 1/12); it reaches 20
orientations, the other levels all 23, each drawn equally often.

Version 4: a sequence is also redrawn when misreading one kind of move ends where it does: the turns, the tips
or the rolls each applied the other way, or the half turns left out (``misreadings``; on a sequence without
that kind of move such a reader is solving it). Before, on the sequences they changed, these misreadings
earned up to 0.26 (the turns reversed at level 4), 0.21 (the rolls) and 0.18 (the half turns skipped), against
1/23 for a guess; now 0.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment

FACES = ("top", "bottom", "front", "back", "left", "right")
COLOURS = ("red", "blue", "green", "yellow", "white", "orange", "purple", "black", "pink", "brown")
# the prompt's example: colour names no cube uses, so it is never a problem's answer
EXAMPLE = "top = gold, bottom = silver, front = grey, back = navy, left = teal, right = ivory"
# each move: (its description, where each face's colour goes)
MOVES = {
    "turn left": ("the front face moves to the left side (front to left, left to back, back to right, right to front)",
                  {"front": "left", "left": "back", "back": "right", "right": "front"}),
    "turn right": ("the front face moves to the right side (front to right, right to back, back to left, left to "
                   "front)", {"front": "right", "right": "back", "back": "left", "left": "front"}),
    "tip forward": ("the top face moves to the front (top to front, front to bottom, bottom to back, back to top)",
                    {"top": "front", "front": "bottom", "bottom": "back", "back": "top"}),
    "tip backward": ("the top face moves to the back (top to back, back to bottom, bottom to front, front to top)",
                     {"top": "back", "back": "bottom", "bottom": "front", "front": "top"}),
    "roll left": ("the top face moves to the left side (top to left, left to bottom, bottom to right, right to top)",
                  {"top": "left", "left": "bottom", "bottom": "right", "right": "top"}),
    "roll right": ("the top face moves to the right side (top to right, right to bottom, bottom to left, left to "
                   "top)", {"top": "right", "right": "bottom", "bottom": "left", "left": "top"}),
    "turn around": ("a half turn about the vertical axis (front and back swap, left and right swap)",
                    {"front": "back", "back": "front", "left": "right", "right": "left"}),
}
INVERSE = {"turn left": "turn right", "turn right": "turn left", "tip forward": "tip backward",
           "tip backward": "tip forward", "roll left": "roll right", "roll right": "roll left",
           "turn around": "turn around"}
TRIES_PER_TARGET = 400  # a fair sequence for a reachable target is found in ~25 tries on average
MAX_ENUMERATED = 2_000  # sequences enumerated to find the reachable targets (levels 0 and 1)
MAX_ANSWER_CHARS = 2_000
# "the top face", "Top side" -> "top"; a list's bullet or number; a table's row "| top | red |"
_FACE_PHRASE = re.compile(r"\b(?:the\s+)?(top|bottom|front|back|left|right)(?:\s+(?:face|side))?\b", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•]|\d{1,2}[.)])\s+")
_RULE_CELL = re.compile(r":?-{2,}:?")
_HEADER_WORDS = frozenset({"face", "side", "colour", "color", "final colour", "final color"})


def cheap_rules() -> dict[str, Callable[[list[str]], list[str]]]:
    """The moves a lazy policy applies instead of the sequence, by name: none may give the answer."""
    return {
        "the start orientation unchanged": lambda moves: [],
        "only the first move applied": lambda moves: moves[:1],
        "only the last move applied": lambda moves: moves[-1:],
        "the moves applied in reverse order": lambda moves: moves[::-1],
        "each move applied the other way": lambda moves: [INVERSE[m] for m in moves],
    }


def misreadings() -> dict[str, Callable[[list[str]], list[str]]]:
    """One kind of move misread (turned the wrong way, or the half turn skipped), the rest applied right, by name:
    none may give the answer of a sequence it changes (on a sequence without that kind it is solving it)."""
    def reversed_kind(kind: str) -> Callable[[list[str]], list[str]]:
        return lambda moves: [INVERSE[m] if m.startswith(kind) else m for m in moves]

    return {**{f"the {kind}s applied the other way": reversed_kind(kind) for kind in ("turn", "tip", "roll")},
            "the half turns left out": lambda moves: [m for m in moves if m != "turn around"]}


def reachable(kinds: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every orientation but the start that ``kinds`` reach, as the face each start face ends on (sorted)."""
    start = tuple(FACES)
    seen = {start}
    frontier = [start]
    while frontier:
        frontier = [tuple(MOVES[m][1].get(face, face) for face in cube) for cube in frontier for m in kinds]
        frontier = sorted({cube for cube in frontier if cube not in seen})
        seen.update(frontier)
    return sorted(seen - {start})


def fair(moves: list[str], start: dict[str, str]) -> bool:
    """Whether ``moves`` change the cube and no cheap rule, and no misreading that changes them, ends where they
    do."""
    end = rotate(start, moves)
    return all(rotate(start, rule(moves)) != end for rule in cheap_rules().values()) and \
        all(rotate(start, misread) != end for rule in misreadings().values() if (misread := rule(moves)) != moves)


@lru_cache(maxsize=None)
def targets(lengths: tuple[int, int], kinds: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The orientations a fair sequence of these lengths and kinds ends on: enumerated for short configs (two or
    three moves reach 20 of the 23 turned orientations fairly), every turned orientation for longer ones (the
    tests check that each is drawn)."""
    counts = [len(kinds) * (len(kinds) - 1) ** (n - 1) for n in range(lengths[0], lengths[1] + 1)]
    if sum(counts) > MAX_ENUMERATED:
        return reachable(kinds)
    start = dict(zip(FACES, FACES))
    ends = set()
    for n in range(lengths[0], lengths[1] + 1):
        for moves in itertools.product(kinds, repeat=n):
            if all(moves[i + 1] != INVERSE[moves[i]] for i in range(n - 1)) and fair(list(moves), start):
                where = {colour: face for face, colour in rotate(start, list(moves)).items()}
                ends.add(tuple(where[face] for face in FACES))  # the colours are the start faces' names
    return sorted(ends)


@register
class CubeRotation(Task):
    id = "symbolic/cube_rotation"
    version = 4  # v4: the cheap rules also misread one kind of move (its direction, or the half turn)
    family = "symbolic"
    description = "Track the faces of a coloured cube through a sequence of whole-cube rotations."
    tags = ("symbolic", "spatial", "rotation")

    @dataclass(frozen=True)
    class Config:
        moves: tuple[int, int]
        kinds: tuple[str, ...]

    def config(self, level: int) -> Config:
        quarter_turns = ("turn left", "turn right", "tip forward", "tip backward", "roll left", "roll right")
        every = tuple(MOVES)
        # level 0 uses the rolls too: with turns and tips alone, turning each move the other way is a half turn
        # of the whole sequence about the front-back axis, and with the other cheap rules ruled out only 12
        # orientations were left (one fixed orientation would have earned 1/12)
        return [
            self.Config(moves=(2, 3), kinds=quarter_turns),
            self.Config(moves=(3, 4), kinds=quarter_turns),
            self.Config(moves=(4, 5), kinds=every),
            self.Config(moves=(6, 7), kinds=every),
            self.Config(moves=(8, 10), kinds=every),
        ][level]
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        start = dict(zip(FACES, rng.sample(COLOURS, 6)))
        ends = targets(config.moves, config.kinds)

        def draw() -> list[str] | None:
            # the final orientation is drawn first, uniformly: left to the moves, a few orientations (a single
            # half turn, one move's) would come up far more often than one in 23
            target = rng.choice(ends)
            goal = {end: start[face] for face, end in zip(FACES, target)}
            for _ in range(TRIES_PER_TARGET):
                moves: list[str] = []
                for _ in range(rng.randint(*config.moves)):
                    options = [m for m in config.kinds if not moves or m != INVERSE[moves[-1]]]
                    moves.append(rng.choice(options))
                if rotate(start, moves) == goal and fair(moves, start):
                    return moves
            return None

        moves = retry(draw, what="a sequence of rotations no cheap rule follows")
        used = sorted(set(moves), key=list(MOVES).index)
        legend = "\n".join(f"- {m}: {MOVES[m][0]}" for m in used)
        layout = ", ".join(f"{f} {c}" for f, c in start.items())
        steps = "\n".join(f"{i}. {m}" for i, m in enumerate(moves, 1))
        prompt = (
            f"A cube sits on a table in front of you. Its faces are coloured: {layout}.\n"
            f"The whole cube is rotated, step by step (sides are named as seen by you, who do not move):\n{legend}\n\n"
            f"The rotations, in order:\n{steps}\n\n"
            "After all of them, what colour is on each side of the cube? Give all six sides, each with its colour "
            f"(in any order), for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=describe(rotate(start, moves)), data={"start": start, "moves": moves})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        said = read_cube(answer)
        if said is None:
            return Verdict.unparsed("expected the colour of each of the six sides, e.g. " + EXAMPLE)
        return Verdict.judge(said == rotate(data["start"], data["moves"]))

    def difficulty(self, problem: Problem) -> float:
        """Rotations applied."""
        return float(len(problem.data["moves"]))

    def spellings(self, problem: Problem) -> list[str]:
        end = rotate(problem.data["start"], problem.data["moves"])
        pairs = list(end.items())
        return [
            *super().spellings(problem),
            ", ".join(f"{f}: {c}" for f, c in reversed(pairs)),
            "\n".join(f"- {f.capitalize()}: {c.capitalize()}" for f, c in pairs),
            "| Face | Colour |\n|---|---|\n" + "\n".join(f"| {f} | {c} |" for f, c in pairs),
            "; ".join(f"the {f} face is {c.upper()}" for f, c in pairs) + ".",
            rf"\boxed{{{describe(end)}}}",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        end = rotate(data["start"], data["moves"])
        swapped = dict(end)
        first, second = rng.sample(FACES, 2)
        swapped[first], swapped[second] = end[second], end[first]
        hedged = describe(end).replace(end["top"], f"{end['top']} or {end['bottom']}", 1)
        return [describe(swapped), describe(data["start"]), hedged, describe({**end, "left": "grey"}),
                describe(end).rsplit(",", 1)[0], f"{describe(end)}. Or: {describe(swapped)}", EXAMPLE]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Cheap rules: the cube after other moves than the sequence (redrawn away: each scores 0)."""
        def policy(rule: Callable[[list[str]], list[str]]) -> Callable[[Problem], str]:
            return lambda problem: describe(rotate(problem.data["start"], rule(problem.data["moves"])))

        return {name: policy(rule) for name, rule in cheap_rules().items()}


def rotate(start: dict[str, str], moves: list[str]) -> dict[str, str]:
    """The colour on each face after the moves."""
    cube = dict(start)
    for move in moves:
        goes = MOVES[move][1]
        cube = {goes.get(face, face): colour for face, colour in cube.items()}
    return cube


def describe(cube: dict[str, str]) -> str:
    """The answer's form: ``top = red, bottom = blue, ...`` in the order of ``FACES``."""
    return ", ".join(f"{face} = {cube[face]}" for face in FACES)


def _colour(text: str) -> str | None:
    word = text.strip(" *`'\"").lower()
    return word if word in COLOURS else None


def _plain(text: str) -> str:
    """The answer with lists and tables written as ``face: colour`` lines and "the top face" as "top"."""
    lines = []
    for line in text.split("\n"):
        line = _BULLET.sub("", line.strip())
        if line.startswith("|") and line.endswith("|") and len(line) > 1:
            cells = [cell.strip() for cell in line[1:-1].split("|")]
            if all(_RULE_CELL.fullmatch(cell) for cell in cells):
                continue  # the rule under a table's header
            if all(cell.lower() in _HEADER_WORDS for cell in cells):
                continue  # the header
            line = ": ".join(cells)
        lines.append(line)
    return _FACE_PHRASE.sub(lambda m: m.group(1), "\n".join(lines))


def read_cube(text: str) -> dict[str, str] | None:
    """The colour said for each of the six faces, or ``None`` (a face left out or said twice differently, a
    word that is not a colour name, anything else the grammar cannot account for)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    return read_assignment(_plain(text), FACES, _colour)
