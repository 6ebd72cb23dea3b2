"""What the board games' faster generators rely on (issue #29): each table, cache, bit trick or pruned search gives
what the plain computation it replaced gives, written out here the plain way, on random positions."""

from __future__ import annotations

import functools
import random

from palaestra.envs.games import (
    atari_go,
    connect_four,
    dots_and_boxes,
    fox_and_geese,
    game_2048,
    gomoku,
    kalah,
    othello,
)


def _connect_four_positions(count: int, seed: int) -> list[tuple[int, int]]:
    rng, out = random.Random(seed), []
    while len(out) < count:
        me = board = 0
        for _ in range(rng.randint(4, 36)):
            columns = [c for c in range(connect_four.WIDTH) if connect_four._open(board, c)]
            drop = connect_four._drop(board, rng.choice(columns))
            me, board = (me | drop) ^ (board | drop), board | drop
        if not connect_four._four(me) and not connect_four._four(board ^ me):
            out.append((me, board))
    return out


def _plain_wins_at(me: int, board: int) -> list[int]:
    return [c for c in connect_four.ORDER if connect_four._open(board, c)
            and connect_four._four(me | connect_four._drop(board, c))]


@functools.lru_cache(maxsize=None)
def _plain_best_threat(me: int, board: int, cap: int) -> tuple[int, int]:
    """The threat search as it was before the filter: every column's threats computed."""
    if cap < 2:
        return 0, -1
    them = board ^ me
    danger = _plain_wins_at(them, board)
    if len(danger) >= 2:
        return 0, -1
    best, first = 0, -1
    for column in danger or [c for c in connect_four.ORDER if connect_four._open(board, c)]:
        drop = connect_four._drop(board, column)
        mine, after = me | drop, board | drop
        threats = _plain_wins_at(mine, after)
        if not threats or _plain_wins_at(them, after):
            continue
        if len(threats) >= 2:
            return 2, column
        limit = (best - 1 if best else cap) - 1
        if limit < 1:
            continue
        block = after | connect_four._drop(after, threats[0])
        length = 1 if _plain_wins_at(mine, block) else _plain_best_threat(mine, block, limit)[0]
        if length:
            best, first = length + 1, column
    return best, first


def test_connect_four_threat_filter_never_drops_a_threat():
    for me, board in _connect_four_positions(300, 1):
        if _plain_wins_at(me, board):
            continue  # the search asks only where the side to move cannot win at once
        candidates = connect_four._threat_cells(me, (board + connect_four.BOTTOM) & connect_four.FULL)
        for column in connect_four._columns(board):
            drop = connect_four._drop(board, column)
            if _plain_wins_at(me | drop, board | drop):
                assert drop & candidates, (me, board, column)


def test_connect_four_filtered_search_and_tables_match_the_plain_ones():
    for me, board in _connect_four_positions(300, 2):
        assert list(connect_four._columns(board)) == [c for c in connect_four.ORDER if connect_four._open(board, c)]
        assert connect_four._completing_cells(me) == connect_four._completing_cells.__wrapped__(me)
        if _plain_wins_at(me, board):
            continue
        for cap in (2, 4, 6):
            assert connect_four._best_threat(me, board, cap) == _plain_best_threat(me, board, cap), (me, board, cap)


def _plain_othello_moves(n: int, me: int, them: int) -> list[tuple[int, int]]:
    out = []
    for index in range(n * n):
        if (me | them) >> index & 1:
            continue
        r, c = divmod(index, n)
        flips = 0
        for dr, dc in othello.DIRECTIONS:
            run, rr, cc = 0, r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n and them >> (rr * n + cc) & 1:
                run |= 1 << (rr * n + cc)
                rr, cc = rr + dr, cc + dc
            if run and 0 <= rr < n and 0 <= cc < n and me >> (rr * n + cc) & 1:
                flips |= run
        if flips:
            out.append((index, flips))
    return out


