"""Ground-state electron configurations of atoms and ions, Aufbau exceptions included.

Each problem lists a few species (atoms, and from level 1 monatomic ions with their common charges) and asks for
the ground-state configuration of each. Atoms fill subshells in the Madelung (n + l, then n) order, except for the
twenty elements whose measured ground state differs (Cr, Cu, Nb, Mo, Ru, Rh, Pd, Ag, La, Ce, Gd, Pt, Au, Ac, Th,
Pa, U, Np, Cm, Lr), read from the package table ``electron_configurations.json``. The prompt states the ion
convention, so every answer is determined: a cation loses electrons from the atom's configuration starting with
the highest n (within one n the highest l first: Fe2+ is [Ar] 3d6, not [Ar] 3d4 4s2); an anion gains them in the
Aufbau order.

Version 2: every problem from level 1 lists a cation whose answer the exceptions change (Cu+ is [Ar] 3d10, not
the [Ar] 3d9 4s1 of the Madelung atom; Cu2+ or Cr3+ come out the same either way); in v1 taking the atoms'
exceptions but the cations from the Madelung filling answered 0.84, 0.92, 0.84 and 0.81 of levels 1-4. Both
that slip and the Madelung filling without any exception are declared as heuristics.

An answer is judged by its occupation numbers: the noble-gas shorthand (``[Ar] 3d6``) or the full form, with the
subshells in any order, superscripts written plainly, with ``^``, ``^{}`` or as Unicode superscripts, each
subshell at most once and within its capacity. Difficulty: per species, the occupied subshells, plus three for
an exception (an atom, or an ion of one), two for a transition-metal cation (s before d) and one for any ion.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.chemistry.common import elements, without_line_label
from palaestra.verifiers.normalize import read_answer

EXAMPLE = "(a) [He] 2s2 2p1"  # a fixed placeholder of the right shape: never derived from the answer
LETTERS = "spdfg"
CAPACITY = {letter: 4 * index + 2 for index, letter in enumerate(LETTERS)}
NOBLE = {"He": 2, "Ne": 10, "Ar": 18, "Kr": 36, "Xe": 54, "Rn": 86}
LABELS = "abcdefghijklmnopqrstuvwxyz"
ANION_FORMERS = {"H": -1, "N": -3, "P": -3, "As": -3, "O": -2, "S": -2, "Se": -2, "Te": -2,
                 "F": -1, "Cl": -1, "Br": -1, "I": -1}
MAX_LINE_CHARS = 400
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_TO_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# cations are drawn only for metals (and metalloids such as Ge, Sn, Sb as the table lists them)
NOT_CATIONS = frozenset({"H", "He", "B", "C", "N", "O", "F", "Ne", "Si", "P", "S", "Cl", "Ar", "As", "Se", "Br", "Kr",
                         "Te", "I", "Xe"})
_SUBSHELL = re.compile(r"([1-7])([spdfg])(?:\^\{(\d{1,2})\}|\^(\d{1,2})|(\d{1,2}))")

Configuration = dict[str, int]  # subshell ("3d") -> electrons


@lru_cache(maxsize=1)
def _table() -> tuple[list[str], dict[str, str]]:
    text = resources.files("palaestra.envs.chemistry").joinpath("electron_configurations.json").read_text("utf-8")
    data = json.loads(text)
    return data["symbols"], data["exceptions"]


@lru_cache(maxsize=1)
def madelung_order() -> tuple[str, ...]:
    """Subshells in filling order: by n + l, then by n (1s 2s 2p 3s 3p 4s 3d ...)."""
    shells = [(n, ell) for n in range(1, 8) for ell in range(min(n, len(LETTERS)))]
    return tuple(f"{n}{LETTERS[ell]}" for n, ell in sorted(shells, key=lambda s: (s[0] + s[1], s[0])))


def aufbau(electrons: int) -> Configuration:
    """Occupations filling ``electrons`` in the Madelung order."""
    filled: Configuration = {}
    for subshell in madelung_order():
        if electrons <= 0:
            break
        take = min(electrons, CAPACITY[subshell[1]])
        filled[subshell] = take
        electrons -= take
    return filled


def atom_configuration(symbol: str) -> Configuration:
    """The ground state of a neutral atom: the table's exception, or the Aufbau filling."""
    symbols, exceptions = _table()
    if symbol in exceptions:
        found = parse_configuration(exceptions[symbol])
        assert found is not None
        return found
    return aufbau(symbols.index(symbol) + 1)


