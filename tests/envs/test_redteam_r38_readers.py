"""Red team r38 (readers): right answers the numeric readers refused, now read; hedges stay refused.

- A naming sentence with any noun ("The charge is 5 µC.", "The final velocity is 12 m/s.") was refused by the
  numeric readers of 22 physics, chemistry and economics envs (only a fixed list of nouns, "price", "value",
  "area", ..., was a lead-in): 100% of references refused before -> 0% after. One grammar now reads it
  (palaestra.verifiers.numeric, ``sentence=True``; ``strip_sentence`` for collisions' radical reader): an article, a
  short noun phrase of words, "is"/"equals"/"="/":"; a phrase that hedges, negates or joins a second quantity is no
  sentence, and what follows is read whole, so "Maybe the charge is 5", "The charge is 5 or 6", "The charge is not
  5", "I think the charge might be 5" and a retraction earn nothing, before or after.
  A word with a digit or an inner capital (C5, H2O, NaCl) names an object, left to the env that knows it (the
  chemistry envs' own readers refuse another species named, physics/truss another member).
- physics/capacitors refused "Q4 = ... μC" and "The charge on C4 is ... μC" for the charge on C4 (the label's digit
  is no name to the shared reader): both are read where they name the asked capacitor (Q for a charge, U/E/W for an
  energy); "Q5 =" or "The charge on C5 is" for C4 is refused (before, "Q_5 =" was read as any name).
- symbolic/game_of_life refused a closing full stop after a grid whose last cell is "." (100% of such references
  refused before -> 0% after); puzzles/nonogram read it after solid rows but not after labelled rows ("Row 6: ...")
  or rows on one line ("..#;#..;.#.."), 100% refused -> 0%. The grid's known width decides: one "." past the width
  on the last row is punctuation, two are refused.
"""

from __future__ import annotations

import re

import pytest

from palaestra.core.registry import make_source

SENTENCE_ENVS = [
    "chemistry/colligative_properties", "chemistry/dilution", "chemistry/gas_laws", "chemistry/molar_mass",
    "chemistry/ph", "chemistry/stoichiometry", "economics/amortisation", "economics/npv_irr", "physics/capacitors",
    "physics/collisions", "physics/doppler", "physics/fluids", "physics/kinematics", "physics/relativity",
    "physics/resistor_network", "physics/rotation", "physics/truss", "physics/thermodynamic_cycles",
]
SENTENCES = ("The charge is {a}.", "The final velocity is {a}.", "So the equilibrium price is {a}.",
             "**The total charge equals {a}.**", "Therefore, the charge on the capacitor is equal to {a}")
HEDGES = ("Maybe the charge is {a}", "The charge is {a} or {w}", "The charge is not {a}",
          "I think the charge might be {a}", "The charge is {a}. Actually the charge is {w}",
          "The charge is {w}. Actually the charge is {a}", "The wrong charge is {a}", "The charge or the voltage is {a}",
          "The charge perhaps is {a}", "The charge is {a}, or maybe {w}", "The charge could be {a}")


def _single_value_problems(env_id: str, count: int = 3):
    source = make_source(env_id)
    found = []
    for level in range(4):
        for seed in range(6):
            problem = source.sample(level, seed)
            answer = problem.answer or ""
            if not any(mark in answer for mark in "=:;\n"):
                found.append(problem)
                break
        if len(found) >= count:
            break
    return source, found


@pytest.mark.parametrize("env_id", SENTENCE_ENVS)
def test_naming_sentence_reads_the_reference_and_refuses_hedges(env_id: str) -> None:
    source, problems = _single_value_problems(env_id)
    assert problems
    for problem in problems:
        for form in SENTENCES:
            text = form.format(a=problem.answer)
            assert source.verify(problem, text).reward == 1.0, (env_id, text)
        for form in HEDGES:
            text = form.format(a=problem.answer, w="1")
            assert source.verify(problem, text).reward == 0.0, (env_id, text)


def test_capacitor_label_names_the_asked_capacitor() -> None:
    source = make_source("physics/capacitors")
    seen = set()
    for level in (1, 3, 4):
        for seed in range(6):
            problem = source.sample(level, seed)
            kind = problem.data["kind"]
            if kind == "capacitance":
                continue
            asked = re.search(r"(?:charge on|stored in) C(\d+),", problem.prompt)
            assert asked is not None
            index, value, unit = asked.group(1), problem.data["value"], problem.data["unit"]
            other = str(int(index) % 9 + 1)
            letters = "Q" if kind == "charge" else "UEW"
            seen.add(kind)
            named = "The charge on C{}" if kind == "charge" else "The energy stored in C{}"
            for letter in letters:
                for text in (f"{letter}{index} = {value} {unit}", f"{letter}_{{{index}}} = {value} {unit}.",
                             f"**{letter}{index} = {value} {unit}**", f"{named.format(index)} is {value} {unit}."):
                    assert source.verify(problem, text).reward == 1.0, text
            wrong_letter = "U" if kind == "charge" else "Q"
            for text in (f"{letters[0]}{other} = {value} {unit}", f"{letters[0]}_{other} = {value} {unit}",
                         f"{wrong_letter}{index} = {value} {unit}", f"{letters[0]}{index} = {value} {unit} or 1 {unit}",
                         f"{named.format(other)} is {value} {unit}.", f"{named.format(index)} is not {value} {unit}."):
                assert source.verify(problem, text).reward == 0.0, text
    assert seen == {"charge", "energy"}


def _dead_last(env_id: str, levels: range, count: int = 6):
    source = make_source(env_id)
    problems = [p for level in levels for seed in range(12)
                if (p := source.sample(level, seed)).answer and p.answer.endswith(".")]
    assert problems
    return source, problems[:count]


def test_game_of_life_reads_a_full_stop_after_a_dead_last_cell() -> None:
    source, problems = _dead_last("symbolic/game_of_life", range(3))
    for problem in problems:
        grid = problem.answer
        spaced = "\n".join(" ".join(row) for row in grid.split("\n"))
        for text in (grid + ".", f"Answer:\n{grid}.", spaced + ".", grid + "\n"):
            assert source.verify(problem, text).reward == 1.0, text
        for text in (grid + "..", grid + ". Or all dead.", grid + " ..."):
            assert source.verify(problem, text).reward == 0.0, text


def test_nonogram_reads_a_full_stop_in_every_layout() -> None:
    source, problems = _dead_last("puzzles/nonogram", range(1, 3))
    for problem in problems:
        rows = problem.answer.split("\n")
        labelled = "\n".join(f"Row {i + 1}: {row}" for i, row in enumerate(rows))
        one_line = ";".join(rows)
        for text in (labelled + ".", one_line + ".", problem.answer + ".", labelled, one_line):
            assert source.verify(problem, text).reward == 1.0, text
        for text in (labelled + "..", one_line + "..", problem.answer + ".."):
            assert source.verify(problem, text).reward == 0.0, text
