"""The strategies that survive iterated elimination of strictly dominated strategies in a two-player game.

A strategy is strictly dominated when another pure strategy of the same player pays strictly more against
every remaining strategy of the opponent. Removing such strategies one at a time until none is left gives the
same survivors in whatever order they are removed (for strict dominance the result is unique), so the answer
is compared as a set: the surviving rows (letters) and columns (numbers) together, or per player (``rows A, C;
columns 1, 2``, either player first, on one line or two). A listed strategy that is
eliminated, or a missing survivor, is named in the feedback.

Games are built with a chain of planted dominations (each raising the dominating strategy's payoffs, which
keeps every earlier domination valid), so elimination runs several rounds; the survivors are then computed
from scratch. Stopping after the first round gives a wrong answer whenever a second round removes more.
Raising dominators lifts the survivors' payoffs, so a game is redrawn while a cell read off the table's
totals alone (the largest payoff sum, the largest single payoff, or the row and column with the largest
totals for their players) is the surviving set: those reads solved 62%, 47% and 61% of level 0 and the
largest sum still 33% of level 4.

Level 0 draws 3-4 rows and 2-3 columns (v2: 2-3 of each, a quarter of its games 2x2, and the constant "A, 2" survived
in 0.14 of it; v3: no set passed 0.08 on 500 seeds). A naming phrase before the list (``Survivors: A, 2``, ``The
surviving strategies are A and 2.``) is read.

Version 4: "strictly" always matters. A game is redrawn unless some survivor is weakly dominated among the
survivors, so no elimination by weak dominance (in any order) stops at the right set: with payoffs drawn from 0
to 9, ties are common, and weak dominance (ignoring "strictly") answered 0.62, 0.55, 0.42, 0.42 and 0.22 of
levels 0 to 4; now none. The survivors are therefore never a single cell. Such games are often solved in one
round (one round answered 0.55 of level 0 with only that check), so a game is also redrawn when one round of
elimination already leaves the survivors (one round answered 0.27, 0.17 and 0.12 of levels 0 to 2 in v3; now
none). The shape is redrawn with the payoffs. The most common survivor set answers 0.084 of level 0 on 500
seeds (0.06 in v3).

Difficulty: the cells of the drawn game plus four per strategy eliminated.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.economics.common import column_names, game_table, random_matrix, row_names
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.sets import one_of, read_set

EXAMPLE = "X, Y, 7"  # a fixed placeholder of the right shape: never derived from the answer
# "Survivors: A, 2", "The surviving strategies are A and 2.": a naming phrase before the list (v2 read neither)
_SURVIVORS_LABEL = re.compile(r"^\s*(?:the\s+)?(?:surviving\s+strategies|survivors|strategies\s+that\s+survive)"
                              r"\s*(?:(?:are|is)\b\s*:?|:)\s*(?=\S)", re.IGNORECASE)
_PLAYER_LABELS = {"rows": ("rows", "row", "row player", "the row player"),
                  "columns": ("columns", "column", "cols", "column player", "the column player")}


def _read_by_player(text: str, rows: list[str], columns: list[str]) -> frozenset[str] | None:
    """Survivors written per player, each part labelled (``rows A, C; columns 1, 2``, either player first, one part
    per line or split by a semicolon), as a careful grader reads them; else None."""
    if len(text) > 400:
        return None
    parts = [part.strip() for part in text.replace("\n", ";").split(";") if part.strip()]
    if len(parts) != 2:
        return None
    found: dict[str, frozenset[str]] = {}
    for part in parts:
        lowered = part.lower()
        labelled = [(player, word) for player, words in _PLAYER_LABELS.items() for word in words
                    if lowered.startswith(word) and lowered[len(word):len(word) + 1] in (" ", ":", "=")]
        if not labelled:
            return None
        player, label = max(labelled, key=lambda pair: len(pair[1]))
        items = read_set(part[len(label):].lstrip(" :=").strip(), one_of(rows if player == "rows" else columns))
        if items is None or player in found:
            return None
        found[player] = items
    return found["rows"] | found["columns"]


def eliminate(a: list[list[int]], b: list[list[int]], rounds: int | None = None) -> tuple[list[int], list[int]]:
    """The surviving rows and columns (all dominated strategies are removed each round; ``rounds`` caps them)."""
    rows, columns = list(range(len(a))), list(range(len(a[0])))
    transposed = [list(line) for line in zip(*b, strict=True)]
    done = 0
    while rounds is None or done < rounds:
        dead_rows = {r for r in rows if any(all(a[t][c] > a[r][c] for c in columns) for t in rows if t != r)}
        dead_columns = {c for c in columns
                        if any(all(transposed[t][r] > transposed[c][r] for r in rows) for t in columns if t != c)}
        if not dead_rows and not dead_columns:
            break
        rows = [r for r in rows if r not in dead_rows]
        columns = [c for c in columns if c not in dead_columns]
        done += 1
    return rows, columns


def weakly_dominated(a: list[list[int]], b: list[list[int]], rows: list[int], columns: list[int]) -> bool:
    """Whether some remaining strategy is weakly dominated (another pays at least as much against every remaining
    strategy of the opponent and more against one): then no elimination by weak dominance stops at these."""
    def beaten(mine: list[int], theirs: list[int], pay: Callable[[int, int], int]) -> bool:
        return any(all(pay(t, o) >= pay(s, o) for o in theirs) and any(pay(t, o) > pay(s, o) for o in theirs)
                   for s in mine for t in mine if t != s)

    return beaten(rows, columns, lambda r, c: a[r][c]) or beaten(columns, rows, lambda c, r: b[r][c])


def plant(rng: random.Random, a: list[list[int]], b: list[list[int]], eliminations: int) -> None:
    """Make ``eliminations`` strategies strictly dominated in turn, raising each dominator's payoffs."""
    rows, columns = list(range(len(a))), list(range(len(a[0])))
    for _ in range(eliminations):
        if len(rows) > 1 and (len(columns) == 1 or rng.random() < 0.5):
            loser, winner = rng.sample(rows, 2)
            for c in columns:
                a[winner][c] = max(a[winner][c], a[loser][c] + rng.randint(1, 2))
            rows.remove(loser)
        elif len(columns) > 1:
            loser, winner = rng.sample(columns, 2)
            for r in rows:
                b[r][winner] = max(b[r][winner], b[r][loser] + rng.randint(1, 2))
            columns.remove(loser)


