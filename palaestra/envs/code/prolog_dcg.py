"""Write a Prolog DCG that accepts exactly a described language of strings, judged on hidden strings.

Languages (terminal characters and details drawn per problem):

- **counted**: ``x^n y^(k*n)`` for n at least 0 or 1 (k = 1, 2 or 3);
- **balanced**: balanced strings over two kinds of bracket pairs, the empty string allowed or not;
- **mirror**: ``w c reverse(w)`` for a word w over two letters and a centre letter c;
- **listing**: a bracketed list of decimal numbers with a stated separator, the empty list allowed or not,
  leading zeros allowed or not;
- **arith**: expressions of single digits, stated binary operators and a stated kind of parentheses.

How it is judged: the answer is Prolog code defining the nonterminal ``NAME//0``; our driver (SWI-Prolog) loads
it as ``solution.pl`` and, for every hidden string, runs ``phrase(NAME, Chars)`` (``Chars`` the list of its
one-character atoms) under an inference limit, printing ``yes`` or ``no`` (or ``limit``/``error``). The trusted
parent compares each line with the membership that the language's Python recogniser decides. The hidden strings
are members and near misses of members (one character deleted, inserted, swapped or changed), both kinds in
every problem, so neither accepting everything nor rejecting everything passes, and a left-recursive grammar
runs out of inferences. Each language also names its *slips* (the languages a grammar accepts when it drops one
clause of the statement: the order of the letters, the kinds of brackets, the allowed operators, leading zeros,
the empty string ...) and draws strings that tell them apart; every problem's hidden strings tell every slip
apart (version 3: before, a grammar ignoring the allowed operators, or the letters of w, passed every problem
of its language, and one counting letters without their order two thirds). The examples in the prompt are drawn
apart from the hidden strings.

Generation speed: about 900 problems/s at level 4 on this 2-core machine. Each problem draws its test
strings, half members of the language and half near misses of members (a character deleted, inserted,
changed or two swapped), and decides each one's membership with this module's own recogniser, redrawing
the few sets whose verdicts are not balanced; the balance is what stops an always-accept or always-reject
grammar from earning reward.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask, other_params
from palaestra.envs.code._polyglot import convention
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("prolog_dcg")
NAMES = ("sentence", "valid", "word", "phrase_ok", "accepts", "good")
LETTERS = "abcdefghkmnpqrstuvwxz"
PAIRS = (("(", ")"), ("[", "]"), ("<", ">"), ("{", "}"))
INFERENCES = 200_000  # per hidden string: far more than a linear DCG needs on our lengths


def atom(char: str) -> str:
    """A quoted Prolog atom for one of our own characters."""
    return "'" + char.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Language:
    name: ClassVar[str]
    tier: ClassVar[int] = 1
    alphabet_note: ClassVar[str] = ""

    def params(self, rng: random.Random) -> dict[str, Any]:
        raise NotImplementedError

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        raise NotImplementedError

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        raise NotImplementedError

    def alphabet(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        """Recognisers of the languages a grammar accepts when it drops one clause of the statement (the
        order of the letters, the kinds of brackets, the allowed operators ...): the hidden strings must
        tell each of them apart from the language."""
        return []

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        """Hidden strings drawn to tell the language apart from its :meth:`slips`."""
        return []


class Counted(Language):
    name, tier = "counted", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        x, y = rng.sample(LETTERS, 2)
        return {"x": x, "y": y, "k": rng.randint(1, 3), "min_n": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        times = "n" if p["k"] == 1 else f"{p['k']}n"
        return (f"the strings made of n copies of {p['x']} followed by exactly {times} copies of {p['y']}, for every "
                f"n >= {p['min_n']}" + (" (so the empty string is one of them)" if p["min_n"] == 0 else ""))

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        n = rng.randint(p["min_n"], max(p["min_n"], size))
        return p["x"] * n + p["y"] * (p["k"] * n)

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        n = len(s) - len(s.lstrip(p["x"]))
        return n >= p["min_n"] and s == p["x"] * n + p["y"] * (p["k"] * n)

    def alphabet(self, p: dict[str, Any]) -> str:
        return p["x"] + p["y"]

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        ys = "[" + ", ".join([atom(p["y"])] * p["k"]) + "]"
        base = "[]" if p["min_n"] == 0 else f"[{atom(p['x'])}], {ys}"
        return CODE("counted", name=name, base=base, x=atom(p["x"]), ys=ys)

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        x, y, k = p["x"], p["y"], p["k"]

        def any_order(s: str) -> bool:  # the counts checked, the order not
            return set(s) <= {x, y} and s.count(y) == k * s.count(x) and s.count(x) >= p["min_n"]

        def counts_ignored(s: str) -> bool:  # x's then y's, their numbers not compared
            n = len(s) - len(s.lstrip(x))
            return n >= p["min_n"] and set(s[n:]) <= {y} and (n > 0) == (len(s) > n)

        return [any_order, counts_ignored, lambda s: self.accepts(s, {**p, "min_n": 1 - p["min_n"]})]

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        n = rng.randint(1, max(1, size))
        s = list(p["x"] * n + p["y"] * (p["k"] * n))
        i, j = rng.randrange(n), rng.randrange(n, len(s))
        s[i], s[j] = s[j], s[i]  # a y before an x: the right counts in the wrong order
        m = rng.randint(1, max(1, size))
        off = p["x"] * m + p["y"] * (p["k"] * m + rng.choice((-1, 1)))  # one y too many or too few
        return ["".join(s), off, ""]


class Balanced(Language):
    name, tier = "balanced", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        first, second = rng.sample(PAIRS, 2)
        return {"pairs": [list(first), list(second)], "empty": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        (o1, c1), (o2, c2) = p["pairs"]
        return (f"the balanced strings over the bracket pairs {o1}{c1} and {o2}{c2}: every opening bracket is closed "
                "later by the closing bracket of its own kind, and brackets nest properly (no other characters); "
                + ("the empty string is one of them" if p["empty"] else "the empty string is not one of them"))

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        out: list[str] = []
        stack: list[str] = []
        for _ in range(rng.randint(0 if p["empty"] else 1, size)):
            pair = rng.choice(p["pairs"])
            while stack and rng.random() < 0.4:
                out.append(stack.pop())
            out.append(pair[0])
            stack.append(pair[1])
        return "".join(out + stack[::-1])

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        closing = {o: c for o, c in p["pairs"]}
        stack: list[str] = []
        for char in s:
            if char in closing:
                stack.append(closing[char])
            elif not stack or stack.pop() != char:
                return False
        return not stack and (p["empty"] or s != "")

    def alphabet(self, p: dict[str, Any]) -> str:
        return "".join(c for pair in p["pairs"] for c in pair)

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        (o1, c1), (o2, c2) = p["pairs"]
        if p["empty"]:
            top = f"{name} --> {name}_seq."
        else:
            top = "\n".join(f"{name} --> [{atom(o)}], {name}_seq, [{atom(c)}], {name}_seq." for o, c in p["pairs"])
        return CODE("balanced", name=name, top=top, o1=atom(o1), c1=atom(c1), o2=atom(o2), c2=atom(c2))

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        opening = {o for o, _ in p["pairs"]}

        def kinds_ignored(s: str) -> bool:
            depth = 0
            for char in s:
                depth += 1 if char in opening else -1
                if depth < 0:
                    return False
            return depth == 0 and (p["empty"] or s != "")

        def counts_only(s: str) -> bool:
            return all(s.count(o) == s.count(c) for o, c in p["pairs"]) and (p["empty"] or s != "")

        return [kinds_ignored, counts_only, lambda s: self.accepts(s, {**p, "empty": not p["empty"]})]

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        (o1, c1), (o2, c2) = rng.sample(p["pairs"], 2)
        s = self.member(rng, p, max(1, size // 2))
        i = rng.randrange(len(s) + 1)
        return [s[:i] + o1 + o2 + c1 + c2 + s[i:], ""]  # crossed pairs: each kind counted and nested by depth


class Mirror(Language):
    name, tier = "mirror", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        a, b, centre = rng.sample(LETTERS, 3)
        return {"a": a, "b": b, "centre": centre}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"the strings w {p['centre']} v where w is any string of the letters {p['a']} and {p['b']} (possibly "
                f"empty) and v is w reversed (so {p['a']}{p['b']}{p['centre']}{p['b']}{p['a']} is one of them)")

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        w = "".join(rng.choice(p["a"] + p["b"]) for _ in range(rng.randint(0, size)))
        return w + p["centre"] + w[::-1]

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        half = len(s) // 2
        return (len(s) % 2 == 1 and s[half] == p["centre"] and set(s[:half]) <= {p["a"], p["b"]}
                and s[:half] == s[half + 1:][::-1])

    def alphabet(self, p: dict[str, Any]) -> str:
        return p["a"] + p["b"] + p["centre"]

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        return CODE("mirror", name=name, centre=atom(p["centre"]), a=atom(p["a"]), b=atom(p["b"]))

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        def any_letters(s: str) -> bool:  # w not limited to the two letters
            half = len(s) // 2
            return len(s) % 2 == 1 and s[half] == p["centre"] and s[:half] == s[half + 1:][::-1]

        def unmirrored(s: str) -> bool:  # the centre in the middle, the sides not compared
            half = len(s) // 2
            return len(s) % 2 == 1 and s[half] == p["centre"] and set(s[:half] + s[half + 1 :]) <= {p["a"], p["b"]}

        return [any_letters, unmirrored]

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        w = [rng.choice(p["a"] + p["b"]) for _ in range(rng.randint(0, max(0, size - 1)))]
        w.insert(rng.randint(0, len(w)), p["centre"])  # the centre letter inside w
        u = [rng.choice(p["a"] + p["b"]) for _ in range(rng.randint(1, max(1, size)))]
        v = u[::-1]
        i = rng.randrange(len(v))
        v[i] = p["b"] if v[i] == p["a"] else p["a"]  # one letter of the reversal changed
        return ["".join(w) + p["centre"] + "".join(reversed(w)), "".join(u) + p["centre"] + "".join(v)]


class Listing(Language):
    name, tier = "listing", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"pair": list(rng.choice(PAIRS)), "sep": rng.choice(",;|"), "empty": rng.random() < 0.5,
                "zeros": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        open_, close = p["pair"]
        zeros = ("a number is one or more decimal digits (leading zeros allowed)" if p["zeros"] else
                 "a number is 0 or a decimal digit 1-9 followed by any decimal digits (no leading zero)")
        empty = "the empty list is allowed" if p["empty"] else "the list holds at least one number"
        return (f"the lists written {open_}, then numbers separated by single {p['sep']} characters, then {close}, "
                f"with no spaces, where {zeros}; {empty}")

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        def number() -> str:
            if p["zeros"] and rng.random() < 0.3:
                return "0" + str(rng.randint(0, 99))
            return str(rng.choice((0, rng.randint(1, 9), rng.randint(10, 999))))

        count = rng.randint(0 if p["empty"] else 1, max(1, size // 2))
        return p["pair"][0] + p["sep"].join(number() for _ in range(count)) + p["pair"][1]

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        open_, close = p["pair"]
        if len(s) < 2 or s[0] != open_ or s[-1] != close:
            return False
        body = s[1:-1]
        if body == "":
            return p["empty"]
        for number in body.split(p["sep"]):
            if not number or not all(c in "0123456789" for c in number):
                return False
            if not p["zeros"] and number[0] == "0" and number != "0":
                return False
        return True

    def alphabet(self, p: dict[str, Any]) -> str:
        return "".join(p["pair"]) + p["sep"] + "0123456789"

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        empty = f"{name}_items --> [].\n" if p["empty"] else ""
        if p["zeros"]:
            number = f"[D], {{ char_type(D, digit(_)) }}, {name}_digits"
        else:
            number = f"( ['0'] ; [D], {{ char_type(D, digit(W)), W > 0 }}, {name}_digits )"
        return CODE("listing", name=name, open=atom(p["pair"][0]), close=atom(p["pair"][1]), sep=atom(p["sep"]),
                    empty=empty, number=number)

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        return [lambda s: self.accepts(s, {**p, "zeros": not p["zeros"]}),
                lambda s: self.accepts(s, {**p, "empty": not p["empty"]})]

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        numbers = [str(rng.randint(0, 999)) for _ in range(rng.randint(0, max(0, size // 2 - 1)))]
        numbers.insert(rng.randint(0, len(numbers)), "0" + str(rng.randint(0, 99)))  # a leading zero
        return [p["pair"][0] + p["sep"].join(numbers) + p["pair"][1], p["pair"][0] + p["pair"][1]]


class Arith(Language):
    name, tier = "arith", 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"ops": "".join(sorted(rng.sample("+-*/", rng.randint(1, 3)))), "pair": list(rng.choice(PAIRS[:3]))}

    def statement(self, p: dict[str, Any]) -> str:
        ops = " ".join(p["ops"])
        open_, close = p["pair"]
        return (f"the expressions E where E is one or more terms separated by binary operators from {ops}, and a term "
                f"is a single decimal digit or {open_}E{close} (no spaces, no signs, no empty brackets)")

    def member(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        def expr(budget: int) -> str:
            terms = [term(budget // 2) for _ in range(rng.randint(1, max(1, min(3, budget))))]
            return "".join(t + rng.choice(p["ops"]) for t in terms[:-1]) + terms[-1]

        def term(budget: int) -> str:
            if budget > 1 and rng.random() < 0.35:
                return p["pair"][0] + expr(budget - 1) + p["pair"][1]
            return str(rng.randint(0, 9))

        return expr(size)

    def accepts(self, s: str, p: dict[str, Any]) -> bool:
        position = 0
        open_, close = p["pair"]

        def expr() -> bool:
            nonlocal position
            if not term():
                return False
            while position < len(s) and s[position] in p["ops"]:
                position += 1
                if not term():
                    return False
            return True

        def term() -> bool:
            nonlocal position
            if position < len(s) and s[position] in "0123456789":
                position += 1
                return True
            if position < len(s) and s[position] == open_:
                position += 1
                if not expr() or position >= len(s) or s[position] != close:
                    return False
                position += 1
                return True
            return False

        return expr() and position == len(s)

    def alphabet(self, p: dict[str, Any]) -> str:
        return p["ops"] + "".join(p["pair"]) + "0123456789"

    def grammar(self, name: str, p: dict[str, Any]) -> str:
        return CODE("arith", name=name, ops=", ".join(atom(o) for o in p["ops"]), open=atom(p["pair"][0]),
                    close=atom(p["pair"][1]))

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], bool]]:
        open_, close = p["pair"]
        return [lambda s: self.accepts(s, {**p, "ops": "+-*/"}),
                lambda s: self.accepts(s.replace(open_ + close, "0"), p)]  # empty brackets allowed

    def telling(self, rng: random.Random, p: dict[str, Any], size: int) -> list[str]:
        other = rng.choice([o for o in "+-*/" if o not in p["ops"]])
        s = self.member(rng, p, max(2, size))
        places = [i for i, c in enumerate(s) if c in p["ops"]]
        if places:
            i = rng.choice(places)
            wrong_op = s[:i] + other + s[i + 1:]
        else:
            wrong_op = s + other + str(rng.randint(0, 9))
        digits = [i for i, c in enumerate(s) if c.isdigit()]
        i = rng.choice(digits)
        return [wrong_op, s[:i] + p["pair"][0] + p["pair"][1] + s[i + 1:]]  # an operator not allowed; empty brackets


LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (Counted(), Balanced(), Mirror(), Listing(), Arith())}


def near_miss(rng: random.Random, s: str, alphabet: str) -> str:
    """``s`` with one character deleted, inserted, changed or two neighbours swapped."""
    i = rng.randrange(len(s) + 1)
    roll = rng.random()
    if roll < 0.3 and s:
        i = min(i, len(s) - 1)
        return s[:i] + s[i + 1:]
    if roll < 0.6:
        return s[:i] + rng.choice(alphabet) + s[i:]
    if roll < 0.8 and len(s) >= 2:
        i = min(i, len(s) - 2)
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if s:
        i = min(i, len(s) - 1)
        return s[:i] + rng.choice(alphabet) + s[i + 1:]
    return rng.choice(alphabet)


@register
class PrologDcg(DrivenTask):
    id = "code/prolog_dcg"
    description = "Write a Prolog DCG accepting exactly a described language of strings, judged on hidden strings."
    tags = ("code", "programming", "prolog", "logic-programming", "grammars")
    languages = ("prolog",)
    toolchains = languages
    version = 3

    @dataclass(frozen=True)
    class Config:
        languages: tuple[str, ...]
        size: int
        tests: int

    presets = (
        Config(("counted", "mirror"), size=4, tests=10),
        Config(("counted", "mirror", "balanced"), size=6, tests=12),
        Config(("counted", "balanced", "listing"), size=8, tests=14),
        Config(("balanced", "listing", "arith"), size=10, tests=16),
        Config(("balanced", "listing", "arith"), size=14, tests=20),
    )
    # Past ~60 characters a near miss of a long member is often a member again: version 1 grew to 200 and found
    # no balanced set of hidden strings at 3 seeds in 40 at level 22 (and 1 in 150 at level 14, as its language's
    # parameters were never drawn again). The strings stop growing at level 14's 54 characters.
    growth = Growth(limits={"tests": 40, "size": 54})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw_string(language: Language, p: dict[str, Any], positive: bool) -> str:
            s = language.member(rng, p, rng.randint(1, config.size))
            return s if positive else near_miss(rng, s, language.alphabet(p))

        def draw() -> tuple[Language, dict[str, Any], list[str]] | None:
            # The language's parameters are drawn again too: with some of them near misses of long members are
            # mostly members again, and no balanced set of hidden strings exists.
            language = LANGUAGES[rng.choice(config.languages)]
            p = language.params(rng)
            telling = language.telling(rng, p, config.size)
            drawn = [draw_string(language, p, i % 2 == 0) for i in range(config.tests - len(telling))]
            strings = list(dict.fromkeys(telling + drawn))
            rng.shuffle(strings)
            verdicts = [language.accepts(s, p) for s in strings]
            balanced = 0.3 <= sum(verdicts) / len(verdicts) <= 0.7
            told = all(any(slip(s) != v for s, v in zip(strings, verdicts)) for slip in language.slips(p))
            return (language, p, strings) if balanced and told and len(strings) >= config.tests * 3 // 4 else None

        language, p, strings = retry(draw, attempts=60, what="hidden strings with members and near misses")
        name = rng.choice(NAMES)
        alphabet = language.alphabet(p)
        expected = ["yes" if language.accepts(s, p) else "no" for s in strings]
        shown = {True: [], False: []}  # type: dict[bool, list[str]]
        for _ in range(200):
            s = draw_string(language, p, len(shown[True]) < 3)
            verdict = language.accepts(s, p)
            if s not in strings and len(shown[verdict]) < 3 and s not in shown[verdict]:
                shown[verdict].append(s)
        members = ", ".join(f'"{s}"' for s in shown[True]) or "none shown"
        others = ", ".join(f'"{s}"' for s in shown[False]) or "none shown"
        prompt = (
            f"Write a Prolog DCG (definite clause grammar) whose nonterminal {name}//0 accepts exactly the strings of "
            f"this language: {language.statement(p)}.\n\nIn the language: {members}. Not in it: {others}.\n\n"
            f"A string is given to your grammar as the list of its one-character atoms: the driver (SWI-Prolog) "
            f"loads your code and, for each hidden string, asks phrase({name}, Chars) once, for example "
            f"phrase({name}, ['{alphabet[0]}']), and compares whether it succeeds with whether the string is in the "
            f"language. Each query may use at most {INFERENCES} inferences (a grammar that loops, such as a "
            f"left-recursive one, fails that string). Helper nonterminals and predicates are allowed; do not read "
            f"input or print. " + convention(self.languages, shape=f"{name} --> ...")
        )
        data = {"language": language.name, "params": p, "name": name, "tests": strings, "expected": expected,
                "languages": list(self.languages), "gold": "prolog"}
        return Problem(prompt=prompt, answer=f"```prolog\n{self.reference(data)}\n```", data=data)

    def reference(self, data: dict[str, Any]) -> str:
        return LANGUAGES[data["language"]].grammar(data["name"], data["params"]).strip()

    def driver(self, data: dict[str, Any]) -> str:
        tests = "\n".join(f"pd_test({atom(s)})." for s in data["tests"])
        return CODE("driver", name=data["name"], inferences=INFERENCES, tests=tests)

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["name"]

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        language = LANGUAGES[data["language"]]
        changed = other_params(rng, data["params"], language.params,
                               lambda q: ["yes" if language.accepts(s, q) else "no" for s in data["tests"]],
                               data["expected"])
        return [] if changed is None else [language.grammar(data["name"], changed).strip()]

    def difficulty(self, problem: Problem) -> float:
        """The language's tier plus log2 of the hidden strings' total length."""
        return LANGUAGES[problem.data["language"]].tier + math.log2(1 + sum(map(len, problem.data["tests"])))
