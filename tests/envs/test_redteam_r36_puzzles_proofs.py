"""Red-team round 36 (puzzles, proofs, planning): cheap policies measured on twelve envs, the broken ones fixed.

- planning/hanoi_variants v3: three pegs in a row join every position in one path, so a plan that never undoes
  its last move is the shortest one whenever its first move goes the right way, and a one-move lookahead (the
  legal move to a new position putting the most disks on their goal pegs, larger disks first) solved 0.27, 0.18,
  0.16, 0.13, 0.14 of levels 0-4 (200 seeds a level). Now four pegs stand in a row and draws the lookahead
  solves are redrawn: 0 at every level; a two-move lookahead 0.37/0.24/0.25/0.19/0.13 -> 0.12/0.11/0.09/0.05/0.03.
- proofs/hilbert_system v2: backward chaining that never invents a formula (an axiom instance; A → A by five
  lines; X → Y from Y by A1 and MP; (A → B) → (A → C) from A → (B → C) by A2 and MP) proved 1.00, 0.80, 0.88,
  0.93, 0.88 of levels 0-4 (40 seeds), and its A1-only part (prove the axiom instance on the theorem's right
  spine, then weaken) 0.50, 0.48, 0.70, 0.53, 0.50. Such theorems are now redrawn: 0 at every level.

Checked and left as they are (hedges, retractions, two answers and constants earn 0 at levels 0-4 in all twelve):
battleships, binairo, hitori, numbrix, tents, polyomino_tiling, lattice_identities, natural_deduction,
resolution, logistics. The puzzles' small levels yield to first-fit procedures that use every clue (tents: a tent
per tree at its first free neighbour within the counts, best order 0.78 at level 0, 0.05 at level 4).
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.proofs._logic import show
from palaestra.envs.proofs.hilbert_system import _parse

SEEDS = 30


# --- planning/hanoi_variants -------------------------------------------------------------------------------------

def _legal_moves(position: str, allowed: list[tuple[str, str]]) -> list[tuple[tuple[str, str], str]]:
    result = []
    for source, target in allowed:
        top = position.find(source)
        if top >= 0 and not 0 <= position.find(target) < top:
            result.append(((source, target), position[:top] + target + position[top + 1:]))
    return result


def _allowed(problem) -> list[tuple[str, str]]:
    """The variant's moves, as its rules in the prompt state them."""
    variant = problem.data["variant"]
    if variant == "cyclic":
        return [("A", "B"), ("B", "C"), ("C", "A")]
    if variant == "star":
        return [p for x in "BCD" for p in (("A", x), (x, "A"))]
    if variant == "four":
        return [(a, b) for a in "ABCD" for b in "ABCD" if a != b]
    row = "ABCD" if "row A, B, C, D" in problem.prompt else "ABC"  # linear: neighbours in the row the prompt names
    return [p for a, b in zip(row, row[1:]) for p in ((a, b), (b, a))]


def _lookahead(problem, depth: int) -> str:
    """Moves to unseen positions, each maximising the weight (2 ** disk) of disks on their goal pegs, looking one
    or two moves ahead."""
    data, allowed = problem.data, _allowed(problem)
    goal = data["goal"]

    def weight(position: str) -> int:
        return sum(1 << d for d in range(len(position)) if position[d] == goal[d])

    position, seen, moves = data["start"], {data["start"]}, []
    while position != goal and len(moves) < 2 * data["optimal"]:
        options = []
        for move, nxt in _legal_moves(position, allowed):
            if nxt in seen:
                continue
            score = weight(nxt)
            if depth == 2:
                score = max([score, *(weight(after) for _, after in _legal_moves(nxt, allowed))])
            options.append((score, move, nxt))
        if not options:
            break
        best = max(options, key=lambda option: option[0])  # the first of the best, in the allowed order
        position = best[2]
        seen.add(position)
        moves.append(best[1])
    return ", ".join(f"{a}->{b}" for a, b in moves)


def test_hanoi_variants_lookahead_solves_nothing():
    task = make_source("planning/hanoi_variants")
    for level in range(5):
        problems = [task.sample(level, seed) for seed in range(SEEDS)]
        one = sum(task.verify(p, _lookahead(p, 1)).correct for p in problems) / SEEDS
        two = sum(task.verify(p, _lookahead(p, 2)).correct for p in problems) / SEEDS
        assert one == 0, (level, one)  # was 0.27, 0.18, 0.16, 0.13, 0.14
        assert two <= 0.2, (level, two)  # was 0.37, 0.24, 0.25, 0.19, 0.13