def table_guesses(a: list[list[int]], b: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """The single cells (as survivor rows, columns) that a reader of the payoff totals alone would name: every
    cell with the largest payoff sum, every cell with the largest payoff, and the row and column with the
    largest totals for their own players."""
    cells = [(i, j) for i in range(len(a)) for j in range(len(a[0]))]
    top_sum = max(a[i][j] + b[i][j] for i, j in cells)
    top_pay = max(max(a[i][j], b[i][j]) for i, j in cells)
    guesses = [([i], [j]) for i, j in cells if a[i][j] + b[i][j] == top_sum or max(a[i][j], b[i][j]) == top_pay]
    row_totals = [sum(line) for line in a]
    column_totals = [sum(b[i][j] for i in range(len(a))) for j in range(len(a[0]))]
    guesses.append(([row_totals.index(max(row_totals))], [column_totals.index(max(column_totals))]))
    return guesses


@register
class Dominance(Task):
    id = "economics/dominance"
    family = "economics"
    description = "The strategies surviving iterated elimination of strictly dominated strategies."
    tags = ("economics", "game-theory", "math")
    version = 4  # v3: level 0 draws 3-4 rows (was 2-3): "A, 2" answered 0.14 of it, 2x2 games a quarter
    # v4: the survivors always include a weakly dominated strategy, so weak dominance is never right; and one round
    # of elimination never leaves the survivors

    @dataclass(frozen=True)
    class Config:
        rows: int  # row strategies (the drawn game has this many or one fewer)
        columns: int  # column strategies
        high: int  # payoffs are drawn from 0 to this (planted dominators may go a little higher)

    presets = (Config(4, 3, 6), Config(4, 4, 8), Config(5, 5, 9), Config(6, 6, 9), Config(7, 7, 9))
    growth = Growth(steps={"rows": 1, "columns": 1}, limits={"rows": 26})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[list[int]], list[list[int]], list[int], list[int]] | None:
            # the shape is redrawn too (v4): a small game rarely has a weakly dominated survivor
            rows = rng.randint(max(2, config.rows - 1), config.rows)
            columns = rng.randint(max(2, config.columns - 1), config.columns)
            a = random_matrix(rng, rows, columns, config.high)
            b = random_matrix(rng, rows, columns, config.high)
            plant(rng, a, b, rng.randint(2, rows + columns - 2))
            alive_rows, alive_columns = eliminate(a, b)
            if (alive_rows, alive_columns) in table_guesses(a, b) or eliminate(a, b, rounds=1) == (alive_rows,
                                                                                                   alive_columns):
                return None
            if not weakly_dominated(a, b, alive_rows, alive_columns):
                return None  # v4: "strictly" must matter: weak dominance would go on past the survivors
            return a, b, alive_rows, alive_columns

        a, b, alive_rows, alive_columns = retry(draw, what="a game whose survivors the payoff totals do not name")
        rows, columns = len(a), len(a[0])
        survivors = [row_names(rows)[r] for r in alive_rows] + [column_names(columns)[c] for c in alive_columns]
        prompt = (
            "Two players choose at the same time: the row player picks a row (a letter), the column player picks a "
            "column (a number). Each cell shows (row player's payoff, column player's payoff):\n\n"
            f"{game_table(a, b)}\n\n"
            "A strategy is strictly dominated if another single strategy of the same player gives that player a "
            "strictly higher payoff against every remaining strategy of the opponent. Repeatedly remove strictly "
            "dominated strategies (of either player) until none is left. Which strategies survive? List the "
            f"surviving rows and columns together, separated by commas, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=", ".join(survivors),
                       data={"row_payoffs": a, "column_payoffs": b, "survivors": survivors})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        a = problem.data["row_payoffs"]
        strategies = row_names(len(a)) + column_names(len(a[0]))
        written = read_set(answer, one_of(strategies))
        if written is None and isinstance(answer, str) and len(answer) <= 2_000:
            unlabelled = _SURVIVORS_LABEL.sub("", answer, count=1)
            written = read_set(unlabelled, one_of(strategies)) if unlabelled != answer else None
        if written is None:
            written = read_answer(answer, lambda text: _read_by_player(text, row_names(len(a)), column_names(len(a[0]))))
        if written is None:
            return Verdict.unparsed("expected surviving strategies such as A, C, 2 separated by commas")
        survivors = problem.data["survivors"]
        for name in strategies:
            kind = "row" if name.isalpha() else "column"
            if name in written and name not in survivors:
                return Verdict.wrong(f"{kind} {name} is eliminated: it is strictly dominated once other "
                                     f"strategies are removed")
            if name in survivors and name not in written:
                return Verdict.wrong(f"{kind} {name} survives the elimination but is missing")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def largest_sum(problem: Problem) -> str:
            a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
            _, i, j = max((a[i][j] + b[i][j], i, j) for i in range(len(a)) for j in range(len(a[0])))
            return f"{row_names(len(a))[i]}, {column_names(len(a[0]))[j]}"

        def one_round(problem: Problem) -> str:
            a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
            rows, columns = eliminate(a, b, rounds=1)
            return ", ".join([row_names(len(a))[r] for r in rows] + [column_names(len(a[0]))[c] for c in columns])

        return {"the cell with the largest payoff sum": largest_sum, "one round of elimination": one_round}

    def difficulty(self, problem: Problem) -> float:
        """Cells of the drawn game plus four per eliminated strategy."""
        a = problem.data["row_payoffs"]
        eliminated = len(a) + len(a[0]) - len(problem.data["survivors"])
        return float(len(a) * len(a[0]) + 4 * eliminated)

    def spellings(self, problem: Problem) -> list[str]:
        survivors = problem.data["survivors"]
        listed = ", ".join(survivors)
        by_player = (f"rows {', '.join(s for s in survivors if s.isalpha())}; "
                     f"columns {', '.join(s for s in survivors if not s.isalpha())}")
        return [*super().spellings(problem), ", ".join(reversed(survivors)), f"{{{listed}}}", f"\\boxed{{{listed}}}",
                f"Answer: {listed}.", " and ".join(survivors), listed.lower(), by_player,
                by_player.replace("; ", "\n").replace("rows ", "Row player: ").replace("columns ", "Column player: ")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
        survivors = problem.data["survivors"]
        strategies = row_names(len(a)) + column_names(len(a[0]))
        eliminated = [s for s in strategies if s not in survivors]
        wrong = [", ".join([*survivors, rng.choice(eliminated)])]
        if len(survivors) > 2:
            wrong.append(", ".join(survivors[1:]))
        first_rows, first_columns = eliminate(a, b, rounds=1)
        first = [row_names(len(a))[r] for r in first_rows] + [column_names(len(a[0]))[c] for c in first_columns]
        if set(first) != set(survivors):  # stopping after the first round
            wrong.append(", ".join(first))
        wrong.append(f"{survivors[0]} or {eliminated[0]}")
        return wrong
