"""Repair a C++ program that does not compile, over turns, with g++'s errors as feedback.

The program (a filter, a map and two reducers over each test's list; see :mod:`palaestra.envs.code._repair`)
is rendered in C++17: the filter keeps elements through a capturing lambda, the map updates a vector by
reference, and a ``Summary`` class collects the values and answers the two statistics from ``const``
member functions called through a ``const Summary&``. It is broken at a few drawn sites, each an error
class of C++'s type system: a lambda that does not capture what it uses, a member function that lost its
``const`` (called on a const object), a non-const lvalue reference bound to a temporary, a ``std::``
qualifier dropped, a vector updated through a ``const``
reference, a return type that does not match what is returned, a function used before any declaration,
a call with too few arguments, a misspelled (undeclared) name. The prompt shows the broken program, the
first line of each of g++'s errors (without the column and any "did you mean" hint) and two example tests;
each turn the whole program is compiled by the sandbox's g++ (``-std=gnu++17``) and run on every test, and
the feedback is g++'s real output or how many tests passed. Reward 1 when all pass within the attempts.
The reference is the program before the errors were injected.

Version 2 (red team, round 3, session 43): the hidden tests pin the described program down. In version 1 a program
with the filter's bound moved by one (``>=`` for ``>``) printed every test right in 0.43/0.31/0.19/0.13/0.04 of the
problems at levels 0-4 (150 seeds each; a reducer replaced, ``k`` left out or the map's factor moved by one up to
0.04 at level 0): now every such near program fails some test (:func:`palaestra.envs.code._repair.near_specs`).
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._repair import COMPILER_PRESETS, HERE, CompileRepairTask, Site, growth_up_to, typo

FILTER_NAMES = ("keepSome", "selectItems", "pickValues", "filterList")
MAP_NAMES = ("shiftAll", "rescale", "remap", "adjust")  # not `transform`: std::transform would be found too
REDUCER_NAMES = {"total": ("sumAll", "total"), "weighted": ("weighted", "rankSum"), "best": ("largest", "maxOf"),
                 "evens": ("countEven", "evens"), "span": ("spread", "span")}
CLASS_NAMES = ("Summary", "Stats", "Tally", "Digest")
VEC = "std::vector<long long>"


def _reducer(kind: str, name: str, var: str) -> list[str]:
    """A const member function over ``values_``."""
    head = f"    long long {name}() const {{"
    if kind == "span":
        return [head, "        if (values_.empty()) return 0;",
                "        const auto [low, high] = std::minmax_element(values_.begin(), values_.end());",
                "        return *high - *low;", "    }"]
    acc = {"total": "sum", "weighted": "acc", "best": "best", "evens": "even"}[kind]
    if kind == "weighted":
        return [head, f"        long long {acc} = 0;", "        for (std::size_t i = 0; i < values_.size(); i++) {",
                f"            {acc} += static_cast<long long>(i + 1) * values_[i];", "        }",
                f"        return {acc};", "    }"]
    update = {"total": f"{acc} += {var};", "best": f"{acc} = std::max({acc}, {var});",
              "evens": f"if ({var} % 2 == 0) {acc}++;"}[kind]
    start = "values_.empty() ? 0 : values_[0]" if kind == "best" else "0"
    return [head, f"        long long {acc} = {start};", f"        for (long long {var} : values_) {{",
            f"            {update}", "        }", f"        return {acc};", "    }"]


def build(rng: random.Random, spec: dict[str, Any]) -> tuple[list[str], list[Site]]:
    filter_name, map_name = rng.choice(FILTER_NAMES), rng.choice(MAP_NAMES)
    first, second = spec["reducers"]
    first_name, second_name = rng.choice(REDUCER_NAMES[first]), rng.choice(REDUCER_NAMES[second])
    cls = rng.choice(CLASS_NAMES)
    var_a, var_b = rng.sample(("v", "w", "e", "u"), 2)
    kept = rng.choice(("kept", "chosen", "picked"))
    flt, mp = spec["filter"], spec["map"]

    # the filter: a lambda capturing its parameters
    if flt["kind"] == "residue":
        params, captures, args = "long long modulus, long long remainder", "[modulus, remainder]", \
            f"{flt['m']}, {flt['r']}"
        test, dropped, left = "x % modulus == remainder", "modulus", "[remainder]"
    else:
        params, captures, args = "long long limit", "[limit]", str(flt["c"])
        test, dropped, left = f"x {'>' if flt['kind'] == 'above' else '<'} limit", "limit", "[]"
    flt_head = f"static {VEC} {filter_name}(const {VEC}& xs, {params}) {{"
    declare, lam, push, ret = (f"{VEC} {kept};", f"auto wanted = {captures}(long long x) {{ return {test}; }};",
                               f"if (wanted(x)) {kept}.push_back(x);", f"return {kept};")
    flt_lines = [flt_head, f"    {declare}", f"    {lam}", "    for (long long x : xs) {", f"        {push}",
                 "    }", f"    {ret}", "}"]
    wrong = typo(kept, [], rng)

    # the map: updates the vector through a reference
    a = mp["a"]
    assign = (f"ys[i] = {a} * ys[i] + k;" if mp["kind"] == "affine"
              else f"ys[i] = ys[i] + {a} * k * static_cast<long long>(i);")
    map_head = f"static void {map_name}({VEC}& ys, long long k) {{"
    map_lines = [map_head, "    for (std::size_t i = 0; i < ys.size(); i++) {", f"        {assign}", "    }", "}"]

    # the class
    method_one, method_two = _reducer(first, first_name, var_a), _reducer(second, second_name, var_b)
    class_lines = [f"class {cls} {{", "public:", "    void add(long long value) {", "        values_.push_back(value);",
                   "    }", *method_one, *method_two, "private:", f"    {VEC} values_;", "};"]

    summarize_sig = f"static {cls} summarize(const {VEC}& ys)"
    report_sig = f"static void report(const {cls}& summary)"
    show = f'std::printf("%lld %lld\\n", summary.{first_name}(), summary.{second_name}());'
    call_filter, call_map = f"{VEC} ys = {filter_name}(xs, {args});", f"{map_name}(ys, k);"
    main = ["int main() {", "    int t;", '    if (std::scanf("%d", &t) != 1) return 1;', "    while (t-- > 0) {",
            "        int n;", "        long long k;", '        if (std::scanf("%d %lld", &n, &k) != 2) return 1;',
            f"        {VEC} xs(n);", '        for (auto& x : xs) if (std::scanf("%lld", &x) != 1) return 1;',
            f"        {call_filter}", f"        {call_map}", "        report(summarize(ys));", "    }", "    return 0;",
            "}"]
    tail = ["", f"{summarize_sig} {{", f"    {cls} summary;", "    for (long long y : ys) summary.add(y);",
            "    return summary;", "}", "", f"{report_sig} {{", f"    {show}", "}"]
    lines = ["#include <algorithm>", "#include <cstdio>", "#include <vector>", "", *class_lines, "",
             f"{summarize_sig};", f"{report_sig};", "", *flt_lines, "", *map_lines, "", *main, *tail]

    const_line = method_one[0].strip()
    sites = [
        Site("lambda capture", lam, (lam.replace(captures, left),), ((HERE, f"'{dropped}' is not captured"),),
             weight=2.0),
        Site("undeclared name", ret, (f"return {wrong};",), ((HERE, f"'{wrong}' was not declared in this scope"),)),
        Site("std:: dropped", declare, (declare.replace("std::vector", "vector"),),
             ((HERE, "'vector' was not declared in this scope"),), touches=(push, ret)),
        Site("return type", flt_head, (flt_head.replace(f"static {VEC}", "static long long", 1),),
             ((ret, "cannot convert"),), touches=(call_filter,), weight=1.5),
        Site("write through const reference", map_head, (map_head.replace(f"{VEC}& ys", f"const {VEC}& ys"),),
             ((assign, "assignment of read-only location"),), touches=(call_map,), weight=1.5),
        Site("const member function", const_line, (const_line.replace(") const {", ") {"),),
             ((show, f"passing 'const {cls}' as 'this' argument discards qualifiers"),), weight=2.0),
        Site("missing declaration", f"{report_sig};", (), (("report(summarize(ys));",
                                                             "'report' was not declared in this scope"),)),
        Site("reference to a temporary", call_filter, (call_filter.replace(f"{VEC} ys", f"{VEC}& ys"),),
             ((HERE, "cannot bind non-const lvalue reference"),), weight=1.5),
        Site("too few arguments", call_map, (f"{map_name}(ys);",), ((HERE, "too few arguments to function"),),
             weight=1.5),
    ]
    return lines, sites


@register
class CppCompileRepair(CompileRepairTask):
    id = "code/cpp_compile_repair"
    description = ("Repair a C++ program that fails to compile (lambda captures, const members, references, "
                   "declarations) over turns.")
    tags = ("code", "programming", "cpp", "debugging", "compile-errors", "multi-turn")
    version = 2  # v2: hidden tests that every near program (a bound moved by one...) fails
    language, file_name, compiler = "cpp", "main.cpp", "g++ 12 (-std=gnu++17)"
    toolchains = ("cpp",)
    message_prefix = "error: "

    presets = COMPILER_PRESETS
    # past the presets: more and longer hidden tests (5 errors at most: about 6 sites never touch one another)
    growth = growth_up_to(errors=5)
    build = staticmethod(build)  # the module's: the clean program for a spec and its sites
