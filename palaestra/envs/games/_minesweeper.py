"""The play shared by the minesweeper games on square and hexagonal boards (not an environment).

:class:`MinesweeperGame` holds the episode's rules — the first click made for the player, ``reveal`` and
``flag`` commands one per turn, a mine loses, opening every safe cell wins — and the oracle, over the
domain rules of :mod:`palaestra.generators.minesweeper`. A game declares its board's geometry
(``around``: each cell's neighbours) and how a board is drawn (``layout``); the symbols are shared:
``#`` hidden, ``F`` a flag, ``.`` an open cell with no mine around, a digit the mines around, ``*`` a
mine on the losing board.
"""

from __future__ import annotations

from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict
from palaestra.envs.games.common import cell_name, read_cell
from palaestra.generators.minesweeper import FLAG, HIDDEN, OPEN, Around, counts, open_cell, proven_safe


class MinesweeperGame(MultiTurnTask):
    """Minesweeper's play on a board whose geometry and drawing a subclass declares."""

    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    public_keys = ("rows", "cols")  # the board drawn in the prompt shows its size

    def around(self, rows: int, cols: int) -> Around:
        """Per cell (numbered row by row), its neighbours on the board."""
        raise NotImplementedError

    def layout(self, rows: int, cols: int, symbols: list[list[str]]) -> str:
        """The board drawn from one symbol per cell, row by row, with its row and column labels."""
        raise NotImplementedError

    def numbers(self, data: dict[str, Any]) -> list[int]:
        """Per cell, the mines among its neighbours."""
        return counts(data["mines"], data["rows"], data["cols"], self.around(data["rows"], data["cols"]))

    def opened(self, data: dict[str, Any], mask: str, index: int) -> str:
        """``mask`` after a click on ``index`` (flooding through cells with no mine around; flags stay shut)."""
        return open_cell(mask, index, self.numbers(data), self.around(data["rows"], data["cols"]))

    def picture(self, data: dict[str, Any], mask: str, show_mines: bool = False) -> str:
        rows, cols, mines, numbers = data["rows"], data["cols"], set(data["mines"]), self.numbers(data)

        def symbol(i: int) -> str:
            if show_mines and i in mines:
                return "*"
            if mask[i] == OPEN:
                return str(numbers[i]) if numbers[i] else "."
            return "F" if mask[i] == FLAG else "#"

        return self.layout(rows, cols, [[symbol(r * cols + c) for c in range(cols)] for r in range(rows)])

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["clicks"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        data = problem.data
        return {"mask": self.opened(data, HIDDEN * (data["rows"] * data["cols"]), data["first"])}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        rows, cols, mask = data["rows"], data["cols"], state["mask"]
        flagging = move.strip().lower().startswith("flag")
        cell = read_cell(move, rows, cols, ("flag", "unflag") if flagging else ("reveal", "open", "click"))
        if cell is None:
            return Outcome.invalid(state, "write reveal or flag and one cell on the board, e.g. reveal a1")
        index = cell[0] * cols + cell[1]
        name = cell_name(*cell)
        if mask[index] == OPEN:
            return Outcome(state, Verdict.wrong("already open"), f"{name} is already open.")
        if flagging:
            mark = HIDDEN if mask[index] == FLAG else FLAG
            mask = mask[:index] + mark + mask[index + 1:]
            said = f"Flag {'placed on' if mark == FLAG else 'removed from'} {name}."
            return Outcome({"mask": mask}, Verdict.wrong("flag"), f"{said}\n{self.picture(data, mask)}")
        if mask[index] == FLAG:
            return Outcome(state, Verdict.wrong("flagged"), f"{name} is flagged; remove the flag first.")
        if index in data["mines"]:
            return Outcome(state, Verdict.wrong("mine"), f"{name} was a mine. You lose.\n"
                                                         f"{self.picture(data, mask, show_mines=True)}", True)
        mask = self.opened(data, mask, index)
        if mask.count(HIDDEN) + mask.count(FLAG) == len(data["mines"]):
            return Outcome({"mask": mask}, Verdict.right(), f"Every safe cell is open: you win!\n"
                                                            f"{self.picture(data, mask)}", True)
        return Outcome.goes_on({"mask": mask}, self.picture(data, mask))

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        cols, mines, mask = data["cols"], set(data["mines"]), state["mask"]
        numbers = self.numbers(data)
        safe = proven_safe(mask.replace(FLAG, HIDDEN), numbers, self.around(data["rows"], cols))
        if safe:
            index = min(safe, key=lambda i: (numbers[i] != 0, i))  # peeks only to prefer an empty cell
        else:  # off the oracle's path only (the board is solvable by these deductions)
            index = min(i for i, m in enumerate(mask) if m != OPEN and i not in mines)
        if mask[index] == FLAG:
            return f"flag {cell_name(index // cols, index % cols)}"
        return f"reveal {cell_name(index // cols, index % cols)}"
