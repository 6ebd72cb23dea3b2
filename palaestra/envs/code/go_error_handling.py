"""Write a Go function returning ``(int, error)`` with sentinel errors, wrapped errors and a stated check order.

The task: parse one setting line ``key=value`` against a stated table of keys and their allowed ranges. The
function returns the value and ``nil``, or ``0`` and an error: four package-level sentinel errors (names drawn
per problem) for a malformed line, an unknown key, a value that is not an integer and a value out of range.
The unknown-key and out-of-range errors must *wrap* their sentinel (``errors.Is`` finds it) and mention the key
(``fmt.Errorf("...%w...", ...)``, the idiom of Go error handling). Parameters vary the names, the table, whether
spaces around key and value are trimmed or make the line malformed, and which of the unknown-key and
not-a-number checks comes first (a line can fail both).

How it is judged: the answer is Go code (package main, without ``main``) defining the function and the four
sentinels; our driver (``main.go``, compiled with it by Go 1.19) calls the function on every hidden line and
prints ``ok VALUE`` or ``error NAME`` (the first sentinel that ``errors.Is`` matches, ``other`` when none), plus
`` +key`` when the error's message contains the key and ``value=N`` when a failing call returns a non-zero
value; a panic prints ``panic``. The trusted parent compares each line with what the Python reference of the
specification gives. The hidden lines cover every error, every check order conflict and the space rule, so
swapping two checks, returning a bare sentinel or ignoring the space rule fails some test.

Version 2: the hidden lines also tell the specification from its plausible slips (SLIPS): each bound and one
past it, a "+N" value, a line without "=", one with an empty key, one with a second "=", a known key in
capitals. In version 1 an exclusive range passed 0.94-0.98 of the problems (level 0 to 4), keys matched
ignoring case 0.76-0.97, no check for a missing "=" 0.68-0.83, for an empty key 0.52-0.78, for a second "="
0.44-0.64, a sign check without "+" 0.33-0.52; now none passes.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask
from palaestra.envs.code._polyglot import convention
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("go_error_handling")
SENTINELS = {"syntax": ("ErrSyntax", "ErrMalformed", "ErrBadLine"),
             "unknown": ("ErrUnknownKey", "ErrNoSuchKey", "ErrUnknownSetting"),
             "number": ("ErrNotNumber", "ErrNotInteger", "ErrBadNumber"),
             "outside": ("ErrOutOfRange", "ErrRange", "ErrBounds")}
FUNCTIONS = ("ParseSetting", "ReadSetting", "ParseLine", "ParseOption")
KEYS = ("port", "retries", "timeout", "workers", "depth", "level", "width", "height", "delay", "limit", "volume",
        "speed", "offset", "margin", "quota", "ttl")
OTHER_KEYS = ("colour", "mode", "name", "path", "user", "size2", "Port", "TIMEOUT")
NOT_NUMBERS = ("", "x", "12a", "1.5", "--3", "+", "0x1f", "7 7", "1e3", "-", "ten", "3_000")
INTEGER = re.compile(r"[+-]?[0-9]+")  # what strconv.Atoi accepts (our hidden values are short)


# Plausible wrong programs the hidden lines must tell from the specification (each was right on most hidden
# lines in version 1): an exclusive bound of the range, a sign check without "+", no check for a missing "=",
# for an empty key, or for a second "=", and keys matched ignoring case.
SLIPS = ("exclusive low", "exclusive high", "no plus sign", "no = check", "empty key ok", "second = ok",
         "keys ignore case")
UNSIGNED_OR_MINUS = re.compile(r"-?[0-9]+")


def parse(line: str, p: dict[str, Any], slip: str | None = None) -> tuple[str, str]:
    """The trusted reference: ``(outcome, key)`` where outcome is ``ok N`` or a sentinel's kind, and key is the
    key the error message must mention ("" when none must). ``slip``: one of SLIPS, a near miss instead."""
    if not p["trim"] and " " in line:
        return "syntax", ""
    key, found, value = line.partition("=")
    if p["trim"]:
        key, value = key.strip(" "), value.strip(" ")
    if (not found and slip != "no = check") or (not key and slip != "empty key ok") or (
            "=" in value and slip != "second = ok"):
        return "syntax", ""
    integer = UNSIGNED_OR_MINUS if slip == "no plus sign" else INTEGER
    if slip == "keys ignore case" and key.lower() in p["limits"]:
        key = key.lower()
    checks = ("unknown", "number") if p["unknown_first"] else ("number", "unknown")
    for check in checks:
        if check == "unknown" and key not in p["limits"]:
            return "unknown", key
        if check == "number" and not integer.fullmatch(value):
            return "number", ""
    lo, hi = p["limits"][key]
    low_ok = lo < int(value) if slip == "exclusive low" else lo <= int(value)
    high_ok = int(value) < hi if slip == "exclusive high" else int(value) <= hi
    return ("ok", str(int(value))) if low_ok and high_ok else ("outside", key)


def line_text(outcome: tuple[str, str], p: dict[str, Any]) -> str:
    kind, detail = outcome
    if kind == "ok":
        return f"ok {detail}"
    return f"error {p['names'][kind]}" + (" +key" if detail else "")


@register
class GoErrorHandling(DrivenTask):
    id = "code/go_error_handling"
    description = "Write a Go function returning (value, error) with sentinel and wrapped errors in a stated order."
    tags = ("code", "programming", "go", "error-handling")
    languages = ("go",)
    toolchains = languages
    version = 2
    cpu_seconds = 2.0

    @dataclass(frozen=True)
    class Config:
        keys: int
        tests: int

    presets = (Config(keys=2, tests=10), Config(keys=3, tests=12), Config(keys=4, tests=15),
               Config(keys=5, tests=18), Config(keys=6, tests=22))
    growth = Growth(limits={"keys": len(KEYS)})

    def _line(self, rng: random.Random, p: dict[str, Any], want: str) -> str:
        """A hidden line meant to give outcome ``want`` (the reference decides what it gives)."""
        known = list(p["limits"])
        key = rng.choice(known)
        lo, hi = p["limits"][key]
        pad = (lambda s: " " * rng.randint(0, 2) + s + " " * rng.randint(0, 2)) if rng.random() < 0.4 else str
        if want == "ok":
            value = rng.randint(lo, hi)
            text = rng.choice((str(value), f"+{value}" if value >= 0 else str(value), f"0{value}" if value > 0
                               else str(value)))
            return f"{pad(key)}={pad(text)}"
        if want == "outside":
            return f"{key}={rng.choice((lo - rng.randint(1, 5), hi + rng.randint(1, 50)))}"
        if want == "low":  # a bound itself, or one past it: "<" for "<=" gets one of them wrong
            return f"{key}={rng.choice((lo, lo - 1))}"
        if want == "high":
            return f"{key}={rng.choice((hi, hi + 1))}"
        if want == "case":  # a known key spelt with capitals: unknown, as keys are case-sensitive
            return f"{rng.choice((key.capitalize(), key.upper()))}={rng.randint(lo, hi)}"
        if want == "plus":
            return f"{key}=+{rng.randint(max(lo, 0), hi)}"
        if want == "number":
            return f"{key}={rng.choice(NOT_NUMBERS)}"
        if want == "unknown":
            return f"{rng.choice(OTHER_KEYS)}={rng.randint(lo, hi)}"
        if want == "conflict":  # unknown key and not a number: the check order decides
            return f"{rng.choice(OTHER_KEYS)}={rng.choice(NOT_NUMBERS[1:])}"
        if want == "spaced":  # fine when trimmed, malformed when strict
            return f"{key} = {rng.randint(lo, hi)}"
        # Malformed: no "=", an empty key, a second "=" (each needs its own check), or the empty line.
        if want == "no equals":
            return f"{key}{rng.randint(lo, hi)}"
        if want == "empty key":
            return f"={rng.randint(lo, hi)}"
        if want == "two equals":
            return rng.choice((f"{key}={lo}={hi}", f"{key}=={lo}"))
        return rng.choice((f"{key}{rng.randint(lo, hi)}", f"={rng.randint(lo, hi)}", f"{key}={lo}={hi}",
                           f"{key}=={lo}", "", f" ={lo}"))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        keys = rng.sample(KEYS, config.keys)
        limits = {}
        for key in keys:
            lo = rng.choice((0, 0, 1, -10, 10))
            limits[key] = [lo, lo + rng.randint(12, 500)]  # up to 2 at least, for a "+N" line
        p: dict[str, Any] = {"limits": limits, "trim": rng.random() < 0.5, "unknown_first": rng.random() < 0.5,
             "names": {kind: rng.choice(names) for kind, names in SENTINELS.items()},
             "function": rng.choice(FUNCTIONS)}
        wants = ["ok", "low", "high", "plus", "outside", "number", "unknown", "conflict", "spaced", "no equals",
                 "empty key", "two equals", "case"]
        wants += [rng.choice(("ok", "ok", "low", "high", "outside", "number", "unknown", "conflict", "syntax", "spaced"))
                  for _ in range(rng.randint(config.tests // 4, config.tests // 2))]  # past the cases each problem has
        rng.shuffle(wants)

        def draw() -> tuple[list[str], list[tuple[str, str]]] | None:
            lines = [self._line(rng, p, want) for want in wants]
            outcomes = [parse(line, p) for line in lines]
            flips = ({**p, "unknown_first": not p["unknown_first"]}, {**p, "trim": not p["trim"]})
            telling = (all([parse(line, q) for line in lines] != outcomes for q in flips)
                       and all([parse(line, p, slip) for line in lines] != outcomes for slip in SLIPS))
            return (lines, outcomes) if telling else None

        lines, outcomes = retry(draw, attempts=100,
                                what="hidden lines that tell the check order, space rule and slips apart")
        table = "\n".join(f"- {key}: from {lo} to {hi}" for key, (lo, hi) in limits.items())
        n = p["names"]
        spaces = ("Spaces before or after the key and before or after the value are ignored (trimmed)." if p["trim"]
                  else "A line that contains a space anywhere is malformed.")
        first, second = (("unknown key", "not an integer") if p["unknown_first"] else
                         ("not an integer", "unknown key"))
        example_key = "alpha"
        prompt = (
            f"Write the Go function\n\n    func {p['function']}(line string) (int, error)\n\nthat parses one setting "
            "line of the form key=value. The known keys and their allowed values (inclusive):\n"
            f"{table}\n\n{spaces} Check in this order and return 0 with the first error that applies, or the value "
            "and nil when none does:\n"
            f"1. the line is malformed: it has no =, more than one =, or an empty key: return {n['syntax']};\n"
            f"2. {self._rule(first, n)};\n"
            f"3. {self._rule(second, n)};\n"
            f"4. the value (an integer) is outside the key's range: an error wrapping {n['outside']}.\n"
            f"Define the four sentinel errors as package-level variables {n['syntax']}, {n['unknown']}, {n['number']} "
            f"and {n['outside']} (distinct, made with errors.New). The not-an-integer error may be {n['number']} "
            "itself or wrap it; the unknown-key and the out-of-range errors must wrap their sentinel so that errors.Is finds it, with a "
            f"message that contains the key (for example fmt.Errorf(\"%w: {example_key}\", ...)).\n\n"
            f"Your file is compiled with a test driver (package main, Go 1.19, standard library only) that calls "
            f"{p['function']} on hidden lines and checks the value or which sentinel errors.Is matches, and whether "
            "the message names the key. Do not define main. "
            + convention(self.languages, shape=f"package main\n\n// imports, the four sentinel errors\n\n"
                                               f"func {p['function']}(line string) (int, error) {{\n\t// ...\n}}")
        )
        data = {"params": p, "function": p["function"], "tests": lines, "keys": [o[1] for o in outcomes],
                "expected": [line_text(o, p) for o in outcomes], "languages": list(self.languages), "gold": "go"}
        return Problem(prompt=prompt, answer=f"```go\n{self.reference(data)}\n```", data=data)

    @staticmethod
    def _rule(check: str, names: dict[str, str]) -> str:
        if check == "unknown key":
            return (f"the key is unknown (not in the table; keys are case-sensitive): return an error wrapping "
                    f"{names['unknown']}")
        return ("the value is not an integer (not an optional + or - followed by one or more decimal digits): "
                f"return {names['number']}")

    def reference(self, data: dict[str, Any], *, unknown_first: bool | None = None, wrap: bool = True,
                  trim: bool | None = None) -> str:
        """The gold program, or (keyword arguments) a near miss: another check order, bare sentinels, the
        other space rule."""
        p = data["params"]
        n = p["names"]
        first = p["unknown_first"] if unknown_first is None else unknown_first
        trimmed = p["trim"] if trim is None else trim
        unknown_error = f"fmt.Errorf(\"%w: %q\", {n['unknown']}, key)" if wrap else n["unknown"]
        range_error = f"fmt.Errorf(\"%s: %w\", key, {n['outside']})" if wrap else n["outside"]
        checks = [CODE("unknown_check", unknown_error=unknown_error).strip(),
                  CODE("number_check", number=n["number"]).strip()]
        if not first:
            checks.reverse()
        limits = "\n".join(f"\t\"{key}\": {{{lo}, {hi}}}," for key, (lo, hi) in p["limits"].items())
        spaces = CODE("trim").strip() if trimmed else CODE("strict", syntax=n["syntax"]).strip()
        code = CODE("reference", name=p["function"], syntax=n["syntax"], unknown=n["unknown"], number=n["number"],
                    outside=n["outside"], limits=limits, spaces=spaces, first=checks[0], second=checks[1],
                    range_error=range_error)
        return code.strip() if wrap else code.replace('\t"fmt"\n', "").strip()

    def driver(self, data: dict[str, Any]) -> str:
        n = data["params"]["names"]
        tests = "\n".join(f"\t\t{{{go_string(line)}, {go_string(key)}}}," for line, key in zip(data["tests"],
                                                                                             data["keys"]))
        return CODE("driver", name=data["function"], tests=tests, **n)

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["function"]

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        """One of: the reference with the two middle checks swapped, with bare sentinels (no key in the message),
        or with the other space rule; the hidden lines always include a line that tells each apart."""
        data = problem.data
        p = data["params"]
        kinds = (lambda: self.reference(data, unknown_first=not p["unknown_first"]),
                 lambda: self.reference(data, wrap=False), lambda: self.reference(data, trim=not p["trim"]))
        return [rng.choice(kinds)()]  # one per problem: each costs a Go compile

    def difficulty(self, problem: Problem) -> float:
        """log2 of the hidden lines times the keys in the table (the cases the function must tell apart)."""
        data = problem.data
        return math.log2(1 + len(data["tests"]) * len(data["params"]["limits"]))


def go_string(text: str) -> str:
    """A Go string literal for our own ASCII text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
