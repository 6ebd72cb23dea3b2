"""JavaScript (Node) repositories for the repo family: the leaves and wrappers in JavaScript, rendering, the runners.

Each JavaScript leaf has the same key, meaning and bug list (index for index) as a Python leaf of
:mod:`palaestra.envs.repo._templates`, so the generator computes expected values (and whether a bug changes a
result) with the Python template's behaviour; every pair is written to agree on the inputs the leaf's draw
produces (integers, lists of integers; JavaScript's ``slice`` and ``range`` with a negative length both give
nothing). A repository is ``src/<module>.js`` files (CommonJS: ``require``/``module.exports``) and
``tests/<name>.test.js`` files calling a global ``test(name, fn)`` with Node's ``assert``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

JS_LEAVES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "window_sums": (
        "function NAME(values, size) {\n"
        "  const sums = [];\n"
        "  for (let start = 0; start < values.length - size + 1; start++) {\n"
        "    sums.push(values.slice(start, start + size).reduce((a, b) => a + b, 0));\n"
        "  }\n"
        "  return sums;\n"
        "}\n",
        (("values.length - size + 1", "values.length - size"), ("start + size)", "start + size - 1)"))),
    "count_above": (
        "function NAME(values, limit) {\n"
        "  let count = 0;\n"
        "  for (const value of values) {\n"
        "    if (value > limit) {\n"
        "      count += 1;\n"
        "    }\n"
        "  }\n"
        "  return count;\n"
        "}\n",
        (("value > limit", "value >= limit"), ("count += 1", "count += value"))),
    "running_max": (
        "function NAME(values) {\n"
        "  let best = null;\n"
        "  const peaks = [];\n"
        "  for (const value of values) {\n"
        "    if (best === null || value > best) {\n"
        "      best = value;\n"
        "    }\n"
        "    peaks.push(best);\n"
        "  }\n"
        "  return peaks;\n"
        "}\n",
        (("value > best", "value < best"), ("peaks.push(best)", "peaks.push(value)"))),
    "dedupe": (
        "function NAME(items) {\n"
        "  const seen = new Set();\n"
        "  const kept = [];\n"
        "  for (const item of items) {\n"
        "    if (!seen.has(item)) {\n"
        "      seen.add(item);\n"
        "      kept.push(item);\n"
        "    }\n"
        "  }\n"
        "  return kept;\n"
        "}\n",
        (("kept.push(item)", "kept.unshift(item)"), ("if (!seen.has(item))", "if (!kept.slice(1).includes(item))"))),
    "clamp": (
        "function NAME(values, low, high) {\n"
        "  return values.map((value) => Math.min(Math.max(value, low), high));\n"
        "}\n",
        (("Math.min(Math.max(value, low), high)", "Math.max(Math.min(value, low), high)"),
         ("Math.min(Math.max(value, low), high)", "Math.min(Math.max(value, high), low)"))),
    "weighted_total": (
        "function NAME(prices, counts) {\n"
        "  let total = 0;\n"
        "  for (let index = 0; index < prices.length; index++) {\n"
        "    total += prices[index] * counts[index];\n"
        "  }\n"
        "  return total;\n"
        "}\n",
        (("prices[index] * counts[index]", "prices[index] + counts[index]"), ("let index = 0;", "let index = 1;"))),
    "chunks": (
        "function NAME(values, size) {\n"
        "  const chunks = [];\n"
        "  for (let start = 0; start < values.length; start += size) {\n"
        "    chunks.push(values.slice(start, start + size));\n"
        "  }\n"
        "  return chunks;\n"
        "}\n",
        (("values.slice(start, start + size)", "values.slice(start, start + size - 1)"),
         ("start < values.length;", "start < values.length - size;"))),
    "merge": (
        "function NAME(left, right) {\n"
        "  const merged = [];\n"
        "  let i = 0;\n"
        "  let j = 0;\n"
        "  while (i < left.length && j < right.length) {\n"
        "    if (left[i] <= right[j]) {\n"
        "      merged.push(left[i]);\n"
        "      i += 1;\n"
        "    } else {\n"
        "      merged.push(right[j]);\n"
        "      j += 1;\n"
        "    }\n"
        "  }\n"
        "  return merged.concat(left.slice(i), right.slice(j));\n"
        "}\n",
        (("right.slice(j)", "right.slice(j + 1)"), ("left[i] <= right[j]", "left[i] >= right[j]"))),
    "spread": (
        "function NAME(values) {\n"
        "  if (values.length === 0) {\n"
        "    return 0;\n"
        "  }\n"
        "  return Math.max(...values) - Math.min(...values);\n"
        "}\n",
        (("Math.max(...values) - Math.min(...values)", "Math.max(...values) - values[0]"),
         ("Math.max(...values) - Math.min(...values)", "Math.max(...values) + Math.min(...values)"))),
}

JS_WRAPPERS = {
    "validate": ("function NAME(PARAMS) {\n"
                 "  if (FIRST.length > 10000) {\n"
                 "    throw new Error(\"input too large\");\n"
                 "  }\n"
                 "  return INNER(PARAMS);\n"
                 "}\n"),
    "copy": ("function NAME(PARAMS) {\n"
             "  FIRST = FIRST.slice();\n"
             "  const result = INNER(PARAMS);\n"
             "  return result;\n"
             "}\n"),
    "label": ("function NAME(PARAMS) {\n"
              "  return { result: INNER(PARAMS), size: FIRST.length };\n"
              "}\n"),
    "listed": ("function NAME(PARAMS) {\n"
               "  const outcome = INNER(PARAMS);\n"
               "  return [outcome];\n"
               "}\n"),
}


def camel(name: str) -> str:
    """``window_sums`` -> ``windowSums``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def js_function_text(kind: str, key: str, name: str, params: str, inner: str | None, bug: int | None) -> str:
    if kind == "leaf":
        source, bugs = JS_LEAVES[key]
        if bug is not None:
            old, new = bugs[bug]
            assert source.count(old) >= 1
            source = source.replace(old, new, 1)
        return source.replace("NAME", name)
    first = params.split(",")[0].strip()
    assert inner is not None
    return (JS_WRAPPERS[key].replace("NAME", name).replace("INNER", inner).replace("PARAMS", params)
            .replace("FIRST", first))