def test_othello_moves_match_a_plain_ray_walk():
    rng = random.Random(3)
    for n in (4, 6):
        for _ in range(300):
            cells = rng.sample(range(n * n), rng.randint(4, n * n))
            split = rng.randint(1, len(cells) - 1)
            me, them = sum(1 << c for c in cells[:split]), sum(1 << c for c in cells[split:])
            assert othello._moves(n, me, them) == _plain_othello_moves(n, me, them)


def _plain_sow(board: list[int], pit: int) -> tuple[list[int], bool, bool]:
    """Kalah's sowing one seed at a time, then the capture and the end of the game (the code the rounds replaced)."""
    n = len(board) // 2 - 1
    board = list(board)
    seeds, board[pit], position = board[pit], 0, pit
    while seeds:
        position = (position + 1) % len(board)
        if position != 2 * n + 1:
            board[position] += 1
            seeds -= 1
    if position < n and board[position] == 1 and board[2 * n - position] > 0:
        board[n] += board[position] + board[2 * n - position]
        board[position] = board[2 * n - position] = 0
    over = not any(board[:n]) or not any(board[n + 1:2 * n + 1])
    if over:
        board[n] += sum(board[:n])
        board[2 * n + 1] += sum(board[n + 1:2 * n + 1])
        board[:n] = [0] * n
        board[n + 1:2 * n + 1] = [0] * n
    return board, position == n and not over, over


def test_kalah_sowing_in_rounds_matches_seed_by_seed():
    rng = random.Random(4)
    for _ in range(3000):
        n = rng.randint(3, 6)
        board = [rng.choice((0, 0, 1, 2, 3, 5, 9, 14, 30)) for _ in range(2 * n + 2)]
        pit = rng.randrange(n)
        if board[pit]:
            assert kalah._sow(board, pit) == _plain_sow(board, pit)
            assert kalah._sow(tuple(board), pit) == _plain_sow(board, pit)


def test_dots_and_boxes_bounded_margins_match_plain_negamax():
    @functools.lru_cache(maxsize=None)
    def plain(rows: int, cols: int, drawn: int) -> int:
        undrawn = [i for i in range(len(dots_and_boxes._lines(rows, cols))) if not drawn >> i & 1]
        best = None
        for i in undrawn:
            gained = dots_and_boxes._gained(rows, cols, drawn, i)
            value = gained + plain(rows, cols, drawn | 1 << i) if gained else -plain(rows, cols, drawn | 1 << i)
            best = value if best is None else max(best, value)
        return best or 0

    rng = random.Random(6)
    for rows, cols in ((2, 2), (2, 3)):
        count = len(dots_and_boxes._lines(rows, cols))
        for _ in range(15):
            drawn = sum(1 << i for i in rng.sample(range(count), count - rng.randint(4, 9)))
            assert dots_and_boxes._margin(rows, cols, drawn) == plain(rows, cols, drawn)
            values = dots_and_boxes._line_values(rows, cols, drawn)
            for line, value in values.items():
                gained = dots_and_boxes._gained(rows, cols, drawn, line)
                after = plain(rows, cols, drawn | 1 << line)
                assert value == (gained + after if gained else -after)


def _plain_slide(board: list[int], size: int, step: str) -> list[int]:
    out = list(board)
    for line in game_2048._lines(size, step):
        for index, value in zip(line, game_2048._line_merge([board[i] for i in line])):
            out[index] = value
    return out


def test_game_2048_slides_scores_and_greedy_choice_match_the_plain_ones():
    rng = random.Random(7)
    for size in (2, 3, 4):
        for _ in range(200):
            board = [rng.choice((0, 0, 0, 2, 2, 4, 8, 16)) for _ in range(size * size)]
            for step in "UDLR":
                assert game_2048._slide(board, size, step) == _plain_slide(board, size, step)
            order = sum(board[i] >= board[i + 1] for r in range(size) for i in range(r * size, r * size + size - 1))
            assert game_2048._score(board, size) == (4.0 * board.count(0) + 0.5 * order + max(board) / 64
                                                     + (3.0 if board[(size - 1) * size] == max(board) else 0.0))
            tape, count = rng.getrandbits(48), rng.randint(1, 50)
            step, after = game_2048._greedy_choice(tape, count, board, size)
            assert step == game_2048._greedy_move(tape, count, tuple(board), size)
            if after is not None:
                assert after == game_2048._spawn(tape, count, _plain_slide(board, size, step))
            else:
                assert all(_plain_slide(board, size, s) == board for s in "UDLR")


