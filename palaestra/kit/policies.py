"""Kit checks: policies that earn reward without solving (issue 21, reward integrity).

- ``constant_policies``: answering the same thing to every problem pays no more than chance. The
  constants tried are the env's declared bare verdicts and certificate-free answers and the ten most
  common reference answers (up to 200 characters) over the sampled problems; each is judged on every level's problems
  (multi-turn envs: the first reply alone, no tool call, the episode's reward after that one step).
  A constant may score at most chance + 0.10 at a level (chance: one over the number of distinct
  answers when at most ten recurring answers answer at least half the problems, else 0; at the top level
  always 0, tested on the balance check's sample where its answers form such a closed set), and a
  certificate-free one at most 0.25.
- ``hedges``: an answer that gives both sides (the reference next to a common or declared constant:
  ``<gold>. Acyclic.``, ``<gold> or none``, ``impossible (<gold>)``; and a constant next to another
  problem's answer) scores 0.
- ``heuristic_baselines``: the cheap textbook policies a task declares (:meth:`Task.heuristics`)
  are scored per level; one that solves half the problems at the top level fails the env.

What an env declares, as class attributes read here:

- ``certificate_free``: answers that claim a side which has no short proof (``unsatisfiable``,
  ``impossible`` for partition, ``equivalent``); that side must be at most 25% of problems, so the
  constant scores at most 0.25, and the env's docstring says so.
- ``bare_verdicts``: the words of a side that must come with its proof (``acyclic`` before a
  topological order, ``none`` before potentials); alone they must score like any wrong constant.

Scores are tested against their bounds with a one-sided binomial test (a constant fails when its
hits are above the bound with probability below 0.001), so a bound met in expectation does not fail
by sampling noise, and a real excess (0.5 for a 0.25 bound) fails even at CI's sample sizes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from palaestra.core.multiturn import MultiTurnTask
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.core.task import ProblemSource, Task
from palaestra.kit.base import DIFFICULTY_SEED, ContractError, Settings, _require, sample

CONSTANT_MARGIN = 0.10  # a constant may beat chance by this much
CERTIFICATE_FREE_BOUND = 0.25  # the most a certificate-free constant may score
HEURISTIC_BOUND = 0.5  # a declared heuristic must solve less than this share at the top level
TOP_CONSTANTS = 10
MAX_CONSTANT_CHARS = 200  # longer reference answers (grids, proofs) are not tried as constants, nor are the
# programs of envs that declare toolchains: judging them costs compiles and runs, and a policy does not
# stumble on them the way it stumbles on "none" or "5"
HEDGE_SHARE = 0.10  # reference answers at least this common are the "other side" of hedges
HEDGE_PROBLEMS = 24  # problems per constant on which hedges are tried
HEURISTIC_TOP_SEEDS = 40  # at least this many problems at the top level for the heuristics' share
ALPHA = 0.001
CLOSED_SHARE = 0.5  # recurring answers are a closed answer set (chance applies) only when they answer this share


def _problems(env_id: str, level: int, count: int) -> list[Problem]:
    return [sample(env_id, level, DIFFICULTY_SEED + i) for i in range(count)]  # generated once: the difficulty check's


def _key(answer: str | None) -> str:
    return " ".join((answer or "").split()).lower()


def judge(source: ProblemSource, problem: Problem, answer: str) -> float:
    """The reward of ``answer`` (bare, wrapped here in the answer format) as a full response; for a
    multi-turn env, the episode's reward after this one first reply."""
    response = source.format_answer(answer)
    if isinstance(source, MultiTurnTask):
        return source.replay(problem, [response]).reward
    assert isinstance(source, Task)
    return source.check(problem, response).reward


def above(hits: float, trials: int, bound: float) -> bool:
    """Whether ``hits`` successes in ``trials`` are significantly more than ``bound`` per trial (one-sided
    binomial tail below ``ALPHA``); rewards between 0 and 1 count as that fraction of a hit."""
    if trials == 0 or bound >= 1:
        return False
    wins = math.ceil(hits - 1e-9)
    if bound <= 0:
        return wins > 0
    if wins > trials:
        return True
    # in logarithms: the binomial coefficients of hundreds of pooled trials overflow a float
    log_terms = [math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
                 + k * math.log(bound) + (trials - k) * math.log1p(-bound) for k in range(wins, trials + 1)]
    return sum(math.exp(term) for term in log_terms) < ALPHA


