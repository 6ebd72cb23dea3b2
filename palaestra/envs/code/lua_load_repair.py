"""Repair a Lua program that does not load, over turns: habits from other languages that Lua's parser rejects.

The program (a filter, a map and two reducers over each test's list; see :mod:`palaestra.envs.code._repair`)
is rendered in Lua 5.4 with its own idioms (``goto continue`` for an early loop exit, ``~=``, ``elseif``,
``x = x + 1``) and broken at a few drawn sites, each a habit from another language that Lua rejects when it
loads the chunk: ``continue`` (Lua has none: deleting it compiles but keeps the elements the filter drops),
``+=``, ``!=``, ``||``, a Python-style ``:`` instead of ``then``, ``else if`` instead of ``elseif`` (the
parser then reaches the end of the file looking for an ``end``), a ``<const>`` local that is assigned to.
Lua stops at the first error, so the prompt shows that one only (as Lua prints it, without the interpreter's
path) and each turn uncovers the next: the feedback is Lua's real message, or how many tests passed. The
whole program is run by the sandbox's Lua 5.4 on every test. Reward 1 when all pass within the attempts.
The reference is the program before the errors were injected.

Version 2 (red team, round 3, session 43): the hidden tests pin the described program down. In version 1 a program
with the filter's bound moved by one (``>=`` for ``>``) printed every test right in 0.32/0.21/0.19/0.09/0.07 of the
problems at levels 0-4 (150 seeds each; a reducer replaced, ``k`` left out or the map's factor moved by one up to
0.04 at level 0): now every such near program fails some test (:func:`palaestra.envs.code._repair.near_specs`).
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._repair import END, HERE, CompileRepairTask, RepairConfig, Site, growth_up_to

FILTER_NAMES = ("keep_some", "select_items", "pick_values", "filter_list")
MAP_NAMES = ("shift_all", "transform", "remap", "adjust")
REDUCER_NAMES = {"total": ("sum_of", "total", "add_up"), "weighted": ("weighted", "weighted_sum", "rank_sum"),
                 "best": ("largest", "max_of", "top"), "evens": ("count_even", "evens", "even_count"),
                 "span": ("spread", "span", "range_of")}
LOOP_VARS = ("x", "v", "e", "y", "w")


def _filter(flt: dict[str, Any], name: str, var: str) -> tuple[list[str], list[Site]]:
    drop = {"above": f"{var} <= {flt.get('c')}", "below": f"{var} >= {flt.get('c')}",
            "residue": f"{var} % {flt.get('m')} ~= {flt.get('r')}"}[flt["kind"]]
    skip = f"if {drop} then goto continue end"
    lines = [f"local function {name}(xs)", "    local kept = {}", f"    for _, {var} in ipairs(xs) do",
             f"        {skip}", f"        kept[#kept + 1] = {var}", "        ::continue::", "    end",
             "    return kept", "end"]
    sites = [Site("continue", skip, (f"if {drop} then continue end",), ((HERE, "syntax error near 'end'"),),
                  weight=2.5)]
    if flt["kind"] == "residue":
        sites.append(Site("!= for ~=", skip, (skip.replace("~=", "!="),), ((HERE, "'then' expected near '!'"),)))
    else:
        sites.append(Site("colon for then", skip, (f"if {drop}: goto continue end",),
                          ((HERE, "'then' expected near ':'"),)))
    return lines, sites


def _map(mp: dict[str, Any], name: str, var: str) -> tuple[list[str], list[Site]]:
    a = mp["a"]
    value = f"{a} * {var} + k" if mp["kind"] == "affine" else f"{var} + {a} * k * (i - 1)"
    lines = [f"local function {name}(xs, k)", "    local out = {}", f"    for i, {var} in ipairs(xs) do",
             f"        out[i] = {value}", "    end", "    return out", "end"]
    return lines, []


def _reducer(kind: str, name: str, var: str) -> tuple[list[str], list[Site]]:
    head = f"local function {name}(xs)"
    if kind == "span":
        low_line, high_line = f"if {var} < low then low = {var} end", f"if {var} > high then high = {var} end"
        lines = [head, "    if #xs == 0 then return 0 end", "    local low, high = xs[1], xs[1]",
                 f"    for _, {var} in ipairs(xs) do", f"        {low_line}", f"        {high_line}", "    end",
                 "    return high - low", "end"]
        return lines, [Site("colon for then", high_line, (f"if {var} > high: high = {var} end",),
                            ((HERE, "'then' expected near ':'"),))]
    if kind == "best":
        first, other = "if i == 1 then", f"elseif {var} > best then"
        lines = [head, "    local best = 0", f"    for i, {var} in ipairs(xs) do", f"        {first}",
                 f"            best = {var}", f"        {other}", f"            best = {var}", "        end",
                 "    end", "    return best", "end"]
        return lines, [
            Site("else if", other, (f"else if {var} > best then",),
                 ((END, f"'end' expected (to close 'function' at line {{{head}}}) near <eof>"),), weight=2.0),
            Site("|| for or", first, (f"if i == 1 || {var} > best then",), ((HERE, "unexpected symbol near '|'"),)),
        ]
    acc = {"total": "sum", "weighted": "acc", "evens": "count"}[kind]
    if kind == "evens":
        update = f"{acc} = {acc} + 1"
        body = [f"        if {var} % 2 ~= 1 then", f"            {update}", "        end"]
    else:
        update = f"{acc} = {acc} + {var}" if kind == "total" else f"{acc} = {acc} + i * {var}"
        body = [f"        {update}"]
    declare = f"local {acc} = 0"
    lines = [head, f"    {declare}", f"    for {'_' if kind != 'weighted' else 'i'}, {var} in ipairs(xs) do", *body,
             "    end", f"    return {acc}", "end"]
    plus = update.replace(f"{acc} = {acc} + ", f"{acc} += ")
    sites = [Site("+= for x = x +", update, (plus,), ((HERE, "syntax error near '+'"),)),
             Site("assigned <const>", declare, (f"local {acc} <const> = 0",),
                  ((update, f"attempt to assign to const variable '{acc}'"),), weight=1.5)]
    if kind == "evens":
        sites.append(Site("!= for ~=", body[0].strip(), (body[0].strip().replace("~=", "!="),),
                          ((HERE, "'then' expected near '!'"),)))
    return lines, sites


def build(rng: random.Random, spec: dict[str, Any]) -> tuple[list[str], list[Site]]:
    loop_vars = rng.sample(LOOP_VARS, 4)
    filter_name, map_name = rng.choice(FILTER_NAMES), rng.choice(MAP_NAMES)
    first, second = spec["reducers"]
    first_name, second_name = rng.choice(REDUCER_NAMES[first]), rng.choice(REDUCER_NAMES[second])
    units = [_filter(spec["filter"], filter_name, loop_vars[0]), _map(spec["map"], map_name, loop_vars[1]),
             _reducer(first, first_name, loop_vars[2]), _reducer(second, second_name, loop_vars[3])]
    lines: list[str] = []
    sites: list[Site] = []
    for unit_lines, unit_sites in units:
        lines += [*unit_lines, ""]
        sites += unit_sites
    lines += ["local numbers = {}", 'for token in io.read("a"):gmatch("%S+") do',
              "    numbers[#numbers + 1] = math.tointeger(tonumber(token))", "end", "local position = 0",
              "local function next_int()", "    position = position + 1", "    return numbers[position]", "end", "",
              "local output = {}", "for _ = 1, next_int() do", "    local n, k = next_int(), next_int()",
              "    local xs = {}", "    for i = 1, n do", "        xs[i] = next_int()", "    end",
              f"    local ys = {map_name}({filter_name}(xs), k)",
              f'    output[#output + 1] = string.format("%d %d", {first_name}(ys), {second_name}(ys))', "end",
              'io.write(table.concat(output, "\\n"), "\\n")']
    # an 'else if' message names the line of its function's head: fill it in now that the lines are placed
    placed = []
    for site in sites:
        messages = []
        for where, text in site.messages:
            if "{" in text:
                head = text[text.index("{") + 1: text.index("}")]
                text = text.replace("{" + head + "}", str(lines.index(head) + 1))
            messages.append((where, text))
        placed.append(Site(site.kind, site.anchor, site.replacement, tuple(messages), site.weight, site.touches))
    return lines, placed


@register
class LuaLoadRepair(CompileRepairTask):
    id = "code/lua_load_repair"
    description = ("Repair a Lua program that fails to load (continue, +=, !=, else if, <const>), one parser error "
                   "per turn.")
    tags = ("code", "programming", "lua", "debugging", "syntax-errors", "multi-turn")
    version = 2  # v2: hidden tests that every near program (a bound moved by one...) fails
    language, file_name, compiler = "lua", "main.lua", "Lua 5.4 (which stops at its first error)"
    toolchains = ("lua",)
    first_error_only = True

    presets = (
        RepairConfig(errors=1, attempts=3, tests=8, max_len=6),
        RepairConfig(errors=2, attempts=4, tests=10, max_len=8),
        RepairConfig(errors=3, attempts=4, tests=12, max_len=10),
        RepairConfig(errors=4, attempts=5, tests=14, max_len=12),
        RepairConfig(errors=5, attempts=6, tests=16, max_len=14),
    )
    # past the presets: more and longer hidden tests (5 errors at most: the sites that never touch one another)
    growth = growth_up_to(errors=5)
    build = staticmethod(build)  # the module's: the clean program for a spec and its sites
