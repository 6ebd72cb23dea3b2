"""pH of strong acids and bases, weak acids (the exact quadratic), buffers, and mixtures of strong solutions.

Kinds by level: a strong acid or base at a stated concentration (water's own ionisation ignored, Kw = 1e-14
at 25 °C stated); a weak acid from its Ka, where the prompt asks for the exact equilibrium (the quadratic
x^2 = Ka (C - x), not the x << C shortcut: 85% of these problems are drawn where the shortcut is off by more
than the tolerance, as it solved half of them before);
a buffer by Henderson–Hasselbalch (stated); and, from level 3, several strong acid and base solutions mixed
(volumes additive), the pH following from the excess. Problems whose excess is too small for water's
ionisation to be negligible are redrawn. Version 3: a mixture is redrawn until counting every base as one
hydroxide (Ca(OH)2 and Ba(OH)2 give two) moves the pH by more than 0.01; that slip answered 0.39 of level 4.

pH is a logarithm, so the reference is computed to 40 significant digits with :mod:`decimal`; an answer is
right when within 0.01 pH units of it, as the prompt states.

Difficulty: the steps of the calculation (1 for a strong acid, 2 for a strong base via pOH, 3 for a buffer
ratio or a weak acid, 4 where the x << C shortcut misses by more than 0.01, and two per solution of a
mixture, plus one where a base is in excess).
"""

from __future__ import annotations

import decimal
import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import format_decimal, read_approx

QUADRATIC_SHARE = 0.85  # weak-acid problems drawn where the x << C shortcut is off by more than 0.01
EXAMPLE = "pH = 12.34"  # a fixed placeholder of the right shape: never derived from the answer
TOLERANCE = Fraction(1, 100)
STRONG_ACIDS = ("HCl", "HNO3", "HBr", "HI", "HClO4")
STRONG_BASES = (("NaOH", 1), ("KOH", 1), ("LiOH", 1), ("Ca(OH)2", 2), ("Ba(OH)2", 2))
WEAK_ACIDS = (("acetic acid", "CH3COOH", "1.8e-5"), ("formic acid", "HCOOH", "1.8e-4"),
              ("hydrofluoric acid", "HF", "6.8e-4"), ("nitrous acid", "HNO2", "4.5e-4"),
              ("hypochlorous acid", "HClO", "3.0e-8"), ("benzoic acid", "C6H5COOH", "6.3e-5"),
              ("hydrocyanic acid", "HCN", "4.9e-10"), ("lactic acid", "CH3CH(OH)COOH", "1.4e-4"),
              ("propanoic acid", "CH3CH2COOH", "1.3e-5"), ("chlorous acid", "HClO2", "1.1e-2"))
STAGES = (("strong",), ("strong", "weak"), ("weak", "buffer"), ("weak", "buffer", "mix"), ("mix",))


def _log10(value: Fraction) -> decimal.Decimal:
    with decimal.localcontext() as context:
        context.prec = 40
        return (decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator)).log10()


def _concentration(rng: random.Random) -> Fraction:
    """A concentration such as 0.0235 mol/L (three significant digits, 1e-4 to 1)."""
    return Fraction(rng.randint(100, 999), 10 ** rng.randint(3, 6))


def _sci(value: Fraction) -> str:
    text = format_decimal(value)
    return text if "/" not in text else f"{float(value):.3g}"