@lru_cache(maxsize=8)
def _constants(env_id: str, seeds: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[float, ...]]:
    """(constants to try, certificate-free ones, hedge constants, chance per level) for an env."""
    source = make_source(env_id)
    declared_free = tuple(getattr(source, "certificate_free", ()))
    bare = tuple(getattr(source, "bare_verdicts", ()))
    counts: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    chances = []
    if getattr(source, "toolchains", ()):  # answers are programs: judging one compiles and runs it
        return tuple(dict.fromkeys([*declared_free, *bare])), declared_free, tuple(dict.fromkeys([*declared_free, *bare])), \
            tuple(0.0 for _ in range(source.levels()))
    for level in range(source.levels()):
        answered = [p.answer for p in _problems(env_id, level, seeds) if p.answer]
        answers = [a for a in answered if len(a) <= MAX_CONSTANT_CHARS]
        keys = Counter(_key(a) for a in answers)
        chances.append(_chance(keys, len(answered)))  # a longer answer counts as one of its own
        for a in answers:
            spelled.setdefault(_key(a), a.strip())
        counts.update(keys)
    total = sum(counts.values()) or 1
    common = [spelled[k] for k, n in counts.most_common(TOP_CONSTANTS) if n >= 2]
    hedge = [spelled[k] for k, n in counts.most_common(TOP_CONSTANTS) if n >= 2 and n / total >= HEDGE_SHARE]
    tried = list(dict.fromkeys([*declared_free, *bare, *common]))
    hedging = list(dict.fromkeys([*declared_free, *bare, *hedge]))
    return tuple(tried), declared_free, tuple(hedging), tuple(chances)


def _chance(keys: Counter[str], problems: int) -> float:
    """What a guess scores by chance among the problems whose answers come from a small closed set.

    The closed set is the answers that recur (at least twice and 2% of the problems); when it has at most 10
    members and answers at least half the problems, chance is the share of problems it answers over its size:
    ``yes``/``no`` questions mixed with set answers at one level (``causal/graph_query``) have chance 0.45 when
    nine in ten ask yes or no, so a constant ``yes`` scoring 0.45 there is chance, while ``1`` answering a third
    of count questions is not. One answer that recurs among unique ones (``$0.00`` for a third of the problems,
    the rest amounts) is no closed set: it is a constant a policy learns, so its bound is the margin alone."""
    closed = {key: n for key, n in keys.items() if n >= 2 and n >= 0.02 * problems}
    if not closed or len(closed) > 10 or sum(closed.values()) < CLOSED_SHARE * problems:
        return 0.0
    return sum(closed.values()) / problems / len(closed)


def commonest_answer(source: ProblemSource, problems: list[Problem]) -> tuple[str, float, float] | None:
    """The commonest short reference answer among ``problems``, what it scores as a constant on them and the most a
    constant may score there (chance + 0.10 by :func:`_chance` on these problems; 0.25 for a declared
    certificate-free side); None when no answer recurs.

    Counting reference answers needs no judging, so the distinct check's large sample (60 problems a level at
    levels 0-1 in CI, against the 16 the constant check judges) gives the power the judged constants lack there:
    a "5" that answers a fifth of a level's count questions. Only a count above the bound is judged (on the
    problems it answers): a multi-turn env's reference answer may pay only after the right tool calls."""
    answered = [p for p in problems if p.answer]
    keys = Counter(_key(p.answer) for p in answered if len(p.answer or "") <= MAX_CONSTANT_CHARS)
    if not keys or keys.most_common(1)[0][1] < 2:
        return None
    key, hits = keys.most_common(1)[0]
    free = {_key(c) for c in getattr(source, "certificate_free", ())}
    bound = CERTIFICATE_FREE_BOUND if key in free else _chance(keys, len(answered)) + CONSTANT_MARGIN
    if above(hits, len(problems), bound):
        own = [p for p in answered if _key(p.answer) == key]
        constant = (own[0].answer or "").strip()
        return key, sum(judge(source, p, constant) for p in own), bound
    return key, float(hits), bound