def test_hanoi_variants_linear_is_no_single_path():
    """Three pegs in a row leave at most one move that does not undo the last: never undoing it, either first
    move reached the goal, one of them by a shortest plan. Four pegs in a row branch."""
    task = make_source("planning/hanoi_variants")
    linear = [p for level in range(5) for seed in range(SEEDS)
              if (p := task.sample(level, seed)).data["variant"] == "linear"]
    assert len(linear) >= 20
    solved = 0
    for problem in linear:
        allowed = _allowed(problem)
        for first in range(2):
            position, moves, last = problem.data["start"], [], None
            for step in range(problem.data["optimal"]):
                options = [(m, nxt) for m, nxt in _legal_moves(position, allowed) if last is None or m != last[::-1]]
                if not options:
                    break
                move, position = options[first % len(options)] if step == 0 else options[0]
                moves.append(move)
                last = move
            solved += task.verify(problem, ", ".join(f"{a}->{b}" for a, b in moves)).correct
    assert solved / len(linear) <= 0.2, solved / len(linear)  # was 1.0: one of the two first moves always won


def test_hanoi_variants_reference_still_solves():
    task = make_source("planning/hanoi_variants")
    for level in range(5):
        for seed in range(SEEDS):
            problem = task.sample(level, seed)
            assert task.verify(problem, problem.answer).correct
            assert len(problem.answer.split(", ")) == problem.data["optimal"]


# --- proofs/hilbert_system ---------------------------------------------------------------------------------------

def _imp(a, b):
    return ("imp", a, b)


def _is_a1(f) -> bool:  # A → (B → A)
    return f[0] == "imp" and f[2][0] == "imp" and f[2][2] == f[1]


def _is_a2(f) -> bool:  # (A → (B → C)) → ((A → B) → (A → C))
    if not (f[0] == "imp" and f[1][0] == "imp" and f[1][2][0] == "imp"):
        return False
    a, b, c = f[1][1], f[1][2][1], f[1][2][2]
    return f[2] == _imp(_imp(a, b), _imp(a, c))


def _chain(f, weaken_only: bool):
    """Proof lines (formula, rule, cited 0-based) by backward chaining with no invented formula, or None."""
    if _is_a1(f) or _is_a2(f):
        return [(f, "A1" if _is_a1(f) else "A2", ())]
    if f[0] != "imp":
        return None
    if f[1] == f[2]:  # A → A: the textbook five lines
        a = f[1]
        return [(_imp(_imp(a, _imp(_imp(a, a), a)), _imp(_imp(a, _imp(a, a)), _imp(a, a))), "A2", ()),
                (_imp(a, _imp(_imp(a, a), a)), "A1", ()), (_imp(_imp(a, _imp(a, a)), _imp(a, a)), "MP", (1, 0)),
                (_imp(a, _imp(a, a)), "A1", ()), (f, "MP", (3, 2))]
    rest = _chain(f[2], weaken_only)
    if rest is not None:
        return [*rest, (_imp(f[2], f), "A1", ()), (f, "MP", (len(rest) - 1, len(rest)))]
    if weaken_only or not (f[1][0] == "imp" and f[2][0] == "imp" and f[1][1] == f[2][1]):
        return None
    premise = _imp(f[1][1], _imp(f[1][2], f[2][2]))
    rest = _chain(premise, weaken_only)
    if rest is None:
        return None
    return [*rest, (_imp(premise, f), "A2", ()), (f, "MP", (len(rest) - 1, len(rest)))]


def _render(lines) -> str:
    return "\n".join(f"{i}. {show(f)}    {rule}" + (f" {c[0] + 1}, {c[1] + 1}" if c else "")
                     for i, (f, rule, c) in enumerate(lines, start=1))


def test_hilbert_system_chaining_proves_nothing():
    task = make_source("proofs/hilbert_system")
    for level in range(5):
        chained = weakened = 0
        for seed in range(SEEDS):
            problem = task.sample(level, seed)
            theorem = _parse(problem.data["theorem"], problem.data["atoms"])
            for weaken_only in (False, True):
                lines = _chain(theorem, weaken_only)
                if lines is not None:
                    assert task.verify(problem, _render(lines)).correct  # the template's proofs are valid
                    chained += not weaken_only
                    weakened += weaken_only
        assert chained == 0, (level, chained / SEEDS)  # was 1.00, 0.80, 0.88, 0.93, 0.88
        assert weakened == 0, (level, weakened / SEEDS)  # was 0.50, 0.48, 0.70, 0.53, 0.50


def test_hilbert_system_reference_still_proves():
    task = make_source("proofs/hilbert_system")
    for level in range(5):
        for seed in range(SEEDS):
            problem = task.sample(level, seed)
            assert task.verify(problem, problem.answer).correct
