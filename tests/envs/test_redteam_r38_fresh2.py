"""Red-team round 38 (fresh look 2): cheap policies on envs no earlier red-team test named.

- ``interactive/circuit_debug`` v2: the faulty gate was drawn uniformly among the gates whose fault shows, so an
  output gate (a third to half of the gates, and always showing) held it 0.30-0.48 of the time; testing the
  circuit and blaming the output that reads wrong, without one probe of its inputs, won 0.40 / 0.50 / 0.48 / 0.37
  / 0.34 at levels 0-4 (a blind guess: 0.25 / 0.17 / 0.13 / 0.09 / 0.07). Now the outputs together hold the
  fault as often as one inner gate (of at least two): 0.28 / 0.25 / 0.22 / 0.16 / 0.10 (400 seeds a level).
- ``tools/text_to_sql`` v2: a count per row (``LEFT JOIN ... GROUP BY``, "0 when none") often had no row
  counting 0 on the database nor on its thinned twin, so the inner join, which drops those rows, passed 7 of the 9
  such problems in 40 seeds of level 3; now every such problem has a row counting 0 (0 of 5).
- ``verification/loop_invariant`` v3 (grammar): a right invariant in a naming sentence ("The invariant is ...")
  was rejected; now it is read, and a hedge or a negated name after it is still not.
"""

from __future__ import annotations

import itertools

from palaestra.core.registry import make_source

GATES = {"AND": lambda a, b: a & b, "OR": lambda a, b: a | b, "XOR": lambda a, b: a ^ b,
         "NAND": lambda a, b: 1 - (a & b), "NOR": lambda a, b: 1 - (a | b), "NOT": lambda a: 1 - a}


def _fault_free(gates: list, bits: str) -> dict[str, int]:
    wires = {f"I{i + 1}": int(b) for i, b in enumerate(bits)}
    for k, (kind, sources) in enumerate(gates):
        wires[f"G{k + 1}"] = GATES[kind](*(wires[s] for s in sources))
    return wires


def _blame_wrong_output(source, problem) -> bool:
    """Test the circuit with every turn but the last, then name the output that read wrong most often."""
    data = problem.data
    state = source.initial_state(problem)
    wrong = dict.fromkeys(data["outputs"], 0)
    for bits in list(itertools.product("01", repeat=data["inputs"]))[: data["turns"] - 1]:
        shown = "".join(bits)
        outcome = source.play(problem, state, f"test {shown}")
        state = outcome.state
        readings = dict(part.split("=") for part in outcome.observation.split(": ")[1].rstrip(".").split(", "))
        expected = _fault_free(data["gates"], shown)
        for name, value in readings.items():
            wrong[name] += int(value) != expected[name]
    blamed = max(data["outputs"], key=lambda name: wrong[name])
    return bool(source.play(problem, state, f"answer {blamed}").verdict.correct)


def test_circuit_debug_blaming_the_wrong_output_is_about_a_guess():
    source = make_source("interactive/circuit_debug")
    excess = []
    for level in range(5):
        seeds = 30
        wins = sum(_blame_wrong_output(source, source.sample(level, seed)) for seed in range(seeds))
        chance = 1 / len(source.sample(level, 0).data["gates"])
        excess.append(wins / seeds - chance)
    # version 1: 0.28 above a blind guess on average over the levels; version 2: about 0.06
    assert sum(excess) / len(excess) <= 0.12, excess


def test_circuit_debug_honest_player_still_wins():
    source = make_source("interactive/circuit_debug")
    for level in (0, 2, 4):
        for seed in range(4):
            problem = source.sample(level, seed)
            assert source.honest_turns(problem, problem.data["turns"]) is not None, (level, seed)


def test_text_to_sql_inner_join_for_a_count_per_row_is_rejected():
    source = make_source("tools/text_to_sql")
    counted = 0
    for seed in range(40):
        problem = source.sample(3, seed)
        sql = problem.data["sql"]
        if "LEFT JOIN" not in sql:
            continue
        counted += 1
        assert source.judge(problem, sql).correct
        assert not source.judge(problem, sql.replace("LEFT JOIN", "JOIN")).correct, seed
    assert counted >= 3


def test_loop_invariant_reads_a_naming_sentence_and_nothing_after_it():
    source = make_source("verification/loop_invariant")
    for level, seed in ((0, 1), (3, 1), (4, 2)):
        problem = source.sample(level, seed)
        gold = problem.answer
        assert source.verify(problem, f"The invariant is {gold}.").correct
        assert source.verify(problem, f"The loop invariant is: {gold}").correct
        assert not source.verify(problem, f"The invariant is {gold}, or true").correct
        assert not source.verify(problem, f"Not the invariant: {gold}").correct
        assert not source.verify(problem, "The invariant is: true").correct
