"""Repair a C program that does not compile, over turns, with gcc's errors as feedback.

The program (a filter, a map and two reducers over each test's list; see :mod:`palaestra.envs.code._repair`)
is rendered in C (``-std=gnu17``) around a ``struct stats`` filled through a pointer, with the reducers
defined after ``main`` behind prototypes. It is broken at a few drawn sites, each an error class of C:
``.`` on a pointer or ``->`` on a struct value, a struct type used without the ``struct`` keyword, a
struct passed where its address is expected, a misspelled member, a write through a ``const`` pointer,
a loop variable never declared, a call with too few arguments (passing 0 for the missing one compiles
but breaks the map), a deleted prototype (the implicit ``int`` declaration then conflicts with the
definition), a misspelled (undeclared) name. The prompt shows the broken program, the first line of each
of gcc's errors (without the column and any "did you mean" hint) and two example tests; each turn the
whole program is compiled by the sandbox's gcc and run on every test, and the feedback is gcc's real
output or how many tests passed. Reward 1 when all pass within the attempts. The reference is the program
before the errors were injected.

Version 2 (red team, round 3, session 43): the hidden tests pin the described program down. In version 1 a program
with the filter's bound moved by one (``>=`` for ``>``) printed every test right in 0.33/0.31/0.17/0.12/0.05 of the
problems at levels 0-4 (150 seeds each; a reducer replaced, ``k`` left out or the map's factor moved by one up to
0.04 at level 0): now every such near program fails some test (:func:`palaestra.envs.code._repair.near_specs`).
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._repair import COMPILER_PRESETS, HERE, CompileRepairTask, Site, Unit, growth_up_to, typo

FILTER_NAMES = ("keep_some", "select_items", "pick_values", "filter_list")
MAP_NAMES = ("shift_all", "transform", "remap", "adjust")
REDUCER_NAMES = {"total": ("sum_of", "total", "add_up"), "weighted": ("weighted", "weighted_sum", "rank_sum"),
                 "best": ("largest", "max_of", "top"), "evens": ("count_even", "evens", "even_count"),
                 "span": ("spread", "span", "range_of")}
STRUCT_NAMES = ("stats", "summary", "result", "pair")
FIELDS = (("first", "second"), ("low", "high"), ("left", "right"), ("head", "tail"))
LOOP_VARS = ("i", "j", "p", "q", "r")


def _undeclared(name: str) -> str:
    return f"'{name}' undeclared (first use in this function)"


def _loop(var: str, bound: str) -> str:
    return f"for (int {var} = 0; {var} < {bound}; {var}++) {{"


def _loop_site(var: str, bound: str) -> Site:
    line = _loop(var, bound)
    return Site("undeclared loop variable", line, (line.replace(f"int {var}", var, 1),), ((HERE, _undeclared(var)),))


def _filter(rng: random.Random, flt: dict[str, Any], name: str, var: str) -> Unit:
    kept = rng.choice(("kept", "count", "taken", "used"))
    value = f"xs[{var}]"
    test = {"above": f"{value} > {flt.get('c')}", "below": f"{value} < {flt.get('c')}",
            "residue": f"{value} % {flt.get('m')} == {flt.get('r')}"}[flt["kind"]]
    store = f"out[{kept}++] = {value};"
    lines = [f"static int {name}(const long long *xs, int n, long long *out) {{", f"    int {kept} = 0;",
             f"    {_loop(var, 'n')}", f"        if ({test}) {{", f"            {store}", "        }", "    }",
             f"    return {kept};", "}"]
    wrong = typo(kept, [], rng)
    return Unit(lines, [_loop_site(var, "n"), Site("undeclared name", f"return {kept};", (f"return {wrong};",),
                                                  ((HERE, _undeclared(wrong)),))])


def _map(mp: dict[str, Any], name: str, var: str) -> Unit:
    a = mp["a"]
    value = f"{a} * ys[{var}] + k" if mp["kind"] == "affine" else f"ys[{var}] + {a} * k * {var}"
    assign = f"ys[{var}] = {value};"
    head = f"static void {name}(long long *ys, int m, long long k) {{"
    lines = [head, f"    {_loop(var, 'm')}", f"        {assign}", "    }", "}"]
    return Unit(lines, [_loop_site(var, "m"),
                        Site("write through const", head, (head.replace("long long *ys", "const long long *ys"),),
                             ((assign, "assignment of read-only location"),), weight=1.5,
                             touches=(_loop(var, "m"),))])  # an undeclared loop variable hides the write


def _reducer(rng: random.Random, kind: str, name: str, var: str) -> tuple[Unit, str]:
    """The reducer's definition and its prototype line."""
    signature = f"static long long {name}(const long long *ys, int m)"
    head = f"{signature} {{"
    if kind == "span":
        low, high = rng.choice((("low", "high"), ("lo", "hi"), ("least", "most")))
        ret = f"return {high} - {low};"
        update = f"if (ys[{var}] > {high}) {high} = ys[{var}];"
        lines = [head, "    if (m == 0) return 0;", f"    long long {low} = ys[0], {high} = ys[0];",
                 f"    {_loop(var, 'm')}", f"        if (ys[{var}] < {low}) {low} = ys[{var}];", f"        {update}",
                 "    }", f"    {ret}", "}"]
        acc = high
    else:
        acc = {"total": "sum", "weighted": "acc", "best": "best", "evens": "even"}[kind]
        update = {"total": f"{acc} += ys[{var}];", "weighted": f"{acc} += ({var} + 1) * ys[{var}];",
                  "best": f"if ({var} == 0 || ys[{var}] > {acc}) {acc} = ys[{var}];",
                  "evens": f"if (ys[{var}] % 2 == 0) {acc}++;"}[kind]
        ret = f"return {acc};"
        lines = [head, f"    long long {acc} = 0;", f"    {_loop(var, 'm')}", f"        {update}", "    }",
                 f"    {ret}", "}"]
    wrong = typo(acc, ["m", "ys"], rng)
    sites = [_loop_site(var, "m"),
             Site("undeclared name", ret, (ret.replace(acc, wrong, 1),), ((HERE, _undeclared(wrong)),)),
             Site("missing prototype", f"{signature};", (), ((head, f"conflicting types for '{name}'"),), weight=1.5)]
    return Unit(lines, sites), f"{signature};"


