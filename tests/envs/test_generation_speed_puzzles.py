"""What the faster grid-puzzle generators rely on (issue #29, item 3): each cached or rewritten encoding gives the
clauses, in the order and with the numbering, that building it afresh gives (the SAT solver's answers, and so the
puzzles, depend on both), and the faster searches return what the plain ones return."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np

from palaestra.envs.puzzles import battleships, cryptarithm, kakuro, kenken, killer_sudoku, skyscrapers
from palaestra.envs.puzzles.common import CNF, ClauseBlock, digit_order_literals, guarded_exactly, latin_cnf, less_than
from palaestra.generators import nurikabe
from palaestra.generators.battleship import placements


def _state(cnf: CNF) -> tuple:
    return cnf.clauses, list(cnf.ids.items()), cnf.top


def test_clause_block_replay_equals_encoding_again():
    def encode(cnf: CNF, cells: list[int]) -> None:
        gates = [cnf.and_of([cells[i], -cells[i + 1]]) for i in range(len(cells) - 1)]
        cnf.exactly(gates, 2)

    recorded = CNF()
    cells = [recorded.var(i) for i in range(6)]
    encode(recorded, cells)
    block = ClauseBlock(recorded.clauses, fixed=6, top=recorded.top)
    for extra in (0, 3, 40):
        fresh, replayed = CNF(), CNF()
        for cnf in (fresh, replayed):
            for i in range(6):
                cnf.var(i)
            for _ in range(extra):
                cnf.auxiliary()
        encode(fresh, cells)
        block.replay(replayed)
        assert _state(replayed) == _state(fresh)


def _battleship_rules_afresh(n: int, fleet: tuple[int, ...], rows: list[int], cols: list[int]) -> CNF:
    cnf = CNF()
    cell = {(r, c): cnf.var((r, c)) for r in range(n) for c in range(n)}
    for i in range(n):
        cnf.exactly([cell[i, c] for c in range(n)], rows[i])
        cnf.exactly([cell[r, i] for r in range(n)], cols[i])
    for (r, c), lit in cell.items():
        for dr, dc in ((1, 1), (1, -1)):
            if (r + dr, c + dc) in cell:
                cnf.add([-lit, -cell[r + dr, c + dc]])
    for length, count in Counter(fleet).items():
        gates = []
        for cells in sorted(placements(n, length), key=lambda cells: cells[0][0] != cells[-1][0]):
            (r0, c0), (r1, c1) = cells[0], cells[-1]
            if length == 1:
                ends = [(r0 - 1, c0), (r0 + 1, c0), (r0, c0 - 1), (r0, c0 + 1)]
            elif r0 == r1:
                ends = [(r0, c0 - 1), (r1, c1 + 1)]
            else:
                ends = [(r0 - 1, c0), (r1 + 1, c1)]
            gates.append(cnf.and_of([cell[x] for x in cells] + [-cell[x] for x in ends if x in cell]))
        cnf.exactly(gates, count)
    return cnf


def test_battleships_cached_fleet_rules_equal_the_encoding_afresh():
    rng = random.Random(3)
    for config in battleships.Battleships.presets:
        for _ in range(3):
            ships = battleships._place_fleet(rng, config.size, config.fleet)
            if ships is None:
                continue
            n = config.size
            rows = [sum((r, c) in ships for c in range(n)) for r in range(n)]
            cols = [sum((r, c) in ships for r in range(n)) for c in range(n)]
            cnf, _ = battleships._rules(n, config.fleet, rows, cols)
            assert _state(cnf) == _state(_battleship_rules_afresh(n, config.fleet, rows, cols))
            cnf.clauses[-1].append(0)  # a caller changing its formula leaves the cache alone
            cnf, _ = battleships._rules(n, config.fleet, rows, cols)
            assert _state(cnf) == _state(_battleship_rules_afresh(n, config.fleet, rows, cols))


def _skyscrapers_afresh(n: int, square: list[list[int]]) -> CNF:
    cnf, cell = latin_cnf(n)
    ge = [[digit_order_literals(cnf, cell, n, r, c) for c in range(n)] for r in range(n)]
    for side in skyscrapers._SIDES:
        for i in range(n):
            line = skyscrapers._line(side, i, n)
            seen = skyscrapers._visible([square[r][c] for r, c in line])
            visible = skyscrapers._visible_literals(cnf, cell, ge, n, line)
            selector = cnf.var(("clue", side, i))
            guarded_exactly(cnf, visible, seen, selector)
            for d, (r, c) in enumerate(line):
                bound = n - seen + 2 + d
                if bound <= n:
                    cnf.add([-selector, -ge[r][c][bound]])
    return cnf


def test_skyscrapers_cached_clue_rules_equal_the_encoding_afresh():
    rng = random.Random(4)
    for n in (4, 5, 6):
        for _ in range(3):
            square = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
            rng.shuffle(square)
            cnf, _ = skyscrapers._latin_with_order(n)
            for side in skyscrapers._SIDES:
                for i in range(n):
                    seen = skyscrapers._visible([square[r][c] for r, c in skyscrapers._line(side, i, n)])
                    rules, offset = skyscrapers._clue_rules(n, side, i, seen)
                    selector = cnf.top + offset
                    rules.replay(cnf)
                    cnf.ids[("clue", side, i)] = selector
            assert _state(cnf) == _state(_skyscrapers_afresh(n, square))


def test_latin_cnf_is_a_fresh_copy_named_as_before():
    first, cell = latin_cnf(4)
    assert list(first.ids) == [("cell", r, c, v) for r in range(4) for c in range(4) for v in range(1, 5)]
    assert [cell(r, c, v) for r, c, v in itertools.product(range(4), range(4), range(1, 5))] == list(range(1, 65))
    first.var("extra")
    first.clauses.append([1])
    second, _ = latin_cnf(4)
    assert "extra" not in second.ids and second.top == 64 and [1] not in second.clauses


def test_order_literals_and_less_than_add_what_the_gate_helpers_add():
    def afresh(cnf: CNF, cell, n: int, r: int, c: int) -> list[int]:
        key = ("at_least", r, c)
        if (key, 2) in cnf.ids:
            return [0, cnf.true] + [cnf.ids[(key, v)] for v in range(2, n + 1)] + [-cnf.true]
        result = [0, cnf.true]
        for v in range(2, n + 1):
            lit = cnf.var((key, v))
            cnf.equivalent(lit, cnf.or_of([cell(r, c, w) for w in range(v, n + 1)]))
            result.append(lit)
        return [*result, -cnf.true]

    rng = random.Random(5)
    for n in (3, 5, 7):
        pairs = [((rng.randrange(n), rng.randrange(n)), (rng.randrange(n), rng.randrange(n))) for _ in range(12)]
        fast, cell = latin_cnf(n)
        slow, _ = latin_cnf(n)
        for k, (a, b) in enumerate(pairs):
            guard = None if k % 3 == 0 else fast.var(("sign", k))
            assert guard is None or slow.var(("sign", k)) == guard
            less_than(fast, cell, n, a, b, guard)
            ge_a, ge_b = afresh(slow, cell, n, *a), afresh(slow, cell, n, *b)
            for v in range(1, n + 1):
                slow.implies([*([] if guard is None else [guard]), ge_a[v]], ge_b[v + 1])
        assert _state(fast) == _state(slow)


def test_killer_sudoku_cached_box_rules_equal_the_encoding_afresh():
    for br, bc in ((2, 2), (2, 3), (3, 3)):
        n = br * bc
        cnf, cell = latin_cnf(n)
        for top in range(0, n, br):
            for left in range(0, n, bc):
                box = [(r, c) for r in range(top, top + br) for c in range(left, left + bc)]
                for v in range(1, n + 1):
                    cnf.exactly_one([cell(r, c, v) for r, c in box])
        clauses, top = killer_sudoku._box_rules(br, bc)
        assert list(clauses) == cnf.clauses[len(latin_cnf(n)[0].clauses):] and top == cnf.top


def test_kenken_allowed_tuples_are_the_tuples_without_a_clash():
    for op, target, n, k in (("+", 7, 4, 2), ("*", 12, 5, 3), ("+", 10, 6, 4), ("-", 1, 5, 2)):
        for clashes in ((), ((0, 1),), tuple(itertools.combinations(range(k), 2))):
            expected = tuple(d for d in kenken._tuples(op, target, n, k) if all(d[i] != d[j] for i, j in clashes))
            assert kenken._allowed_tuples(op, target, n, k, clashes) == expected


def test_kakuro_layout_blackens_the_same_lonely_cells():
    def layout_afresh(rng: random.Random, config) -> set | None:
        rows, cols = config.rows, config.cols
        white = {(r, c) for r in range(rows) for c in range(cols) if rng.random() >= config.black_share}
        for _ in range(rows * cols):
            lonely = [(r, c) for r, c in white
                      if not ({(r, c - 1), (r, c + 1)} & white and {(r - 1, c), (r + 1, c)} & white)]
            if not lonely:
                break
            white.discard(min(lonely))
        if len(white) < rows * cols // 2 or not kakuro.connected(white):
            return None
        return white

    for config in kakuro.Kakuro.presets:
        for seed in range(40):
            assert kakuro._layout(random.Random(seed), config) == layout_afresh(random.Random(seed), config)


def _alphametic_solutions_afresh(words: list[str], total: str, limit: int) -> list[dict[str, int]] | None:
    """The search before the free-digit mask: every state repeated ten times, then filtered."""
    width = len(total)
    leading = {w[0] for w in [*words, total] if len(w) > 1}
    order: list[str] = []
    states = np.zeros((1, 0), dtype=np.int16)
    used, carry = np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32)
    for i in range(width):
        for word in words:
            letter = word[-1 - i] if i < len(word) else None
            if letter is None or letter in order:
                continue
            if len(states) * 10 > cryptarithm._MAX_STATES:
                return None
            digits = np.tile(np.arange(10, dtype=np.int16), len(states))
            states, used, carry = (np.repeat(a, 10, axis=0) for a in (states, used, carry))
            free = ((used >> digits) & 1) == 0
            if letter in leading:
                free &= digits > 0
            states = np.column_stack([states[free], digits[free]])
            used, carry = used[free] | (1 << digits[free].astype(np.int32)), carry[free]
            order.append(letter)
        column_sum = carry + sum(states[:, order.index(w[-1 - i])].astype(np.int32) for w in words if i < len(w))
        digit, carry = column_sum % 10, column_sum // 10
        letter = total[-1 - i]
        if letter in order:
            keep = states[:, order.index(letter)] == digit
        else:
            keep = ((used >> digit) & 1) == 0
            if letter in leading:
                keep &= digit > 0
            states = np.column_stack([states, digit.astype(np.int16)])
            used = used | (1 << digit)
            order.append(letter)
        states, used, carry = states[keep], used[keep], carry[keep]
    states = states[carry == 0]
    return [dict(zip(order, map(int, row))) for row in states[:limit]]


def test_cryptarithm_search_lists_the_same_solutions_in_the_same_order():
    rng = random.Random(6)
    for _ in range(150):
        numbers = [rng.randint(10 ** (d - 1), 10 ** d - 1) for d in (rng.randint(2, 5) for _ in range(rng.choice((2, 3))))]
        text = [str(x) for x in [*numbers, sum(numbers)]]
        to_letter = dict(zip(sorted(set("".join(text))), rng.sample("ABCDEFGHJK", len(set("".join(text))))))
        *words, total = ["".join(to_letter[ch] for ch in word) for word in text]
        for limit in (2, 500):
            assert cryptarithm._solutions(words, total, {}, limit) == _alphametic_solutions_afresh(words, total, limit)


def test_nurikabe_bitmask_flood_and_pools_agree_with_the_set_versions():
    rng = random.Random(7)
    for _ in range(300):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        cells = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.6}
        bits = sum(nurikabe._bit(cell, cols) for cell in cells)
        for part in nurikabe.components(cells, rows, cols):
            seed = nurikabe._bit(min(part), cols)
            assert nurikabe._flood(seed, bits, cols) == sum(nurikabe._bit(cell, cols) for cell in part)
        assert nurikabe._pools_of_bits(bits, cols) == nurikabe.pools(cells, rows, cols)
    assert nurikabe._adjacency(3, 4)[(1, 2)] == nurikabe.neighbours((1, 2), 3, 4)


def test_cached_tables_are_not_changed_by_use():
    first = battleships._placements(6, 3)
    assert first == tuple(tuple(cells) for cells in sorted(placements(6, 3), key=lambda x: x[0][0] != x[-1][0]))
    assert all(isinstance(cells, tuple) for cells in first)
    assert kenken._allowed_tuples("+", 7, 4, 2, ()) == tuple(kenken._tuples("+", 7, 4, 2))