def ion_configuration(symbol: str, charge: int) -> Configuration:
    """A cation loses electrons from the highest n (then highest l) first; an anion gains them by Aufbau."""
    if charge < 0:
        return aufbau(_table()[0].index(symbol) + 1 - charge)
    return _ionised(atom_configuration(symbol), charge)


def without_exceptions(symbol: str, charge: int) -> Configuration:
    """The slip of ignoring the Aufbau exceptions: the Madelung filling, and a cation taken from it."""
    if charge < 0:
        return ion_configuration(symbol, charge)
    return _ionised(aufbau(_table()[0].index(symbol) + 1), charge)


def _ionised(atom: Configuration, charge: int) -> Configuration:
    """``atom`` less ``charge`` electrons, each from the subshell of highest n (then highest l)."""
    left = dict(atom)
    for _ in range(charge):
        outer = max(left, key=lambda s: (int(s[0]), LETTERS.index(s[1])))
        left[outer] -= 1
        if left[outer] == 0:
            del left[outer]
    return left


def configuration(symbol: str, charge: int) -> Configuration:
    return ion_configuration(symbol, charge) if charge else atom_configuration(symbol)


@lru_cache(maxsize=None)
def changed_by_exceptions(symbol: str, charge: int) -> bool:
    """Whether ignoring the Aufbau exceptions gives this species another configuration."""
    return configuration(symbol, charge) != without_exceptions(symbol, charge)


def parse_configuration(text: str) -> Configuration | None:
    """Occupations of a written configuration (noble-gas core optional, subshells in any order), or None."""
    s = text.translate(_SUPERSCRIPTS).replace("$", "").replace("\\mathrm", "").replace("\\text", "")
    s = s.replace("{[", "[").replace("]}", "]").strip()
    filled: Configuration = {}
    if s.startswith("["):
        end = s.find("]")
        core = s[1:end] if end > 0 else ""
        if core not in NOBLE:
            return None
        filled = aufbau(NOBLE[core])
        s = s[end + 1:]
    position = 0
    while position < len(s):
        if s[position] in " .·,~" or s[position:position + 6] == "\\cdot ":
            position += 6 if s[position] == "\\" else 1
            continue
        match = _SUBSHELL.match(s, position)
        if match is None:
            return None
        subshell = match.group(1) + match.group(2)
        count = int(next(g for g in match.groups()[2:] if g is not None))
        if subshell in filled or LETTERS.index(subshell[1]) >= int(subshell[0]) or count > CAPACITY[subshell[1]]:
            return None
        filled[subshell] = count
        position = match.end()
    occupied = {k: v for k, v in filled.items() if v}
    return occupied or None


def full_form(configuration: Configuration) -> str:
    """All subshells in filling order: ``1s2 2s2 2p6 3s2 3p6 4s2 3d6``."""
    return " ".join(f"{s}{configuration[s]}" for s in madelung_order() if s in configuration)


def shorthand(configuration: Configuration, by_shell: bool = False) -> str:
    """The noble-gas shorthand (the largest core the configuration contains), subshells in filling order
    or, with ``by_shell``, in order of n then l (``[Ar] 3d6 4s2``)."""
    electrons = sum(configuration.values())
    core = max((name for name, z in NOBLE.items() if z < electrons
                and all(configuration.get(s) == c for s, c in aufbau(z).items())), key=lambda n: NOBLE[n],
               default=None)
    inner = aufbau(NOBLE[core]) if core else {}
    outer = [s for s in madelung_order() if s in configuration and s not in inner]
    if by_shell:
        outer.sort(key=lambda s: (int(s[0]), LETTERS.index(s[1])))
    body = " ".join(f"{s}{configuration[s]}" for s in outer)
    return (f"[{core}] " + body).strip() if core else body


