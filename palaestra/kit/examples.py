"""Kit checks: the prompt's example and the numbers a prompt prints must not tell the answer.

``example_independence``
    A prompt often shows an example answer ("Answer true or false, e.g. <answer>true</answer>").
    Written as "a default example unless it is the answer", the example is a function of the answer
    (old ``tools/fact_check``: the example was always the opposite of the answer, so answering the
    opposite scored 1.00). The rule: a prompt's example is independent of the answer. At every level
    the check samples problems, reads the example text after a marker (``for example``, ``e.g.``,
    ``example:``, ``such as``, ``for instance``, ``written like``) or from the env's own
    ``prompt_example(problem) -> str`` when it declares one, and fails when

    - the answers are few (classification style) and a rule predicting the answer from the example
      (a lookup from the example text, or "the example is / mentions answer A") beats chance by more
      than ``balance_margin`` on held-out problems; or
    - the example avoids the answer: it equals or shares a word with its own problem's answer far less
      often than with the answers of the other problems of the level (a binomial tail below 1e-4); or
    - the example gives the answer away: it equals its own answer far more often than other answers.

``budget_leaks``
    Tool and multi-turn envs print numbers (tool-call budgets, turn limits, corpus and table sizes).
    Old ``tools/aggregation_qa`` printed a budget of 2 * (answer + 1). Each number the prompt prints
    next to a word ("8 tool calls", "at most 12") is a feature; no one-feature rule (a threshold, a
    lookup from the value, or answer = value * r + c) may predict the answer (the underlying
    question's reference answer) on held-out problems better than the best constant plus the margin.

Both checks read problems through :func:`palaestra.kit.base.sample` at the same seeds as the balance
check, and stop sampling a level early when it cannot matter (no example in the prompt, or no
overlap between examples and answers to measure).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import lru_cache

from palaestra.core.multiturn import MultiTurnTask
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.kit.base import Settings, _require, sample, statistics_seeds

GLANCE = 5  # problems looked at first: is there an answer and an example at all?
FIRST_LOOK = 40  # the least a level draws whose examples and answers can relate (its first look may be fewer)
BUDGET_LOOK = 20  # problems whose printed numbers must vary before the budget check samples more
TAIL_P = 1e-4  # how improbable an avoidance (or a give-away) must be to fail: hundreds of env-levels are tested
MIN_EXPECTED = 8.0  # expected matches under independence below which avoidance cannot be told from chance
FEW_ANSWERS = 10

_MARKER = re.compile(r"\b(?:for example|for instance|e\.g\.|example:|examples?:|such as|written like|like this)",
                     re.IGNORECASE)
_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+(?:[.'/-][^\W_]+)*")
_CUTS = re.compile(r"\.\s|;\s|\s\(|,\s+or\s|\s+or\s|\)|\.$")


# --- reading the example ------------------------------------------------------------------------

def example_segments(prompt: str) -> list[str]:
    """The text shown as an example after each marker: the rest of the line, or the lines below a marker
    that ends its line (up to a blank line)."""
    segments = []
    for match in _MARKER.finditer(prompt):
        rest = prompt[match.end():].lstrip(" :,\t")
        if rest.startswith("\n"):
            lines = []
            for line in rest[1:].split("\n")[:8]:
                if not line.strip():
                    break
                lines.append(line.strip())
            segment = "\n".join(lines)
        else:
            segment = rest.split("\n", 1)[0]
        if segment.strip():
            segments.append(segment.strip()[:300])
    return segments


def normalize(text: str) -> str:
    text = _TAG.sub(lambda m: m.group(1), text)
    text = re.sub(r"[`*\"']", "", text.casefold())
    return " ".join(text.split()).strip(" .:;,")


def example_readings(segment: str) -> set[str]:
    """What the example in ``segment`` may be: the whole segment, an ``<answer>`` tag's content, and the
    segment cut at each sentence end, parenthesis or "or" (the example ends where the prose resumes)."""
    readings = {normalize(segment)}
    readings.update(normalize(m.group(1)) for m in _TAG.finditer(segment))
    for cut in _CUTS.finditer(segment):
        readings.add(normalize(segment[:cut.start()]))
    readings.discard("")
    return readings


@lru_cache(maxsize=4096)
def words(text: str) -> frozenset[str]:
    """The words and numbers of an answer, case kept (``A`` the item is not ``a`` the article); cached, as
    the same answers are compared with every example."""
    return frozenset(_WORD.findall(text))


class _Shown:
    """The example(s) of one prompt, read once. ``words`` keeps only the example's words that the prompt
    also uses outside its examples (the problem's own items): an example built from labels the problem
    does not use avoids every answer without telling anything."""

    __slots__ = ("key", "readings", "words")

    def __init__(self, segments: list[str], prompt: str) -> None:
        self.key = " | ".join(segments)
        self.readings: set[str] = set().union(*(example_readings(s) for s in segments)) if segments else set()
        rest = prompt
        for segment in segments:
            rest = rest.replace(segment, " ")
        self.words = frozenset(_WORD.findall(" ".join(segments))) & frozenset(_WORD.findall(rest))  # uncached: one-off texts


def _shown(source: object, problem: Problem) -> _Shown:
    declared = getattr(source, "prompt_example", None)
    if declared is not None:
        example = declared(problem)
        return _Shown([example] if example else [], problem.prompt)
    return _Shown(example_segments(problem.prompt), problem.prompt)


def _answer_key(problem: Problem) -> str | None:
    return None if problem.answer is None else normalize(problem.answer)


# --- statistics ---------------------------------------------------------------------------------

def _binomial_tail(k: int, n: int, p: float, upper: bool) -> float:
    """P(X <= k) (or P(X >= k) when ``upper``) for X ~ Binomial(n, p)."""
    p = min(max(p, 1e-12), 1 - 1e-12)
    terms = range(k, n + 1) if upper else range(0, k + 1)
    log_p, log_q = math.log(p), math.log1p(-p)
    total = 0.0
    for i in terms:
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
    return min(total, 1.0)


def _pair_rate(shown: list[_Shown], answers: list[str], related: Callable[[_Shown, str], bool]) -> tuple[int, float]:
    """How many problems' examples relate to their own answer, and the rate at which examples relate to the
    answers of the other problems (the same level, so the same shapes): what independence predicts."""
    own = sum(related(s, a) for s, a in zip(shown, answers, strict=True))
    by_answer = Counter(answers)
    n = len(answers)
    crossed = 0
    for s in shown:
        crossed += sum(count for answer, count in by_answer.items() if related(s, answer))
    crossed -= own  # pairs of a problem with itself are not "other problems"
    return own, crossed / max(n * (n - 1), 1)


def _is(shown: _Shown, answer: str) -> bool:
    return answer in shown.readings


def _mentions(shown: _Shown, answer: str) -> bool:
    return not shown.words.isdisjoint(words(answer))


def _lookup_accuracy(keys: list[str], answers: list[str]) -> float:
    """Held-out accuracy of predicting the answer from a categorical key (fit on even rows, scored on odd)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    overall: Counter[str] = Counter()
    for i in range(0, len(keys), 2):
        table[keys[i]][answers[i]] += 1
        overall[answers[i]] += 1
    if not overall:
        return 0.0
    default = overall.most_common(1)[0][0]
    test = range(1, len(keys), 2)
    hits = sum((table[keys[i]].most_common(1)[0][0] if keys[i] in table else default) == answers[i] for i in test)
    return hits / max(len(test), 1)


def _indicator_accuracy(shown: list[_Shown], answers: list[str]) -> tuple[str, float]:
    """Held-out accuracy of the best rule "if the example is (or mentions) A, answer X, else Y"."""
    rows = [{**{f"example is {a!r}": float(_is(s, a)) for a in set(answers)},
             **{f"example mentions {a!r}": float(_mentions(s, a)) for a in set(answers)}} for s in shown]
    from palaestra.kit import best_threshold_rule  # the kit package imports this module: import late

    return best_threshold_rule(rows, answers)


def _chance(answers: list[str]) -> float:
    """The best constant's held-out accuracy (or the fair share, whichever is larger)."""
    counts = Counter(answers)
    return max(counts.most_common(1)[0][1] / len(answers), 1 / len(counts))


# --- example independence ------------------------------------------------------------------------

def _level_problems(env_id: str, level: int, count: int) -> list[Problem]:
    return [sample(env_id, level, seed) for seed in statistics_seeds(count)]  # the statistics checks' problems


def check_example_independence(env_id: str, s: Settings) -> str:
    """The prompt's example does not depend on the answer (see the module's docstring)."""
    source = make_source(env_id)
    notes = []
    for level in range(source.levels()):
        # The first look is at most the distinctness check's sample, whose problems are drawn anyway (CI: 24 at
        # levels >= 2): a level the look clears costs no new problems, and a level it does not clear draws the
        # sample its rate of related pairs needs below, at least FIRST_LOOK, whatever the look was.
        first_look = min(max(FIRST_LOOK, s.balance_seeds // 5), s.distinct_seeds if level < 2 else s.distinct_upper_seeds)
        glance = _level_problems(env_id, level, GLANCE)
        if all(p.answer is None for p in glance) or not any(_shown(source, p).key for p in glance):
            continue  # no answer to depend on, or no example in the prompts
        first = _level_problems(env_id, level, first_look)
        shown = [_shown(source, p) for p in first]
        if len({x.key for x in shown}) == 1:
            # The same text in every prompt so far. An example swapped when it is the answer would have
            # shown its other text already unless that answer is rare (then it tells little).
            notes.append(f"L{level} one fixed example")
            continue
        answers = [_answer_key(p) or "" for p in first]
        few = len(set(answers)) <= FEW_ANSWERS
        target = s.balance_seeds
        if not few:
            _, is_rate = _pair_rate(shown, answers, _is)
            _, mention_rate = _pair_rate(shown, answers, _mentions)
            testable = [rate for rate in (is_rate, mention_rate) if rate * s.balance_seeds >= MIN_EXPECTED]
            if not testable:
                notes.append(f"L{level} examples and answers unrelated")
                continue
            # Enough problems for about 5 * MIN_EXPECTED related pairs of each testable kind: an example that
            # avoids the answer then fails near certainly, at a fraction of the cost where most pairs relate.
            target = min(s.balance_seeds, max(FIRST_LOOK, *(math.ceil(5 * MIN_EXPECTED / r) for r in testable)))
        problems = first + [sample(env_id, level, seed) for seed in statistics_seeds(target)[first_look:]]
        shown += [_shown(source, p) for p in problems[first_look:]]
        answers = [_answer_key(p) or "" for p in problems]
        n = len(problems)
        for name, related in (("is", _is), ("mentions a word of", _mentions)):
            own, rate = _pair_rate(shown, answers, related)
            expected = rate * n
            if expected >= MIN_EXPECTED:
                _require(_binomial_tail(own, n, rate, upper=False) >= TAIL_P,
                         f"level {level}: the example {name} its own answer in {own} of {n} problems, "
                         f"{expected:.0f} expected if it were independent of the answer (it avoids the answer)")
            if name == "is":
                _require(own <= expected + s.balance_margin * n or _binomial_tail(own, n, rate, upper=True) >= TAIL_P,
                         f"level {level}: the example is the answer in {own} of {n} problems, "
                         f"{expected:.0f} expected if it were independent of the answer (it gives the answer away)")
        if len(set(answers)) <= FEW_ANSWERS:
            chance = _chance(answers)
            lookup = _lookup_accuracy([x.key for x in shown], answers)
            rule, accuracy = _indicator_accuracy(shown, answers)
            best = max(lookup, accuracy)
            _require(best <= chance + s.balance_margin,
                     f"level {level}: the prompt's example predicts {best:.0%} of answers "
                     f"({'the example text' if lookup >= accuracy else rule}; chance {chance:.0%})")
            notes.append(f"L{level} example predicts {best:.0%} (chance {chance:.0%})")
        else:
            notes.append(f"L{level} example independent ({n} problems)")
    return "; ".join(notes) or "no example in the prompts"


# --- budget leaks ----------------------------------------------------------------------------------

_NUMBER_WORD = re.compile(r"(?<![\w.])(\d{1,7})\s+([a-z]+(?:[ -][a-z]+)?)", re.IGNORECASE)
_WORD_NUMBER = re.compile(r"\b(at most|up to|within|budget of|limit of|no more than|exactly|only)\s+(\d{1,7})\b",
                          re.IGNORECASE)


def printed_numbers(prompt: str) -> dict[str, float]:
    """Numbers the prompt prints next to a word, keyed by that word ("8 tool calls" -> {"N tool calls": 8})."""
    found: dict[str, float] = {}
    for match in _NUMBER_WORD.finditer(prompt):
        found.setdefault(f"N {match.group(2).lower()}", float(match.group(1)))
    for match in _WORD_NUMBER.finditer(prompt):
        found.setdefault(f"{match.group(1).lower()} N", float(match.group(2)))
    return found


def _affine_accuracy(values: list[float], answers: list[str]) -> float:
    """Held-out accuracy of the best rule answer = round(value * r) + c (r in a few simple ratios)."""
    numeric = [_as_int(a) for a in answers]
    best = 0.0
    for ratio in (1.0, 0.5, 1 / 3, 0.25, 2.0):
        offsets = Counter(numeric[i] - round(values[i] * ratio) for i in range(0, len(values), 2) if numeric[i] is not None)
        if not offsets:
            continue
        offset = offsets.most_common(1)[0][0]
        test = range(1, len(values), 2)
        hits = sum(numeric[i] is not None and numeric[i] == round(values[i] * ratio) + offset for i in test)
        best = max(best, hits / max(len(test), 1))
    return best


def _as_int(answer: str) -> int | None:
    text = answer.replace(",", "")
    return int(text) if re.fullmatch(r"-?\d{1,12}", text) else None


def check_budget_leaks(env_id: str, s: Settings) -> str:
    """No number printed in a tool or multi-turn env's prompt predicts the answer (see the docstring)."""
    source = make_source(env_id)
    if not isinstance(source, MultiTurnTask):
        return "n/a (single-turn: the balance check reads its surface)"
    notes = []
    for level in range(source.levels()):
        if all(p.answer is None for p in _level_problems(env_id, level, GLANCE)):
            continue
        first = _level_problems(env_id, level, BUDGET_LOOK)
        rows = [printed_numbers(p.prompt) for p in first]
        varying = {k for k in set().union(*rows) if len({r.get(k, -1.0) for r in rows}) > 1}
        if not varying:
            notes.append(f"L{level} printed numbers constant")
            continue
        # Two stages: the problems the distinctness check already generated, then (only where a number comes
        # within half the margin of the best constant there) the balance check's full sample, judged as before.
        for count in sorted({max(BUDGET_LOOK, min(s.distinct_seeds, s.balance_seeds)), s.balance_seeds}):
            problems = first + [sample(env_id, level, seed) for seed in statistics_seeds(count)[BUDGET_LOOK:]]
            best_name, best, chance = _best_printed_number(problems)
            if best <= chance + s.balance_margin / 2:
                break
        _require(best <= chance + s.balance_margin,
                 f"level {level}: the printed number {best_name!r} predicts {best:.0%} of answers (best constant {chance:.0%})")
        notes.append(f"L{level} best printed number {best:.0%} ({best_name}; constant {chance:.0%}; {len(problems)} problems)")
    return "; ".join(notes) or "no answers to predict"


def _best_printed_number(problems: list[Problem]) -> tuple[str, float, float]:
    """The printed number that best predicts the answers (its name and accuracy), and the best constant's accuracy."""
    from palaestra.kit import best_threshold_rule  # the kit package imports this module: import late

    answers = [_answer_key(p) or "" for p in problems]
    rows = [printed_numbers(p.prompt) for p in problems]
    keys = sorted({k for k in set().union(*rows) if len({r.get(k, -1.0) for r in rows}) > 1})
    chance = Counter(answers).most_common(1)[0][1] / len(answers)
    best_name, best = "none", 0.0
    for key in keys:
        values = [r.get(key, -1.0) for r in rows]
        _, threshold = best_threshold_rule([{key: v} for v in values], answers)
        accuracy = max(threshold, _lookup_accuracy([str(v) for v in values], answers), _affine_accuracy(values, answers))
        if accuracy > best:
            best_name, best = key, accuracy
    return best_name, best, chance


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "example_independence": check_example_independence,
    "budget_leaks": check_budget_leaks,
}