@dataclass
class JsRepository:
    """JavaScript rendering of a :class:`~palaestra.envs.repo.common.Repository` (function names in camelCase)."""

    repository: Any

    def path(self, module: str) -> str:
        return f"src/{module}.js"

    def function_text(self, function: Any, bugged: bool = True) -> str:
        inner = camel(function.inner.name) if function.inner is not None else None
        return js_function_text(function.kind, function.key, camel(function.name), function.params, inner,
                                function.bug if bugged else None)

    def module_text(self, module: str, bugged: bool = True) -> str:
        members = [f for f in self.repository.functions if f.module == module]
        imports: dict[str, list[str]] = {}
        for f in members:
            if f.inner is not None and f.inner.module != module:
                imports.setdefault(f.inner.module, []).append(camel(f.inner.name))
        header = f'"use strict";\n// {module.capitalize()} helpers.\n\n'
        requires = "".join(f"const {{ {', '.join(sorted(set(names)))} }} = require(\"./{source}.js\");\n"
                           for source, names in sorted(imports.items()))
        body = "".join(self.function_text(f, bugged) + "\n" for f in members)
        exports = ", ".join(camel(f.name) for f in members)
        return header + (requires + "\n" if requires else "") + body + f"module.exports = {{ {exports} }};\n"

    def test_text(self, function: Any, cases: list[tuple[list[Any], Any]]) -> str:
        name = camel(function.name)
        lines = ['const assert = require("assert");',
                 f"const {{ {name} }} = require(\"../{self.path(function.module)}\");", ""]
        for number, (args, expected) in enumerate(cases, start=1):
            lines += [f"test(\"{name} {number}\", () => {{",
                      f"  assert.deepStrictEqual({name}({', '.join(json.dumps(a) for a in args)}), "
                      f"{json.dumps(expected)});", "});", ""]
        return "\n".join(lines)

    def files(self, tested: list[tuple[Any, list[tuple[list[Any], Any]]]]) -> dict[str, str]:
        files = {self.path(module): self.module_text(module) for module in self.repository.modules}
        for function, cases in tested:
            files[f"tests/{camel(function.name)}.test.js"] = self.test_text(function, cases)
        return files


# The visible tests' runner (our code, run by node as the main program next to the repository's files).
JS_RUNNER = r'''
"use strict";
const fs = require("fs");
const path = require("path");
const registered = [];
global.test = (name, fn) => registered.push([String(name), fn]);
const SHOWN = __SHOWN__;
let passed = 0;
const failures = [];
const names = fs.existsSync("tests") ? fs.readdirSync("tests").filter((n) => n.endsWith(".test.js")).sort() : [];
const brief = (e) => String(e && e.message !== undefined ? e.message : e).split("\n").map((s) => s.trim())
  .filter((s) => s).slice(0, 8).join(" ").slice(0, 300);
for (const name of names) {
  registered.length = 0;
  try {
    require(path.resolve("tests", name));
  } catch (e) {
    failures.push(`tests/${name}: could not be loaded: ${brief(e)}`);
    continue;
  }
  for (const [title, fn] of registered.slice()) {
    try {
      fn();
      passed += 1;
    } catch (e) {
      failures.push(`tests/${name} > ${title}: ${brief(e)}`);
    }
  }
}
console.log(`${passed} passed, ${failures.length} failed`);
for (const line of failures.slice(0, SHOWN)) console.log("FAILED " + line);
if (failures.length > SHOWN) console.log(`... and ${failures.length - SHOWN} more failures`);
'''

# The hidden tests' runner: each case's value (or its error) as JSON on one line after a token read from stdin.
JS_HIDDEN = r'''
"use strict";
const fs = require("fs");
const path = require("path");
const cases = JSON.parse(fs.readFileSync("cases.json", "utf8"));
const results = [];
for (const [file, name, args] of cases) {
  try {
    const value = require(path.resolve(file))[name](...args);
    const text = JSON.stringify(value);
    results.push(text === undefined ? { error: "not a JSON value" } : { value: JSON.parse(text) });
  } catch (e) {
    results.push({ error: String(e && e.message !== undefined ? e.message : e).slice(0, 200) });
  }
}
const token = fs.readFileSync(0, "utf8").trim();
console.log(token + " " + JSON.stringify(results));
'''