def check_constant_policies(env_id: str, s: Settings) -> str:
    """No constant answer earns more than chance + 0.10 at any level (0.25 for a certificate-free side)."""
    source = make_source(env_id)
    tried, free, _, chances = _constants(env_id, s.difficulty_seeds)
    if not tried:
        return "no common or declared constant answers"
    free_keys = {_key(c) for c in free}
    worst: dict[str, float] = {}
    pooled: dict[str, list[float]] = {c: [0.0, 0.0, 0.0] for c in tried}  # hits, trials, summed bounds
    top_level = source.levels() - 1
    for level in range(source.levels()):
        # The top level allows no chance: its problems are the hardest, and a closed answer set there is a guess
        # a policy can learn. Where its sample shows one, the balance check's larger sample tests the constants.
        closed_top = level == top_level and chances[level] > 0
        problems = _problems(env_id, level, max(s.difficulty_seeds, s.balance_seeds) if closed_top else s.difficulty_seeds)
        chance = 0.0 if level == top_level else chances[level]
        for constant in tried:
            bound = CERTIFICATE_FREE_BOUND if _key(constant) in free_keys else chance + CONSTANT_MARGIN
            total = sum(judge(source, p, constant) for p in problems)
            _require(not above(total, len(problems), bound),
                     f"level {level}: the constant {constant[:60]!r} scores {total / len(problems):.2f} "
                     f"(bound {bound:.2f}{', certificate-free' if bound == CERTIFICATE_FREE_BOUND else ''})")
            worst[constant] = max(worst.get(constant, 0.0), total / len(problems))
            pooled[constant] = [pooled[constant][0] + total, pooled[constant][1] + len(problems),
                                pooled[constant][2] + bound * len(problems)]
    for constant, (hits, trials, bounds) in pooled.items():  # all levels together: more power at small sizes
        _require(not above(hits, int(trials), bounds / trials),
                 f"over all levels the constant {constant[:60]!r} scores {hits / trials:.2f} (bound {bounds / trials:.2f})")
    top = sorted(worst.items(), key=lambda kv: -kv[1])[:3]
    return f"{len(tried)} constants; best " + ", ".join(f"{c[:24]!r} {v:.2f}" for c, v in top)


def _same_side(gold: str, constant: str) -> bool:
    """Whether ``gold`` is the constant's side: the constant itself, or its verdict before a proof
    (``acyclic: 3 0 1`` for ``acyclic``), so repeating the constant is no hedge."""
    return _key(gold).startswith(_key(constant))


def hedges_for(gold: str, constant: str) -> list[str]:
    """Answers that give both ``gold`` and ``constant`` (one side and the other)."""
    spoken = constant[:1].upper() + constant[1:]
    return [f"{gold}. {spoken}.", f"{gold} or {constant}", f"{constant} ({gold})", f"{constant}; {gold}",
            f"{gold}\n{spoken}"]


def check_hedges(env_id: str, s: Settings) -> str:
    """Both-sides hedges built from the env's own answers score 0."""
    source = make_source(env_id)
    _, _, hedging, _ = _constants(env_id, s.difficulty_seeds)
    if not hedging:
        return "no common or declared constant answers"
    tried = 0
    for constant in hedging:
        for level in range(source.levels()):
            problems = _problems(env_id, level, s.difficulty_seeds)
            others = [p.answer.strip() for p in problems if p.answer and not _same_side(p.answer, constant)]
            for problem in problems[:max(1, HEDGE_PROBLEMS // source.levels())]:
                gold = (problem.answer or "").strip()
                if gold and not _same_side(gold, constant):
                    answers = hedges_for(gold, constant)
                elif others:  # the constant is right here: pair it with another problem's answer
                    answers = [f"{constant} ({others[0]})", f"{others[0]}. {constant}."]
                else:
                    continue
                for answer in answers:
                    reward = judge(source, problem, answer)
                    _require(reward == 0, f"level {level} seed {problem.seed}: the hedge {answer[:120]!r} scores {reward}")
                    tried += 1
    return f"{tried} hedges over {len(hedging)} constants scored 0"


def check_heuristic_baselines(env_id: str, s: Settings) -> str:
    """Declared cheap policies are scored per level; none may solve half the problems at the top level."""
    source = make_source(env_id)
    if not isinstance(source, Task):
        return "n/a (multi-turn)"
    policies: dict[str, Callable[[Problem], str]] = source.heuristics()
    if not policies:
        return "no heuristics declared"
    top = source.levels() - 1
    notes = []
    for name, policy in policies.items():
        shares = []
        for level in range(source.levels()):
            count = max(s.difficulty_seeds, HEURISTIC_TOP_SEEDS) if level == top else s.difficulty_seeds
            problems = _problems(env_id, level, count)
            try:
                answers = [policy(p) for p in problems]
            except Exception as exc:  # a broken baseline is the env's bug, reported as such
                raise ContractError(f"heuristic {name!r} raised {type(exc).__name__}: {exc}") from exc
            shares.append(sum(source.check(p, source.format_answer(a)).correct for p, a in zip(problems, answers))
                          / len(problems))
        notes.append(f"{name}: " + " ".join(f"L{i} {v:.0%}" for i, v in enumerate(shares)))
        _require(shares[top] < HEURISTIC_BOUND,
                 f"the heuristic {name!r} solves {shares[top]:.0%} of the top level's problems ({notes[-1]})")
    return "; ".join(notes)


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "constant_policies": check_constant_policies,
    "hedges": check_hedges,
    "heuristic_baselines": check_heuristic_baselines,
}
