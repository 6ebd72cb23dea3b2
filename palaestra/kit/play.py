"""Kit checks: play (round 3 reward integrity). See :mod:`palaestra.kit.base` for the shapes a check takes.

For multi-turn games (hooks in :mod:`palaestra.core.multiturn`):

- ``honest_player``: a hidden-information game's honest player, which sees only the prompt, the
  public facts and the observations, wins within the turn budget at every level (score-based
  games: scores at least :data:`HONEST_SCORE` on average; games of luck: wins the declared
  ``honest_win_share``), so the budget is tested by a player that cannot peek at the secret;
- ``protocol``: a game that claims one move per turn refuses a reply holding several of the
  oracle's moves (a whole plan, joined by spaces, commas, ``then``, arrows or as a numbered list):
  the reply is unparsed, the state is what an unreadable reply leaves (unchanged, or a turn spent
  where time passes), and the feedback says the game takes one move per turn;
- ``heuristic_baselines_multi``: every declared cheap rule policy, and in a game that lists its legal moves the
  first and the last of them played every turn, scores below :data:`HEURISTIC_LIMIT` at the top level (scores per
  level are in the detail; the two listed-move rules at the top level only); uniformly random legal
  play scores at most :data:`RANDOM_LIMIT` at every level in a score-based game, and wins at most
  :data:`RANDOM_WIN_LIMIT` of the games at every level in a win/loss game that lists its legal moves;
- ``repeated_replies``: one reply sent every turn (each of the oracle's commonest opening moves,
  picked on some problems and played on more) earns no more than chance + 0.10, chance being the mean
  score of those replies when there are several (a reply drawn among them; a score-based game's chance is at least
  :data:`REPEATED_SCORE_LIMIT`), per level and over all levels (CI: the first and the last), by the
  constant answers' one-sided binomial test; not for envs whose moves are tool calls (the oracle opens
  with a call, which repeated never answers) or programs (judged alike every turn, compiled each time). The first-reply constants of ``constant_policies`` miss a game that pays one reply for
  being repeated ("double" on every blackjack hand, when the hands were chosen against hitting and standing).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from palaestra.core.multiturn import ONE_MOVE_PER_TURN, MultiTurnTask, Policy, snapshot
from palaestra.core.registry import make_source
from palaestra.core.seeding import derive_seed
from palaestra.kit.base import Settings, _require, sample
from palaestra.kit.policies import CONSTANT_MARGIN, above

HONEST_SCORE = 0.3  # a score-based game's honest player scores at least this much on average per level
HEURISTIC_LIMIT = 0.5  # a cheap rule must score below this at the top level
RANDOM_LIMIT = 0.15  # uniformly random legal play scores at most this per level in a score-based game
RANDOM_WIN_LIMIT = 0.25  # ... and wins at most this share per level in a win/loss game that lists its legal moves
POLICY_SEED_FACTOR = 4  # rule policies are cheap: play this many times the settings' seeds per level
RANDOM_SEED_FACTOR = 8  # a mean near 0 needs more episodes still
REPEATED_CANDIDATES = 3  # the oracle's commonest opening moves tried as a repeated reply, per level
REPEATED_SCORE_LIMIT = 0.25  # a score-based game: one reply repeated scores at most this (or chance + 0.10)


def _multi(env_id: str) -> MultiTurnTask | None:
    source = make_source(env_id)
    return source if isinstance(source, MultiTurnTask) else None


def play_episode(source: MultiTurnTask, problem: Any, choose: Callable[[Any, tuple[tuple[str, str], ...]], str]
                 ) -> tuple[float, bool]:
    """Play one episode with ``choose(state, history) -> bare move``; return (total reward, won).

    Moves go through ``advance`` as full responses, as a model's would; the episode ends when the
    game does or the turn budget runs out.
    """
    state, history, total = source.initial_state(problem), (), 0.0
    for _ in range(source.max_turns(problem)):
        move = choose(state, history)
        outcome = source.advance(problem, state, source.format_answer(move))
        _require(outcome.verdict.error is None, f"play raised on {move!r}: {outcome.verdict.error}")
        total += outcome.verdict.reward
        state, history = outcome.state, (*history, (move, outcome.observation))
        if outcome.done:
            return total, bool(outcome.verdict.correct)
    return total, False


def oracle_moves(source: MultiTurnTask, problem: Any) -> tuple[list[str], float]:
    """The oracle's moves over one episode and the episode's total reward (to replay it through ``score``)."""
    moves: list[str] = []

    def choose(state: Any, history: tuple[tuple[str, str], ...]) -> str:
        moves.append(source.oracle(problem, state))
        return moves[-1]

    return moves, play_episode(source, problem, choose)[0]


def _policy_chooser(problem: Any, policy: Policy, rng: random.Random) -> Callable[..., str]:
    return lambda state, history: policy(problem, state, history, rng)


def _random_legal(source: MultiTurnTask) -> Policy:
    return lambda problem, state, history, rng: rng.choice(source.legal_moves(problem, state))


def policy_scores(env_id: str, policy: Policy, seeds: int, levels: list[int] | None = None) -> list[float]:
    """The mean episode reward of ``policy`` per level (all, or ``levels``) over ``seeds`` seeds (each episode its
    own seeded rng)."""
    source = _multi(env_id)
    assert source is not None
    means = []
    for level in range(source.levels()) if levels is None else levels:
        total = 0.0
        for seed in range(seeds):
            problem = sample(env_id, level, seed)
            rng = random.Random(derive_seed("kit-policy", env_id, level, seed))
            total += min(1.0, play_episode(source, problem, _policy_chooser(problem, policy, rng))[0])
        means.append(total / seeds)
    return means


def check_honest_player(env_id: str, s: Settings) -> str:
    source = _multi(env_id)
    if source is None or not source.hidden_information:
        return "n/a (no hidden information)"
    scores = []
    every_game = not source.score_based and source.honest_win_share >= 1.0
    seeds = s.seeds if every_game else POLICY_SEED_FACTOR * s.seeds  # a mean or a share needs more episodes
    for level in range(source.levels()):
        level_total, wins = 0.0, 0
        for seed in range(seeds):
            problem = sample(env_id, level, seed)
            total, won = play_episode(source, problem,
                                      lambda state, history, p=problem: source.honest_move(source.view(p, history)))
            level_total += min(1.0, total)
            wins += won
            _require(won or not every_game, f"level {level} seed {seed}: the honest player did not win within "
                                            f"{source.max_turns(problem)} turns (reward {total:.2f})")
        scores.append(level_total / seeds)
        if source.score_based:
            _require(scores[-1] >= HONEST_SCORE,
                     f"level {level}: the honest player scored {scores[-1]:.2f} < {HONEST_SCORE} on average")
        elif not every_game:
            _require(wins >= source.honest_win_share * seeds,
                     f"level {level}: the honest player won {wins} of {seeds} games, fewer than the declared "
                     f"share {source.honest_win_share:.0%}")
    return "honest player per level: " + " ".join(f"{x:.2f}" for x in scores)


PLAN_JOINERS = (" ", ", ", "; ", "\n", " then ", ", then ", " and ", " -> ", "numbered")
UNREADABLE_REPLY = "??"  # what a refused plan must be treated like


def plan_text(plan: list[str], joiner: str) -> str:
    """The moves of ``plan`` in one reply: joined by ``joiner``, or as a numbered list (``1. b4`` a line)."""
    if joiner == "numbered":
        return "\n".join(f"{number}. {move}" for number, move in enumerate(plan, start=1))
    return joiner.join(plan)


def clean_cut(plan: list[str], joiner: str) -> bool:
    """Whether no move of ``plan`` holds the joiner itself (``take 1 and split`` joined by `` and `` does not cut cleanly)."""
    cut = joiner.strip() or " "
    return joiner == "numbered" or not any(cut in move for move in plan)


def check_protocol(env_id: str, s: Settings) -> str:
    source = _multi(env_id)
    if source is None or not source.one_move_per_turn:
        return "n/a (not one move per turn)"
    tried = 0
    for level in range(source.levels()):
        for seed in range(s.seeds):
            problem = sample(env_id, level, seed)
            start = source.initial_state(problem)
            state, plan = start, []
            for _ in range(3):
                move = source.oracle(problem, state)
                outcome = source.advance(problem, state, source.format_answer(move))
                plan.append(move)
                state = outcome.state
                if outcome.done:
                    break
            if len(plan) < 2:
                continue
            readable_now = [source.advance(problem, start, source.format_answer(move)).verdict.parsed for move in plan]
            unreadable = snapshot(source.advance(problem, start, source.format_answer(UNREADABLE_REPLY)).state)
            for joiner in PLAN_JOINERS:
                text = plan_text(plan, joiner)
                outcome = source.advance(problem, start, source.format_answer(text))
                _require(not outcome.verdict.parsed, f"level {level} seed {seed}: the plan {text!r} in one reply was "
                                                     f"read ({outcome.observation[:80]!r})")
                _require(snapshot(outcome.state) in (snapshot(start), unreadable),
                         f"level {level} seed {seed}: the refused plan {text!r} changed the state unlike an unreadable "
                         "reply")
                # The feedback names the rule when the plan cuts cleanly into moves readable now.
                if clean_cut(plan, joiner) and all(readable_now):
                    _require(ONE_MOVE_PER_TURN in outcome.observation.lower(),
                             f"level {level} seed {seed}: the feedback on the plan {text!r} does not say "
                             f"{ONE_MOVE_PER_TURN!r}: {outcome.observation[:100]!r}")
                tried += 1
    _require(tried > 0, "no plan of two or more moves to try")
    return f"{tried} whole-plan replies refused"


def check_heuristic_baselines_multi(env_id: str, s: Settings) -> str:
    source = _multi(env_id)
    if source is None:
        return "n/a (single-turn)"
    seeds = POLICY_SEED_FACTOR * s.seeds
    policies = dict(source.heuristics())
    lists_moves = type(source).legal_moves is not MultiTurnTask.legal_moves
    if source.score_based or lists_moves:  # a win/loss game that lists its moves is held to random play too
        policies["uniformly random legal"] = _random_legal(source)
    positional = {}
    if lists_moves:  # a prompt that shows the moves in this order makes "always the first one" a policy to learn
        positional = {f"the {end} legal move listed": _listed_legal(source, end) for end in ("first", "last")}
    if not policies:
        return "n/a (no heuristics declared)"
    lines = []
    top = [source.levels() - 1]
    for name, policy in {**policies, **positional}.items():
        random_scored = name == "uniformly random legal" and source.score_based
        scores = policy_scores(env_id, policy, RANDOM_SEED_FACTOR * s.seeds if random_scored else seeds,
                               top if name in positional else None)  # held at the top level, as declared rules are
        lines.append(f"{name}: " + " ".join(f"{x:.2f}" for x in scores))
        if name == "uniformly random legal":
            worst, limit = max(scores), RANDOM_LIMIT if source.score_based else RANDOM_WIN_LIMIT
            _require(worst <= limit, f"random legal play scores {worst:.2f} > {limit} at level "
                                     f"{scores.index(worst)} ({lines[-1]})")
        else:
            _require(scores[-1] < HEURISTIC_LIMIT,
                     f"the rule {name!r} scores {scores[-1]:.2f} >= {HEURISTIC_LIMIT} at the top level ({lines[-1]})")
    return "; ".join(lines)


def _listed_legal(source: MultiTurnTask, end: str) -> Policy:
    """Always the first (or last) of :meth:`MultiTurnTask.legal_moves`, in the order the env lists them (an empty
    reply where none is listed: a game may run out of moves before it ends, ``games/trading`` out of offers)."""
    index = 0 if end == "first" else -1
    return lambda problem, state, history, rng: (source.legal_moves(problem, state) or [""])[index]


def _always(move: str) -> Callable[[Any, tuple[tuple[str, str], ...]], str]:
    """A chooser that sends ``move`` whatever the state."""
    return lambda state, history: move


def check_repeated_replies(env_id: str, s: Settings) -> str:
    source = _multi(env_id)
    if source is None:
        return "n/a (single-turn)"
    if source.tool_schemas():  # its oracle opens with a tool call, which repeated never answers (and runs tools)
        return "n/a (moves are tool calls)"
    if getattr(source, "toolchains", ()) or source.family == "code":  # a program is judged alike every turn
        return "n/a (moves are programs: one sent again gets its first verdict, which constant_policies judges)"
    picked, played = POLICY_SEED_FACTOR * s.seeds, RANDOM_SEED_FACTOR * s.seeds
    lines, pooled = [], [0.0, 0, 0.0]  # hits, trials, summed bounds
    named = {"first": 0, "last": source.levels() - 1}
    levels = (range(source.levels()) if "all" in s.repeated_reply_levels
              else sorted({named[name] for name in s.repeated_reply_levels}))
    for level in levels:
        # Openings are picked on the first problems and played on all of them (the other checks' problems, so
        # none is generated twice); a reply's own problems favour it, which the chance below shares.
        openings: Counter[str] = Counter()
        for seed in range(picked):
            problem = sample(env_id, level, seed)
            openings[source.oracle(problem, source.initial_state(problem))] += 1
        scores = {}
        for move, _ in openings.most_common(REPEATED_CANDIDATES):
            hits = 0.0
            for seed in range(played):
                problem = sample(env_id, level, seed)
                reward, won = play_episode(source, problem, _always(move))
                hits += min(1.0, reward) if source.score_based else float(won)
            scores[move] = hits
        # Chance: a reply drawn uniformly from the commonest openings and repeated (two arms, each best in half
        # the games, score 0.5 so); a reply the oracle opens with most of the time must not earn much more.
        # One opening alone sets no chance: repeating it must not win.
        chance = sum(scores.values()) / len(scores) / played if len(scores) > 1 else 0.0
        bound = max(REPEATED_SCORE_LIMIT if source.score_based else 0.0, chance) + CONSTANT_MARGIN
        for move, hits in scores.items():
            _require(not above(hits, played, bound), f"level {level}: the reply {move[:60]!r} sent every turn scores "
                                                     f"{hits / played:.2f} (bound {bound:.2f})")
            pooled = [pooled[0] + hits, pooled[1] + played, pooled[2] + bound * played]
        move, hits = max(scores.items(), key=lambda pair: pair[1])
        lines.append(f"L{level} {move[:16]!r} {hits / played:.2f}")
    hits, trials, bounds = pooled
    _require(not above(hits, int(trials), bounds / trials),
             f"over all levels the repeated replies score {hits / trials:.2f} (bound {bounds / trials:.2f})")
    return "best repeated reply per level: " + "; ".join(lines)


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "honest_player": check_honest_player,
    "protocol": check_protocol,
    "heuristic_baselines_multi": check_heuristic_baselines_multi,
    "repeated_replies": check_repeated_replies,
}
