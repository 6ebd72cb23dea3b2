"""Translate an imperative Python function into a Prolog predicate, judged on hidden tests: loops become recursion.

Templates (constants drawn per problem), each a loop that the translation turns into a recursive relation
with the result as its last argument:

- **count_pairs**: how many neighbouring pairs ``xs[i], xs[i + 1]`` satisfy a comparison;
- **halving_steps**: the steps of a ``while`` loop that halves an even number and subtracts a constant from
  an odd one, until the number is at most a bound;
- **long_runs**: the runs of equal neighbours as ``[value, length]`` pairs, keeping the runs at least a given
  length (list state carried across the loop);
- **record_positions**: the positions (0- or 1-based, as the Python adds) where a new running maximum appears.

The answer is a SWI-Prolog file defining ``name/2`` (the input, then the result); our driver loads it,
calls ``once(name(Input, Result))`` on every hidden test and prints ``Result`` with ``~w`` (``error`` when the
call fails or raises). Expected lines come from the Python shown, run in-process.
"""

from __future__ import annotations

import json
import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._translation import Template, TranslationTask

NAMES = ("combine", "scan", "fold", "collect", "gather", "measure", "tally", "walk")


def _name(rng: random.Random) -> str:
    return rng.choice(NAMES) + rng.choice(("", "_list", "_values", "_items"))


class CountPairs(Template):
    name, tier = "count_pairs", 1
    OPS = {"<": "<", ">": ">", "==": "=:=", "<=": "=<"}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "op": rng.choice(sorted(self.OPS)), "weight": rng.randint(1, 3)}

    def python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    count = 0\n    for i in range(len(xs) - 1):\n"
                f"        if xs[i] {p['op']} xs[i + 1]:\n            count += {p['weight']}\n    return count\n")

    def reference(self, p: dict[str, Any]) -> str:
        n = p["name"]
        return (f"{n}([], 0).\n{n}([_], 0).\n{n}([A, B|T], N) :-\n    {n}([B|T], M),\n"
                f"    (   A {self.OPS[p['op']]} B\n    ->  N is M + {p['weight']}\n    ;   N = M\n    ).\n")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [[rng.randint(0, 6) for _ in range(size)]]


class HalvingSteps(Template):
    name, tier = "halving_steps", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "bound": rng.randint(0, 3), "d": rng.choice((1, 3, 5))}

    def python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(n):\n    steps = 0\n    while n > {p['bound']}:\n        if n % 2 == 0:\n"
                f"            n = n // 2\n        else:\n            n = n - {p['d']}\n        steps += 1\n"
                "    return steps\n")

    def reference(self, p: dict[str, Any]) -> str:
        n = p["name"]
        return (f"{n}(N, 0) :-\n    N =< {p['bound']}, !.\n{n}(N, S) :-\n"
                f"    (   N mod 2 =:= 0\n    ->  M is N // 2\n    ;   M is N - {p['d']}\n    ),\n"
                f"    {n}(M, S0),\n    S is S0 + 1.\n")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [rng.randint(0, 4 ** min(size, 60))]


class LongRuns(Template):
    name, tier = "long_runs", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "least": rng.randint(1, 3)}

    def python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    runs = []\n    for x in xs:\n        if runs and runs[-1][0] == x:\n"
                "            runs[-1][1] += 1\n        else:\n            runs.append([x, 1])\n"
                f"    return [run for run in runs if run[1] >= {p['least']}]\n")

    def reference(self, p: dict[str, Any]) -> str:
        n = p["name"]
        return (f"{n}(Xs, Kept) :-\n    {n}_runs(Xs, Runs),\n    {n}_keep(Runs, Kept).\n\n"
                f"{n}_runs([], []).\n{n}_runs([X|Xs], [[X, N]|Rest]) :-\n    {n}_take(X, Xs, 1, N, Tail),\n"
                f"    {n}_runs(Tail, Rest).\n\n{n}_take(X, [Y|Ys], K, N, Tail) :-\n    Y =:= X, !,\n"
                f"    K1 is K + 1,\n    {n}_take(X, Ys, K1, N, Tail).\n{n}_take(_, Ys, N, N, Ys).\n\n"
                f"{n}_keep([], []).\n{n}_keep([[X, N]|T], Kept) :-\n    {n}_keep(T, Rest),\n"
                f"    (   N >= {p['least']}\n    ->  Kept = [[X, N]|Rest]\n    ;   Kept = Rest\n    ).\n")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        values = rng.sample(range(-3, 8), 3)
        return [[rng.choice(values) for _ in range(size)]]


class RecordPositions(Template):
    name, tier = "record_positions", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "offset": rng.randint(0, 1), "strict": rng.random() < 0.5}

    def python(self, p: dict[str, Any], offset: int | None = None) -> str:
        offset = p["offset"] if offset is None else offset
        found = "i" if offset == 0 else f"i + {offset}"
        return (f"def {p['name']}(xs):\n    found = []\n    best = None\n    for i in range(len(xs)):\n"
                f"        if best is None or xs[i] {'>' if p['strict'] else '>='} best:\n"
                f"            best = xs[i]\n            found.append({found})\n    return found\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, offset=1 - p["offset"])  # the position counted from the other end of 0/1

    def reference(self, p: dict[str, Any], offset: int | None = None) -> str:
        n, offset = p["name"], p["offset"] if offset is None else offset
        return (f"{n}(Xs, Found) :-\n    {n}_scan(Xs, 0, none, Found).\n\n{n}_scan([], _, _, []).\n"
                f"{n}_scan([X|Xs], I, Best, Found) :-\n    I1 is I + 1,\n"
                f"    (   ( Best == none ; X {'>' if p['strict'] else '>='} Best )\n"
                f"    ->  P is I + {offset},\n        Found = [P|Rest],\n        {n}_scan(Xs, I1, X, Rest)\n"
                f"    ;   {n}_scan(Xs, I1, Best, Found)\n    ).\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, offset=1 - p["offset"])

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [[rng.randint(-5, 15) for _ in range(size)]]


TEMPLATES: dict[str, Template] = {t.name: t for t in (CountPairs(), HalvingSteps(), LongRuns(), RecordPositions())}

DRIVER = """:- initialization(translation_main, main).
:- ensure_loaded(solution).

translation_main :- forall(translation_test(Input), translation_run(Input)).

translation_run(Input) :-
    Goal =.. [NAME, Input, Result],
    (   catch(once(Goal), _, fail)
    ->  format("~w~n", [Result])
    ;   writeln(error)
    ).

TESTS
"""


@register
class PythonToProlog(TranslationTask):
    id = "code/python_to_prolog"
    description = "Translate an imperative Python loop into a recursive Prolog predicate, judged on hidden tests."
    tags = ("code", "translation", "prolog", "python", "recursion")
    version = 2
    target = "prolog"
    toolchains = ("prolog",)
    templates = TEMPLATES
    signature_hint = ("Write it as a Prolog predicate `{name}/2`: `{name}(Input, Result)` with the Python argument "
                      "(an integer or a list of integers) as Input and the returned value as Result (a list of "
                      "pairs as a list of two-element lists).")

    def render(self, value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))  # ~w writes lists of integers the same way

    def driver(self, name: str, tests: list[list[Any]]) -> str:
        facts = "".join(f"translation_test({self.render(args[0])}).\n" for args in tests)
        return DRIVER.replace("TESTS", facts).replace("NAME", name)

    def shape(self, name: str) -> str:
        return f"{name}(Input, Result) :-\n    % ...\n    true."
