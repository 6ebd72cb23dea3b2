"""Write a Lua function that transforms a text record with Lua patterns (gsub, gmatch), judged on hidden strings.

Rules (parameters vary the name, the characters and the details of the rule):

- **mask**: every run of at least L digits keeps its last K digits, the others become a mask character;
- **fields**: pick the values of named keys out of a ``key=value`` record (first or last occurrence of a
  repeated key, a marker for a missing one), joined by a stated separator;
- **tags**: the distinct tags (a sigil such as ``#`` then letters, digits, underscores) of at least N
  characters, lowercased, in order of first appearance;
- **fill**: replace placeholders (``{name}``, ``${name}``, ``%name%`` or ``<<name>>``) from a stated table,
  unknown names kept, removed or marked;
- **names**: rewrite every ``Last, First`` pair of capitalised words as ``First Last`` (joined as stated) or
  ``F. Last``.

Each rule is the idiom of a Lua pattern with captures, a ``gsub`` with a function or a replacement string, or a
``gmatch`` loop. How it is judged: the answer is Lua code defining the named global function; our driver (Lua
5.4, the one of code/lua_functions) loads it as ``solution.lua``, calls the function on every hidden string and
prints each result as a quoted string; the trusted parent compares each line with the result of the rule's
Python reference on the same string. A wrong type, an error or a missing line fails the test. The examples in
the prompt are drawn apart from the hidden strings.

Version 2: the hidden strings tell each rule from its plausible slips (``Rule.slips``: repeats kept, no
lowercasing, ``%a+`` or ``%w+`` for the tag's run, a tag only at a word's start, ``>`` for ``>=``; a digit run one
off the least length; the other occurrence of a key; ``%a+`` for a placeholder's name; an optional space in a
name pair), redrawn otherwise; tags now repeat and digit runs sit at the least length more often. In version 1
keeping repeated tags passed 0.72-0.97 of the tags problems (level 0 to 3), a digit run longer than the least
0.01-0.54 of the mask problems, the other occurrence up to 0.21, no lowercasing and ``%w+`` up to 0.24; now 0.00
each (where some input can tell them apart).
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask, other_params
from palaestra.envs.code._polyglot import convention
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("lua_string_patterns")
DRIVER = ProgramTexts("lua_functions")  # its driver: call a global function on each test, print each result
WORDS = ("order", "ship", "paid", "card", "note", "from", "to", "ref", "item", "box", "route", "gate", "desk",
         "code", "call", "room", "case", "due", "seat", "line")
KEYS = ("id", "name", "city", "zip", "role", "team", "age", "mode", "tier", "host", "port", "user", "lang", "unit")
VAR_NAMES = ("user", "city", "day", "item", "count", "host", "team", "price", "code", "place", "time", "tool")
SURNAMES = ("Smith", "Okafor", "Novak", "Silva", "Tanaka", "Berg", "Moreau", "Kaur", "Ivanov", "Costa", "Lund")
GIVEN = ("Ana", "Ben", "Chloe", "Dev", "Eli", "Farah", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lena", "Milo")
JOINS = {",": "a comma", " ": "a single space", ";": "a semicolon", "/": "a slash", "|": "a vertical bar"}


def lua_string(text: str) -> str:
    """A Lua string literal for our own ASCII text (JSON's escapes are Lua's for it)."""
    return json.dumps(text)


class Rule:
    name: ClassVar[str]
    tier: ClassVar[int] = 1
    functions: ClassVar[tuple[str, ...]]

    def params(self, rng: random.Random) -> dict[str, Any]:
        raise NotImplementedError

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        raise NotImplementedError

    def result(self, s: str, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def reference(self, name: str, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        """Plausible wrong programs (a rule read one detail off), which the hidden strings must tell apart."""
        return {}

    def with_params(self, p: dict[str, Any], **changes: Any) -> Callable[[str], str]:
        return lambda s: self.result(s, {**p, **changes})


class Mask(Rule):
    name, tier, functions = "mask", 1, ("maskDigits", "redact", "hideNumbers")

    def params(self, rng: random.Random) -> dict[str, Any]:
        min_run = rng.randint(3, 6)
        return {"min_run": min_run, "keep": rng.randint(0, min(3, min_run - 1)), "char": rng.choice("#*x")}

    def statement(self, p: dict[str, Any]) -> str:
        keep = "none of its digits" if p["keep"] == 0 else f"only its last {p['keep']} digit" + "s" * (p["keep"] > 1)
        return (f"s is a line of words, spaces, punctuation and numbers. Every maximal run of at least {p['min_run']} "
                f"consecutive digits is masked: it keeps {keep}, and each of its other digits becomes the character "
                f"{p['char']}. Shorter runs of digits and everything else stay as they are. Return the masked line.")

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        pieces = []
        for _ in range(rng.randint(2, size + 2)):
            roll = rng.random()
            if roll < 0.5:
                # Often a run right at the least length or one short of it, where "<" for "<=" tells.
                length = rng.choice((p["min_run"] - 1, p["min_run"], rng.randint(1, p["min_run"] + 4)))
                pieces.append("".join(rng.choice("0123456789") for _ in range(length)))
            else:
                pieces.append(rng.choice(WORDS) + rng.choice(("", "", ":", ",", "-")))
        return " ".join(pieces) + rng.choice(("", ".", " ok"))

    def result(self, s: str, p: dict[str, Any]) -> str:
        def mask(run: re.Match[str]) -> str:
            digits = run.group(0)
            if len(digits) < p["min_run"]:
                return digits
            return p["char"] * (len(digits) - p["keep"]) + digits[len(digits) - p["keep"]:]

        return re.sub(r"\d+", mask, s)  # our own generated text

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        longer = {"runs longer than the least": self.with_params(p, min_run=p["min_run"] + 1)}
        if p["keep"] >= p["min_run"] - 1:  # a run one shorter than the least would keep all its digits anyway
            return longer
        return {**longer, "runs one shorter": self.with_params(p, min_run=p["min_run"] - 1)}

    def reference(self, name: str, p: dict[str, Any]) -> str:
        return CODE("mask", name=name, min_run=p["min_run"], keep=p["keep"], char=lua_string(p["char"]))


class Fields(Rule):
    name, tier, functions = "fields", 2, ("pick", "extractFields", "select")

    def params(self, rng: random.Random) -> dict[str, Any]:
        pool = rng.sample(KEYS, 6)
        return {"keys": pool, "wanted": rng.sample(pool, rng.randint(2, 3)), "sep": rng.choice(";&,|"),
                "assign": rng.choice("=:"), "join": rng.choice([j for j in JOINS if j != " "]),
                "missing": rng.choice(("-", "?", "none")), "last": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        wanted = ", ".join(p["wanted"])
        which = "last" if p["last"] else "first"
        return (f"s is a record of entries separated by {p['sep']}, each an entry key{p['assign']}value where the key "
                f"is lowercase letters and the value letters and digits (non-empty), in any order; a key may occur "
                f"more than once (then its {which} occurrence counts) or not at all. Return the values of the keys "
                f"{wanted}, in this order, joined by {JOINS[p['join']]} ({p['join']}); a key that does not occur "
                f"gives {p['missing']} in its place.")

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        entries = []
        for _ in range(rng.randint(1, size + 2)):
            value = "".join(rng.choice("abcdefghijkmnpqrstuvwxyz0123456789") for _ in range(rng.randint(1, 6)))
            entries.append(f"{rng.choice(p['keys'])}{p['assign']}{value}")
        return p["sep"].join(entries)

    def result(self, s: str, p: dict[str, Any]) -> str:
        values: dict[str, str] = {}
        for entry in s.split(p["sep"]):
            key, value = entry.split(p["assign"])
            if p["last"] or key not in values:
                values[key] = value
        return p["join"].join(values.get(key, p["missing"]) for key in p["wanted"])

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        return {"the other occurrence": self.with_params(p, last=not p["last"])}

    def reference(self, name: str, p: dict[str, Any]) -> str:
        return CODE("fields", name=name, assign=p["assign"], last="true" if p["last"] else "false",
                    wanted=", ".join(lua_string(k) for k in p["wanted"]), missing=lua_string(p["missing"]),
                    join=lua_string(p["join"]))


class Tags(Rule):
    name, tier, functions = "tags", 1, ("hashtags", "collectTags", "tagList")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"sigil": rng.choice("#@"), "min_len": rng.randint(2, 4), "join": rng.choice(list(JOINS))}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"s is a line of text. A tag is the character {p['sigil']} followed by a maximal run of ASCII letters, "
                f"digits and underscores (at least one; the {p['sigil']} may follow any character, even a letter); "
                f"its name is that run, lowercased. Return the distinct names of at least {p['min_len']} characters, "
                f"in order of first appearance, joined by {JOINS[p['join']]} (the empty string when there is none).")

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        pieces: list[str] = []
        for _ in range(rng.randint(2, size + 3)):
            word = rng.choice(WORDS)
            word = word.upper() if rng.random() < 0.2 else word
            roll = rng.random()
            if roll < 0.45:
                word = p["sigil"] + word[: rng.randint(1, len(word))] + rng.choice(("", "", "_1", "2", "!", ","))
            elif roll < 0.55:
                word = rng.choice(WORDS) + p["sigil"] + word
            elif roll < 0.6:
                word = p["sigil"]
            elif roll < 0.75 and any(p["sigil"] in piece for piece in pieces):
                # A tag again, in another case now and then: "distinct" and "lowercased" then decide the result.
                earlier = rng.choice([piece for piece in pieces if p["sigil"] in piece])
                word = earlier.swapcase() if rng.random() < 0.4 else earlier
            pieces.append(word)
        return " ".join(pieces)

    def result(self, s: str, p: dict[str, Any], name: str = "[A-Za-z0-9_]+", *, after: str = "", lower: bool = True,
               distinct: bool = True, longer: bool = False) -> str:
        """The names (keywords: a slip's reading of the rule: another run, only after ``after``, no lowercasing,
        repeats kept, names longer than the least)."""
        found: list[str] = []
        for tag in re.findall(after + re.escape(p["sigil"]) + f"({name})", s):  # our own generated text
            tag = tag.lower() if lower else tag
            if len(tag) >= p["min_len"] + longer and not (distinct and tag in found):
                found.append(tag)
        return p["join"].join(found)

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        return {"letters only": lambda s: self.result(s, p, "[A-Za-z]+"),
                "no underscore": lambda s: self.result(s, p, "[A-Za-z0-9]+"),
                "only at a word's start": lambda s: self.result(s, p, after=r"(?<![^ ])"),
                "not lowercased": lambda s: self.result(s, p, lower=False),
                "repeats kept": lambda s: self.result(s, p, distinct=False),
                "longer than the least": lambda s: self.result(s, p, longer=True)}

    def reference(self, name: str, p: dict[str, Any]) -> str:
        return CODE("tags", name=name, sigil=p["sigil"], min_len=p["min_len"], join=lua_string(p["join"]))


FILL_STYLES = {  # style: (how it is written, Lua pattern, Python pattern, opening, closing)
    "curly": ("{name}", "{(%l+)}", r"\{([a-z]+)\}", "{", "}"),
    "dollar": ("${name}", "%${(%l+)}", r"\$\{([a-z]+)\}", "${", "}"),
    "percent": ("%name%", "%%(%l+)%%", r"%([a-z]+)%", "%", "%"),
    "angle": ("<<name>>", "<<(%l+)>>", r"<<([a-z]+)>>", "<<", ">>"),
}
UNKNOWN = {"keep": ("stays exactly as it is", ""), "drop": ("is removed", ' or ""'),
           "mark": ("becomes a single ?", ' or "?"')}


class Fill(Rule):
    name, tier, functions = "fill", 2, ("render", "expand", "fillTemplate")

    def params(self, rng: random.Random) -> dict[str, Any]:
        names = rng.sample(VAR_NAMES, 6)
        table = {n: rng.choice(WORDS) + str(rng.randint(1, 99)) for n in names[:4]}
        return {"style": rng.choice(list(FILL_STYLES)), "table": table, "unknown_names": names[4:],
                "unknown": rng.choice(list(UNKNOWN))}

    def statement(self, p: dict[str, Any]) -> str:
        written, *_ = FILL_STYLES[p["style"]]
        table = ", ".join(f"{k} = {v}" for k, v in p["table"].items())
        return (f"s is a template line. A placeholder is written {written} where name is one or more lowercase "
                f"ASCII letters. Scanning from left to right, replace each placeholder whose name is in the table "
                f"({table}) by its value; a placeholder with any other name {UNKNOWN[p['unknown']][0]}. Text that is "
                "not a placeholder stays as it is. Return the resulting line.")

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        _, _, _, opening, closing = FILL_STYLES[p["style"]]
        names = [*p["table"], *p["unknown_names"]]
        pieces = []
        for _ in range(rng.randint(2, size + 3)):
            roll = rng.random()
            if roll < 0.45:
                pieces.append(opening + rng.choice(names) + closing)
            elif roll < 0.55:
                pieces.append(opening + rng.choice(names).capitalize() + closing)  # not a placeholder
            else:
                pieces.append(rng.choice(WORDS) + rng.choice(("", "", ":", "=", ".")))
        return rng.choice((" ", "", " ")).join(pieces)

    def result(self, s: str, p: dict[str, Any], name: str = "[a-z]+") -> str:
        """The filled line (``name``: a slip's reading of a placeholder's name)."""
        filler = {"keep": None, "drop": "", "mark": "?"}[p["unknown"]]

        def replace(match: re.Match[str]) -> str:
            value = p["table"].get(match.group(1), filler)
            return match.group(0) if value is None else value

        return re.sub(FILL_STYLES[p["style"]][2].replace("[a-z]+", name), replace, s)  # our own pattern and text

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        # Capitalised names read as placeholders (%a+ for %l+): an unknown one is dropped or marked, unless kept.
        return {} if p["unknown"] == "keep" else {"any letters": lambda s: self.result(s, p, "[A-Za-z]+")}

    def reference(self, name: str, p: dict[str, Any]) -> str:
        table = ", ".join(f"{k} = {lua_string(v)}" for k, v in p["table"].items())
        return CODE("fill", name=name, table=table, pattern=FILL_STYLES[p["style"]][1],
                    unknown=UNKNOWN[p["unknown"]][1])


class Names(Rule):
    name, tier, functions = "names", 1, ("flipNames", "reorderNames", "firstLast")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"form": rng.choice(("join", "initial")), "join": rng.choice((" ", "_", "."))}

    def statement(self, p: dict[str, Any]) -> str:
        how = ("its initial (the first letter of First), a period, a space and Last (Smith, Ana becomes A. Smith)"
               if p["form"] == "initial" else
               f"First, then {'a single space' if p['join'] == ' ' else repr(p['join'])}, then Last")
        return ("s is a line of text. A name pair is a capitalised word Last (one ASCII uppercase letter followed by "
                "one or more lowercase letters), a comma, one space and another capitalised word First. Scanning from "
                f"left to right, replace each name pair (pairs do not overlap) by {how}. Return the resulting line.")

    def text(self, rng: random.Random, p: dict[str, Any], size: int) -> str:
        pieces = []
        for _ in range(rng.randint(2, size + 2)):
            roll = rng.random()
            if roll < 0.4:
                pieces.append(f"{rng.choice(SURNAMES)}, {rng.choice(GIVEN)}")
            elif roll < 0.5:
                pieces.append(f"{rng.choice(SURNAMES)},{rng.choice(GIVEN)}")  # no space: not a pair
            elif roll < 0.6:
                pieces.append(f"{rng.choice(SURNAMES).upper()}, {rng.choice(GIVEN)}")  # not capitalised
            else:
                pieces.append(rng.choice(WORDS))
        return rng.choice((" ", ", ", "; ")).join(pieces)

    def result(self, s: str, p: dict[str, Any], comma: str = ", ") -> str:
        """The rewritten line (``comma``: a slip's reading of the separator)."""
        if p["form"] == "initial":
            return re.sub(f"([A-Z][a-z]+){comma}([A-Z])[a-z]+", r"\2. \1", s)  # our own pattern and text
        return re.sub(f"([A-Z][a-z]+){comma}([A-Z][a-z]+)", lambda m: m.group(2) + p["join"] + m.group(1), s)

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[str], str]]:
        return {"space optional": lambda s: self.result(s, p, ", ?")}

    def reference(self, name: str, p: dict[str, Any]) -> str:
        if p["form"] == "initial":
            return CODE("names", name=name, pattern="(%u%l+), (%u)%l+", replacement="%2. %1")
        return CODE("names", name=name, pattern="(%u%l+), (%u%l+)", replacement=f"%2{p['join']}%1")


