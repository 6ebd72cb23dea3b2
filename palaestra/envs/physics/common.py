"""What the round-3 physics environments share: reading exact quantities with units, their spellings, and
:class:`KindsTask`, the shape of the envs whose levels are kinds of problem.

Not an environment (nothing here is registered). An answer is one exact number in the asked unit
(``-60/7``, ``-60/7 cm``, ``8.5 °C``) or several named ones (``v = -60/7 cm, m = 3/7``), read through
the shared readers (:func:`palaestra.verifiers.numeric.read_exact`, :func:`read_values`), so wrappers,
``Answer:`` lead-ins and a closing full stop are accepted, and hedges and retractions are not.

Example::

    >>> read_quantity("12.5 cm", {"cm": 1, "m": 100}), read_quantity("0.125 m", {"cm": 1, "m": 100})
    (Fraction(25, 2), Fraction(25, 2))
    >>> read_quantities("v = 30 cm, m = -2", {"v": {"cm": 1}, "m": {}})
    {'v': Fraction(30, 1), 'm': Fraction(-2, 1)}
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from palaestra.core import Problem, Task, Verdict
from palaestra.verifiers import assignments
from palaestra.verifiers.assignments import Units
from palaestra.verifiers.normalize import read_answer, restated, strip_wrappers, unify
from palaestra.verifiers.numeric import decimal_agrees, read_approx
from palaestra.verifiers.rationals import format_fraction

MAX_DIGITS = 160  # digits in one answer: capacitor networks past the presets reach ~80 (60 refused their references)


APPROXIMATELY = ("≈", "\\approx")

# Other spellings of a unit that a careful grader accepts, added to an env's table where the env lists the unit:
# the singular of a word unit, an SI spelling with a negative power, a word form. Never a symbol that names another
# unit of some env's table ("C" is both coulombs and degrees Celsius, so nothing maps to it).
UNIT_ALIASES: Mapping[str, tuple[str, ...]] = {
    "J": ("joule", "joules"),
    "N": ("newton", "newtons"),
    "V": ("volt", "volts"),
    "W": ("watt", "watts"),
    "m": ("metre", "metres", "meter", "meters"),
    "cm": ("centimetre", "centimetres", "centimeter", "centimeters"),
    "km": ("kilometre", "kilometres", "kilometer", "kilometers"),
    "g": ("gram", "grams"),
    "kg": ("kilogram", "kilograms"),
    "Hz": ("hertz", "s^-1"),
    "A": ("ampere", "amperes", "amp", "amps"),
    "Ω": ("ohm", "ohms", "\\Omega"),
    "Pa": ("pascal", "pascals", "N/m^2", "N m^-2"),
    "m/s": ("m s^-1", "m/sec", "metre per second", "metres per second", "meter per second", "meters per second"),
    "rad/s": ("rad s^-1", "rad/sec", "radian per second", "radians per second"),
    "N/C": ("N C^-1", "newton per coulomb", "newtons per coulomb"),
    "V/m": ("V m^-1", "volt per metre", "volts per metre", "volt per meter", "volts per meter"),
    "kg/m³": ("kg/m^3", "kg m^-3", "kilogram per cubic metre", "kilograms per cubic metre",
              "kilogram per cubic meter", "kilograms per cubic meter"),
    "days": ("day",),
    "hours": ("hour",),
    "years": ("year",),
}
_MICRO = ("μ", "µ", "u")


def with_aliases(units: Units) -> Units:
    """``units`` with the :data:`UNIT_ALIASES` of its units, and the LaTeX micro prefix (``\\mu F``, ``\\mu\\text{F}``)
    for its micro units (``μF``, ``µF``, ``uF``), each at its unit's factor; an env's own spellings are kept."""
    return _with_aliases(tuple(units.items()))


@lru_cache(maxsize=256)
def _with_aliases(pairs: tuple[tuple[str, Fraction | int], ...]) -> dict[str, Fraction | int]:
    out = dict(pairs)
    for unit, factor in pairs:
        extra = list(UNIT_ALIASES.get(unit, ()))
        if len(unit) == 2 and unit[0] in _MICRO and unit[1].isupper():
            extra += [f"\\mu {unit[1]}", f"\\mu{unit[1]}"]
        for alias in extra:
            out.setdefault(alias, factor)
    return out


def read_quantity(text: str, units: Units, *, sentence: bool = True) -> Fraction | None:
    """The exact number written, converted to the asked unit (a unit in ``units`` or none), else None. As the one
    value asked it may be named in a sentence (``The charge is 5 µC.``; ``sentence=False`` for a named pair's value).

    The exact value may be followed by its decimal approximation (``580013/340 ≈ 1706 Hz``), as a careful
    grader accepts when the decimal is the value rounded or truncated to its last written place
    (:func:`~palaestra.verifiers.numeric.decimal_agrees`); a wrong decimal makes the answer unreadable (a second answer).
    """
    units = with_aliases(units)
    value = _read_one(text, units, sentence)
    if value is not None or not sentence or not isinstance(text, str) or len(text) > MAX_CHAIN_CHARS:
        return value
    value = _chain(text, units)
    return value if value is not None else restated(text, lambda part: _read_one(part, units, True))


MAX_CHAIN_CHARS = 400  # longer answers are not read as a chain of equalities or a restated answer
MAX_CHAIN_SIDES = 8
# A step of a chain of equalities that is a formula, not a value: letters, digits, operators, brackets, unit signs
# and the LaTeX a formula uses; a word of two or more letters must be one of _FORMULA_WORDS or a unit of the question
_FORMULA = re.compile(r"[A-Za-z0-9\s+\-*/^_(){}\[\].\\·×⋅√²³⁻¹°ΩµμΩ]*")
_FORMULA_WORD = re.compile(r"\\?[A-Za-z]{2,}")
_FORMULA_WORDS = frozenset((
    "\\sqrt", "\\frac", "\\dfrac", "\\tfrac", "\\cdot", "\\times", "\\left", "\\right", "\\pi", "\\rho",
    "\\omega", "\\theta", "\\lambda", "\\Delta", "\\alpha", "\\beta", "\\gamma", "\\mu", "\\sin", "\\cos",
    "\\tan", "\\ln", "\\text", "\\mathrm", "sqrt", "pi", "sin", "cos", "tan", "ln"))


def _chain(text: str, units: Units) -> Fraction | None:
    """The value a chain of equalities ends in (``v = \\sqrt{2 g h} = \\sqrt{2 \\cdot 9.8 \\cdot 1900} = 193 m/s``):
    its first side and last side read as one answer (``v = 193 m/s``); each step between is a formula (ignored)
    or a value equal to the last. A second value that differs, or a step with words, leaves it unread."""
    sides = text.split("=", MAX_CHAIN_SIDES)
    if not 2 <= len(sides) <= MAX_CHAIN_SIDES:
        return None
    value = _read_one(sides[-1], units, False)
    if value is None:
        return None
    head = sides[0]
    if _read_one(f"{head}= {sides[-1].strip()}", units, True) != value and _read_one(head, units, True) != value:
        return None
    for step in sides[1:-1]:
        if not _FORMULA.fullmatch(step):
            return None
        stated = _read_one(step, units, False)
        if stated is not None and stated != value:
            return None
        if stated is None and any(word not in _FORMULA_WORDS and word not in units
                                  for word in _FORMULA_WORD.findall(step)):
            return None
    return value


def _read_one(text: str, units: Units, sentence: bool) -> Fraction | None:
    """One exact value, optionally followed by its decimal approximation (see :func:`read_quantity`)."""
    for sign in APPROXIMATELY:
        if isinstance(text, str) and text.count(sign) == 1 and len(text) <= 400:
            exact_text, approximate_text = text.split(sign)
            exact = assignments.read_quantity(exact_text, units, MAX_DIGITS, sentence=sentence)
            approximate = read_approx(approximate_text.strip(), units=dict(units) or None, mixed=True)
            if exact is None or approximate is None or not decimal_agrees(exact, approximate, approximate_text.strip()):
                return None
            return exact
    return assignments.read_quantity(text, units, MAX_DIGITS, sentence=sentence)


def read_quantities(text: str, units: Mapping[str, Units]) -> dict[str, Fraction] | None:
    """``{name: value}`` for every name of ``units`` (each read in its own accepted units, as
    :func:`read_quantity` reads it), else None."""
    raw = assignments.read_values(text, list(units), lambda s: s.strip() or None)
    if raw is None:
        return None
    values = {name: read_quantity(str(raw[name]), units[name], sentence=False) for name in units}
    return None if any(v is None for v in values.values()) else values  # type: ignore[return-value]


def fraction_text(value: Fraction) -> str:
    """The exact value as an integer or a reduced fraction (``-60/7``)."""
    return format_fraction(value)


def terminating(value: Fraction) -> bool:
    """Whether the value has a finite decimal expansion (its denominator has only the factors 2 and 5)."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def decimal_text(value: Fraction) -> str | None:
    """The exact decimal spelling of a terminating value (``8.5``), else None."""
    if not terminating(value):
        return None
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    text = f"{abs(value) * 10**places // 1}"
    if places:
        text = text.rjust(places + 1, "0")
        text = f"{text[:-places]}.{text[-places:]}"
    return ("-" if value < 0 else "") + text


_NUM = r"(?:\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?)"
_COMPLEX_FORMS = (
    re.compile(rf"(?P<re>[+-]?{_NUM})?(?P<sign>[+-])(?P<im>{_NUM})?\*?[ij]"),  # 3 - 4j, 3 - j, -4j
    re.compile(rf"(?P<re>[+-]?{_NUM})?(?P<sign>[+-])[ij]\*?(?P<im>{_NUM})"),  # 3 - j4
    re.compile(rf"(?P<re>[+-]?{_NUM})"),  # purely real
)
_UNIT_TAIL = ("ohms", "ohm", "Ω", "\\Omega")
_TEX_FRACTION = re.compile(rf"\\[dt]?frac\{{({_NUM})\}}\{{({_NUM})\}}")  # \frac{12}{5} -> 12/5
_BRACKETED_NUMBER = re.compile(rf"\(({_NUM})\)")  # (12/5)j -> 12/5j
_OVER_DENOMINATOR = re.compile(rf"\((?P<inner>[^()]+)\)/(?P<den>{_NUM})")  # (3 - 4j)/5
_BRACKETED = re.compile(r"\(([^()]+)\)")
# "The impedance is Z = 49 - 5j", "The equivalent impedance: 49 - 5j": a naming sentence before the number
_IMPEDANCE_LEAD = re.compile(r"(?:(?:the\s+)?(?:(?:equivalent|complex|total)\s+){0,2}impedance\b\s*(?:is\b|:|=)?\s*)?",
                             re.IGNORECASE)


def read_complex(text: str) -> tuple[Fraction, Fraction] | None:
    """``(real part, imaginary part)`` of an exact complex number written ``a + bj`` (or ``i``, ``jb``), optionally
    in brackets, named (``Z = ...``, ``The impedance is Z = ...``) and followed by ohms; else None. Input is bounded
    before the fixed pattern runs."""
    return read_answer(text, _complex_core) if isinstance(text, str) and len(text) <= 300 else None


def _complex_core(text: str) -> tuple[Fraction, Fraction] | None:
    s = strip_wrappers(unify(text)).strip()
    s = s[_IMPEDANCE_LEAD.match(s).end():]  # type: ignore[union-attr]  # it matches the empty string too
    for name in ("Z =", "Z=", "I =", "I="):
        if s.startswith(name):
            s = s[len(name):]
    s = s.replace(" ", "").replace("·", "").replace("\\cdot", "")
    for unit in _UNIT_TAIL:
        if s.endswith(unit):
            s = s[: -len(unit)]
            break
    bracketed = _BRACKETED.fullmatch(s)  # Z = (49 - 5j) Ω: one pair of brackets round the whole number
    if bracketed is not None:
        s = bracketed.group(1)
    s = _BRACKETED_NUMBER.sub(r"\1", _TEX_FRACTION.sub(r"\1/\2", s))  # (12/5) - (3/4)j, \frac{12}{5} - \frac34 j
    over = _OVER_DENOMINATOR.fullmatch(s)
    if over is not None:  # a common denominator: (3 - 4j)/5
        inner, denominator = _complex_core(over.group("inner")), Fraction(over.group("den"))
        return None if inner is None or denominator == 0 else (inner[0] / denominator, inner[1] / denominator)
    if s.startswith(("j", "i")) or (s[:1] in "+-" and s[1:2] in ("j", "i")):
        s = "0" + ("+" if s[0] in "ji" else "") + s
    elif s.endswith(("j", "i")) and not any(c in s[1:] for c in "+-"):
        s = "0+" + s if not s.startswith("-") else "0" + s
    for form in _COMPLEX_FORMS:
        match = form.fullmatch(s)
        if match is None:
            continue
        groups = match.groupdict()
        real = _ratio(groups["re"]) if groups.get("re") else Fraction(0)
        if "sign" not in groups:
            return None if real is None else (real, Fraction(0))
        size = _ratio(groups["im"]) if groups.get("im") else Fraction(1)
        if real is None or size is None:
            return None
        return real, size if groups["sign"] == "+" else -size
    return None


def _ratio(text: str) -> Fraction | None:
    """A matched number (``12``, ``2.5``, ``15/2``) as a Fraction; None for a zero denominator (``1/0``), which no
    grader reads as a number (Fraction raises on it)."""
    numerator, _, denominator = text.partition("/")
    if denominator and Fraction(denominator) == 0:
        return None
    return Fraction(text)


Question = tuple[str, dict[str, Fraction], int]  # text, exact answer values, reasoning steps


@dataclass(frozen=True)
class Named:
    """One value of a several-value answer: the unit the reference writes ("" for none), the units a reader accepts,
    and what the value is (for the verdict's message)."""

    unit: str
    units: Units
    what: str


class KindsTask(Task):
    """A physics task whose levels are kinds of problem: each kind draws a question with one exact value in a unit
    (``single``) or several named values (``named``), judged exactly in any accepted unit.

    A subclass declares its kinds and units; this class writes the prompt's answer-form line, the reference, the
    verdict, the difficulty (the kind's reasoning steps plus a tenth of the answer's digits) and the kit's spellings
    and near misses, once for all such envs::

        class Orbits(KindsTask):
            presets = kind_presets("speed", "ellipse", ...)
            def draw(self, kind, rng): return _KINDS[kind](rng)          # (question, values, steps)
            single = {"speed": ("m/s", SPEED)}
            named = {"ellipse": {"a": Named("km", KM, "semi-major axis"), "e": Named("", {}, "eccentricity")}}
            examples = {"ellipse": "a = 12500 km, e = 3/7"}
    """

    @dataclass(frozen=True)
    class Config:
        kind: str

    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"
    intro: ClassVar[str] = ""  # a sentence before every question (constants, conventions)
    single: ClassVar[Mapping[str, tuple[str, Units]]] = {}  # kind -> (the unit asked, the units accepted)
    named: ClassVar[Mapping[str, Mapping[str, Named]]] = {}  # kind -> the named values, in the answer's order
    examples: ClassVar[Mapping[str, str]] = {}  # a named kind's example answer
    single_example: ClassVar[str] = "1250/3"  # the example value of the one-value kinds' form line
    forms: ClassVar[Mapping[str, str]] = {}  # a kind's own form line, where the general one does not fit

    def draw(self, kind: str, rng: random.Random) -> Question:
        """A question of the kind: its text, its exact answer values (``x`` for a one-value kind) and its steps."""
        raise NotImplementedError

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, values, steps = self.draw(config.kind, rng)
        if config.kind in self.named:
            form = f"Give exact values (fractions where needed), e.g. {self.examples[config.kind]}."
            answer = ", ".join(_pair(name, values[name], named.unit) for name, named in self.named[config.kind].items())
        else:
            unit = self.single[config.kind][0]
            form = f"Give the exact value in {unit} (a fraction if needed), e.g. {self.single_example} {unit}."
            answer = _with_unit(values["x"], unit)
        form = self.forms.get(config.kind, form)
        return Problem(prompt=f"{self.intro}{question}\n\n{form}", answer=answer, data={
            "kind": config.kind, "values": {k: fraction_text(v) for k, v in values.items()}, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        kind = problem.data["kind"]
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in self.named:
            names = self.named[kind]
            got = read_quantities(answer, {name: named.units for name, named in names.items()})
            if got is None:
                return Verdict.unparsed("expected " + ", ".join(f"{name} = <{named.unit or 'number'}>"
                                                                for name, named in names.items()) + ", exact values")
            wrong = next((named.what for name, named in names.items() if got[name] != expected[name]), None)
            return Verdict.judge(wrong is None, f"wrong {wrong}")
        unit, units = self.single[kind]
        value = read_quantity(answer, units)
        if value is None:
            return Verdict.unparsed(f"expected one exact value{' in ' + unit if unit else ''}")
        return Verdict.judge(value == expected["x"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps of the kind, plus a tenth of the answer's digits."""
        digits = sum(c.isdigit() for v in problem.data["values"].values() for c in v)
        return problem.data["steps"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        kind = problem.data["kind"]
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in self.named:
            names = self.named[kind]
            pairs = [_pair(name, values[name], named.unit) for name, named in names.items()]
            first, named = next(iter(names.items()))
            other = _other_unit(named.units)
            if other is not None:  # the first value in another unit, one value a line, a closing full stop
                pairs[0] = _pair(first, values[first] / Fraction(named.units[other]), other)
            return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(pairs) + "."]
        unit, units = self.single[kind]
        x = values["x"]
        boxed = f"{fraction_text(x)}\\text{{ {unit}}}" if unit else fraction_text(x)
        out = [*super().spellings(problem), fraction_text(x), f"\\boxed{{{boxed}}}"]
        if x.denominator != 1:
            out.append(f"\\frac{{{x.numerator}}}{{{x.denominator}}}")
        other = _other_unit(units)
        if other is not None:
            out.append(_with_unit(x / Fraction(units[other]), other))
        decimal = decimal_text(x)
        if decimal is not None:
            out.append(_with_unit(decimal, unit) + ".")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind = problem.data["kind"]
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if kind in self.named:
            names = self.named[kind]
            def spelled(changed: str, value: Fraction) -> str:
                return ", ".join(_pair(n, value if n == changed else values[n], named.unit) for n, named in names.items())
            first = next(iter(names))
            wrong = [spelled(name, values[name] + 1) for name in names]
            wrong += [spelled(first, values[first] * 2 if values[first] else Fraction(2)),
                      spelled(first, values[first]) + f" or {first} = {fraction_text(values[first] + 1)}",
                      ", ".join(_pair(n, values[n], named.unit) for n, named in list(names.items())[:-1])]
            return wrong
        unit = self.single[kind][0]
        x = values["x"]
        wrong = [_with_unit(x + 1, unit), _with_unit(x * 2 if x else Fraction(2), unit),
                 f"{fraction_text(x)} or {_with_unit(x + 1, unit)}"]
        if x != 0:
            wrong.append(_with_unit(-x, unit))
        if decimal_text(x) is None:
            wrong.append(_with_unit(f"{float(x):.3f}", unit))
        return wrong


def kind_presets(*kinds: str) -> tuple[KindsTask.Config, ...]:
    """One level per kind of problem, in order."""
    return tuple(KindsTask.Config(kind) for kind in kinds)


def _with_unit(value: Fraction | str, unit: str) -> str:
    text = value if isinstance(value, str) else fraction_text(value)
    return f"{text} {unit}" if unit else text


def _pair(name: str, value: Fraction, unit: str) -> str:
    return f"{name} = {_with_unit(value, unit)}"


def _other_unit(units: Units) -> str | None:
    """A unit other than the reference's (its factor is not 1), for a converted spelling."""
    return next((unit for unit, factor in units.items() if Fraction(factor) != 1), None)
