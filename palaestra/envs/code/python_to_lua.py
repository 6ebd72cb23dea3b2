"""Translate a Python function into Lua, judged on hidden tests: 0-based Python against 1-based Lua.

Templates (constants drawn per problem), each needing Lua's own indexing and string idioms:

- **wrap_pairs**: a loop combining ``xs[i]`` with ``xs[i - k]``, where Python's negative index wraps to the
  end of the list (Lua: ``xs[(i - 1 - k) % n + 1]``; the naive ``xs[i - k]`` reads ``nil``);
- **shift_positions**: a Caesar shift of the letters at even (or odd) 0-based positions (the parity flips
  with Lua's 1-based loop);
- **find_positions**: every 0-based position where a substring starts, found with ``str.find`` from a moving
  start (Lua's ``string.find`` returns 1-based positions and needs plain matching);
- **chunk_sums**: the sums of consecutive slices ``xs[i:i + k]`` (the last chunk shorter: Python clamps the
  slice, a Lua loop to ``i + k - 1`` reads ``nil``), each reduced modulo a constant.

The answer is a Lua 5.4 file defining the global function; our driver loads it next to itself, calls it on
every hidden test and prints each result (a table as ``[a,b]``, a string quoted, an integral number as an
integer). Expected lines come from the Python shown, run in-process.
"""

from __future__ import annotations

import json
import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._translation import Template, TranslationTask

NAMES = ("combine", "mix", "scan", "fold", "twist", "collect", "gather", "measure")


def _name(rng: random.Random) -> str:
    return rng.choice(NAMES) + rng.choice(("", "_list", "_values", "_items"))


