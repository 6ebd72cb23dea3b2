"""All pure-strategy Nash equilibria of a two-player game given by its payoff table.

A cell is an equilibrium when neither player gains by changing only their own strategy (a tie is not a gain,
so weak equilibria count). The answer is the set of all such cells, checked exhaustively at generation; the
verifier reads a set of cell names in any order and, for a wrong answer, names a listed cell's profitable
deviation or says that an equilibrium is missing.

"None" (no pure equilibrium) has no short certificate (it would take a profitable deviation for every cell),
so it is kept rare: about one problem in ten is drawn to have no pure equilibrium, the rest to have at least
one, so answering "none" always earns about 10%.

An equilibrium's payoffs are best responses, so random games often have their only equilibrium at the cell with
the largest payoffs: naming the cell with the largest payoff sum solved 45% of level 0 and 21% of level 4. A
game is redrawn, for three problems in four, while one such cell (the largest payoff sum, the largest single
payoff, the largest smaller payoff of the two) is the whole answer (always redrawing would leave 2x2 games with
almost only two-equilibrium answers).

Difficulty: the cells of the drawn game plus three per equilibrium (each one must be found and checked both ways).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.economics.common import cell_name, deviation, game_table, pure_equilibria, random_matrix
from palaestra.verifiers.sets import one_of, read_set

EXAMPLE = "X7, Y8"  # a fixed placeholder of the right shape: never derived from the answer
NONE_SHARE = 0.1  # the share of problems drawn without a pure equilibrium
GUESS_FREE_SHARE = 0.75  # the share of problems redrawn while a payoff-reading guess is the whole answer


def table_guesses(a: list[list[int]], b: list[list[int]]) -> list[tuple[int, int]]:
    """The cells a reader of the payoffs alone would name: the largest payoff sum, the largest single payoff and
    the largest smaller payoff of the two (every cell that ties for one of them)."""
    cells = [(i, j) for i in range(len(a)) for j in range(len(a[0]))]
    guesses: list[tuple[int, int]] = []
    for measure in (lambda i, j: a[i][j] + b[i][j], lambda i, j: max(a[i][j], b[i][j]),
                    lambda i, j: min(a[i][j], b[i][j])):
        top = max(measure(i, j) for i, j in cells)
        guesses.extend(cell for cell in cells if measure(*cell) == top)
    return guesses


@register
class NashPure(Task):
    id = "economics/nash_pure"
    family = "economics"
    description = "List every pure-strategy Nash equilibrium of a two-player payoff table."
    tags = ("economics", "game-theory", "math")
    version = 2

    @dataclass(frozen=True)
    class Config:
        rows: int  # most row strategies (the drawn game has this many or one fewer)
        columns: int  # most column strategies
        high: int  # payoffs are drawn from 0 to this

    presets = (Config(2, 2, 5), Config(3, 3, 6), Config(4, 4, 8), Config(5, 5, 9), Config(6, 6, 9))
    growth = Growth(steps={"rows": 1, "columns": 1}, limits={"rows": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows = rng.randint(max(2, config.rows - 1), config.rows)
        columns = rng.randint(max(2, config.columns - 1), config.columns)
        want_none = rng.random() < NONE_SHARE
        guess_free = rng.random() < GUESS_FREE_SHARE

        def draw() -> tuple[list[list[int]], list[list[int]], list[tuple[int, int]]]:
            a = random_matrix(rng, rows, columns, config.high)
            b = random_matrix(rng, rows, columns, config.high)
            return a, b, pure_equilibria(a, b)

        def acceptable(game: tuple[list[list[int]], list[list[int]], list[tuple[int, int]]]) -> bool:
            a, b, found = game
            guessed = len(found) == 1 and found[0] in table_guesses(a, b)
            return (not found) == want_none and not (guess_free and guessed)

        row_payoffs, column_payoffs, equilibria = retry(draw, accept=acceptable,
                                                        what="a game with the drawn kind of equilibria")
        names = [cell_name(i, j) for i, j in equilibria]
        prompt = (
            "Two players choose at the same time: the row player picks a row (a letter), the column player picks a "
            "column (a number). Each cell shows (row player's payoff, column player's payoff):\n\n"
            f"{game_table(row_payoffs, column_payoffs)}\n\n"
            "A pure-strategy Nash equilibrium is a cell where neither player can get a strictly higher payoff by "
            "changing only their own choice. Find all pure-strategy Nash equilibria. Name each cell by its row "
            "letter followed by its column number, and list them separated by commas, for example: "
            f"{EXAMPLE}. If there is no pure-strategy Nash equilibrium, answer: none"
        )
        return Problem(prompt=prompt, answer=", ".join(names) if names else "none",
                       data={"row_payoffs": row_payoffs, "column_payoffs": column_payoffs, "equilibria": names})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
        cells = [cell_name(i, j) for i in range(len(a)) for j in range(len(a[0]))]
        written = read_set(answer, one_of(cells), allow_empty=True)
        if written is None:
            return Verdict.unparsed("expected cell names such as A1, B2 separated by commas, or none")
        for name in sorted(written):
            problem_found = deviation(a, b, ord(name[0]) - ord("A"), int(name[1:]) - 1)
            if problem_found:
                return Verdict.wrong(problem_found)
        if len(written) < len(problem.data["equilibria"]):
            return Verdict.wrong("every listed cell is an equilibrium, but at least one equilibrium is missing"
                                 if written else "there is a pure-strategy equilibrium")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def largest_sum(problem: Problem) -> str:
            a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
            _, i, j = max((a[i][j] + b[i][j], i, j) for i in range(len(a)) for j in range(len(a[0])))
            return cell_name(i, j)

        return {"the cell with the largest payoff sum": largest_sum}

    def difficulty(self, problem: Problem) -> float:
        """Cells of the drawn game plus three per equilibrium."""
        a = problem.data["row_payoffs"]
        return float(len(a) * len(a[0]) + 3 * len(problem.data["equilibria"]))

    def spellings(self, problem: Problem) -> list[str]:
        names = problem.data["equilibria"]
        if not names:
            return [*super().spellings(problem), "None", "none.",
                    "\\boxed{\\text{none}}", "Answer: none", "∅"]
        listed = ", ".join(names)
        return [*super().spellings(problem), ", ".join(reversed(names)), f"{{{listed}}}", f"\\boxed{{{listed}}}",
                f"Answer: {listed}.", listed.lower(), " and ".join(names)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        a = problem.data["row_payoffs"]
        names = problem.data["equilibria"]
        others = [cell_name(i, j) for i in range(len(a)) for j in range(len(a[0])) if cell_name(i, j) not in names]
        wrong = [", ".join([*names, rng.choice(others)])]
        if names:
            wrong.append(", ".join(names[1:]) or "none")
            wrong.append(f"{names[0]} or {rng.choice(others)}")
        else:
            wrong.append(rng.choice(others))
        return wrong