@register
class Ph(Task):
    id = "chemistry/ph"
    family = "chemistry"
    description = "pH of strong acids/bases, weak acids (exact quadratic), buffers and mixtures (within 0.01)."
    tags = ("chemistry", "science", "math")
    version = 3

    @dataclass(frozen=True)
    class Config:
        stage: int  # which kinds are drawn (see STAGES)
        solutions: int  # solutions in a mixture

    presets = (Config(0, 2), Config(1, 2), Config(2, 2), Config(3, 3), Config(4, 4))
    growth = Growth(steps={"solutions": 1}, limits={"stage": len(STAGES) - 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(STAGES[min(config.stage, len(STAGES) - 1)])
        if kind == "strong":
            concentration = _concentration(rng)
            if rng.random() < 0.5:
                acid = rng.choice(STRONG_ACIDS)
                ph = -_log10(concentration)
                text = f"a {_sci(concentration)} mol/L solution of {acid} (a strong acid)"
                steps = 1
            else:
                base, hydroxides = rng.choice(STRONG_BASES)
                ph = 14 + _log10(concentration * hydroxides)
                text = f"a {_sci(concentration)} mol/L solution of {base} (a strong base, fully dissociated)"
                steps = 2
        elif kind == "weak":
            # most weak-acid problems are drawn where the x << C shortcut misses by more than the tolerance
            needs_quadratic = rng.random() < QUADRATIC_SHARE

            def draw_weak() -> tuple[tuple[str, str, str], Fraction, decimal.Decimal, bool]:
                acid = rng.choice(WEAK_ACIDS)
                ka, concentration = Fraction(acid[2]), _concentration(rng)
                with decimal.localcontext() as context:
                    context.prec = 40
                    ka_d = decimal.Decimal(ka.numerator) / decimal.Decimal(ka.denominator)
                    c_d = decimal.Decimal(concentration.numerator) / decimal.Decimal(concentration.denominator)
                    hydrogen = (-ka_d + (ka_d * ka_d + 4 * ka_d * c_d).sqrt()) / 2
                    exact = -hydrogen.log10()
                    shortcut = -(ka_d * c_d).sqrt().log10()
                return acid, concentration, exact, abs(shortcut - exact) > decimal.Decimal("0.01")

            (name, formula, ka_text), concentration, ph, misses = retry(
                draw_weak, accept=lambda d: d[3] or not needs_quadratic, what="a weak acid the shortcut misses")
            text = (f"a {_sci(concentration)} mol/L solution of {name} ({formula}, Ka = {ka_text}). Solve the "
                    f"equilibrium exactly (x^2 = Ka (C - x), without assuming x is small)")
            steps = 3 + misses  # the quadratic is really needed
        elif kind == "buffer":
            name, formula, ka_text = rng.choice(WEAK_ACIDS[:-1])
            acid_molar, salt_molar = _concentration(rng), _concentration(rng)
            ph = -_log10(Fraction(ka_text)) + _log10(salt_molar / acid_molar)
            text = (f"a buffer that is {_sci(acid_molar)} mol/L in {name} ({formula}, Ka = {ka_text}) and "
                    f"{_sci(salt_molar)} "
                    f"mol/L in its sodium salt. Use the Henderson–Hasselbalch equation")
            steps = 3
        else:
            def draw() -> tuple[list[tuple[str, Fraction, Fraction, int]], Fraction, Fraction]:
                parts = []
                for _ in range(config.solutions):
                    if rng.random() < 0.5:
                        parts.append((rng.choice(STRONG_ACIDS), Fraction(rng.randint(5, 200)),
                                      Fraction(rng.randint(1, 200), 1000), 1))
                    else:
                        base, hydroxides = rng.choice(STRONG_BASES)
                        parts.append((base, Fraction(rng.randint(5, 200)), Fraction(rng.randint(1, 200), 1000),
                                      -hydroxides))
                net = sum((v * c * s for _, v, c, s in parts), Fraction(0)) / 1000  # moles of H+ minus OH-
                volume = sum((v for _, v, _, _ in parts), Fraction(0)) / 1000
                return parts, net, volume

            def decided(d: tuple[list[tuple[str, Fraction, Fraction, int]], Fraction, Fraction]) -> bool:
                """The excess sets the pH, and counting every base as one hydroxide misses it by over 0.01."""
                parts, net, volume = d
                if abs(net / volume) < Fraction(1, 10**5):
                    return False
                slip = sum((v * c * (1 if s > 0 else -1) for _, v, c, s in parts), Fraction(0)) / 1000
                if slip == 0 or (slip > 0) != (net > 0):
                    return True
                return abs(_log10(abs(slip) / abs(net))) > decimal.Decimal("0.01")

            parts, net, volume = retry(draw, decided, attempts=100,
                                       what="a mixture whose excess sets the pH and whose dihydroxides count")
            excess = abs(net) / volume
            ph = -_log10(excess) if net > 0 else 14 + _log10(excess)
            text = ("a mixture of " + ", ".join(f"{format_decimal(v)} mL of {format_decimal(c)} mol/L {f}"
                                                for f, v, c, _ in parts)
                    + " (all strong and fully dissociated; volumes add)")
            steps = 2 * len(parts) + (net < 0)  # a base in excess needs the pOH step too
        reference = f"{ph:.30f}"
        prompt = (
            f"At 25 °C (Kw = 1.0e-14; ignore water's own ionisation where a strong acid or base is present), what "
            f"is the pH of {text}?\n\nAn answer within 0.01 of the exact pH is accepted. Answer with the pH, for "
            f"example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{ph:.2f}",
                       data={"ph": reference, "kind": kind, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 200:
            return Verdict.unparsed(f"expected one number, such as {EXAMPLE}")
        text = answer.strip()
        if text.lower().startswith("the ph is "):  # a naming sentence
            text = text[len("the ph is "):]
        elif text.lower().startswith("ph") and text[2:].lstrip(" :").startswith(tuple("0123456789.+-")):
            text = text[2:].lstrip(" :")  # the quantity's name before its value: "pH 6.92", "pH: 6.92"
        value = read_approx(text, sentence=True)
        if value is None:
            return Verdict.unparsed(f"expected one number, such as {EXAMPLE}")
        if abs(value - Fraction(problem.data["ph"])) <= TOLERANCE:
            return Verdict.right()
        return Verdict.wrong("not within 0.01 of the pH")

    def difficulty(self, problem: Problem) -> float:
        """Steps of the calculation."""
        return float(problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        exact = Fraction(problem.data["ph"])
        three = f"{float(exact):.3f}"
        return [*super().spellings(problem), f"pH = {problem.answer}", three, f"\\boxed{{{problem.answer}}}",
                f"Answer: {problem.answer}.", f"pH ≈ {problem.answer}", f"The pH is {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        exact = Fraction(problem.data["ph"])
        wrong = [exact + Fraction(3, 100), exact - Fraction(5, 100), 14 - exact, exact + 1]
        return [f"{float(w):.2f}" for w in wrong if abs(w - exact) > Fraction(2, 100)] + [
            f"{float(exact):.2f} or {float(exact + 1):.2f}"]