class WrapPairs(Template):
    name, tier = "wrap_pairs", 1
    OPS = {"times": ("*", "*"), "minus": ("-", "-"), "plus_twice": ("+ 2 *", "+ 2 *")}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "k": rng.randint(1, 3), "op": rng.choice(sorted(self.OPS)), "start": rng.randint(0, 5)}

    def python(self, p: dict[str, Any]) -> str:
        op = self.OPS[p["op"]][0]
        return (f"def {p['name']}(xs):\n    total = {p['start']}\n    for i in range(len(xs)):\n"
                f"        total += xs[i] {op} xs[i - {p['k']}]\n    return total\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        op = self.OPS[p["op"]][0]
        return (f"def {p['name']}(xs):\n    total = {p['start']}\n    for i in range(1, len(xs) + 1):\n"
                f"        if i - {p['k']} < 1:\n            raise IndexError\n"
                f"        total += xs[i - 1] {op} xs[i - {p['k']} - 1]\n    return total\n")

    def reference(self, p: dict[str, Any]) -> str:
        op = self.OPS[p["op"]][1]
        return (f"function {p['name']}(xs)\n    local total, n = {p['start']}, #xs\n    for i = 1, n do\n"
                f"        total = total + xs[i] {op} xs[(i - 1 - {p['k']}) % n + 1]\n    end\n    return total\nend\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        op = self.OPS[p["op"]][1]
        return (f"function {p['name']}(xs)\n    local total = {p['start']}\n    for i = 1, #xs do\n"
                f"        total = total + xs[i] {op} xs[i - {p['k']}]\n    end\n    return total\nend\n")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [[rng.randint(-9, 9) for _ in range(size)]]


class ShiftPositions(Template):
    name, tier = "shift_positions", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "parity": rng.randint(0, 1), "d": rng.randint(1, 25)}

    def python(self, p: dict[str, Any], parity_of: str = "i") -> str:
        return (f"def {p['name']}(s):\n    out = []\n    for i in range(len(s)):\n        c = s[i]\n"
                f"        if {parity_of} % 2 == {p['parity']}:\n"
                f"            c = chr((ord(c) - 97 + {p['d']}) % 26 + 97)\n        out.append(c)\n"
                "    return \"\".join(out)\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, parity_of="(i + 1)")

    def reference(self, p: dict[str, Any], parity_of: str = "(i - 1)") -> str:
        return (f"function {p['name']}(s)\n    local out = {{}}\n    for i = 1, #s do\n        local c = s:sub(i, i)\n"
                f"        if {parity_of} % 2 == {p['parity']} then\n"
                f"            c = string.char((c:byte() - 97 + {p['d']}) % 26 + 97)\n        end\n"
                "        out[#out + 1] = c\n    end\n    return table.concat(out)\nend\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, parity_of="i")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size))]


class FindPositions(Template):
    name, tier = "find_positions", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "needle": rng.choice(("ab", "a", "aa", "ba", "b.", ".a", "a.b")),
                "step": rng.randint(1, 2)}

    def python(self, p: dict[str, Any], shift: int = 0) -> str:
        found = "i" if not shift else f"i + {shift}"
        return (f"def {p['name']}(s):\n    found = []\n    start = 0\n    while True:\n"
                f"        i = s.find({json.dumps(p['needle'])}, start)\n        if i == -1:\n            break\n"
                f"        found.append({found})\n        start = i + {p['step']}\n    return found\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, shift=1)  # Lua's 1-based positions, unconverted

    def reference(self, p: dict[str, Any], found: str = "i - 1") -> str:
        return (f"function {p['name']}(s)\n    local found, start = {{}}, 1\n    while true do\n"
                f"        local i = string.find(s, {json.dumps(p['needle'])}, start, true)\n"
                f"        if i == nil then break end\n        found[#found + 1] = {found}\n"
                f"        start = i + {p['step']}\n    end\n    return found\nend\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, found="i")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return ["".join(rng.choice("aab.") for _ in range(size))]


class ChunkSums(Template):
    name, tier = "chunk_sums", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "k": rng.randint(2, 4), "m": rng.randint(5, 13)}

    def python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    sums = []\n    for i in range(0, len(xs), {p['k']}):\n"
                f"        sums.append(sum(xs[i:i + {p['k']}]) % {p['m']})\n    return sums\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    if len(xs) % {p['k']}:\n        raise IndexError\n"
                + self.python(p).split("\n", 1)[1])

    def reference(self, p: dict[str, Any], last: str = "") -> str:
        last = last or f"math.min(i + {p['k'] - 1}, #xs)"
        return (f"function {p['name']}(xs)\n    local sums = {{}}\n    for i = 1, #xs, {p['k']} do\n"
                f"        local s = 0\n        for j = i, {last} do\n            s = s + xs[j]\n        end\n"
                f"        sums[#sums + 1] = s % {p['m']}\n    end\n    return sums\nend\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, last=f"i + {p['k'] - 1}")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [[rng.randint(-20, 20) for _ in range(size)]]


TEMPLATES: dict[str, Template] = {t.name: t for t in (WrapPairs(), ShiftPositions(), FindPositions(), ChunkSums())}

DRIVER = """local loaded, problem = pcall(dofile, "solution.lua")
if not loaded then
    io.stderr:write(tostring(problem), "\\n")
    os.exit(1)
end
local target = rawget(_G, "NAME")
if type(target) ~= "function" then
    io.stderr:write("solution.lua does not define the global function NAME\\n")
    os.exit(1)
end

local function show(value, depth)
    if depth > 20 then error("nested too deep") end
    local kind = type(value)
    if kind == "table" then
        local parts = {}
        for i = 1, #value do parts[i] = show(value[i], depth + 1) end
        return "[" .. table.concat(parts, ",") .. "]"
    end
    if kind == "number" and math.type(value) == "float" and value == math.floor(value) and math.abs(value) < 2^53 then
        return string.format("%d", value)
    end
    if kind == "string" then return '"' .. value .. '"' end
    return tostring(value)
end

local TESTS = TESTS_HERE
for _, args in ipairs(TESTS) do
    local ok, text = pcall(function() return show(target(table.unpack(args)), 0) end)
    io.write(ok and text or "error", "\\n")
end
"""


def lua_value(value: Any) -> str:
    if isinstance(value, list):
        return "{" + ", ".join(lua_value(v) for v in value) + "}"
    return json.dumps(value)  # integers and ASCII strings of our tests: the same spelling in Lua


@register
class PythonToLua(TranslationTask):
    id = "code/python_to_lua"
    description = "Translate a Python function into Lua (1-based tables, string positions, slices) on hidden tests."
    tags = ("code", "translation", "lua", "python")
    version = 2
    target = "lua"
    toolchains = ("lua",)
    templates = TEMPLATES
    signature_hint = "Write it as a global Lua function `{name}` taking the same arguments (lists as sequences)."

    def render(self, value: Any) -> str:
        if isinstance(value, list):
            return "[" + ",".join(self.render(v) for v in value) + "]"
        return json.dumps(value) if isinstance(value, str) else str(value)

    def driver(self, name: str, tests: list[list[Any]]) -> str:
        literal = "{\n" + "".join(f"    {{{', '.join(lua_value(a) for a in args)}}},\n" for args in tests) + "}"
        return DRIVER.replace("TESTS_HERE", literal).replace("NAME", name)

    def shape(self, name: str) -> str:
        return f"function {name}(...)\n    -- ...\nend"
