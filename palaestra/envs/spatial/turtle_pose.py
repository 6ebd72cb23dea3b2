"""Where a turtle ends and which way it faces after a program of moves, turns and repeated blocks.

The turtle starts at (0, 0) facing north on a square grid (x grows to the east, y to the north). The program
is a list of commands: ``forward n`` and ``back n`` (move n cells along the heading or against it, without
turning), ``left`` and ``right`` (a quarter turn on the spot), ``turn around`` (a half turn), and, at upper
levels, ``repeat k [ ... ]`` blocks that run their commands k times. The final pose is a
function of the program, so the answer is unique; the program is redrawn until the turtle does not end where
it started facing north, so the start is never right, and (version 3) until reading ``back n`` as a half turn
and n steps, or swapping left and right, gives another pose (those misreadings answered 0.42 and 0.21 of
level 0). The verifier reads a position and a heading, such as
``(3, -2) east``, and says which of the two is wrong.

Difficulty: the commands executed (blocks unrolled) plus the turns among them, on the drawn program.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer

EXAMPLE = "(4, -1) west"  # a fixed placeholder of the right shape: never derived from the answer
HEADINGS = ("north", "east", "south", "west")
STEPS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}
_AT = r"(?:(?:at|position|pos)\s*:?\s*)?"  # "position (3, -2), heading east"
_POSE = re.compile(
    _AT + r"\(?\s*x?\s*=?\s*([-+−]?\d{1,9})\s*[,;]\s*y?\s*=?\s*([-+−]?\d{1,9})\s*\)?\s*[,;]?\s*"
    r"(?:(?:and\s+)?(?:facing|heading)\s*:?\s*)?(north|east|south|west|[NESW])",
    re.IGNORECASE,
)
_HEADING_FIRST = re.compile(  # "west, (3, -2)", "facing west at (3, -2)": the position in brackets
    r"(?:(?:facing|heading)\s*:?\s*)?(north|east|south|west|[NESW])\s*[,;]?\s*" + _AT
    + r"\(\s*x?\s*=?\s*([-+−]?\d{1,9})\s*[,;]\s*y?\s*=?\s*([-+−]?\d{1,9})\s*\)",
    re.IGNORECASE,
)
_SHORT = {"n": "north", "e": "east", "s": "south", "w": "west"}

Program = list  # commands: ["forward", n], ["back", n], ["left"], ["right"], ["around"], ["repeat", k, Program]


def run(program: Program, pose: tuple[int, int, int] = (0, 0, 0), *, back_turns: bool = False,
        mirrored: bool = False) -> tuple[tuple[int, int, int], int, int]:
    """The pose ``(x, y, heading index)`` after ``program``, the commands executed and the turns among them
    (or under a misreading: ``back n`` as a half turn then ``n`` steps, ``back_turns``; left and right
    swapped, ``mirrored``)."""
    x, y, heading = pose
    executed = turned = 0
    quarter = {"left": 1, "right": 3, "around": 2} if mirrored else {"left": 3, "right": 1, "around": 2}
    for command in program:
        if command[0] == "repeat":
            for _ in range(command[1]):
                (x, y, heading), inner, inner_turns = run(command[2], (x, y, heading), back_turns=back_turns,
                                                          mirrored=mirrored)
                executed, turned = executed + inner, turned + inner_turns
            continue
        executed += 1
        if command[0] in ("forward", "back"):
            if command[0] == "back" and back_turns:
                heading = (heading + 2) % 4
            dx, dy = STEPS[HEADINGS[heading]]
            sign = -1 if command[0] == "back" and not back_turns else 1
            x, y = x + sign * command[1] * dx, y + sign * command[1] * dy
        else:
            heading = (heading + quarter[command[0]]) % 4
            turned += 1
    return (x, y, heading), executed, turned


def written(program: Program) -> str:
    """The program in the prompt's notation: commands separated by commas, blocks in brackets."""
    parts = []
    for command in program:
        if command[0] == "repeat":
            parts.append(f"repeat {command[1]} [{written(command[2])}]")
        elif command[0] in ("forward", "back"):
            parts.append(f"{command[0]} {command[1]}")
        else:
            parts.append("turn around" if command[0] == "around" else command[0])
    return ", ".join(parts)


def read_pose(text: str) -> tuple[int, int, str] | None:
    """``(x, y, heading)`` from ``(3, -2) east``, ``x = 3, y = -2, facing east``, ``3, -2, E``, ``position (3, -2),
    heading east``, ``east, (3, -2)``; else None.

    >>> read_pose("position (3, -2), heading east"), read_pose("facing E at (3, -2)"), read_pose("east 3, -2")
    ((3, -2, 'east'), (3, -2, 'east'), None)
    """

    def read(s: str) -> tuple[int, int, str] | None:
        if len(s) > 200:
            return None
        s = s.strip().rstrip(".")
        match = _POSE.fullmatch(s)
        if match:
            (x, y), heading = match.group(1, 2), match.group(3)
        else:
            match = _HEADING_FIRST.fullmatch(s)
            if not match:
                return None
            (x, y), heading = match.group(2, 3), match.group(1)
        heading = heading.lower()
        return int(x.replace("−", "-")), int(y.replace("−", "-")), _SHORT.get(heading, heading)

    return read_answer(text, read)


