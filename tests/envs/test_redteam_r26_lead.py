"""Session 26, the lead's grading fixes in shared readers: a move named in a sentence (games/common.read_cell) and
group lines written as a numbered or bulleted list, or named with "are" (graphs/common)."""

from __future__ import annotations

import pytest

import palaestra


@pytest.mark.parametrize("spelling", ["I play {move}.", "I'll place a stone at {move}", "My move is {move}."])
def test_a_cell_named_in_a_sentence_is_read_like_the_bare_cell(spelling: str) -> None:
    from palaestra.envs.games.common import read_cell

    assert read_cell(spelling.format(move="c4"), 9, 9) == read_cell("c4", 9, 9) == (3, 2)
    assert read_cell(spelling.format(move="c4 or d5"), 9, 9) is None  # a hedge stays unread
    assert read_cell(spelling.format(move="c4").replace("c4", "not c4"), 9, 9) is None


def test_group_lines_as_a_numbered_or_bulleted_list_and_plural_naming_sentences_are_read() -> None:
    for env_id in ("graphs/bfs_layers", "graphs/components", "graphs/scc"):
        problem = palaestra.make(env_id, level=2).unwrapped.task.sample(2, 1)
        lines = (problem.answer or "").split("\n")
        numbered = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))
        bulleted = "\n".join(f"- {line}" for line in lines)
        for reply in (numbered, bulleted):
            assert palaestra.score(problem, f"<answer>{reply}</answer>").correct, (env_id, reply)
        if len(lines) > 1:  # two groups swapped in a numbered list stay wrong where the order matters
            swapped = "\n".join(f"{i}. {line}" for i, line in enumerate([lines[1], lines[0], *lines[2:]], 1))
            if env_id == "graphs/bfs_layers":
                assert not palaestra.score(problem, f"<answer>{swapped}</answer>").correct
    bridges = palaestra.make("graphs/bridges", level=2).unwrapped.task.sample(2, 1)
    assert palaestra.score(bridges, f"<answer>The bridges are {bridges.answer}</answer>").correct
    assert not palaestra.score(bridges, f"<answer>The bridges are not {bridges.answer}</answer>").correct


def test_a_two_column_table_of_dates_or_decimals_is_read_like_its_pairs() -> None:
    import re

    for env_id in ("data/clean_dates", "data/asof_join", "data/unit_normalize"):
        problem = palaestra.make(env_id, level=2).unwrapped.task.sample(2, 0)
        pairs = [p.split("=", 1) for p in re.split(r",\s*(?=\w+\s*=)|\n", problem.answer or "") if "=" in p]
        rows = [f"| {name.strip()} | {value.strip()} |" for name, value in pairs]
        table = "\n".join(["| record | value |", "|---|---|", *rows])
        assert palaestra.score(problem, f"<answer>{table}</answer>").correct, (env_id, table)
        hedged = table.replace(rows[0], rows[0].replace(" |", " or 0 |", 2).replace(" or 0 |", " |", 1))
        assert not palaestra.score(problem, f"<answer>{hedged}</answer>").correct, hedged


def test_the_numeric_reader_takes_primed_names_changes_tex_ties_unit_signs_and_rounding_notes() -> None:
    from fractions import Fraction

    from palaestra.verifiers.numeric import read_exact

    assert read_exact("f' = 440 Hz", units={"Hz": 1}) == 440
    assert read_exact(r"\Delta t = 3") == read_exact("Δt = 3") == 3
    assert read_exact("25 ℃", units={"°C": 1}) == 25
    assert read_exact("172~µF", units={"µF": 1}) == 172
    assert read_exact("0.0212 g (to 3 s.f.)", units={"g": 1}) == Fraction("0.0212")
    assert read_exact("|x| = 5") is None  # a magnitude is not the value
    assert read_exact("0.0212 g (or 0.03)", units={"g": 1}) is None


def test_shared_readers_take_a_bracket_before_a_number_sized_latex_matrices_and_wrapped_pairs() -> None:
    from palaestra.verifiers.assignments import read_assignment
    from palaestra.verifiers.formulas import prepare
    from palaestra.verifiers.matrices import read_matrix

    assert prepare("(n + 2)3^n", ["n"]) == "(n + 2)*3**n"
    assert prepare(r"\frac{35}{2}3^n", ["n"]) == "((35)/(2))*3**n"
    plain = read_matrix(r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}")
    assert plain is not None
    assert read_matrix(r"\left[\begin{array}{cc} 1 & 2 \\ 3 & 4 \end{array}\right]") == plain
    assert read_matrix(r"\left(\begin{matrix} 1 & 2 \\ 3 & 4 \end{matrix}\right)") == plain
    assert read_matrix(r"[\begin{matrix} 1 & 2 \\ 3 & 4 \end{matrix})") is None
    assert read_assignment("**x = 1**\n**y = 2**", "xy") == read_assignment("$$x = 1$$\n$$y = 2$$", "xy") == {"x": 1, "y": 2}
    assert read_assignment("**x = 1**\n**y = 2 or 3**", "xy") is None