def _species_name(symbol: str, charge: int) -> str:
    if charge == 0:
        return symbol
    return symbol + (str(abs(charge)) if abs(charge) > 1 else "") + ("+" if charge > 0 else "-")


@register
class ElectronConfiguration(Task):
    id = "chemistry/electron_configuration"
    family = "chemistry"
    description = "Ground-state electron configurations of atoms and ions (Aufbau exceptions included)."
    tags = ("chemistry", "science")
    version = 2

    @dataclass(frozen=True)
    class Config:
        max_z: int  # the heaviest atom drawn
        ions: bool  # whether monatomic ions are drawn
        species: int  # species per problem

    # Four species from level 1: with three, the listed cation the exceptions change (one of a handful) left only
    # 91% of level 1's problems distinct in 1,000 seeds.
    presets = (Config(20, False, 2), Config(36, True, 4), Config(54, True, 4), Config(86, True, 4),
               Config(103, True, 5))
    growth = Growth(steps={"species": 1}, limits={"max_z": 103, "species": len(LABELS)})

    def space_size(self, level: int) -> int | None:
        """Level 0 draws ordered pairs of two different atoms of the first 20 (no exceptions, no ions)."""
        return 20 * 19 if level == 0 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        symbols = _table()[0][: config.max_z]
        table = elements()
        pool: list[tuple[str, int]] = [(s, 0) for s in symbols]
        if config.ions:
            for s in symbols:
                if s in ANION_FORMERS:
                    pool.append((s, ANION_FORMERS[s]))
                if s in table and s not in NOT_CATIONS:
                    pool += [(s, c) for c in table[s].oxidation_states if 0 < c <= 4]
        exceptions = [p for p in pool if p[0] in _table()[1]]
        drawn: list[tuple[str, int]] = []
        for _ in range(config.species):
            # one pick in four from the exceptions (when the level has any), so they are not rare
            source = exceptions if exceptions and rng.random() < 0.25 else pool

            def pick(source: list[tuple[str, int]] = source) -> tuple[str, int]:
                return rng.choice(source)

            drawn.append(retry(pick, lambda p: p not in drawn, attempts=100, what="a species not yet listed"))
        # a cation whose answer the exceptions change (Cu+, Ag+; not Cu2+, whose 3d9 the Madelung atom also gives),
        # else an atom (Cr, Cu) where the level has no ions: without one, taking cations from the Madelung atom
        # answered 0.8-0.9 of levels 1-4 (v1)
        def tells(p: tuple[str, int]) -> bool:
            return changed_by_exceptions(*p) and (p[1] > 0 or not config.ions)

        telling = [p for p in exceptions if tells(p) and p not in drawn]
        if telling and not any(tells(p) for p in drawn):
            drawn[rng.randrange(len(drawn))] = rng.choice(telling)
        listing = "\n".join(f"({LABELS[i]}) {_species_name(*p)}" for i, p in enumerate(drawn))
        configurations = [configuration(*p) for p in drawn]
        prompt = (
            f"Give the ground-state electron configuration of each of these species:\n\n{listing}\n\n"
            "Atoms are in their actual ground states (including the known exceptions to the Aufbau order). For a "
            "cation, remove electrons from the neutral atom's configuration starting with the highest n (within "
            "one n, the highest l first); for an anion, add them in the Aufbau order.\n\n"
            "Answer with one line per species, in the order listed, using the noble-gas shorthand or the full "
            "form (subshells in any order), for example:\n" + EXAMPLE
        )
        answer = "\n".join(f"({LABELS[i]}) {shorthand(c)}" for i, c in enumerate(configurations))
        return Problem(prompt=prompt, answer=answer,
                       data={"species": [[s, c] for s, c in drawn], "configurations": configurations})

    def _read(self, problem: Problem, text: str) -> list[Configuration] | None:
        lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
        if len(lines) != len(problem.data["species"]) or any(len(line) > MAX_LINE_CHARS for line in lines):
            return None
        found = []
        for i, (line, (symbol, charge)) in enumerate(zip(lines, problem.data["species"], strict=True)):
            line = without_line_label(line, LABELS[i])
            name = _species_name(symbol, charge)
            for sep in (":", " -", " =", " –"):
                if line.startswith(name + sep):
                    line = line[len(name) + len(sep):].strip()
                    break
            configuration = parse_configuration(line)
            if configuration is None:
                return None
            found.append(configuration)
        return found

    def verify(self, problem: Problem, answer: str) -> Verdict:
        species = problem.data["species"]
        if not isinstance(answer, str) or len(answer) > MAX_LINE_CHARS * len(species) + 200:
            return Verdict.unparsed("expected one configuration per line, such as " + EXAMPLE)
        found = read_answer(answer, lambda text: self._read(problem, text))
        if found is None:
            return Verdict.unparsed(f"expected {len(species)} lines, one configuration per species in the order "
                                    f"listed, such as {EXAMPLE}")
        wrong = [_species_name(*p) for p, got, want in zip(species, found, problem.data["configurations"],
                                                           strict=True) if got != want]
        if wrong:
            return Verdict.wrong(f"wrong configuration for {', '.join(wrong)}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Per species: occupied subshells, +3 for an Aufbau exception, +2 for a d-block cation, +1 for an ion."""
        exceptions = _table()[1]
        total = 0
        for (symbol, charge), configuration in zip(problem.data["species"], problem.data["configurations"],
                                                   strict=True):
            last_filled = list(aufbau(_table()[0].index(symbol) + 1))[-1]
            inner_block = last_filled[1] in "df"  # a d- or f-block atom: its cation loses the outer s first
            total += len(configuration) + 3 * (symbol in exceptions) + (charge != 0) + 2 * (charge > 0 and inner_block)
        return float(total)

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def madelung_only(problem: Problem) -> str:
            return "\n".join(f"({LABELS[i]}) {shorthand(without_exceptions(symbol, charge))}"
                             for i, (symbol, charge) in enumerate(problem.data["species"]))

        def cations_from_madelung(problem: Problem) -> str:
            return "\n".join(f"({LABELS[i]}) {shorthand(without_exceptions(symbol, charge) if charge else configuration(symbol, 0))}"
                             for i, (symbol, charge) in enumerate(problem.data["species"]))

        return {"Madelung filling, no exceptions": madelung_only,
                "exceptions for atoms, cations from the Madelung atom": cations_from_madelung}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        configurations = problem.data["configurations"]
        full = "\n".join(full_form(c) for c in configurations)
        by_shell = "\n".join(f"{LABELS[i]}) {shorthand(c, by_shell=True)}" for i, c in enumerate(configurations))
        named = "\n".join(f"{_species_name(*p)}: " + re.sub(r"([spdf])(\d+)", r"\1^{\2}", shorthand(c))
                          for p, c in zip(problem.data["species"], configurations, strict=True))
        superscripts = re.sub(r"([1-7][spdf])(\d+)", lambda m: m.group(1) + m.group(2).translate(_TO_SUPERSCRIPT), gold)
        return [*super().spellings(problem), f"Answer:\n{gold}", f"{gold}.", full, by_shell, named, superscripts]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        species = problem.data["species"]
        configurations = problem.data["configurations"]
        plain = ["\n".join(f"({LABELS[i]}) {shorthand(c)}" for i, c in enumerate(cs)) for cs in [configurations]]
        naive = []  # the plain Aufbau filling of the same electron count: wrong for exceptions and cations
        for (symbol, charge), c in zip(species, configurations, strict=True):
            electrons = _table()[0].index(symbol) + 1 - charge
            naive.append(aufbau(electrons))
        one_off = [dict(c) for c in configurations]
        target = rng.randrange(len(one_off))
        last = max(one_off[target], key=madelung_order().index)
        one_off[target][last] += 1 if one_off[target][last] < CAPACITY[last[1]] else -1
        lines = (problem.answer or "").split("\n")
        wrong = ["\n".join(f"({LABELS[i]}) {shorthand(c)}" for i, c in enumerate(one_off)),
                 "\n".join(lines[:-1]), f"{plain[0]} or " + "\n".join(full_form(c) for c in naive)]
        if naive != configurations:
            wrong.append("\n".join(f"({LABELS[i]}) {shorthand(c)}" for i, c in enumerate(naive)))
        return wrong
