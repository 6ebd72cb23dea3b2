"""Compare two versions of a nested JSON configuration and list every added, removed and changed setting.

Two JSON objects (objects within objects, scalar settings as leaves) are given: the old version and a
new one whose keys are written in another order at every level (order is no change). A leaf is named by
its dotted path (``database.pool.max``). The answer marks each difference: ``+path`` for a leaf only in
the new version, ``-path`` for one only in the old, ``~path`` for a leaf in both whose value differs
(a different type counts: ``"8080"`` is not ``8080``). The answer is a set in any order, read with the
shared set reader; the verifier names a wrong or missing entry. The number of differences is drawn per
problem (at least two), and untouched leaves outnumber them, so neither listing every leaf nor "none" pays.

Version 2: every problem has a setting whose value changes its JSON type alone (``8080`` to ``"8080"``), so
comparing values as text no longer gives the answer (it gave 0.75 of level 0 and 0.66 of level 4).
Version 3: every problem also has a boolean becoming 1 or 0 (or back) and a null setting added or removed, so
neither comparing Python values (``True == 1``: it gave every problem of levels 0-5, 40 seeds a level), nor
reading null as no setting (0.75-0.95), nor comparing only the settings in both versions (0.17-0.47) gives the
answer; each now gives none. Levels 0 and 1 have more settings and differences, to hold those three.

Difficulty: the leaves of both versions plus the differences plus the depth of the deepest one.

Generation speed: about 790 problems/s at level 4 on this 2-core machine. Each draw builds two versions
of a nested document and compares them both by value and by text, and about 2 draws in 3 are redrawn
because they lack a change of type alone or change too few or too many leaves; those conditions stop
comparing printed text, or listing every key, from earning reward. (Measured before version 3.)
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.normalize import markup_spellings, named, read_answer
from palaestra.verifiers.sets import read_set

EXAMPLE = "~alpha.beta, +alpha.gamma, -delta"  # a fixed placeholder: never derived from the answer
_ENTRY = re.compile(r"([+~-])\s?([a-z_]+(?:\.[a-z_]+)*)")


def leaves(node: dict, prefix: str = "") -> dict[str, Any]:
    """Every scalar setting by its dotted path."""
    found: dict[str, Any] = {}
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(leaves(value, path + "."))
        else:
            found[path] = value
    return found


def differences(old: dict, new: dict, *, by_text: bool = False, python_equal: bool = False,
                null_absent: bool = False) -> set[str]:
    """``+path``, ``-path`` and ``~path`` entries; values compare with their JSON type (8080 is not "8080"), or
    as a misreading of the rule: with ``by_text``, as their text without quotes (the one the prompt warns about),
    with ``python_equal``, as Python values (``true == 1``), with ``null_absent``, a null setting taken for none."""
    before, after = leaves(old), leaves(new)
    if null_absent:
        before = {p: v for p, v in before.items() if v is not None}
        after = {p: v for p, v in after.items() if v is not None}

    def shown(value: Any) -> Any:
        if python_equal:
            return value
        text = json.dumps(value)
        return text.strip('"') if by_text else text

    out = {f"+{p}" for p in after if p not in before} | {f"-{p}" for p in before if p not in after}
    return out | {f"~{p}" for p in before if p in after and shown(before[p]) != shown(after[p])}


def _read_entry(text: str) -> str | None:
    match = _ENTRY.fullmatch(text.strip().strip("`"))
    return f"{match.group(1)}{match.group(2)}" if match else None


def _scalar(rng: random.Random) -> Any:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randint(1, 9999)
    if kind == 1:
        return rng.choice((True, False))
    if kind == 2:
        return rng.choice(WORDS["cities"]).lower()
    if kind == 3:
        return rng.choice(("info", "debug", "warn", "utf-8", "eu-west", "/var/data", "strict"))
    return None if rng.random() < 0.3 else rng.randint(1, 60)


def _tree(rng: random.Random, leaves_left: int, depth: int, keys: list[str]) -> dict:
    node: dict[str, Any] = {}
    while leaves_left > 0:
        key = next((k for k in rng.sample(keys, len(keys)) if k not in node), None)
        if key is None:
            break
        if depth > 1 and leaves_left >= 3 and rng.random() < 0.45:
            size = rng.randint(2, min(5, leaves_left))
            node[key] = _tree(rng, size, depth - 1, keys)
            leaves_left -= size
        else:
            node[key] = _scalar(rng)
            leaves_left -= 1
    return node


def _shuffled(node: Any, rng: random.Random) -> Any:
    if not isinstance(node, dict):
        return node
    keys = list(node)
    rng.shuffle(keys)
    return {key: _shuffled(node[key], rng) for key in keys}


def _objects(node: dict, prefix: str = "") -> list[tuple[str, dict]]:
    found = [(prefix, node)]
    for key, value in node.items():
        if isinstance(value, dict):
            found.extend(_objects(value, f"{prefix}{key}."))
    return found


@register
class JsonDiff(Task):
    id = "data/json_diff"
    family = "data"
    description = "List the added, removed and changed settings between two nested JSON configs (as +/-/~ paths)."
    tags = ("data", "json", "diff")
    version = 3  # v3: a boolean to 1/0 and a null setting added or removed in every problem

    @dataclass(frozen=True)
    class Config:
        leaves: int
        depth: int
        changes: int  # the most differences (three of them drawn for loose readings to miss, see draw)

    presets = (Config(8, 2, 3), Config(10, 2, 4), Config(13, 3, 4), Config(18, 3, 5), Config(25, 4, 7))
    growth = Growth(steps={"leaves": 7, "changes": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        keys = WORDS["settings"] + WORDS["sections"]

        def draw() -> tuple[dict, dict] | None:
            sections = min(len(WORDS["sections"]), max(2, config.leaves // 4))
            per_section = max(4, config.leaves // sections + 1)
            old = {section: _tree(rng, rng.randint(2, per_section), config.depth - 1, keys)
                   for section in rng.sample(WORDS["sections"], sections)}
            new = json.loads(json.dumps(old))
            # three differences that a loose reading misses (see fair): a boolean becoming 1 or 0, or back
            # (Python's True == 1), a value becoming its JSON text, or back (the same text), and a null setting
            # added or removed (null read as no setting; and only settings in both compared)
            spots = [(index, key) for index, (_, node) in enumerate(_objects(old)) for key, value in node.items()
                     if not isinstance(value, dict)]
            if len(spots) < 3:
                return None
            python_equal, same_text, (index, key) = rng.sample(spots, 3)
            flag = rng.choice((True, False))
            value = rng.choice((flag, None, rng.randint(1, 9999)))
            for (at, name), pair in ((python_equal, [flag, int(flag)]), (same_text, [value, json.dumps(value)])):
                rng.shuffle(pair)
                _objects(old)[at][1][name], _objects(new)[at][1][name] = pair
            target = _objects(new)[index][1]
            if len(target) > 1 and rng.random() < 0.5:
                _objects(old)[index][1][key] = None
                del target[key]
            else:
                target[rng.choice([k for k in keys if k not in target])] = None
            for _ in range(rng.randint(0, config.changes - 3)):
                path, target = rng.choice(_objects(new)[1:] or _objects(new))
                kind = rng.choice(("change", "change", "retype", "add", "remove"))
                scalars = [k for k, v in target.items() if not isinstance(v, dict)]
                if kind == "add":
                    free = [k for k in keys if k not in target]
                    if free:
                        target[rng.choice(free)] = _scalar(rng)
                elif scalars and kind == "remove" and len(target) > 1:
                    del target[rng.choice(scalars)]
                elif scalars and kind == "retype":
                    key = rng.choice(scalars)
                    target[key] = str(target[key]).lower() if not isinstance(target[key], str) else len(target[key])
                elif scalars:
                    key = rng.choice(scalars)
                    target[key] = _scalar(rng)
            return old, _shuffled(new, rng)

        def fair(drawn: tuple[dict, dict]) -> bool:
            found = differences(*drawn)
            # a change of type alone must be among them (comparing text answered 0.75 of level 0), one that Python
            # takes for equal (comparing Python values answered every problem), and one a null decides (reading
            # null as no setting answered 0.75-0.95 of levels 0-5)
            if found in (differences(*drawn, by_text=True), differences(*drawn, python_equal=True),
                         differences(*drawn, null_absent=True)):
                return False
            if all(entry.startswith("~") for entry in found):
                return False  # so must an added or removed setting (comparing only those in both: 0.17-0.47)
            return 2 <= len(found) and 2 * len(found) < len(leaves(drawn[0]))

        old, new = retry(draw, fair, attempts=300, what="two versions with a few differences")
        found = sorted(differences(old, new), key=lambda e: (e[1:], e[0]))
        prompt = (
            f"Old configuration:\n\n```json\n{json.dumps(old, indent=2)}\n```\n\nNew configuration:\n\n```json\n"
            f"{json.dumps(new, indent=2)}\n```\n\nName each setting (a value that is not an object) by its dotted "
            "path of keys, such as server.tls.port. List every difference between the versions: +path for a setting "
            "only in the new one, -path for a setting only in the old one, ~path for a setting in both whose value "
            'differs (a different JSON type counts: "8080" is not 8080). The order of keys does not matter.\n\n'
            f"Answer with the entries separated by commas, in any order, for example: {EXAMPLE}"
        )
        depth = max(entry.count(".") + 1 for entry in found)
        data = {"differences": found, "leaves": len(leaves(old)) + len(leaves(new)), "depth": depth}
        return Problem(prompt=prompt, answer=", ".join(found), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_answer(answer, named(lambda text: read_set(text, _read_entry, max_items=500),
                                          "differences?|changes?|entries|diff"))
        if given is None:
            return Verdict.unparsed(f"expected entries such as {EXAMPLE}")
        truth = set(problem.data["differences"])
        extra = sorted(given - truth)
        if extra:
            return Verdict.wrong(f"{extra[0]} is not a difference between the versions")
        missing = sorted(truth - given)
        return Verdict.judge(not missing, f"a difference at {missing[0][1:] if missing else ''} is left out")

    def difficulty(self, problem: Problem) -> float:
        """Leaves of both versions + differences + the deepest difference's depth."""
        data = problem.data
        return float(data["leaves"] + len(data["differences"]) + data["depth"])

    def spellings(self, problem: Problem) -> list[str]:
        found = problem.data["differences"]
        return [*markup_spellings(problem.answer or ""), "\n".join(reversed(found)),
                "[" + ", ".join(f'"{e}"' for e in found) + "]", "; ".join(found)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        found = problem.data["differences"]
        flipped = [("~" if e[0] != "~" else "+") + e[1:] for e in found[:1]] + found[1:]
        return [", ".join(found[1:]), ", ".join(flipped), "none"]
