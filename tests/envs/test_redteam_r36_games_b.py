"""Red team, round 3 session 36 (games_b): cheap policies of games never red-teamed before.

- games/bomb_defusal (v2): version 1 drew the edgework freely, so most rule conditions came out false and the
  answers barely depended on it: following each list's "otherwise" rule won 0.40 / 0.33 / 0.20 / 0.20 / 0.20 of
  levels 0-4, each list's first rule 0.47 / 0.40 / 0.20 / 0.07 / 0.03, and a player who asked about the modules only
  and assumed one edgework 0.73-0.83 at level 0 and 0.30-0.40 at level 4 (random play 0.07 / 0 / 0 / 0 / 0).
  Version 2 draws the edgework among the answers it can give (at least eight distinct, one drawn uniformly), with
  four to six modules and one strike: any player who never asks about the edgework wins at most one game in eight
  (measured: the declared rules 0-0.10, an assumed edgework 0.07-0.20, 0.12 on average; 40 games a level).
- games/rush_hour (v2): at level 0 (3-5 slides, four spare turns) the greedy rule -- a slide leaving the fewest
  cars between car A and the exit -- won 0.40 (ties to car A's furthest slide) and 0.45-0.60 (ties at random) of the
  games (random play 0). Version 2 redraws a position that rule wins in more than 4 of 64 random-tie games played
  at generation, level 0 starting at 4-7 slides with three spare turns (with no win allowed at 3-5 slides, only about
  a thousand positions were left: 52% distinct problems in 1,000 draws); levels 1-4 were and stay at 0-0.03.
- games/ice_slide (v2): at levels 0 and 1 (no helpers) the nearest-slide rule -- slide S the way that leaves it
  nearest the target -- won 0.25-0.37, and the same rule never undoing its last slide 0.23-0.60 (random
  slides of S 0.05 / 0). Version 2 redraws a grid without helpers where S reaches the target within the budget by
  slides that never take it farther away or by a nearest-first rule (among all slides, those not undoing the last,
  those reaching a new square; every tie followed): 0 for each (30-40 games).
- games/hex_minesweeper (v2): boards solvable without guessing were still cleared by guessing: revealing the
  cell of lowest risk (the largest share of mines an open neighbour's number puts on its hidden neighbours; 0
  away from the numbers) won 0.76 / 0.40 / 0.11 of levels 0-2, a mean-risk variant 0.81 / 0.45 / 0.17 (random
  reveals 0.04 / 0.02 / 0; 100 games). Version 2 redraws a board that guesser clears in one of eight games played
  at generation: 0.07 / 0.05 / 0.02 / 0.02 / 0 (mean risk 0.08 / 0.07 / 0.06 / 0.03 / 0.01).
- games/nurikabe_conflicts (v2): with a quarter of the cells as spare turns, shading the cells farthest from the
  numbers first and dotting a shaded cell back whenever the feedback named a conflict won 0.21 / 0.14 / 0.05 of
  levels 0 / 1 / 3 (100 games; random legal marks 0). Version 2 leaves an eighth of the cells as spare turns:
  0.09 / 0.01 / 0.02 / 0.01 / 0 at levels 0-4.
- games/lights_out_graph (v2): the greedy rule never repeating its last press (the press leaving the fewest lamps
  lit among the others, ties at random) won 0.20 / 0.11 / 0.06 / 0.05 / 0.04 of levels 0-4 (random presses
  0.10 / 0.01 / 0 / 0 / 0; 100 games). Version 2 redraws a board the greedy rule, repeating or not, switches off
  in one of 16 games played at generation: 0-0.01.
"""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.games import bomb_defusal, hex_minesweeper, ice_slide, rush_hour
from palaestra.generators.minesweeper import OPEN
from palaestra.kit.play import policy_scores

BOMB = "games/bomb_defusal"
# Edgeworks a player might assume instead of asking: a vowel and an odd digit, none and an even one, few and many
# batteries, no indicator and a lit one.
ASSUMED = ({"serial": "AE12U1", "batteries": 0, "indicators": []},
           {"serial": "BCDFG2", "batteries": 3, "indicators": [["CAR", True]]})