@register
class TurtlePose(Task):
    id = "spatial/turtle_pose"
    family = "spatial"
    description = "The final position and heading of a turtle after moves, turns and repeated blocks."
    tags = ("spatial", "navigation", "simulation")

    @dataclass(frozen=True)
    class Config:
        commands: int  # top-level commands
        blocks: int  # repeat blocks among the top-level commands (each holds 2-4 commands)
        longest: int  # the longest single move

    # version 2: level 0 runs five commands (was four): four commands gave too few distinct programs for 95%
    # distinct problems over 1,000 seeds; five stay well below level 1's seven
    # version 3: programs are redrawn until reading back as a half turn, or left and right swapped, goes wrong
    version = 3
    presets = (Config(5, 0, 5), Config(7, 0, 9), Config(10, 0, 9), Config(8, 1, 9), Config(10, 2, 12))
    growth = Growth(steps={"commands": 2, "blocks": 1, "longest": 3})

    def _command(self, rng: random.Random, config: Config, turns: list[str]) -> list:
        if rng.random() < 0.55:
            return ["forward" if rng.random() < 0.75 else "back", rng.randint(1, config.longest)]
        return [rng.choice(turns)]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        turns = ["left", "right"] + (["around"] if config.commands >= 7 else [])

        def draw() -> Program:
            program = [self._command(rng, config, turns) for _ in range(config.commands)]
            for _ in range(config.blocks):
                body = [self._command(rng, config, turns) for _ in range(rng.randint(2, 4))]
                program.insert(rng.randint(0, len(program)), ["repeat", rng.randint(2, 4), body])
            return program

        def fair(program: Program) -> bool:
            pose = run(program)[0]
            # and the stated rules must decide: "back" as a half turn and then steps answered 0.42 of level 0,
            # left and right swapped 0.21
            return pose != (0, 0, 0) and pose not in (run(program, back_turns=True)[0], run(program, mirrored=True)[0])

        program = retry(draw, fair, what="a program that leaves the start and that misreadings get wrong")
        (x, y, heading), executed, turned = run(program)
        prompt = (
            "A turtle starts at (0, 0) on a square grid, facing north; x grows to the east and y to the north. "
            "Commands: 'forward n' and 'back n' move n cells along the heading or against it without turning; "
            "'left' and 'right' turn a quarter turn on the spot; 'turn around' turns half a turn; 'repeat k "
            "[...]' runs the commands in brackets k times. It runs:\n\n"
            f"{written(program)}\n\nWhere does it end and which way does it face? Answer with the position and "
            f"the heading (north, east, south or west), for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"({x}, {y}) {HEADINGS[heading]}", data={
            "program": program, "x": x, "y": y, "heading": HEADINGS[heading], "executed": executed, "turned": turned})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        pose = read_pose(answer)
        if pose is None:
            return Verdict.unparsed("expected a position and a heading, such as (4, -1) west")
        data = problem.data
        right_place, right_heading = pose[:2] == (data["x"], data["y"]), pose[2] == data["heading"]
        if right_place and right_heading:
            return Verdict.right()
        if right_place:
            return Verdict.wrong("the position is right but the heading is not")
        if right_heading:
            return Verdict.wrong("the heading is right but the position is not")
        return Verdict.wrong("both the position and the heading are wrong")

    def difficulty(self, problem: Problem) -> float:
        """Commands executed, with repeat blocks unrolled, plus the turns among them."""
        return float(problem.data["executed"] + problem.data["turned"])

    def spellings(self, problem: Problem) -> list[str]:
        x, y, heading = problem.data["x"], problem.data["y"], problem.data["heading"]
        return [*super().spellings(problem), f"({x}, {y}), facing {heading}", f"x = {x}, y = {y}, heading {heading}",
                f"({x},{y}) {heading[0].upper()}", f"\\boxed{{({x}, {y}) {heading}}}",
                f"Answer: ({x}, {y}) facing {heading.capitalize()}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        x, y, heading = problem.data["x"], problem.data["y"], problem.data["heading"]
        turned = HEADINGS[(HEADINGS.index(heading) + 2) % 4]
        near = [f"({x}, {y}) {turned}", f"({y}, {x + 1}) {heading}", f"({-x}, {y - 1}) {heading}",
                "(0, 0) north", f"({x}, {y}) {heading} or ({x}, {y}) {turned}"]
        return [candidate for candidate in near if not self.verify(problem, candidate).correct]
