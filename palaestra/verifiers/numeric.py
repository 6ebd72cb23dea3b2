r"""Reading numeric final answers exactly, with units and stated tolerances.

Only numerals are read, never expressions: an arithmetic task must not accept the
question's own expression typed back as the "answer" (``2+2`` is unreadable).

Spellings read as the same number (all exact, as rationals):

- integers and decimals, ``+``/``-``/``−`` signs, thousands separators (``1,234``,
  ``1 234``, ``1{,}234``, ``1\,234``);
- fractions ``7/2``, ``\frac{7}{2}``, ``\dfrac``, ``\tfrac``, ``\frac72``, ``½``;
  mixed numbers ``3½`` always, ``3 1/2`` and ``3\frac{1}{2}`` only when the caller
  says mixed numbers are allowed (``mixed=True``), since ``3\frac{1}{2}`` may mean a product;
- scientific notation ``1.5e3``, ``1.5 \times 10^{3}``, ``1.5·10^3``, ``1.5 x 10³`` (``10e0`` is 10);
- a repeating decimal ``0.\overline{3}`` (= 1/3);
- wrappers and lead-ins (``(10)``, ``\boxed{10}``, ``$10$``, ``Answer: 10``, ``x = 10``, ``φ = 178``), a
  closing full stop, and nothing else (the answer grammar of :mod:`palaestra.verifiers.normalize`);
- a naming sentence (``The charge is 5 µC``, ``The final velocity equals 12 m/s``, ``The pH is 3.87``) only when the
  caller asks one named quantity (``sentence=True``); a hedge, a negation or a second quantity in it is no sentence;
- a trailing unit only when the caller passes the accepted unit spellings
  (``units=unit_spellings("m/s")``: ``7 m/s`` and ``7`` read, ``7 seconds`` does not);
- ``≈ 7``, ``~7``, ``about 7``, ``3.14...`` only when the caller allows approximate
  answers (``approximate=True``; :func:`read_approx`, :func:`grade_number` with a tolerance).

Exactness policy: where the prompt asks for an exact value use :func:`read_exact` (or
:func:`grade_number` without a tolerance): a decimal is the rational it spells, so
``0.5`` equals 1/2 and ``0.333`` does not equal 1/3. Where the prompt allows rounding it
states the tolerance, and the env passes exactly that :class:`Tolerance` to
:func:`grade_number`. :func:`is_inexact_decimal` tells an env that wants exact surds
that ``1.4142135624`` or ``2.000000001`` is a rounded decimal.

Example::

    >>> read_exact("-7/2"), read_exact("1,234"), read_exact(r"\frac{3}{4}"), read_exact("2+2")
    (Fraction(-7, 2), Fraction(1234, 1), Fraction(3, 4), None)
    >>> read_exact(r"\boxed{1.5 \times 10^{3}}"), read_exact("(10). That is the total.") is None
    (Fraction(1500, 1), True)
    >>> read_exact("7 seconds", units=unit_spellings("m/s")), read_exact("7 m/s", units=unit_spellings("m/s"))
    (None, Fraction(7, 1))
    >>> grade_number("≈ 26.00", "26.004", tolerance=Tolerance.decimals(2)), read_exact("≈ 26")
    (True, None)
    >>> format_decimal(Fraction(-1, 4)), format_decimal(Fraction(535, 7))
    ('-0.25', '535/7')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from palaestra.verifiers.normalize import (
    NOT_IN_NAME,
    enclosed,
    read_answer,
    simplify_latex,
    strip_wrappers,
    unify,
    unit_endings,
    without_closing,
)

MAX_DIGITS = 1_000  # digits in one numeral; CPython refuses int() of more than 4,300 digits
MAX_EXPONENT = 1_000  # and never more than the digits allowed: 1e999 is a 1,000-digit number
MAX_NUMBER_CHARS = 80  # digits parse_number reads (its historical cap)

Units = Mapping[str, Fraction | int] | Iterable[str]  # unit spellings, or spellings -> factor to the asked unit

_VULGAR = {"½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
           "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8)}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")

_UINT = r"(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d{0,2}(?: \d{3})+|\d+)"  # a group of digits never starts with 0
_UDEC = rf"(?:{_UINT}(?:\.\d+)?|\.\d+)"
_SIMPLE = r"(?:[1-9]\d{0,2}(?:,\d{3})+|\d+)(?:\.\d+)?"  # no space grouping: "1 1/2" must not read as 11/2
_EXP = r"[+-]?\d{1,4}"
_TIMES = r"(?:×|x|\*|·|⋅)"
# No space after a sign ("- 5" may be a bullet), except before \frac ("- \frac{3}{4}" is LaTeX).
_PATTERNS = {
    "decimal": re.compile(rf"([+-]?)({_UDEC})(?:[eE]({_EXP}))?"),
    "scientific": re.compile(rf"([+-]?)({_UDEC}) ?{_TIMES} ?10 ?(?:\^|\*\*) ?(?:\{{ ?({_EXP}) ?\}}|({_EXP}))"),
    "fraction": re.compile(rf"([+-]?)({_SIMPLE}) ?/ ?([+-]?) ?({_SIMPLE})"),
    "latex_fraction": re.compile(rf"([+-]?) ?\\frac ?\{{ ?([+-]?) ?({_SIMPLE}) ?\}} ?\{{ ?([+-]?) ?({_SIMPLE}) ?\}}"),
    "vulgar": re.compile(rf"([+-]?)(\d+)? ?([{''.join(_VULGAR)}])"),
    "mixed": re.compile(r"([+-]?)(\d+) (\d+) ?/ ?(\d+)"),
    "latex_mixed": re.compile(r"([+-]?)(\d+) ?\\frac ?\{ ?(\d+) ?\} ?\{ ?(\d+) ?\}"),
    "repeating": re.compile(r"([+-]?)(\d*)\.(\d*) ?\\overline ?\{ ?(\d{1,60}) ?\}"),
}
_FRAC_SHORTHAND = re.compile(r"\\frac ?(\d) ?(\d)")
# a fraction with a bracketed side, as people write a signed or plain part: (23)/(144), (-3)/4, 5/(-8)
_BRACKETED_FRACTION = re.compile(
    rf"([+-]?)(?:\( ?([+-]?) ?({_SIMPLE}) ?\)|({_SIMPLE})) ?/ ?(?:\( ?([+-]?) ?({_SIMPLE}) ?\)|({_SIMPLE}))")
# one side braced and the other a single digit, as TeX allows: \frac1{117}, \frac{12}5
_FRAC_HALF_BRACED = re.compile(r"\\frac ?(?:(\d) ?\{(\d+)\}|\{(\d+)\} ?(\d))")
# x, φ, \theta, v_0, and a quantity named by one word (angle, Area): a grader reads "angle = 91.5" as 91.5
_BASE_NAME = r"(?:[A-Za-z]{1,3}|[A-Za-z][a-z]{3,11}|[\u0370-\u03ff]|\\[A-Za-z]{2,12})(?:_\{?[A-Za-z0-9]{1,8}\}?)?"
# ...also a change (Δt, \Delta t) and a primed quantity (f', v''); not a magnitude (|x| = 5 says x = ±5)
# ...a mean or an estimate (\bar{x}, x̄, p̂), a square (s^2, σ²), and a probability, an expectation or a variance of an
# event (P(B | D), Pr[red], E[X], Var(X): one bracket of up to 60 characters holding no bracket, "=" or line break).
# Not any function's value: "N(99) = 243" names another quantity than N(2), which the envs that ask it tell apart.
_ACCENTED = r"\\(?:bar|hat|overline|tilde|widehat|widetilde) ?(?:\{ ?(?:[A-Za-z]|\\[a-z]{2,8}) ?\}|[A-Za-z](?![A-Za-z]))"
_OF_EVENT = r"(?:P|Pr|Prob|E|𝔼|Var|Cov|SD) ?[(\[][^()\[\]=\n]{1,60}[)\]]"
_NAME = (rf"(?:{_OF_EVENT}|(?:\\Delta ?|Δ ?)?(?:{_BASE_NAME}|{_ACCENTED})[\u0302\u0303\u0304\u0305]?'{{0,2}}"
         r"(?: ?\^ ?(?:\d|\{ ?\d ?\})|[²³])?)")
_NAME_PREFIX = re.compile(rf"^{_NAME} ?(=|:|≈|≃|~) ?")  # "x: 5" and "mean: 3" name the value as "=" does
_NAMING = ("=", ":")
# A naming sentence, read where an env asks for one named quantity (sentence=True): "The charge is 5 µC", "The final
# velocity of the cart equals 12 m/s", "The equilibrium price: 40". A positive grammar: an article, then a short noun
# phrase (one to six words of letters, lower-case after the first), then "is", "equals", "is equal to", "=" or ":".
# A word with a digit or an inner capital (C5, H2O, NaCl, AB) names an object (a capacitor, a species, a member),
# which only the env can tell from another, so it is left to the env; only the symbols and acronyms of quantities
# listed at _QUANTITY_SYMBOL are words as they are spelled ("The pH is 3.87", "The NPV is 1206.40"). No word of the
# phrase may hedge, negate, join a second quantity or be a verb ("Maybe the charge is", "The wrong charge is", "The
# charge or the voltage is", "I think the charge might be" are no sentence), and what follows is read whole as any
# answer is, so "is not 5", "is 5 or 6" and "is 5. Actually the charge is 6" stay unreadable.
_QUANTITY_SYMBOL = ("pH|pOH|pKa|pKb|pKw|pKsp|EMF|NPV|IRR|MIRR|APR|APY|EAR|ROI|WACC|EOQ|GDP|CPI|PV|FV|EV|"
                    "SD|RMS|LCM|GCD|HCF")
_SENTENCE_WORD = (rf"(?:(?!(?i:{NOT_IN_NAME})(?![A-Za-z'’-]))[A-Za-z][a-z'’-]{{0,19}}|(?:{_QUANTITY_SYMBOL}))"
                  r"(?![A-Za-z0-9_])")
_SENTENCE = re.compile(  # case matters in the words only (not "the" or "is"): an inner capital makes no word
    rf"^(?i:the|an?|its)\s+(?:{_SENTENCE_WORD}\s+){{0,5}}{_SENTENCE_WORD}\s*"
    rf"(?:(?i:is(?:\s+equal\s+to)?|equals)\b|=|:)\s*")
_APPROX_PREFIX = re.compile(
    r"^(?:≈|≃|~=?|about\b|approximately\b|approx\b\.?|roughly\b|around\b|circa\b|ca\.|nearly\b|almost\b) ?",
    re.IGNORECASE,
)
# "3.14...", and a marker after the value: "3.1416 (approx.)", "3.1416, approximately" (a careful grader reads
# them as "≈ 3.1416")
_APPROX_SUFFIX = re.compile(r"(?<=\d)(?: ?\.\.\.| ?…)$|,? \(?(?:approx\.?|approximately|roughly)\)?$",
                            re.IGNORECASE)
_UNIT_START = re.compile(r"(?<=[\d )}$])[A-Za-z°%µμΩ\\$^]")
# One-character unit signs written as their letters: ℃ is °C, the kelvin and ohm signs K and Ω.
_UNIT_SIGNS = str.maketrans({"\u2103": "°C", "\u2109": "°F", "\u212a": "K", "\u2126": "Ω"})
_TILDE_SPACE = re.compile(r"(?<=[\d}])~(?=[A-Za-zµμΩ°\\])")  # TeX's tie: 172~\mu F
# A rounding note after the value: "0.0212 g (to 3 s.f.)", "(3 sig figs)", "(2 d.p.)"
_ROUNDING_NOTE = re.compile(
    r" ?\((?:to |correct to |rounded to )?\d{1,2} ?(?:s\.? ?f\.?|d\.? ?p\.?|sig\.? ?figs?\.?|significant (?:figures|digits)"
    r"|decimal places)\)\.?$", re.IGNORECASE)
_DEGREE = re.compile(r"\^ ?\{ ?(?:°|\\circ) ?\}|\^ ?(?:°|\\circ)|\\degree|\\circ")  # ^{\circ}, ^°, \degree: °
_SPACES = re.compile(r"\s+")
_WORDS_ONLY = re.compile(r"[A-Za-z][A-Za-z ]+")


def _clean(text: str) -> str:
    # "$" goes (math mode or currency), and with it LaTeX's escaped "\$" (currency: "-\$8.40" left "-\8.40")
    s = simplify_latex(_TILDE_SPACE.sub(" ", unify(text).translate(_UNIT_SIGNS))).replace("\\$", "$")
    s = s.translate({ord("$"): None})
    return _ROUNDING_NOTE.sub("", _SPACES.sub(" ", s).strip())


def _strip_parentheses(s: str) -> str:
    for _ in range(4):
        if not enclosed(s, "("):
            break
        s = s[1:-1].strip()
    return s


def _signed(sign: str, value: Fraction) -> Fraction:
    return -value if sign == "-" else value


def _signed_numeral(text: str, mixed: bool, max_digits: int) -> Fraction | None:
    """:func:`_numeral`, also of a sign set right before a bracketed numeral: ``-(5/57)`` is -5/57 (``- (5/57)``, a
    sign then a space, stays unread, like ``- 5``: it may be a bullet)."""
    if text[:2] in ("-(", "+(") and enclosed(text[1:], "("):
        value = _numeral(_strip_parentheses(text[1:]), mixed, max_digits)
        return None if value is None else _signed(text[0], value)
    return _numeral(text, mixed, max_digits)


def _numeral(text: str, mixed: bool, max_digits: int) -> Fraction | None:
    """The exact value of a numeral without wrappers or units, or ``None``."""
    if sum(map(str.isdigit, text)) > max_digits:
        return None
    s = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group().translate(_SUPERSCRIPTS) + "}", text)
    s = _FRAC_HALF_BRACED.sub(lambda m: f"\\frac{{{m.group(1) or m.group(3)}}}{{{m.group(2) or m.group(4)}}}", s)
    s = _FRAC_SHORTHAND.sub(r"\\frac{\1}{\2}", s)
    match = _PATTERNS["decimal"].fullmatch(s)
    if match:
        sign, digits, exponent = match.groups()
        value = Fraction(digits.replace(",", "").replace(" ", ""))
        if exponent is not None:
            if abs(int(exponent)) > min(MAX_EXPONENT, max_digits):  # 1e999 has a thousand digits written out
                return None
            value *= Fraction(10) ** int(exponent)
        return _signed(sign, value)
    match = _PATTERNS["scientific"].fullmatch(s)
    if match:
        sign, digits, braced, bare = match.groups()
        exponent = int(braced if braced is not None else bare)
        if abs(exponent) > min(MAX_EXPONENT, max_digits):
            return None
        return _signed(sign, Fraction(digits.replace(",", "").replace(" ", "")) * Fraction(10) ** exponent)
    bracketed = _BRACKETED_FRACTION.fullmatch(s) if "(" in s else None
    if bracketed and (bracketed.group(3) or bracketed.group(6)):
        sign, num_sign, inner_num, num, den_sign, inner_den, den = bracketed.groups()
        s = f"{sign}{num_sign or ''}{inner_num or num}/{den_sign or ''}{inner_den or den}"
        if sign and num_sign:  # -(-3)/4: two signs before the numerator
            s = f"{'-' if (sign == '-') != (num_sign == '-') else ''}{inner_num}/{den_sign or ''}{inner_den or den}"
    match = _PATTERNS["fraction"].fullmatch(s) or _PATTERNS["latex_fraction"].fullmatch(s)
    if match:
        sign, num_sign, num, den_sign, den = match.groups() if len(match.groups()) == 5 else (
            match.group(1), "", match.group(2), match.group(3), match.group(4))
        numerator, denominator = Fraction(num.replace(",", "")), Fraction(den.replace(",", ""))
        if denominator == 0:
            return None
        return _signed(sign, _signed(num_sign, numerator) / _signed(den_sign, denominator))
    match = _PATTERNS["vulgar"].fullmatch(s)
    if match:
        sign, whole, char = match.groups()
        return _signed(sign, int(whole or 0) + Fraction(*_VULGAR[char]))
    match = _PATTERNS["repeating"].fullmatch(s)
    if match:
        sign, whole, fixed, cycle = match.groups()
        base = Fraction(int(whole or 0)) + (Fraction(int(fixed), 10 ** len(fixed)) if fixed else 0)
        return _signed(sign, base + Fraction(int(cycle), (10 ** len(cycle) - 1) * 10 ** len(fixed)))
    if mixed:
        match = _PATTERNS["mixed"].fullmatch(s) or _PATTERNS["latex_mixed"].fullmatch(s)
        if match:
            sign, whole, num, den = match.groups()
            if 0 < int(num) < int(den):
                return _signed(sign, int(whole) + Fraction(int(num), int(den)))
    return None


@lru_cache(maxsize=4096)
def normalize_unit(unit: str) -> str:
    r"""A unit spelling in one canonical form, to compare spellings.

    ``\mathrm{}``/``\text{}``, ``$``, superscripts, ``^{..}``, ``**`` and the product signs
    ``· ⋅ * \cdot`` are unified, and spaces around ``/`` and ``^`` dropped.

    >>> normalize_unit(r"\mathrm{m\,s^{-1}}"), normalize_unit("m·s⁻¹"), normalize_unit("m / s²")
    ('m s^-1', 'm s^-1', 'm/s^2')
    >>> normalize_unit("\u03bcF") == normalize_unit("\u00b5F"), normalize_unit(r"^{\circ} C")
    (True, '°C')
    """
    s = _clean(unit).replace("**", "^")
    s = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPTS), s)
    s = re.sub(r"\^ ?\{ ?([^{}]*?) ?\}", r"^\1", s)
    s = re.sub(r" ?[·⋅*] ?", " ", s)
    s = re.sub(r" ?([/^]) ?", r"\1", s)
    s = s.replace("\u03bc", "\u00b5")  # the Greek letter mu and the micro sign are one prefix to a reader
    s = re.sub(r"° (?=[A-Za-z])", "°", _DEGREE.sub("°", s))  # LaTeX degrees: -1.75^\circ C is -1.75 °C
    return s.strip().rstrip(".")


_UNIT_TABLE: dict[str, tuple[str, ...]] = {
    "m": ("m", "meter", "meters", "metre", "metres"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "s": ("s", "sec", "secs", "second", "seconds"),
    "m/s": ("m/s", "m s^-1", "m/sec", "meters per second", "metres per second", "meter per second",
            "metre per second"),
    "m/s^2": ("m/s^2", "m s^-2", "m/sec^2", "meters per second squared", "metres per second squared",
              "meters per second per second", "metres per second per second"),
    "km/h": ("km/h", "km h^-1", "kph", "km/hr", "kilometers per hour", "kilometres per hour"),
    "kg": ("kg", "kilogram", "kilograms"),
    "N": ("N", "newton", "newtons"),
    "kN": ("kN", "kilonewton", "kilonewtons"),
    "kN*m": ("kN m", "kNm", "kN-m", "kilonewton meters", "kilonewton metres"),
    "J": ("J", "joule", "joules"),
    "W": ("W", "watt", "watts"),
    "%": ("%", "percent", "per cent"),
    "deg": ("°", "deg", "degree", "degrees"),
}


def unit_spellings(unit: str) -> tuple[str, ...]:
    """The spellings a careful grader accepts for a common unit (``m``, ``s``, ``m/s``, ``m/s^2``,
    ``km/h``, ``kg``, ``N``, ``kN``, ``kN*m``, ``J``, ``W``, ``%``, ``deg``); ``(unit,)`` for others.

    >>> unit_spellings("s")
    ('s', 'sec', 'secs', 'second', 'seconds')
    """
    return _UNIT_TABLE.get(unit, (unit,))


def _unit_factors(units: Units) -> dict[str, Fraction]:
    pairs = tuple(units.items()) if isinstance(units, Mapping) else tuple((u, 1) for u in units)
    return _cached_unit_factors(pairs)


@lru_cache(maxsize=256)
def _cached_unit_factors(pairs: tuple[tuple[str, Fraction | int], ...]) -> dict[str, Fraction]:
    """Normalised spellings -> factors; cached because envs pass the same few unit tables every call."""
    return {normalize_unit(spelling): Fraction(factor) for spelling, factor in pairs}


def _unit_factor(unit: str, factors: dict[str, Fraction]) -> Fraction | None:
    normal = normalize_unit(unit)
    if normal in factors:
        return factors[normal]
    if _WORDS_ONLY.fullmatch(normal):  # "Seconds", "Metres per second", "KN"; never "m" vs "M"
        matches = {f for u, f in factors.items() if _WORDS_ONLY.fullmatch(u) and u.lower() == normal.lower()}
        if len(matches) == 1:
            return matches.pop()
    return None


def _read_core(
    text: str,
    units: dict[str, Fraction] | None,
    unit_required: bool,
    approximate: bool,
    mixed: bool,
    max_digits: int,
    sentence: bool = False,
) -> Fraction | None:
    s = _clean(text)
    subject = _SENTENCE.match(s[:200]) if sentence else None
    if subject:
        s = s[subject.end() :]
    marked = False
    name = _NAME_PREFIX.match(s)
    if name:
        marked = name.group(1) not in _NAMING
        s = s[name.end() :]
    approx = _APPROX_PREFIX.match(s)
    if approx:
        marked, s = True, s[approx.end() :]
    s = strip_wrappers(s)
    suffix = _APPROX_SUFFIX.search(s)
    if suffix:
        marked, s = True, s[: suffix.start()]
    if marked and not approximate:
        return None
    pair = split_exact_and_decimal(s)
    if pair is not None:  # the exact value, then its decimal: the exact one is the answer
        exact_text, decimal_text = pair
        exact = _read_core(exact_text, units, False, False, mixed, max_digits)
        decimal = _read_core(decimal_text, units, unit_required, True, mixed, max_digits)
        if exact is None or decimal is None or not decimal_agrees(exact, decimal, decimal_text):
            return None
        return exact
    s = _strip_parentheses(s)
    if units is None:
        return _signed_numeral(s, mixed, max_digits)
    value = None if unit_required else _signed_numeral(s, mixed, max_digits)
    if value is not None:
        return value
    for start in [m.start() for m in _UNIT_START.finditer(s)][:8]:
        factor = _unit_factor(s[start:], units)
        if factor is not None:
            value = _signed_numeral(_strip_parentheses(s[:start].strip()), mixed, max_digits)
            return None if value is None else value * factor
    return None


_LEADING_DECIMAL = re.compile(r"[+-]? ?(\d+(?:\.(\d+))?)(?![\d.])(?! ?/)")  # not the numerator of a fraction


def split_exact_and_decimal(text: str) -> tuple[str, str] | None:
    """``(exact, decimal)`` texts around the one ``≈`` (or ``\\approx``) of ``text``, or of a decimal after it in
    brackets or after one ``=``; else ``None``.

    >>> split_exact_and_decimal("3/7 ≈ 0.43"), split_exact_and_decimal("1 ≈ 1.0 ≈ 1.00")
    (('3/7', '0.43'), None)
    >>> split_exact_and_decimal("5/16 (≈ 0.3125)"), split_exact_and_decimal("5/16 = 0.3125")
    (('5/16', '0.3125'), ('5/16', '0.3125'))
    """
    text = text.replace("\\approx", "≈")
    if len(text) <= 400 and (aside := _DECIMAL_ASIDE.fullmatch(text)) is not None and _DIGIT.search(aside.group(1)):
        return aside.group(1).strip(), aside.group(2).strip()
    if text.count("≈") == 1:
        exact, decimal = text.split("≈")
        return exact.strip(), decimal.strip()
    if text.count("=") == 1 and (equal := _EQUAL_DECIMAL.fullmatch(text[:400])) is not None and _DIGIT.search(
            equal.group(1)):  # "x = 4.5" names the value: it is not an exact value restated
        return equal.group(1).strip(), equal.group(2).strip()
    return None


def strip_sentence(text: str) -> str:
    """What follows the subject and verb of a naming sentence (the grammar at ``_SENTENCE``), lead-ins and wrappers
    read past first, else ``text`` unchanged: for an env that reads its one named quantity with another reader.

    >>> strip_sentence("So the final velocity is 12/5 m/s."), strip_sentence("Maybe the velocity is 3")
    ('12/5 m/s.', 'Maybe the velocity is 3')
    """
    if not isinstance(text, str) or len(text) > 2_000:
        return text
    stripped = strip_wrappers(text)
    subject = _SENTENCE.match(stripped[:200])
    return stripped[subject.end() :] if subject else text


def strip_name(text: str) -> str:
    """``text`` after a leading name of the quantity and ``=`` (``x =``, ``P(B | D) =``, ``s^2 =``, ``\\bar{x} =``),
    else ``text`` unchanged.

    >>> strip_name("P(B | D) = 5/16"), strip_name("s^2 = 4.5"), strip_name("|x| = 5")
    ('5/16', '4.5', '|x| = 5')
    """
    match = _NAME_PREFIX.match(text) if isinstance(text, str) and len(text) <= 2_000 else None
    return text[match.end():] if match is not None and match.group(1) in _NAMING else text


# The decimal restated beside the exact value, as a careful grader reads it: "5/16 (≈ 0.3125)", "5/16 (about 0.31)",
# "5/16 (0.3125)", "5/16 = 0.3125" (one "=", then a numeral with a point and at most a unit). The decimal must still
# agree with the exact value (decimal_agrees), or the answer holds two values.
_DECIMAL_ASIDE = re.compile(
    r"([^≈=]{1,200}?) ?\( ?(?:≈|~|about |approximately |approx\.? |roughly |or )? ?([+-]?\d*\.\d+[^()≈=]{0,20})\)")
_DIGIT = re.compile(r"\d")
_EQUAL_DECIMAL = re.compile(r"([^=≈]{1,200}?) ?= ?([+-]?\d*\.\d+(?:[ %A-Za-zµμ°/^\d]{0,20})?)")


def decimal_agrees(exact: Fraction, decimal: Fraction, decimal_text: str) -> bool:
    """Whether ``decimal`` (read from ``decimal_text``, in the asked unit) is ``exact`` rounded or truncated to the
    last place written in ``decimal_text`` (a unit written after it scales the place): ``580013/340 ≈ 1706 Hz``,
    ``1/3 ≈ 0.33`` and ``2/3 ≈ 0.66`` agree, ``3/7 ≈ 0.5`` does not, nor does a fraction in the decimal's place.
    A careful grader accepts an exact answer followed by a true decimal; a false one makes it a second answer.

    >>> decimal_agrees(Fraction(1, 3), Fraction(33, 100), "0.33"), decimal_agrees(Fraction(3, 7), Fraction(1, 2), "0.5")
    (True, False)
    """
    numeral = _LEADING_DECIMAL.match(decimal_text[:200])
    if numeral is None:
        return False
    written = Fraction(numeral.group(1))
    unit = (abs(decimal / written) if written else Fraction(1)) / 10 ** len(numeral.group(2) or "")
    error = abs(decimal - exact)
    truncated = abs(decimal) <= abs(exact) and (decimal >= 0) == (exact >= 0) and error < unit
    return error <= unit / 2 or truncated


# A bare integer or decimal: read directly, skipping the wrapper and grammar machinery.
_DIGITS_ACROSS_LINES = re.compile(r"\d[ \t]*\n\s*\d")
_PLAIN_NUMERAL = re.compile(r"\s*([+-]?\d+(?:\.\d+)?)\s*")
_PLAIN_INTEGER = re.compile(r"\s*([+-]?[0-9]+)\s*")


def read_number(
    text: str,
    *,
    units: Units | None = None,
    unit_required: bool = False,
    approximate: bool = False,
    mixed: bool = False,
    max_digits: int = MAX_DIGITS,
    sentence: bool = False,
) -> Fraction | None:
    """The number written in ``text``, exactly, or ``None`` (see the module docstring for spellings).

    ``units``: accepted unit spellings after the number (a mapping gives each a factor to
    the asked unit, e.g. ``{"m/s": 1, "km/h": Fraction(5, 18)}``); without it, any unit
    makes the answer unreadable. ``unit_required``: a bare number is not enough.
    ``approximate``: ``≈``/``~``/``about``/``...`` markers are allowed (the value read is
    still the one written). ``mixed``: ``3 1/2`` reads as 7/2. ``sentence``: a naming sentence
    (``The charge is 5 µC``, ``The final velocity equals 12 m/s``) is read, for an env that asks one named quantity
    (its grammar is at ``_SENTENCE``). Never raises; returns ``None`` past ``max_digits`` digits (at most 4,000).

    >>> read_number("x = 10e0"), read_number("1.5·10^3"), read_number("−3½"), read_number("3 1/2", mixed=True)
    (Fraction(10, 1), Fraction(1500, 1), Fraction(-7, 2), Fraction(7, 2))
    >>> read_number("25.2 km/h", units={"m/s": 1, "km/h": Fraction(5, 18)}), read_number("~7", approximate=True)
    (Fraction(7, 1), Fraction(7, 1))
    """
    max_digits = min(max_digits, 4_000)
    if not isinstance(text, str) or len(text) > 2 * max_digits + 400:
        return None
    if _DIGITS_ACROSS_LINES.search(text):  # "481\n482" is two answers, never a thousands separator
        return None
    plain = _PLAIN_NUMERAL.fullmatch(text)
    if plain and not unit_required and len(text) <= max_digits:  # the common case, on the trainer's hot path
        return Fraction(plain.group(1))
    factors = None if units is None else _unit_factors(units)

    def core(s: str) -> Fraction | None:
        return _read_core(s, factors, unit_required, approximate, mixed, max_digits, sentence)

    value = read_answer(text, core)
    if value is not None or units is None:
        return value
    # A unit after the number's markup ("**6** s", "\\boxed{21} paths"): the number unwrapped, its unit kept, so
    # the unit's factor (and unit_required) still apply; a hedge inside the markup stays unreadable.
    spellings = list(units.keys() if isinstance(units, Mapping) else units)
    bare = without_closing(strip_wrappers(text))
    for answer, unit in unit_endings(strip_sentence(bare) if sentence else bare, spellings):
        value = core(f"{answer} {unit}")
        if value is not None:
            return value
    return None


def read_exact(
    text: str,
    *,
    units: Units | None = None,
    unit_required: bool = False,
    mixed: bool = False,
    max_digits: int = MAX_DIGITS,
    sentence: bool = False,
) -> Fraction | None:
    """:func:`read_number` refusing approximation markers: the exact rational written, or ``None``.

    >>> read_exact("0.5") == Fraction(1, 2), read_exact("0.333") == Fraction(1, 3), read_exact("≈ 0.5")
    (True, False, None)
    """
    return read_number(text, units=units, unit_required=unit_required, approximate=False, mixed=mixed,
                       max_digits=max_digits, sentence=sentence)


def read_approx(
    text: str,
    *,
    units: Units | None = None,
    unit_required: bool = False,
    mixed: bool = False,
    max_digits: int = MAX_DIGITS,
    sentence: bool = False,
) -> Fraction | None:
    """:func:`read_number` allowing approximation markers (``≈ 7``, ``about 7``, ``3.14...``).

    Compare the value with :meth:`Tolerance.accepts` (or use :func:`grade_number`).

    >>> read_approx(r"v \\approx 7.0 m/s", units=unit_spellings("m/s"))
    Fraction(7, 1)
    """
    return read_number(text, units=units, unit_required=unit_required, approximate=True, mixed=mixed,
                       max_digits=max_digits, sentence=sentence)


def read_integer(
    text: str,
    *,
    units: Units | None = None,
    unit_required: bool = False,
    max_digits: int = MAX_DIGITS,
) -> int | None:
    """An integer answer: :func:`read_exact` whose value is whole (``481.0``, ``4.81e2`` read as 481).

    >>> read_integer("481.0"), read_integer("1,000"), read_integer("2.5")
    (481, 1000, None)
    """
    if units is None and not unit_required and isinstance(text, str) and len(text) <= min(max_digits, 4_000):
        if text.isdigit() and text.isascii():  # digits only (a game's guess): no pattern to run
            return int(text)
        plain = _PLAIN_INTEGER.fullmatch(text)
        if plain:  # a game move or a bare integer: the common case, read without building a Fraction
            return int(plain.group(1))
    value = read_exact(text, units=units, unit_required=unit_required, max_digits=max_digits)
    return int(value) if value is not None and value.denominator == 1 else None


def _as_fraction(value: Fraction | int | float | str) -> Fraction:
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


@dataclass(frozen=True)
class Tolerance:
    """How far from the exact value an answer may be: ``|answer - exact| <= max(absolute, relative * |exact|)``.

    Built from decimal strings or ints (floats are read through their shortest decimal,
    so ``0.01`` means one hundredth). State it in the prompt with :meth:`describe`.

    >>> Tolerance.decimals(2).accepts(Fraction("26.00"), Fraction("26.004")), Tolerance.decimals(2).describe()
    (True, 'rounded to 2 decimal places')
    >>> Tolerance(relative="0.001").accepts(Fraction(1001), 1000), Tolerance(absolute="0.01").describe()
    (True, 'within 0.01 of the exact value')
    """

    absolute: Fraction | int | float | str = 0
    relative: Fraction | int | float | str = 0
    places: int | None = None  # set by decimals(): the prompt asks for rounding to this many places

    def __post_init__(self) -> None:
        object.__setattr__(self, "absolute", _as_fraction(self.absolute))
        object.__setattr__(self, "relative", _as_fraction(self.relative))
        if self.absolute < 0 or self.relative < 0:
            raise ValueError("tolerances must be >= 0")

    @classmethod
    def decimals(cls, places: int) -> Tolerance:
        """Rounding to ``places`` decimal places: within half a unit of the last place."""
        return cls(absolute=Fraction(1, 2 * 10**places), places=places)

    def accepts(self, value: Fraction | int, exact: Fraction | int | float | str) -> bool:
        expected = _as_fraction(exact)
        bound = max(Fraction(self.absolute), Fraction(self.relative) * abs(expected))
        return abs(Fraction(value) - expected) <= bound

    def describe(self) -> str:
        """The tolerance in words, for the prompt."""
        if self.places is not None:
            return f"rounded to {self.places} decimal place{'s' if self.places != 1 else ''}"
        parts = []
        if self.absolute:
            parts.append(f"within {format_decimal(Fraction(self.absolute))} of the exact value")
        if self.relative:
            parts.append(f"within {format_decimal(Fraction(self.relative) * 100)}% of the exact value")
        return " or ".join(parts) if parts else "exactly"


def grade_number(
    text: str,
    expected: Fraction | int | str,
    *,
    tolerance: Tolerance | None = None,
    approximate: bool | None = None,
    units: Units | None = None,
    unit_required: bool = False,
    mixed: bool = False,
    max_digits: int = MAX_DIGITS,
    sentence: bool = False,
) -> bool | None:
    """Whether ``text`` is the number ``expected``: ``None`` when unreadable, else ``True``/``False``.

    Without a tolerance the answer must be exact (:func:`read_exact`); with one, the value
    must be within it, and an approximation marker (``≈ 7``) is allowed unless
    ``approximate=False``. The other options are :func:`read_number`'s.

    >>> grade_number("0.333", Fraction(1, 3)), grade_number("1/3", Fraction(1, 3)), grade_number("a third", 1)
    (False, True, None)
    >>> grade_number("7 seconds", 7, units=unit_spellings("m/s"), tolerance=Tolerance(relative="0.01"))
    """
    approximate = tolerance is not None if approximate is None else approximate and tolerance is not None
    value = read_number(text, units=units, unit_required=unit_required, approximate=approximate, mixed=mixed,
                        max_digits=max_digits, sentence=sentence)
    if value is None:
        return None
    return value == _as_fraction(expected) if tolerance is None else tolerance.accepts(value, expected)


_PLAIN_DECIMAL = re.compile(r"([+-]?)(\d*)\.(\d+)(?:[eE]([+-]?\d{1,4}))?")
_DECIMAL_LITERAL = re.compile(r"\.(\d+)")  # digits before the point do not matter (and would make it quadratic)


def read_plain_decimal(text: str) -> tuple[Fraction, int] | None:
    """``(value, digits after the point)`` when ``text`` is one decimal numeral with a point, else ``None``.

    >>> read_plain_decimal("x = 1.4142135624"), read_plain_decimal("3/2"), read_plain_decimal("2")
    ((Fraction(1767766953, 1250000000), 10), None, None)
    """
    if not isinstance(text, str) or len(text) > 400:
        return None

    def plain(s: str) -> tuple[Fraction, int] | None:
        s = _clean(s)
        name = _NAME_PREFIX.match(s)
        if name and name.group(1) in _NAMING:
            s = s[name.end() :]
        match = _PLAIN_DECIMAL.fullmatch(_strip_parentheses(strip_wrappers(s)).replace(" ", ""))
        if not match:
            return None
        value = read_exact(match.group())
        return None if value is None else (value, len(match.group(3)))

    return read_answer(text, plain)


def is_inexact_decimal(text: str, exact_values: Iterable[Fraction | int] = ()) -> bool:
    """Whether ``text`` is a decimal with a point that equals none of the exact rational ``exact_values``.

    For an env that demands exact values: ``2.000000001`` is not 2, and no decimal is
    ``√2`` (pass no rational values when the exact answer is irrational).

    >>> is_inexact_decimal("2.000000001", [2]), is_inexact_decimal("2.0", [2]), is_inexact_decimal("1.4142135624")
    (True, False, True)
    >>> is_inexact_decimal(r"\\sqrt{2}"), is_inexact_decimal("0.125", [Fraction(1, 8)])
    (False, False)
    """
    read = read_plain_decimal(text)
    return read is not None and all(read[0] != Fraction(v) for v in exact_values)


def max_fraction_digits(text: str) -> int:
    """The most digits after a decimal point in any decimal literal of ``text`` (0 if none).

    For expressions: ``(1 + 2.2360679775)/2`` has a 10-digit decimal, so it is a rounded
    value, not the exact golden ratio. Linear time.

    >>> max_fraction_digits("(1 + 2.2360679775)/2"), max_fraction_digits("x = 3. Done")
    (10, 0)
    """
    if not isinstance(text, str):
        return 0
    return max((len(m.group(1)) for m in _DECIMAL_LITERAL.finditer(text)), default=0)


def parse_number(text: str) -> Fraction | None:
    """An exact number from a numeral of at most :data:`MAX_NUMBER_CHARS` digits, or ``None``.

    :func:`read_exact` with no units. Kept for existing callers; new code should call
    :func:`read_exact` or :func:`grade_number`.
    """
    return read_exact(text, max_digits=MAX_NUMBER_CHARS)


def format_number(value: Fraction) -> str:
    """Canonical text for an exact number: ``12``, ``-7/2``."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def format_decimal(value: Fraction) -> str:
    """An exact terminating decimal (``12.5``, ``-0.25``) where one exists, else a fraction (``535/7``)."""
    for places in range(12):
        scaled = value * 10**places
        if scaled.denominator == 1:
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            whole, fraction = digits[: len(digits) - places], digits[len(digits) - places :]
            return ("-" if value < 0 else "") + whole + (f".{fraction}" if fraction else "")
    return format_number(value)
