"""Kit checks: quality (round 3 reward integrity). See :mod:`palaestra.kit.base` for the shapes a check takes.

- ``exact_references``: no reference answer carries a number that a float produced (a fraction over
  2^52, a 17-digit decimal). An exact-answer env that divides in floats grades exact answers wrong.
- ``difficulty_varies``: the difficulty measure describes the problem drawn, so it is not constant
  across seeds at a level >= 1 (a measure that is the level's size setting makes the growth check
  prove nothing). An env whose drawn problems truly take the same effort says why in the class
  attribute ``constant_difficulty``.
- ``near_duplicates``: no two envs ask near-identical prompts (Jaccard similarity of word 3-grams
  above :data:`NEAR_DUPLICATE_THRESHOLD`) unless one of them declares the other in its class attribute
  ``distinct_from = {"family/name": "why it is another skill"}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction

from palaestra.core.registry import INDEX_PATH, make_source, registry
from palaestra.kit.base import DIFFICULTY_SEED, ContractError, Settings, _require, sample

# --- exact references ---------------------------------------------------------------------------

_DENOMINATOR = re.compile(r"/\s*(\d+)(?![\d.])")
_DECIMAL = re.compile(r"(?<![\d.])\d*\.(\d+)(?![\d.])")
_FLOAT_MANTISSA_BITS = 30  # a float's fraction carries ~53 significant bits; exact answers rarely carry 30
_FLOAT_DIGITS = 15  # repr() of a float that is not a short decimal prints 15-17 significant digits


def float_derived(text: str) -> str | None:
    """The first number in ``text`` that only a float computation would produce, or None.

    A fraction whose denominator is a power of two at least 2^30 and whose numerator carries 30 or
    more significant bits is a binary float read back as a fraction (``Fraction(0.1)`` is
    3602879701896397/36028797018963968; ``c*sqrt(421)/2^53`` likewise); an exact answer over a power of
    two (3/2^40, a coin-flip probability) has a short numerator. A decimal with 15 or more digits after
    the point is a float's repr (``0.30000000000000004``).
    """
    for match in _DENOMINATOR.finditer(text):
        den = int(match.group(1))
        if den < 2 ** _FLOAT_MANTISSA_BITS or den & (den - 1):
            continue
        before = text[max(0, match.start() - 200):match.start()].rstrip()
        term = re.split(r"[\s+=,;]", before)[-1]  # ``1385722962267845*sqrt(421)``, ``-(3``
        numbers = [int(n) for n in re.findall(r"\d+", term)]
        if any(Fraction(n, den).numerator.bit_length() >= _FLOAT_MANTISSA_BITS for n in numbers):
            return f"{term}/{den}"
    for match in _DECIMAL.finditer(text):
        if len(match.group(1)) >= _FLOAT_DIGITS:
            return match.group(0)
    return None


def check_exact_references(env_id: str, s: Settings) -> str:
    """No reference answer (nor prompt) holds a float-derived number, at any level."""
    source = make_source(env_id)
    looked = 0
    for level in range(source.levels()):
        for seed in range(s.seeds):
            problem = sample(env_id, level, seed)
            for where, text in (("reference", problem.answer or ""), ("prompt", problem.prompt)):
                found = float_derived(text)
                _require(found is None, f"level {level} seed {seed}: the {where} holds {found!r}, a number only a "
                                        "float computation produces (compute exactly, e.g. with Fraction)")
            looked += 1
    return f"{looked} references exact"


# --- difficulty varies --------------------------------------------------------------------------

def check_difficulty_varies(env_id: str, s: Settings) -> str:
    """At every level >= 1 the difficulty measure takes more than one value across seeds."""
    source = make_source(env_id)
    reason = getattr(source, "constant_difficulty", None)
    if reason is not None:
        _require(isinstance(reason, str) and len(reason.split()) >= 3,
                 "constant_difficulty must be a sentence saying why every drawn problem takes the same effort")
        return f"exempt: {reason}"
    spreads = []
    for level in range(1, source.levels()):
        values = {float(source.difficulty(sample(env_id, level, DIFFICULTY_SEED + seed))) for seed in range(s.difficulty_seeds)}
        _require(len(values) > 1,
                 f"level {level}: difficulty() is {values.pop():g} for all {s.difficulty_seeds} seeds; measure the "
                 "problem drawn (search nodes, solution length, constraints), not the level's setting, or declare "
                 "`constant_difficulty = \"why\"`")
        spreads.append(f"L{level} {min(values):.3g}..{max(values):.3g}")
    return "; ".join(spreads) or "one level"


# --- near duplicates ----------------------------------------------------------------------------

NEAR_DUPLICATE_THRESHOLD = 0.35
"""Jaccard similarity of two envs' distinctive prompt 3-grams above which they must declare ``distinct_from``.