def build(rng: random.Random, spec: dict[str, Any]) -> tuple[list[str], list[Site]]:
    loop_vars = rng.sample(LOOP_VARS, 4)
    filter_name, map_name = rng.choice(FILTER_NAMES), rng.choice(MAP_NAMES)
    first, second = spec["reducers"]
    first_name, second_name = rng.choice(REDUCER_NAMES[first]), rng.choice(REDUCER_NAMES[second])
    struct = rng.choice(STRUCT_NAMES)
    one, two = rng.choice(FIELDS)
    flt = _filter(rng, spec["filter"], filter_name, loop_vars[0])
    mp = _map(spec["map"], map_name, loop_vars[1])
    (r1, proto1), (r2, proto2) = (_reducer(rng, first, first_name, loop_vars[2]),
                                  _reducer(rng, second, second_name, loop_vars[3]))
    set_one, set_two = f"s->{one} = {first_name}(ys, m);", f"s->{two} = {second_name}(ys, m);"
    fill = [f"static void fill(struct {struct} *s, const long long *ys, int m) {{", f"    {set_one}",
            f"    {set_two}", "}"]
    member = typo(two, [one], rng)
    fill_sites = [
        Site(". on a pointer", set_one, (f"s.{one} = {first_name}(ys, m);",),
             ((HERE, "'s' is a pointer; did you mean to use '->'?"),), weight=1.5),
        Site("misspelled member", set_two, (f"s->{member} = {second_name}(ys, m);",),
             ((HERE, f"'struct {struct}' has no member named '{member}'"),)),
    ]
    declare, call, fill_call = f"struct {struct} s;", f"{map_name}(ys, m, k);", "fill(&s, ys, m);"
    show = f'printf("%lld %lld\\n", s.{one}, s.{two});'
    main = ["int main(void) {", "    static long long xs[1000], ys[1000];", "    int t;",
            '    if (scanf("%d", &t) != 1) return 1;', "    while (t-- > 0) {", "        int n;", "        long long k;",
            '        if (scanf("%d %lld", &n, &k) != 2) return 1;',
            '        for (int i = 0; i < n; i++) if (scanf("%lld", &xs[i]) != 1) return 1;',
            f"        int m = {filter_name}(xs, n, ys);", f"        {call}", f"        {declare}",
            f"        {fill_call}", f"        {show}", "    }", "    return 0;", "}"]
    main_sites = [
        Site("missing struct keyword", declare, (f"{struct} s;",), ((HERE, f"unknown type name '{struct}'"),),
             touches=(fill_call, show)),  # s has no type then: its uses report other errors
        Site("too few arguments", call, (f"{map_name}(ys, m);",), ((HERE, f"too few arguments to function "
                                                                         f"'{map_name}'"),), weight=1.5),
        Site("struct instead of its address", fill_call, ("fill(s, ys, m);",),
             ((HERE, "incompatible type for argument 1 of 'fill'"),), weight=1.5),
        Site("-> on a struct value", show, (f'printf("%lld %lld\\n", s->{one}, s.{two});',),
             ((HERE, f"invalid type argument of '->' (have 'struct {struct}')"),), weight=1.5),
    ]
    lines = ["#include <stdio.h>", "", f"struct {struct} {{", f"    long long {one};", f"    long long {two};", "};", "",
             proto1, proto2, "", *flt.lines, "", *mp.lines, "", *fill, "", *main, "", *r1.lines, "", *r2.lines]
    return lines, [*flt.sites, *mp.sites, *fill_sites, *main_sites, *r1.sites, *r2.sites]


@register
class CCompileRepair(CompileRepairTask):
    id = "code/c_compile_repair"
    description = "Repair a C program that fails to compile (pointers vs structs, const, prototypes, arity) over turns."
    tags = ("code", "programming", "c", "pointers", "debugging", "compile-errors", "multi-turn")
    version = 2  # v2: hidden tests that every near program (a bound moved by one...) fails
    language, file_name, compiler = "c", "main.c", "gcc 12 (-std=gnu17)"
    toolchains = ("c",)
    message_prefix = "error: "

    presets = COMPILER_PRESETS
    # past the presets: one more error (up to 7: the compiler lists at most ~10) and more, longer hidden tests
    growth = growth_up_to(errors=7)
    build = staticmethod(build)  # the module's: the clean program for a spec and its sites