def _assuming(edgework):
    """Ask only about the modules; apply the manual to ``edgework`` instead of the device's."""
    def policy(problem, state, history, rng):
        known = bomb_defusal._knowledge(history)
        known["edgework"] = {**edgework, **known["edgework"]}
        return bomb_defusal._next_move(problem.data["manual"], problem.data["kinds"], known)
    return policy


def test_a_player_who_never_asks_about_the_edgework_wins_about_one_game_in_eight():
    for edgework in ASSUMED:
        scores = policy_scores(BOMB, _assuming(edgework), 24)
        assert sum(scores) / len(scores) <= 0.2 and max(scores) <= 0.3, (edgework, scores)


def test_the_declared_condition_ignoring_rules_win_rarely_at_every_level():
    for name, policy in make_source(BOMB).heuristics().items():
        scores = policy_scores(BOMB, policy, 24)
        assert max(scores) <= 0.2, (name, scores)


def test_the_honest_player_still_defuses_every_device():
    source = make_source(BOMB)
    honest = policy_scores(BOMB, lambda problem, state, history, rng: source.honest_move(source.view(problem, history)),
                           12)
    assert honest == [1.0] * 5


RUSH = "games/rush_hour"


def _in_the_way(board: str) -> int:
    """Cars between car A and the exit (-1 once car A is out), read off the board."""
    row = board[rush_hour.EXIT_ROW * rush_hour.SIZE:(rush_hour.EXIT_ROW + 1) * rush_hour.SIZE]
    return -1 if row.endswith("A") else len(set(row[row.rindex("A") + 1:]) - {"."})


def _fewest_in_the_way(problem, state, history, rng):
    """The greedy rule: a slide leaving the fewest cars between car A and the exit, ties at random."""
    layout, positions = rush_hour._parse(state["board"])
    options = [(_in_the_way(rush_hour._board(layout, after)), slide) for after, slide in rush_hour._moves(layout, positions)]
    best = min(score for score, _ in options)
    car, direction, cells = rng.choice([slide for score, slide in options if score == best])
    return f"{car} {direction} {cells}"


def test_the_greedy_rush_hour_rule_rarely_wins_level_0():
    (share,) = policy_scores(RUSH, _fewest_in_the_way, 30, [0])
    assert share <= 0.12, share


def test_the_rush_hour_oracle_still_solves_every_level():
    source = make_source(RUSH)
    assert policy_scores(RUSH, lambda problem, state, history, rng: source.oracle(problem, state), 10) == [1.0] * 5


ICE = "games/ice_slide"
UNDO = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _nearest_slide(undo: bool):
    """Slide S the way that leaves it nearest the target (a slide that moves it; with ``undo`` False, not the
    reverse of the last move unless it is the only one), ties at random."""
    def policy(problem, state, history, rng):
        grid, target = problem.data["grid"], problem.data["target"]
        tokens = ice_slide._tokens(state["tokens"])
        moving = [way for way in ice_slide.STEPS if ice_slide._slide(grid, tokens, 0, way) != tokens]
        options = moving if undo or not history else [way for way in moving if way != UNDO[history[-1][0]]] or moving

        def away(way):
            square = ice_slide._slide(grid, tokens, 0, way)[0]
            return abs(square[0] - target[0]) + abs(square[1] - target[1])
        best = min(map(away, options))
        return rng.choice([way for way in options if away(way) == best])
    return policy


def test_nearest_first_slides_rarely_win_the_levels_without_helpers():
    for undo in (True, False):
        assert max(policy_scores(ICE, _nearest_slide(undo), 30, [0, 1])) <= 0.1, undo


def test_the_ice_slide_oracle_still_solves_every_level():
    source = make_source(ICE)
    assert policy_scores(ICE, lambda problem, state, history, rng: source.oracle(problem, state), 10) == [1.0] * 5


HEX = "games/hex_minesweeper"