def test_game_2048_cached_merge_is_immutable():
    merged = game_2048._merged((2, 2, 4, 0))
    assert merged == (4, 4, 0, 0) and isinstance(merged, tuple)


def test_gomoku_masked_line_searches_match_plain_sets():
    rng = random.Random(8)
    size = 11
    lines = gomoku._lines(size)[0]
    for _ in range(300):
        cells = rng.sample(range(size * size), rng.randint(2, 30))
        split = rng.randint(1, len(cells) - 1)
        me, them = frozenset(cells[:split]), frozenset(cells[split:])
        completions = {e[0] for line in lines if len(e := [c for c in line if c not in me]) == 1 and e[0] not in them}
        fours = sorted({c for line in lines if sum(c in me for c in line) == 3 and not any(c in them for c in line)
                        for c in line if c not in me})
        assert gomoku._completions(size, me, them) == completions
        assert gomoku._four_moves(size, me, them) == fours


def test_fox_and_geese_move_tables_match_the_neighbour_walk():
    rng = random.Random(9)
    for _ in range(300):
        fox = rng.choice(fox_and_geese.POINTS)
        geese = sum(1 << p for p in rng.sample([p for p in fox_and_geese.POINTS if p != fox], rng.randint(3, 15)))
        neighbour = fox_and_geese._neighbour
        steps = [t for d in range(4) if (t := neighbour(fox, d)) is not None and not geese >> t & 1]
        jumps = [(landing, over) for d in range(4) if (over := neighbour(fox, d)) is not None and geese >> over & 1
                 and (landing := neighbour(over, d)) is not None and not geese >> landing & 1]
        moves = [(p, t) for p in fox_and_geese.POINTS if geese >> p & 1 for d in (1, 2, 3)
                 if (t := neighbour(p, d)) is not None and t != fox and not geese >> t & 1]
        assert fox_and_geese.fox_steps(geese, fox) == steps
        assert fox_and_geese.fox_captures(geese, fox) == jumps
        assert fox_and_geese.goose_moves(geese, fox) == moves
        assert set(fox_and_geese._beyond(fox, 3)) == (set(fox_and_geese.POINTS) - {fox}
                                                       - set(fox_and_geese._within(fox, 3)))


def test_atari_go_groups_match_a_plain_flood_fill():
    rng = random.Random(10)
    for n in (5, 7):
        for _ in range(200):
            board = "".join(rng.choice("..XO") for _ in range(n * n))
            for colour in (atari_go.MODEL, atari_go.OPPONENT):
                seen: set[int] = set()
                plain = []
                for start in range(n * n):
                    if board[start] != colour or start in seen:
                        continue
                    group, frontier = {start}, [start]
                    while frontier:
                        p = frontier.pop()
                        r, c = divmod(p, n)
                        for q in ([p - n] if r else []) + ([p + n] if r < n - 1 else []) + \
                                 ([p - 1] if c else []) + ([p + 1] if c < n - 1 else []):
                            if board[q] == colour and q not in group:
                                group.add(q)
                                frontier.append(q)
                    seen |= group
                    libs = {q for p in group for q in range(n * n) if board[q] == atari_go.EMPTY
                            and abs(q // n - p // n) + abs(q % n - p % n) == 1}
                    plain.append((sum(1 << p for p in group), sum(1 << q for q in libs)))
                assert sorted(atari_go._groups(board, n)[colour]) == sorted(plain)


