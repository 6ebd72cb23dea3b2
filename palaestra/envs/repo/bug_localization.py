"""Name the function that holds the bug of a generated Python repository (fault localization, no fix asked).

The repository is built as in ``repo/call_chain_bug``: tested functions are the tops of chains of calls across
modules, and one computation at the bottom of a chain holds an injected bug; a visible test of its chain's top
fails, one or more calls above the bug, and names can mislead. The agent explores with the same tools (list,
read, search, run the visible tests; edits are allowed, for experiments, but not judged) and answers with the
name of the function where the bug is.

The answer is judged by the name alone, in the spellings a reviewer accepts: ``name``, ``name()``,
```name```, ``package.module.name``, ``package/module.py::name``, ``module.name``; every function of the
repository has a distinct name, so the bugged one is the unique right answer. Naming a caller on the failing
chain (where the symptom shows), or two functions, is wrong. Distractor computations (eight or more, with
their own callers) keep a guess among the repository's functions, or among its computations only, at about
one in ten or less. The bugged chain has the level's full depth, and so do about 70% of the distractor
chains (the others are shallower): in version 1 a distractor's depth was drawn from 0 to the full depth, so
naming the leaf under the longest chain of callers, without running a test or reading a body, was right in
about 45% of level 4 (a random computation: 8%). The distractors' computations repeat a kind only once
every other kind is used: in version 1 they were drawn independently, and the bugged leaf (whose kind no
distractor takes) was often one of the few computations written only once, a guess among them right in
about 23% of problems. Levels grow the chain's depth, the modules, the
distractor chains and the misleading names; the difficulty is three per call of the chain plus the modules
plus a twentieth of the package's lines plus the misleading names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.common import RepoTask, bug_data, bug_repository, call, intro, package_lines
from palaestra.verifiers.normalize import read_answer

FULL_DEPTH = 0.7  # the share of distractor chains as deep as the bugged one (see the module docstring)


@register
class BugLocalization(RepoTask):
    id = "repo/bug_localization"
    family = "repo"
    description = "Name the function that holds the bug behind a failing test, several calls away, in a repository."
    tags = ("repo", "multi-turn", "tools", "code", "debugging", "agentic")
    version = 2
    final_note = "When you are done, reply without a tool call, with your answer."
    distinct_from = {"repo/call_chain_bug": "localization only: the answer is the bugged function's name, judged "
                                            "as an answer; nothing is fixed or run by the judge"}

    @dataclass(frozen=True)
    class Config:
        modules: int
        depth: int
        distractors: int
        misleading: float
        budget: int

    presets = (
        Config(2, 1, 8, 0.0, 8),
        Config(3, 2, 9, 0.2, 10),
        Config(4, 3, 10, 0.4, 12),
        Config(5, 4, 11, 0.6, 14),
        Config(6, 5, 12, 0.8, 16),
    )
    growth = Growth(steps={"modules": 1, "depth": 1, "distractors": 1, "budget": 2},
                    limits={"modules": 14, "depth": 10, "distractors": 16, "budget": 40})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        found = retry(lambda: bug_repository(rng, modules=config.modules, bugs=1, depth=config.depth,
                                             distractors=config.distractors, misleading=config.misleading,
                                             full_depth=FULL_DEPTH, spread=True),
                      what="a repository whose bug fails a test", attempts=40)
        package = found.repository.package
        leaf = found.bugged[0]
        names = sorted(f.name for f in found.repository.functions)
        chain = [f.name for f in found.repository.functions if leaf in f.chain() and f is not leaf]
        prompt = (
            f"{intro(package)} "
            "A visible test fails because of one bug in the package's code; the failing test's function "
            "calls other functions of the package, which call others, and names can mislead. Find the function "
            "whose own code holds the bug (not a function that only calls it). You need not fix it: answer with "
            "that function's name, e.g. <answer>parse_record</answer>.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": found.files, "hidden": [], "budget": config.budget, "bugs": bug_data(found),
                "package": package, "modules_of": {f.name: f.module for f in found.repository.functions},
                "names": names, "chain": chain, "depth": config.depth, "modules": config.modules,
                "misleading": found.misleading}
        return Problem(prompt=prompt, answer=leaf.name, data=data)

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        return self.judge(problem, answer)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        name = read_answer(answer, lambda text: _function_name(problem.data, text))
        if name is None:
            return Verdict.unparsed("not the name of one function of the repository")
        if name == problem.answer:
            return Verdict.right()
        if name in problem.data["chain"]:
            return Verdict.wrong(f"{name} calls the bugged function; the bug is not in its own code")
        return Verdict.wrong(f"the bug is not in {name}")

    def plan_calls(self, problem: Problem) -> list[str]:
        calls = [call("run_tests")]
        for path, _, _ in problem.data["bugs"]:
            calls.append(call("read_file", path=path))
        return calls

    def plan(self, problem: Problem) -> list[str]:
        return [*self.plan_calls(problem), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        name = problem.answer or ""
        module = problem.data["modules_of"][name]
        package = problem.data["package"]
        return [f"`{name}`", f"{name}()", f"{package}.{module}.{name}", f"{package}/{module}.py::{name}",
                f"{module}.{name}", f"The bug is in {name}.", f"{name} in {package}/{module}.py",
                f"The bug is in the `{name}` function.", f"{package}/{module}.py:{name}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        name = problem.answer or ""
        wrong = problem.data["chain"][:2] + [n for n in problem.data["names"] if n != name][:1]
        return [*wrong, f"{name} or {problem.data['chain'][0]}" if problem.data["chain"] else f"{name}, {wrong[-1]}"]

    def heuristics(self) -> dict[str, Callable[..., str]]:
        """A wrapper that tells the truth is named after the computation under its chain (``checked_parse`` over
        ``parse``): naming the failing test's function without its wrapper prefixes, with no body read, is right
        when the top name is not misleading (measured over seeds 0-149: 0.90, 0.73, 0.51, 0.34, 0.16 at levels
        0-4; the misleading names' share grows with the level)."""
        return {"the failing test's function, its wrapper prefixes stripped":
                lambda problem, state, history, rng: _named_after(problem)}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["depth"] + data["modules"] + package_lines(data["files"]) / 20 + data["misleading"]


WRAPPER_PREFIXES = frozenset(prefix for wrapper in tpl.WRAPPERS for prefix in wrapper.names)


def _named_after(problem: Problem) -> str:
    """The heuristic's answer: the top of the bugged chain (the failing test's function), less its prefixes."""
    name = problem.data["chain"][-1] if problem.data["chain"] else problem.answer or ""
    for _ in range(len(problem.data["chain"]) + 1):
        head, _, rest = name.partition("_")
        if head not in WRAPPER_PREFIXES or not rest:
            break
        name = rest
    return name


LEAD_INS = ("the bug is in the function ", "the bug is in function ", "the bug is in ", "the buggy function is ",
            "the function with the bug is ", "the function is ", "it is ", "function ", "def ", "the ")
TAILS = (" function", " method")  # "the `parse` function"
WHERE = (" in ", " (in ", " (", ", in ")  # "parse in pkg/mod.py", "parse (pkg/mod.py)"


def _function_name(data: Mapping[str, Any], text: str) -> str | None:
    """The repository function ``text`` names (bare, with ``()``, backticks, ``def``, a module or file path before it
    or its file after it: ``name in pkg/mod.py``), or None; a module or file that is not the function's is
    unreadable."""
    text = text.strip().strip("`").strip()
    for lead in LEAD_INS:  # the first that fits, any case: "The buggy function is f", "The bug is in function f"
        if text.lower().startswith(lead):
            text = text[len(lead):]
            break
    if text.lower().startswith("the "):  # "The bug is in the `parse` function"
        text = text[4:]
    text = text.strip()
    where = ""
    for mark in WHERE:  # its file after the name: "parse in pkg/mod.py", "parse (pkg/mod.py)"
        name, found, rest = text.partition(mark)
        if found and name.strip() and " " not in name.strip().strip("`"):
            text, where = name, rest.removesuffix(")").strip().strip("`").strip()
            if where.startswith(("file ", "module ")):
                where = where.split(" ", 1)[1].strip().strip("`")
            break
    text = text.strip().strip("`").strip()
    for tail in TAILS:
        if text.lower().endswith(tail):
            text = text[: -len(tail)].strip().strip("`").strip()
    text = text.removesuffix("()").strip()
    if "::" in text or (":" in text and text.partition(":")[0].endswith(".py")):  # pkg/mod.py::name, pkg/mod.py:name
        path, _, text = text.partition("::") if "::" in text else text.partition(":")
        if not path.endswith(".py"):
            return None
        where = where or path
    elif "." in text:
        parts = text.split(".")
        text = parts[-1]
        if parts[0] != data["package"] and parts[0] not in data["modules_of"].values():
            return None
    if text not in data["modules_of"]:
        return None
    if where and where.removeprefix("./") not in _places(data, text):
        return None
    return text


def _places(data: Mapping[str, Any], name: str) -> set[str]:
    """How an answer may name the module of function ``name``: its file (with or without the package folder) or
    its dotted module path."""
    module, package = data["modules_of"][name], data["package"]
    return {f"{package}/{module}.py", f"{module}.py", f"{package}.{module}", module}