def _lowest_risk(problem, state, history, rng):
    """Reveal a hidden cell of lowest risk: the largest share of mines an open neighbour's number puts on its
    hidden neighbours (0 away from the numbers), ties at random; nothing is proved."""
    data, mask = problem.data, state["mask"]
    around = hex_minesweeper.hex_neighbours(data["rows"], data["cols"])
    numbers = make_source(HEX).numbers(data)
    hidden = [i for i, m in enumerate(mask) if m != OPEN]
    share = {j: numbers[j] / sum(mask[k] != OPEN for k in around[j])
             for j, m in enumerate(mask) if m == OPEN and numbers[j]}
    risk = {i: max((share[j] for j in around[i] if j in share), default=0.0) for i in hidden}
    cell = rng.choice([i for i in hidden if risk[i] == min(risk.values())])
    return f"reveal {chr(97 + cell % data['cols'])}{cell // data['cols'] + 1}"


def test_the_lowest_risk_guesser_rarely_clears_a_hex_board():
    assert max(policy_scores(HEX, _lowest_risk, 30, [0, 1, 2])) <= 0.15


def test_the_hex_oracle_still_clears_every_level():
    source = make_source(HEX)
    assert policy_scores(HEX, lambda problem, state, history, rng: source.oracle(problem, state), 10) == [1.0] * 5


NURIKABE = "games/nurikabe_conflicts"


def _far_first_then_conflicts(problem, state, history, rng):
    """Dot a cell just shaded when the feedback names a conflict; else shade the unmarked cell farthest (beyond its
    island's reach) from every number, ties at random."""
    if history and history[-1][0].startswith("shade") and "Rule conflicts" in history[-1][1]:
        return "dot " + history[-1][0].split()[1]
    data = problem.data
    marked = {tuple(cell) for cell in state["shaded"] + state["dotted"]}
    marked |= {(r, c) for r, c, _ in data["clues"]} | {(r, c) for r, c, _ in data["givens"]}
    free = [(r, c) for r in range(data["rows"]) for c in range(data["cols"]) if (r, c) not in marked]
    if not free:
        return "shade a1"

    def reach(cell):
        return min(abs(cell[0] - r) + abs(cell[1] - c) - (n - 1) for r, c, n in data["clues"])
    far = max(map(reach, free))
    r, c = rng.choice([cell for cell in free if reach(cell) == far])
    return f"shade {chr(97 + c)}{r + 1}"


def test_nurikabe_shading_far_first_and_undoing_conflicts_rarely_wins():
    assert max(policy_scores(NURIKABE, _far_first_then_conflicts, 30, [0, 1])) <= 0.17


def test_the_nurikabe_oracle_still_solves_within_the_budget():
    source = make_source(NURIKABE)
    assert policy_scores(NURIKABE, lambda problem, state, history, rng: source.oracle(problem, state), 8) == [1.0] * 5


LIGHTS = "games/lights_out_graph"


def _fewest_lit_not_repeating(problem, state, history, rng):
    """The press leaving the fewest lamps lit, never the lamp pressed last, ties at random."""
    n = problem.data["lamps"]
    toggles = [1 << lamp for lamp in range(n)]
    for u, v in problem.data["wires"]:
        toggles[u] |= 1 << v
        toggles[v] |= 1 << u
    last = int(history[-1][0].split()[-1]) - 1 if history else -1
    options = [lamp for lamp in range(n) if lamp != last]
    fewest = min((state["lit"] ^ toggles[lamp]).bit_count() for lamp in options)
    return f"press {rng.choice([lamp for lamp in options if (state['lit'] ^ toggles[lamp]).bit_count() == fewest]) + 1}"


def test_the_lights_out_greedy_rule_rarely_wins():
    assert max(policy_scores(LIGHTS, _fewest_lit_not_repeating, 30, [0, 1])) <= 0.07


def test_the_lights_out_oracle_still_solves_every_level():
    source = make_source(LIGHTS)
    assert policy_scores(LIGHTS, lambda problem, state, history, rng: source.oracle(problem, state), 10) == [1.0] * 5
