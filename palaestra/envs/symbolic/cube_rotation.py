"""Colour-cube rotations: after turning a coloured cube several times, which colour faces a given side?

A cube has six differently coloured faces (top, bottom, front, back, left, right). Whole-cube
rotations, each defined in the prompt by where the faces go (turn left or right about the
vertical axis, tip forward or backward, roll left or right, and from level 2 the half turn
"turn around"), are applied in sequence; the question asks which colour ends on one side. No
move is followed by its inverse, and the whole sequence never brings the cube back to its start.
The asked face and the face its answer colour starts on are drawn uniformly and independently
first (the moves are drawn to fit), so neither "the same face" nor any fixed face-to-face guess
beats chance. The answer is one colour name (unique: computed by applying the rotations).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.choices import read_option

FACES = ("top", "bottom", "front", "back", "left", "right")
COLOURS = ("red", "blue", "green", "yellow", "white", "orange", "purple", "black", "pink", "brown")
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


@register
class CubeRotation(Task):
    id = "symbolic/cube_rotation"
    version = 2
    family = "symbolic"
    description = "Track the faces of a coloured cube through a sequence of whole-cube rotations."
    tags = ("symbolic", "spatial", "rotation")

    @dataclass(frozen=True)
    class Config:
        moves: tuple[int, int]
        kinds: tuple[str, ...]

    def config(self, level: int) -> Config:
        basic = ("turn left", "turn right", "tip forward", "tip backward")
        every = tuple(MOVES)
        return [
            self.Config(moves=(1, 2), kinds=basic),
            self.Config(moves=(2, 3), kinds=(*basic, "roll left", "roll right")),
            self.Config(moves=(4, 5), kinds=every),
            self.Config(moves=(6, 7), kinds=every),
            self.Config(moves=(8, 10), kinds=every),
        ][level]
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, str], list[str], dict[str, str], str] | None:
            start = dict(zip(FACES, rng.sample(COLOURS, 6)))
            # the asked face and the face its final colour starts on are drawn first, independently: left
            # to chance, a face the moves leave alone answers itself, and "the colour that started on face
            # X" would beat guessing by far (31% against 17% at level 0)
            face, origin = rng.choice(FACES), rng.choice(FACES)
            for _ in range(60):
                moves: list[str] = []
                for _ in range(rng.randint(*config.moves)):
                    options = [m for m in config.kinds if not moves or m != INVERSE[moves[-1]]]
                    moves.append(rng.choice(options))
                end = rotate(start, moves)
                if end != start and end[face] == start[origin]:
                    return start, moves, end, face
            return None

        start, moves, end, face = retry(draw, what="a sequence of rotations that changes the cube")
        used = sorted(set(moves), key=list(MOVES).index)
        legend = "\n".join(f"- {m}: {MOVES[m][0]}" for m in used)
        layout = ", ".join(f"{f} {c}" for f, c in start.items())
        steps = "\n".join(f"{i}. {m}" for i, m in enumerate(moves, 1))
        prompt = (
            f"A cube sits on a table in front of you. Its faces are coloured: {layout}.\n"
            f"The whole cube is rotated, step by step (sides are named as seen by you, who do not move):\n{legend}\n\n"
            f"The rotations, in order:\n{steps}\n\n"
            f"After all of them, what colour is the {face} face? Answer with one colour name, for example: "
            "purple"  # a fixed placeholder: independent of the answer
        )
        return Problem(prompt=prompt, answer=end[face], data={"start": start, "moves": moves, "face": face})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        colours = sorted(data["start"].values())
        said = read_option(answer, {c: (c, f"the {c} face", f"{c} face", f"it is {c}", f"it's {c}") for c in colours})
        if said is None:
            return Verdict.unparsed(f"expected one of: {', '.join(colours)}")
        return Verdict.judge(said == rotate(data["start"], data["moves"])[data["face"]])

    def difficulty(self, problem: Problem) -> float:
        """Rotations applied."""
        return float(len(problem.data["moves"]))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.upper(), gold.capitalize(), f"**{gold}**",
                f"{gold.capitalize()}.", f"It is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        others = [c for c in problem.data["start"].values() if c != gold]
        return [rng.choice(others), f"{gold} or {others[0]}", "grey"]


def rotate(start: dict[str, str], moves: list[str]) -> dict[str, str]:
    """The colour on each face after the moves."""
    cube = dict(start)
    for move in moves:
        goes = MOVES[move][1]
        cube = {goes.get(face, face): colour for face, colour in cube.items()}
    return cube