Calibrated on the registry (issue 21): the merged pairs scored 0.46-0.49 (Countdown and the 24 game),
other near pairs 0.36-0.46 (each declared with its reason), the next ones 0.32 and below (planning
domains that share a vocabulary but not a skill)."""

BOILERPLATE_ENVS = 5
"""A 3-gram found in this many catalogue envs or more is shared boilerplate (tool protocols, answer
instructions), not content: it is left out of the comparison."""

_SHINGLE_SEEDS = (0, 1)
_SHINGLES: dict[str, frozenset[str]] = {}
_FREQUENCY: dict[str, int] = {}
_DISTINCTIVE: dict[str, frozenset[str]] = {}
_WORD = re.compile(r"[a-z]+|\d+|[^\sa-z\d]")


def prompt_shingles(env_id: str) -> frozenset[str]:
    """Word 3-grams of a few of the env's prompts (first and last level), numbers folded to ``#``; cached."""
    found = _SHINGLES.get(env_id)
    if found is None:
        levels = make_source(env_id).levels()
        grams: set[str] = set()
        for level in sorted({0, levels - 1}):
            for seed in _SHINGLE_SEEDS:
                words = ["#" if w.isdigit() else w for w in _WORD.findall(sample(env_id, level, seed).prompt.lower())]
                grams.update(" ".join(words[i:i + 3]) for i in range(len(words) - 2))
        found = _SHINGLES[env_id] = frozenset(grams)
    return found


def catalogue() -> list[str]:
    """The envs every env is compared with: those of the generated index (not aliases, nor envs a test
    registers at run time), plus any registered since that ``palaestra index`` has not listed yet."""
    indexed = {entry["id"] for entry in json.loads(INDEX_PATH.read_text())["envs"]} if INDEX_PATH.exists() else set()
    return sorted(i for i in registry.ids() if i in indexed or registry[i].module.startswith("palaestra.envs."))


def _frequency() -> dict[str, int]:
    if not _FREQUENCY:
        counts: dict[str, int] = {}
        for env_id in catalogue():
            for gram in prompt_shingles(env_id):
                counts[gram] = counts.get(gram, 0) + 1
        _FREQUENCY.update(counts)
    return _FREQUENCY


def distinctive_shingles(env_id: str) -> frozenset[str]:
    """The env's 3-grams without the boilerplate many envs share; cached (every env's check compares with all the
    others, and the frequencies are counted once per process)."""
    found = _DISTINCTIVE.get(env_id)
    if found is None:
        frequency = _frequency()
        found = _DISTINCTIVE[env_id] = frozenset(g for g in prompt_shingles(env_id) if frequency.get(g, 0) < BOILERPLATE_ENVS)
    return found


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def declared_distinct(env_id: str, other: str) -> str | None:
    """The reason either env gives for being another skill than the other, or None."""
    for one, two in ((env_id, other), (other, env_id)):
        reason = (getattr(registry[one].cls, "distinct_from", None) or {}).get(two)
        if reason:
            return str(reason)
    return None


def most_similar(env_id: str) -> list[tuple[float, str]]:
    """``(similarity, other id)`` for every other catalogue env, most similar first."""
    mine = distinctive_shingles(env_id)
    pairs = [(similarity(mine, distinctive_shingles(o)), o) for o in catalogue() if o != env_id]
    return sorted(pairs, reverse=True)


def check_near_duplicates(env_id: str, s: Settings) -> str:
    """No other env's prompts are near-identical to this env's, unless the pair declares why they differ."""
    declared = getattr(make_source(env_id), "distinct_from", None) or {}
    _require(isinstance(declared, dict) and all(isinstance(r, str) and len(r.split()) >= 3 for r in declared.values()),
             "distinct_from must map env ids to a sentence each saying why it is another skill")
    for other in declared:
        _require(other in registry.ids(), f"distinct_from names {other!r}, which is not a listed env")
    ranked = most_similar(env_id)
    close = [(sim, other) for sim, other in ranked if sim >= NEAR_DUPLICATE_THRESHOLD]
    undeclared = [(sim, other) for sim, other in close if declared_distinct(env_id, other) is None]
    if undeclared:
        raise ContractError("prompts near-identical to " + ", ".join(f"{o} ({sim:.2f})" for sim, o in undeclared)
                            + ": merge the envs, or declare `distinct_from = {id: 'why it is another skill'}`")
    if not ranked:
        return "no other env"
    top_sim, top = ranked[0]
    return f"most similar: {top} ({top_sim:.2f})" + (f"; {len(close)} declared distinct" if close else "")


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "exact_references": check_exact_references,
    "difficulty_varies": check_difficulty_varies,
    "near_duplicates": check_near_duplicates,
}
