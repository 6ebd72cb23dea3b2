"""Significant figures and scientific notation.

Level 0 rounds a number to n significant figures; level 1 writes an exact number in
scientific notation; level 2 rounds to n significant figures and writes the result in
scientific notation; level 3 combines measurements (a product or quotient keeps the
fewest significant figures of its factors, a sum or difference the fewest decimal
places) and each question is drawn so that the other operation's rule gives another value;
level 4 multiplies or divides numbers given in scientific notation and reports
the result to the right significant figures in scientific notation. Rounding is half
up; the generator avoids exact ties, so the rounded value is never in doubt.

Version 2: at level 3 a sum's value rounded to the fewest significant figures was usually its value rounded
to the fewest decimal places, and sums were redrawn more often than products, so always keeping the fewest
significant figures solved 0.92 of level 3 (always the fewest decimal places 0.47); now the other rule always
gives another value and the operation is drawn before its numbers, half and half: 0.48 and 0.52 (200 seeds).

The answer must have the right value and show the right precision: ``0.00457`` or
``4.57 × 10^-3`` for three significant figures (``4.57e-3``, ``4.57*10^(-3)``, ``4.57·10⁻³``),
but not ``0.0046`` or ``0.004570``; ``2.50`` (not ``2.5``) when three figures are asked.
Where scientific notation is asked, the mantissa must be at least 1 and below 10.
A whole number with trailing zeros (``3500``) is accepted for any precision its zeros
could carry; a point at the very end is read as a full stop (``The answer is 3500.``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

_SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_NUMBER = re.compile(
    r"([+-]?)(\d[\d,]*(?:\.\d*)?|\.\d+)"
    r"(?:\s*[eE]\s*([+-]?\d{1,4})"
    r"|\s*(?:×|x|\*|·|⋅|\\times|\\cdot)\s*10\s*(?:\^|\*\*)\s*(?:\{\s*([+-]?\d{1,4})\s*\}|\(\s*([+-]?\d{1,4})\s*\)|([+-]?\d{1,4}))"
    r"|\s*(?:×|x|\*|·|⋅)\s*10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]{1,5}))?"
)


@dataclass(frozen=True)
class Written:
    value: Fraction
    mantissa: str  # the digits as written, sign and exponent removed (e.g. "4.57", "3500")
    exponent: int | None  # None when not in scientific or e-notation

    def figures(self) -> tuple[int, int]:
        """(fewest, most) significant figures the written digits can mean (trailing zeros of a whole
        number without a point are ambiguous)."""
        digits = self.mantissa.replace(",", "")
        if "." in digits:
            significant = digits.replace(".", "").lstrip("0")
            return (len(significant), len(significant)) if significant else (1, 1)
        stripped = digits.lstrip("0")
        if not stripped:
            return 1, 1
        return len(stripped.rstrip("0")), len(stripped)

    def decimals(self) -> int:
        digits = self.mantissa.replace(",", "")
        places = len(digits.split(".")[1]) if "." in digits else 0
        return places - (self.exponent or 0)


def read_written(text: str) -> Written | None:
    """The number written in ``text`` with its written precision, or None."""
    if not isinstance(text, str) or len(text) > 200:
        return None

    def read(s: str) -> Written | None:
        s = strip_wrappers(unify(s)).replace("$", "").replace("{,}", ",").replace("−", "-").strip()
        s = re.sub(r"^[A-Za-z]{1,3}\s*(?:=|≈)\s*", "", s)
        s = re.sub(r"^(?:≈|~|approximately\b|about\b)\s*", "", s, flags=re.IGNORECASE)  # a rounded value is one
        s = re.sub(r"\s*(?:m|s|kg|g|cm|mm|km|m\^2|m²|m/s|N|J|W|L|mL)$", "", s)
        if s.endswith(".") and not s.endswith(".."):
            s = s[:-1]  # a full stop: "7440." ending a sentence is 7440, not a claim of four figures
        match = _NUMBER.fullmatch(s)
        if not match:
            return None
        sign, digits = match.group(1), match.group(2)
        if "," in digits and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d*)?", digits):
            return None
        exponent_text = next((g for g in match.groups()[2:6] if g is not None), None)
        superscript = match.group(7)
        exponent = int(superscript.translate(_SUPERSCRIPTS)) if superscript else \
            int(exponent_text) if exponent_text is not None else None
        value = Fraction(digits.replace(",", "")) * (Fraction(10) ** exponent if exponent is not None else 1)
        return Written(-value if sign == "-" else value, digits, exponent)

    return read_answer(text, read)


def round_figures(value: Fraction, figures: int) -> Fraction:
    """``value`` rounded half up to ``figures`` significant figures."""
    if value == 0:
        return value
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(value.numerator) / Decimal(value.denominator)
        exponent = d.adjusted() - figures + 1
        return Fraction(d.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP))


def round_places(value: Fraction, places: int) -> Fraction:
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(value.numerator) / Decimal(value.denominator)
        return Fraction(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def _tie(value: Fraction, step: Fraction) -> bool:
    """Whether ``value`` lies exactly halfway between two multiples of ``step`` (a rounding tie) or on one."""
    return (value / step * 2).denominator == 1


def _decimal(value: Fraction) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 80
        return Decimal(value.numerator) / Decimal(value.denominator)


def _magnitude(value: Fraction) -> int:
    """floor(log10(value)) for value > 0, exactly."""
    k = len(str(value.numerator)) - len(str(value.denominator))
    if Fraction(10) ** k > value:
        k -= 1
    return k


def _figure_step(value: Fraction, figures: int) -> Fraction:
    """The place value of the last kept digit when ``value`` is rounded to ``figures`` significant figures."""
    return Fraction(10) ** (_magnitude(abs(value)) - figures + 1)


def _plain(value: Fraction, figures: int) -> str:
    """A rounded value written with exactly ``figures`` significant figures in ordinary notation."""
    places = max(0, figures - 1 - _magnitude(abs(value)))
    return f"{_decimal(value):.{places}f}"


def _scientific(value: Fraction, figures: int) -> str:
    magnitude = _magnitude(abs(value))
    return f"{_decimal(value / Fraction(10) ** magnitude):.{figures - 1}f} × 10^{magnitude}"


def _digits(mantissa: int, exponent: int) -> str:
    """mantissa × 10^exponent written with every digit of the mantissa (exponent < 0: a decimal point)."""
    value = Fraction(mantissa) * Fraction(10) ** exponent
    return f"{_decimal(value):.{max(0, -exponent)}f}"


def _random_number(rng: random.Random, digits: int) -> Fraction:
    """A number with ``digits`` significant digits (the last one non-zero, so none is an ambiguous trailing
    zero) and a random magnitude from 10^-6 to 10^9."""
    mantissa = rng.randint(10 ** (digits - 1), 10**digits - 1)
    if mantissa % 10 == 0:
        mantissa += rng.randint(1, 9)
    return Fraction(mantissa) * Fraction(10) ** rng.randint(-6 - digits, 9 - digits)


@register
class SignificantFigures(Task):
    id = "arithmetic/significant_figures"
    version = 2  # v2: at level 3 the other operation's rounding rule never gives the same value
    family = "arithmetic"
    description = "Round to significant figures, write scientific notation, and keep precision in measurements."
    tags = ("math", "arithmetic", "measurement")

    @dataclass(frozen=True)
    class Config:
        kind: str  # round | scientific | round_scientific | measurement | scientific_product

    presets = (
        Config(kind="round"),
        Config(kind="scientific"),
        Config(kind="round_scientific"),
        Config(kind="measurement"),
        Config(kind="scientific_product"),
    )
    bounded = "its levels are kinds of problem (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question, value, rule, precision, scientific, steps = retry(lambda: _QUESTIONS[config.kind](rng),
                                                                    what="a number that does not round on a tie")
        if scientific:
            answer = _scientific(value, precision)
        else:
            answer = _plain(value, precision) if rule == "figures" else f"{_decimal(value):.{precision}f}"
        prompt = f"{question}\n\n" + ("Write the answer in scientific notation a × 10^n with 1 ≤ |a| < 10, e.g. "
                                      "6.02 × 10^23." if scientific else "Write the number in ordinary decimal "
                                                                         "notation, e.g. 0.0310.")
        prompt += " Show exactly the precision asked: keep the significant trailing zeros, and no digits beyond."
        return Problem(prompt=prompt, answer=answer, data={
            "value": str(value), "rule": rule, "precision": precision, "scientific": scientific, "steps": steps,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_written(answer)
        if written is None:
            return Verdict.unparsed("not a number (write e.g. 4.57 × 10^-3 or 0.00457)")
        if written.value != Fraction(problem.data["value"]):
            return Verdict.wrong("wrong value")
        precision = problem.data["precision"]
        if problem.data["scientific"]:
            mantissa = abs(Fraction(written.mantissa.replace(",", "")))
            if written.exponent is None or not 1 <= mantissa < 10:
                return Verdict.wrong("not in scientific notation with 1 <= |a| < 10")
        if problem.data["rule"] == "figures":
            fewest, most = written.figures()
            return Verdict.judge(fewest <= precision <= most, f"not written to {precision} significant figures")
        return Verdict.judge(written.decimals() == precision, f"not written to {precision} decimal places")

    def difficulty(self, problem: Problem) -> float:
        """Steps (rounding, normalising, combining measurements) plus the precision kept."""
        return float(problem.data["steps"] + problem.data["precision"] / 2)

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer
        out = [*super().spellings(problem), f"{answer}.", f"≈ {answer}"]
        if problem.data["scientific"]:
            mantissa, exponent = answer.split(" × 10^")
            out += [f"{mantissa}e{exponent}", f"{mantissa} \\times 10^{{{exponent}}}", f"{mantissa}*10^({exponent})",
                    f"{mantissa}·10{exponent.translate(str.maketrans('-0123456789', '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'))}"]
        else:
            value = Fraction(problem.data["value"])
            if problem.data["rule"] == "figures" and value != 0:
                out.append(_scientific(value, problem.data["precision"]))
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        precision = problem.data["precision"]
        wrong = [f"{problem.answer}0" if "." in problem.answer.split(" ")[0] else problem.answer + ".5"]
        if problem.data["rule"] == "figures":
            wrong.append(_plain(round_figures(value, precision + 1) + _figure_step(value, precision + 1),
                                precision + 1) if precision < 8 else "0")
            if precision > 1:
                wrong.append(_plain(round_figures(value, precision - 1), precision - 1))
        if problem.data["scientific"]:
            mantissa, exponent = problem.answer.split(" × 10^")
            wrong.append(f"{mantissa} × 10^{int(exponent) + 1}")
            shifted = Fraction(mantissa) * 10
            wrong.append(f"{shifted} × 10^{int(exponent) - 1}")  # right value, mantissa out of range
        return [w for w in wrong if not self.verify(problem, w).correct]


Question = tuple[str, Fraction, str, int, bool, int]  # text, rounded value, rule, precision, scientific?, steps


def _show(value: Fraction) -> str:
    return f"{_decimal(value).normalize():f}"


def _round(rng: random.Random) -> Question | None:
    number = _random_number(rng, rng.randint(5, 9))
    figures = rng.randint(1, 4)
    if _tie(number, _figure_step(number, figures)):
        return None
    return (f"Round {_show(number)} to {figures} significant figure{'s' if figures > 1 else ''}.",
            round_figures(number, figures), "figures", figures, False, 1)


def _to_scientific(rng: random.Random) -> Question | None:
    digits = rng.randint(2, 6)
    number = _random_number(rng, digits) * rng.choice([1, -1])
    if number.denominator == 1 and number % 10 == 0:
        return None  # "8230000" would not say how many of its zeros are significant
    return (f"Write {_show(number)} in scientific notation, keeping all of its significant figures.", number,
            "figures", digits, True, 2)


def _round_scientific(rng: random.Random) -> Question | None:
    number = _random_number(rng, rng.randint(5, 9))
    figures = rng.randint(2, 4)
    if _tie(number, _figure_step(number, figures)):
        return None
    return (f"Round {_show(number)} to {figures} significant figures and write the result in scientific notation.",
            round_figures(number, figures), "figures", figures, True, 3)


def _measured(rng: random.Random, figures: int) -> tuple[Fraction, str]:
    """A measured value with ``figures`` significant figures and a decimal point, with its written form
    (trailing zeros after the point kept: they are significant)."""
    mantissa = rng.randint(10 ** (figures - 1), 10**figures - 1)
    exponent = rng.randint(-figures - 2, -1)
    return Fraction(mantissa) * Fraction(10) ** exponent, _digits(mantissa, exponent)


def _measurement(rng: random.Random) -> Question:
    """A product or quotient, or a sum or difference, each half the time: the operation is drawn once and only
    its numbers are redrawn, so a policy that knows one rule earns at most half."""
    combine = _product if rng.random() < 0.5 else _sum
    return retry(lambda: combine(rng), what="measurements whose two rounding rules disagree")


def _product(rng: random.Random) -> Question | None:
    """A product or quotient: the fewest significant figures."""
    f1, f2 = rng.randint(2, 5), rng.randint(2, 5)
    (a, a_text), (b, b_text) = _measured(rng, f1), _measured(rng, f2)
    operation = rng.choice(["×", "÷"])
    exact = a * b if operation == "×" else a / b
    figures = min(f1, f2)
    if _tie(exact, _figure_step(exact, figures)):
        return None
    places = min(len(text.split(".")[1]) for text in (a_text, b_text))
    if round_places(exact, places) == round_figures(exact, figures):
        return None  # the sum's rule (fewest decimal places) would give the same value
    return (f"Two measured values are {a_text} and {b_text} (every digit shown is significant). Compute "
            f"{a_text} {operation} {b_text} and round to the correct number of significant figures.",
            round_figures(exact, figures), "figures", figures, False, 4)


def _sum(rng: random.Random) -> Question | None:
    """A sum or difference: the fewest decimal places."""
    values = [Fraction(rng.randint(1, 99999), 10 ** rng.randint(0, 4)) for _ in range(rng.randint(2, 3))]
    places = min(len(_show(v).split(".")[1]) if "." in _show(v) else 0 for v in values)
    sign = rng.choice([1, -1])
    exact = values[0] + sign * sum(values[1:])
    if exact <= 0 or _tie(exact, Fraction(1, 10**places)):
        return None
    rounded = round_places(exact, places)
    if any(round_figures(exact, figures) == rounded for figures in _fewest_figures([_show(v) for v in values])):
        return None  # the product's rule (fewest significant figures) would give the same value
    joined = f" {'+' if sign > 0 else '-'} ".join(_show(v) for v in values)
    return (f"Measured values (every digit shown is significant): compute {joined} and round to the correct "
            "precision (as many decimal places as the least precise value).", rounded, "places", places, False, 4)


def _fewest_figures(texts: list[str]) -> set[int]:
    """The fewest significant figures among written values, with a whole number's trailing zeros counted as
    significant or not (both readings, so that neither reading of the product's rule gives a sum's value)."""
    digits = [text.replace(".", "").lstrip("0") for text in texts]
    return {min(len(d) for d in digits),
            min(len(d) if "." in text else len(d.rstrip("0")) or 1 for d, text in zip(digits, texts))}


def _scientific_product(rng: random.Random) -> Question | None:
    f1, f2 = rng.randint(2, 4), rng.randint(2, 4)
    m1, m2 = Fraction(rng.randint(10 ** (f1 - 1), 10**f1 - 1), 10 ** (f1 - 1)), \
        Fraction(rng.randint(10 ** (f2 - 1), 10**f2 - 1), 10 ** (f2 - 1))
    e1, e2 = rng.randint(-12, 12), rng.randint(-12, 12)
    a, b = m1 * Fraction(10) ** e1, m2 * Fraction(10) ** e2
    operation = rng.choice(["×", "÷"])
    exact = a * b if operation == "×" else a / b
    figures = min(f1, f2)
    if _tie(exact, _figure_step(exact, figures)):
        return None
    shown = f"({_scientific(a, f1)}) {operation} ({_scientific(b, f2)})"
    return (f"Compute {shown}, where every digit shown is significant, to the correct number of significant figures.",
            round_figures(exact, figures), "figures", figures, True, 5)


_QUESTIONS = {"round": _round, "scientific": _to_scientific, "round_scientific": _round_scientific,
              "measurement": _measurement, "scientific_product": _scientific_product}