RULES: dict[str, Rule] = {r.name: r for r in (Mask(), Fields(), Tags(), Fill(), Names())}


@register
class LuaStringPatterns(DrivenTask):
    id = "code/lua_string_patterns"
    description = "Write a Lua function transforming text records with Lua patterns (gsub, gmatch), on hidden strings."
    tags = ("code", "programming", "lua", "text-processing")
    languages = ("lua",)
    toolchains = languages
    version = 2

    @dataclass(frozen=True)
    class Config:
        rules: tuple[str, ...]
        size: int  # pieces per string, at most
        tests: int

    presets = (
        Config(("mask", "tags", "names"), size=3, tests=5),
        Config(("mask", "tags", "names", "fields"), size=5, tests=6),
        Config(("mask", "fields", "fill", "tags"), size=7, tests=7),
        Config(("fields", "fill", "names", "tags"), size=10, tests=8),
        Config(("fields", "fill", "mask"), size=14, tests=10),
    )
    growth = Growth(limits={"tests": 30, "size": 300}, factors={"size": 1.4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rule = RULES[rng.choice(config.rules)]
        p = rule.params(rng)
        function = rng.choice(rule.functions)

        def draw() -> tuple[list[str], list[str]] | None:
            texts = [rule.text(rng, p, rng.randint(max(1, config.size // 2), config.size)) for _ in range(config.tests)]
            results = [rule.result(t, p) for t in texts]
            changed = sum(r != t for r, t in zip(results, texts))
            telling = all([slip(t) for t in texts] != results for slip in rule.slips(p).values())
            return (texts, results) if len(set(results)) >= min(3, len(texts)) and changed >= 2 and telling else None

        texts, results = retry(draw, attempts=60, what="hidden strings whose results vary")
        def informative() -> str | None:  # an example the rule changes, so it shows the rule at work
            s = rule.text(rng, p, max(2, config.size // 2))
            return s if rule.result(s, p) != s else None

        examples = [retry(informative, attempts=30, what="an example the rule changes") for _ in range(2)]
        shown = "\n".join(f"- {function}({lua_string(s)}) returns {lua_string(rule.result(s, p))}" for s in examples)
        prompt = (
            f"Write the Lua function {function}(s). {rule.statement(p)}\n\nExamples:\n{shown}\n\n"
            f"Your code runs in Lua 5.4: a test driver loads it, calls the global function {function} on hidden "
            "strings (printable ASCII) and compares each returned string with the expected one. Do not read input "
            "or print. " + convention(self.languages, shape=f"function {function}(s)\n    -- ...\nend")
        )
        data = {"rule": rule.name, "params": p, "function": function, "tests": texts,
                "expected": [json.dumps(r) for r in results], "languages": list(self.languages), "gold": "lua"}
        return Problem(prompt=prompt, answer=f"```lua\n{self.reference(data).strip()}\n```", data=data)

    def reference(self, data: dict[str, Any]) -> str:
        return RULES[data["rule"]].reference(data["function"], data["params"]).strip()

    def driver(self, data: dict[str, Any]) -> str:
        tests = "{\n" + "".join(f"    {{{lua_string(s)}}},\n" for s in data["tests"]) + "}"
        return DRIVER("driver", name=data["function"], tests=tests)

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["function"]

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        rule = RULES[data["rule"]]
        expected = [json.loads(e) for e in data["expected"]]
        changed = other_params(rng, data["params"], rule.params,
                               lambda q: [rule.result(s, q) for s in data["tests"]], expected)
        return [] if changed is None else [rule.reference(data["function"], changed).strip()]

    def difficulty(self, problem: Problem) -> float:
        """The rule's tier plus log2 of the hidden strings' total length."""
        return RULES[problem.data["rule"]].tier + math.log2(1 + sum(map(len, problem.data["tests"])))
