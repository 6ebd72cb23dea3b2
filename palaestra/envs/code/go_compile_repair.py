"""Repair a Go program that does not compile, over turns, with the Go compiler's errors as feedback.

The program (a filter, a map and two reducers over each test's list; see :mod:`palaestra.envs.code._repair`)
is rendered in Go and broken at a few drawn sites, each an error class of Go's strict checking: a
variable declared and not used (its use removed: deleting the variable compiles but drops a step the
description asks for), an import not used or missing, ``:=`` that shadows instead of assigning (the
outer variable is then never updated) or that declares nothing new, ``int64`` mixed with ``int``, a
function missing its final ``return``, a call with too few arguments, an undefined (misspelled) name.
The prompt shows the broken program, the compiler's errors and two example tests; each turn the whole
program is compiled by the sandbox's Go toolchain and run on every test (the examples and hidden ones),
and the feedback is the compiler's real output or how many tests passed. Reward 1 when all pass within
the attempts. The reference is the program before the errors were injected.

Version 2 (red team, round 3, session 43): the hidden tests pin the described program down. In version 1 a program
with the filter's bound moved by one (``>=`` for ``>``) printed every test right in 0.33/0.27/0.12/0.11/0.05 of the
problems at levels 0-4 (150 seeds each; a reducer replaced, ``k`` left out or the map's factor moved by one up to
0.04 at level 0): now every such near program fails some test (:func:`palaestra.envs.code._repair.near_specs`).
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._repair import COMPILER_PRESETS, HERE, CompileRepairTask, Site, Unit, growth_up_to, typo

FILTER_NAMES = ("keepSome", "selectItems", "pickValues", "filterList", "chooseItems")
MAP_NAMES = ("shiftAll", "transform", "remap", "adjust", "rescale")
REDUCER_NAMES = {"total": ("sumOf", "total", "addUp"), "weighted": ("weighted", "weightedSum", "rankSum"),
                 "best": ("largest", "maxOf", "top"), "evens": ("countEven", "evens", "evenCount"),
                 "span": ("spread", "span", "rangeOf")}
LOOP_VARS = ("x", "v", "e", "y", "w")


def _filter(rng: random.Random, flt: dict[str, Any], name: str, var: str) -> Unit:
    kept = rng.choice(("kept", "picked", "chosen", "result"))
    test = {"above": f"{var} > {flt.get('c')}", "below": f"{var} < {flt.get('c')}",
            "residue": f"{var}%{flt.get('m')} == {flt.get('r')}"}[flt["kind"]]
    append = f"{kept} = append({kept}, {var})"
    lines = [f"func {name}(xs []int) []int {{", f"\t{kept} := []int{{}}", f"\tfor _, {var} := range xs {{",
             f"\t\tif {test} {{", f"\t\t\t{append}", "\t\t}", "\t}", f"\treturn {kept}", "}"]
    wrong = typo(kept, [], rng)
    sites = [Site("shadowing :=", append, (f"{kept} := append({kept}, {var})",),
                  ((HERE, f"{kept} declared but not used"),), weight=2.5),
             Site("missing return", f"return {kept}", (), ((HERE, "missing return"),), weight=1.5),
             Site("undefined name", f"return {kept}", (f"return {wrong}",), ((HERE, f"undefined: {wrong}"),))]
    return Unit(lines, sites)


def _map(mp: dict[str, Any], name: str, var: str, call: str) -> Unit:
    a = mp["a"]
    value = f"{a}*{var} + k" if mp["kind"] == "affine" else f"{var} + {a}*k*i"
    assign = f"out[i] = {value}"
    head = f"func {name}(xs []int, k int) []int {{"
    lines = [head, "\tout := make([]int, len(xs))", f"\tfor i, {var} := range xs {{", f"\t\t{assign}", "\t}",
             "\treturn out", "}"]
    mixed = (f"invalid operation: {a} * {var} + k (mismatched types int and int64)" if mp["kind"] == "affine"
             else f"invalid operation: {a} * k * i (mismatched types int64 and int)")
    sites = [Site("int64 mixed with int", head, (f"func {name}(xs []int, k int64) []int {{",),
                  ((assign, mixed), (call, f"cannot use k (variable of type int) as type int64 in argument to {name}")),
                  weight=1.5)]
    return Unit(lines, sites)


def _reducer(rng: random.Random, kind: str, name: str, var: str) -> Unit:
    head = f"func {name}(xs []int) int {{"
    if kind == "span":
        low, high = rng.choice((("low", "high"), ("lo", "hi"), ("least", "most")))
        ret = f"return {high} - {low}"
        lines = [head, "\tif len(xs) == 0 {", "\t\treturn 0", "\t}", f"\t{low}, {high} := xs[0], xs[0]",
                 f"\tfor _, {var} := range xs {{", f"\t\tif {var} < {low} {{", f"\t\t\t{low} = {var}", "\t\t}",
                 f"\t\tif {var} > {high} {{", f"\t\t\t{high} = {var}", "\t\t}", "\t}", f"\t{ret}", "}"]
        wrong = typo(high, [low], rng)
        return Unit(lines, [Site("missing return", ret, (), ((HERE, "missing return"),), weight=1.5),
                            Site("undefined name", f"{high} = {var}", (f"{wrong} = {var}",),
                                 ((HERE, f"undefined: {wrong}"),))])
    acc = {"total": "sum", "weighted": "acc", "best": "best", "evens": "count"}[kind]
    lines = [head, f"\t{acc} := 0", f"\tfor {'_' if kind in ('total', 'evens') else 'i'}, {var} := range xs {{"]
    if kind == "total":
        update = f"{acc} += {var}"
        lines += [f"\t\t{update}"]
    elif kind == "weighted":
        update = f"{acc} += weight * {var}"
        lines += ["\t\tweight := i + 1", f"\t\t{update}"]
    elif kind == "best":
        update = f"{acc} = {var}"
        lines += [f"\t\tif i == 0 || {var} > {acc} {{", f"\t\t\t{update}", "\t\t}"]
    else:
        update = f"{acc}++"
        lines += [f"\t\tif {var}%2 == 0 {{", f"\t\t\t{update}", "\t\t}"]
    ret = f"return {acc}"
    lines += ["\t}", f"\t{ret}", "}"]
    wrong = typo(acc, [], rng)
    sites = [Site("missing return", ret, (), ((HERE, "missing return"),), weight=1.5),
             Site("undefined name", update, (update.replace(acc, wrong, 1),), ((HERE, f"undefined: {wrong}"),))]
    if kind == "weighted":
        sites.append(Site("unused variable", update, (f"{acc} += {var}",),
                          (("weight := i + 1", "weight declared but not used"),), weight=3.0))
    if kind == "total":
        sites.append(Site("int64 mixed with int", f"{acc} := 0", (f"var {acc} int64",),
                          ((update, f"invalid operation: {update} (mismatched types int64 and int)"),
                           (ret, f"cannot use {acc} (variable of type int64) as type int in return statement")),
                          weight=1.5))
    if kind == "evens":
        sites.append(Site("shadowing :=", update, (f"{acc} := {acc} + 1",),
                          ((HERE, f"{acc} declared but not used"),), weight=2.5))
    return Unit(lines, sites)


def build(rng: random.Random, spec: dict[str, Any]) -> tuple[list[str], list[Site]]:
    loop_vars = rng.sample(LOOP_VARS, 4)
    filter_name, map_name = rng.choice(FILTER_NAMES), rng.choice(MAP_NAMES)
    first, second = spec["reducers"]
    first_name, second_name = rng.choice(REDUCER_NAMES[first]), rng.choice(REDUCER_NAMES[second])
    call = f"ys = {map_name}(ys, k)"
    units = [_filter(rng, spec["filter"], filter_name, loop_vars[0]), _map(spec["map"], map_name, loop_vars[1], call),
             _reducer(rng, first, first_name, loop_vars[2]), _reducer(rng, second, second_name, loop_vars[3])]
    reader, writer = "reader := bufio.NewReader(os.Stdin)", "writer := bufio.NewWriter(os.Stdout)"
    scan = "fmt.Fscan(reader, &n, &k)"
    main = ["func main() {", f"\t{reader}", f"\t{writer}", "\tdefer writer.Flush()", "\tvar t int",
            "\tfmt.Fscan(reader, &t)", "\tfor ; t > 0; t-- {", "\t\tvar n, k int", f"\t\t{scan}",
            "\t\txs := make([]int, n)", "\t\tfor i := range xs {", "\t\t\tfmt.Fscan(reader, &xs[i])", "\t\t}",
            f"\t\tys := {filter_name}(xs)", f"\t\t{call}", f"\t\tfmt.Fprintln(writer, {first_name}(ys), "
            f"{second_name}(ys))", "\t}", "}"]
    main_sites = [
        Site("missing import", '"bufio"', (), ((reader, "undefined: bufio"), (writer, "undefined: bufio"))),
        Site("unused import", '"os"', ('"os"', '"strings"'), (('"strings"', 'imported and not used: "strings"'),),
             weight=0.5),
        Site("unused variable", call, (f"zs := {map_name}(ys, k)",), ((HERE, "zs declared but not used"),),
             weight=3.0),
        Site("too few arguments", call, (f"ys = {map_name}(ys)",),
             ((HERE, f"not enough arguments in call to {map_name}"),)),
        Site("no new variables", call, (f"ys := {map_name}(ys, k)",),
             ((HERE, "no new variables on left side of :="),)),
        Site("undefined name", "var n, k int", ("var n int",), ((scan, "undefined: k"), (call, "undefined: k"))),
    ]
    lines = ["package main", "", "import (", '\t"bufio"', '\t"fmt"', '\t"os"', ")", ""]
    sites = list(main_sites)
    for unit in units:
        lines += [*unit.lines, ""]
        sites += unit.sites
    return lines + main, sites


@register
class GoCompileRepair(CompileRepairTask):
    id = "code/go_compile_repair"
    description = "Repair a Go program that fails to compile (unused names, := scoping, int64, missing returns) over turns."
    tags = ("code", "programming", "go", "debugging", "compile-errors", "multi-turn")
    version = 2  # v2: hidden tests that every near program (a bound moved by one...) fails
    language, file_name, compiler = "go", "main.go", "The Go compiler (go 1.19)"
    toolchains = ("go",)

    presets = COMPILER_PRESETS
    # past the presets: one more error (up to 6: the compiler lists at most ~10) and more, longer hidden tests
    growth = growth_up_to(errors=6)
    build = staticmethod(build)  # the module's: the clean program for a spec and its sites
