"""All pure-strategy Nash equilibria of a two-player game given by its payoff table.

A cell is an equilibrium when neither player gains by changing only their own strategy (a tie is not a gain,
so weak equilibria count). The answer is the set of all such cells, checked exhaustively at generation; the
verifier reads a set of cell names in any order and, for a wrong answer, names a listed cell's profitable
deviation or says that an equilibrium is missing.

"None" (no pure equilibrium) has no short certificate (it would take a profitable deviation for every cell),
so it is kept rare: about one problem in fourteen is drawn to have no pure equilibrium, the rest to have at least
one, so answering "none" always earns about 7% (a declared heuristic).

An equilibrium's payoffs are best responses, so random games often have their only equilibrium at the cell with
the largest payoffs: naming the cell with the largest payoff sum solved 45% of level 0 and 21% of level 4. A
game is redrawn, for three problems in four, while one such cell (the largest payoff sum, the largest single
payoff, the largest smaller payoff of the two) is the whole answer (always redrawing would leave 2x2 games with
almost only two-equilibrium answers).

Version 3: a constant answer paid. Random 2x2 games (all of level 0, a quarter of level 1) answered "A2, B1" or
"A1, B2" in 0.19 and 0.18 of level 0 each (500 seeds), and "none" 0.10 of level 1. A 2x2 game now has its
answer drawn first, each of the 15 non-empty sets of cells as likely (weak equilibria, made by ties, included), and
the game built around it: each column's best rows (the answer's cells in it, or one random row) get the column's
top payoff for the row player and the other rows less, each row's best columns likewise for the column player,
redrawn when two made-up best replies meet in a cell outside the answer. "None" is drawn for 7% of problems; in a
larger game it is drawn at random as before, but built the same way when 100 random draws have none (ties give
large random games an equilibrium: far levels such as 40 raised GenerationError for about 15% of seeds).

Version 4: "strictly" always matters. A game with an equilibrium is redrawn unless one of its equilibria is weak
(a player has another reply that pays as much), and the built games make one: reading a tie as a gain (listing
only the strict equilibria) answered 0.38, 0.28, 0.40, 0.33 and 0.23 of levels 0 to 4; now only the games
without an equilibrium (about 0.07, where it answers "none").

Difficulty: two per cell of the drawn game (each is checked for a row and a column deviation) plus one per
equilibrium (each must be found and listed). Version 2 counted a cell once and an equilibrium three times; 2x2 games
with their answer drawn first have more equilibria, and level 0 then measured about as hard as level 1.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import GenerationError, Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.economics.common import cell_name, deviation, game_table, pure_equilibria, random_matrix
from palaestra.verifiers.sets import one_of, read_set

EXAMPLE = "X7, Y8"  # a fixed placeholder of the right shape: never derived from the answer
NONE_SHARE = 0.07  # the share of problems drawn without a pure equilibrium
# "The pure Nash equilibria are A1, B2", "Pure-strategy equilibrium: C3": a name for the list before it
_LABEL = re.compile(r"^\s*(?:the\s+)?(?:(?:only|pure|pure-strategy)\s+){0,2}(?:nash\s+)?equilibri(?:um|a)\s*(?::|=|is\b|are\b)\s*",
                    re.IGNORECASE)
# "There is no pure-strategy Nash equilibrium.", "No pure Nash equilibria exist": the sentences that say none
_NO_EQUILIBRIUM = tuple(
    f"{lead}{kind}{nash}{noun}{tail}".strip()
    for lead, kind, nash, noun, tail in itertools.product(
        ("there is no ", "there are no ", "no "), ("pure-strategy ", "pure ", ""), ("nash ", ""),
        ("equilibrium", "equilibria"), ("", " exists", " exist")))
_ANSWER_FIRST_CELLS = 4  # games with at most this many cells (2x2) have their answer drawn first
_NONE_DRAWS = 100  # random draws tried for a larger game without a pure equilibrium before one is built
GUESS_FREE_SHARE = 0.75  # the share of problems redrawn while a payoff-reading guess is the whole answer


def _game_with(rng: random.Random, rows: int, columns: int, high: int,
               wanted: list[tuple[int, int]]) -> tuple[list[list[int]], list[list[int]]] | None:
    """Payoffs whose pure equilibria are exactly ``wanted``, or None when the drawn best replies make another one.
    In each column the row player's best rows are the wanted cells' rows there (one random row where there are
    none) and get the column's top payoff, drawn from 1 to ``high``, the others less; the column player likewise.
    One column with a wanted cell gets one more best row where it can (v4), so that equilibrium is weak."""
    best_rows = [{i for i, c in wanted if c == j} or {rng.randrange(rows)} for j in range(columns)]
    best_columns = [{j for r, j in wanted if r == i} or {rng.randrange(columns)} for i in range(rows)]
    if wanted:
        tied = best_rows[rng.choice(wanted)[1]]
        tied.add(rng.choice([i for i in range(rows) if i not in tied] or sorted(tied)))
    a = [[0] * columns for _ in range(rows)]
    b = [[0] * columns for _ in range(rows)]
    for j in range(columns):
        top = rng.randint(1, high)
        for i in range(rows):
            a[i][j] = top if i in best_rows[j] else rng.randrange(top)
    for i in range(rows):
        top = rng.randint(1, high)
        for j in range(columns):
            b[i][j] = top if j in best_columns[i] else rng.randrange(top)
    return (a, b) if pure_equilibria(a, b) == sorted(wanted) else None


def weak(a: list[list[int]], b: list[list[int]], found: list[tuple[int, int]]) -> bool:
    """Whether some equilibrium in ``found`` is weak: a player has another reply paying as much. Then reading a tie as
    a deviation (ignoring "strictly") drops it (v4)."""
    return any(any(a[k][j] == a[i][j] for k in range(len(a)) if k != i)
               or any(b[i][k] == b[i][j] for k in range(len(a[0])) if k != j) for i, j in found)


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
    version = 4  # v4: some equilibrium is always weak, so counting a tie as a gain is never right

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
            return (not found) == want_none and not (guess_free and guessed) and (want_none or weak(a, b, found))

        def build(wanted: list[tuple[int, int]]) -> tuple[list[list[int]], list[list[int]], list[tuple[int, int]]]:
            def one() -> tuple[list[list[int]], list[list[int]], list[tuple[int, int]]] | None:
                game = _game_with(rng, rows, columns, config.high, wanted)
                return None if game is None else (*game, wanted)

            return retry(one, accept=acceptable, what="a game built around the drawn equilibria")

        if rows * columns <= _ANSWER_FIRST_CELLS:
            # a 2x2 game: its answer is drawn first, every non-empty set of cells as likely (or none), and a game
            # is built around it, since random 2x2 games answer "A1, B2" or "A2, B1" in 0.19 of the draws each
            cells = [(i, j) for i in range(rows) for j in range(columns)]
            subsets = [[c for k, c in enumerate(cells) if mask >> k & 1] for mask in range(1, 1 << len(cells))]
            row_payoffs, column_payoffs, equilibria = build([] if want_none else rng.choice(subsets))
        elif want_none:
            # ties make an equilibrium likely in large random games (none in 0.15 of 6x6 draws, 0.005 of 16x16, never
            # at level 40's 26x42): after _NONE_DRAWS random draws a game without one is built
            try:
                row_payoffs, column_payoffs, equilibria = retry(draw, accept=acceptable, attempts=_NONE_DRAWS,
                                                                what="a random game without a pure equilibrium")
            except GenerationError:
                row_payoffs, column_payoffs, equilibria = build([])
        else:
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
        if isinstance(answer, str) and len(answer) < 2_000:
            answer = _LABEL.sub("", answer, count=1)  # "The pure Nash equilibria are A1 and B2."
        written = read_set(answer, one_of(cells), allow_empty=True, empty_words=_NO_EQUILIBRIUM)
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

        return {"the cell with the largest payoff sum": largest_sum, "none": lambda problem: "none"}

    def difficulty(self, problem: Problem) -> float:
        """Two per cell of the drawn game plus one per equilibrium."""
        a = problem.data["row_payoffs"]
        return float(2 * len(a) * len(a[0]) + len(problem.data["equilibria"]))

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
