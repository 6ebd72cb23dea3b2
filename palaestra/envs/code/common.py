"""Shared machinery of the code family: task bases, prompts, tests and corruptions.

Every code env generates a specification, a **trusted reference** (a Python callable of ours,
run in-process to compute the expected outputs of the hidden tests) and the **reference
source** (the same algorithm rendered as code: the env's reference answer, which only ever
runs in the sandbox). ``tests/code`` checks that the two agree through the sandbox.
Verification is :func:`palaestra.verifiers.code.verify_answer` on ``Problem.data``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from palaestra.core import Problem, Task, Verdict
from palaestra.verifiers import code as code_verifier

FUNCTION_FOOTER = (
    "Your function is checked on hidden tests (the examples are among them). Use only the standard "
    "library; do not read input or print. Answer with the complete code of the function (a ```python "
    "code block inside the answer tags is fine)."
)
STDIO_FOOTER = (
    "Your program is run on hidden tests (the example is among them): it reads the input from standard "
    "input and prints to standard output. Use only the standard library. Answer with the complete program "
    "(a ```python code block inside the answer tags is fine)."
)


def show(value: Any) -> str:
    """A test value as Python literal text (lists, ints, strings, None, booleans)."""
    return repr(value)


def call_text(function: str, args: Sequence[Any]) -> str:
    return f"{function}({', '.join(show(a) for a in args)})"


def pick_examples(tests: Sequence[dict[str, Any]], count: int) -> list[int]:
    """Indices of informative tests to show: non-trivial results on medium-sized inputs first."""
    def score(i: int) -> tuple[bool, bool, int, int]:
        t = tests[i]
        size = len(json.dumps(t["args"]))
        trivial = t["expected"] in (None, 0, "", [], -1, False)
        return (trivial, size < 6, abs(size - 40) // 10, i)

    chosen: list[int] = []
    shown: set[str] = set()
    for i in sorted(range(len(tests)), key=score):  # distinct results first
        key = json.dumps(tests[i]["expected"], sort_keys=True)
        if key not in shown and len(chosen) < count:
            chosen.append(i)
            shown.add(key)
    for i in sorted(range(len(tests)), key=score):
        if i not in chosen and len(chosen) < count:
            chosen.append(i)
    return sorted(chosen)


def examples_text(function: str, tests: Sequence[dict[str, Any]], count: int) -> str:
    chosen = pick_examples(tests, count)
    return "\n".join(f"{call_text(function, tests[i]['args'])} == {show(tests[i]['expected'])}" for i in chosen)


def function_tests(
    reference: Callable[..., Any], inputs: Sequence[Sequence[Any]]
) -> list[dict[str, Any]]:
    """``{"args", "expected"}`` tests, expected values computed by our trusted reference.

    Arguments are copied through JSON first, so a reference that mutates its input cannot
    change the stored test, and every value is checked to be JSON-native.
    """
    tests = []
    for args in inputs:
        stored = json.loads(json.dumps(list(args)))
        expected = reference(*json.loads(json.dumps(list(args))))
        tests.append({"args": stored, "expected": json.loads(json.dumps(expected))})
    return tests


def varied(tests: Sequence[dict[str, Any]], key: str = "expected", at_least: int = 3) -> bool:
    """Whether the tests' expected outputs take at least ``at_least`` distinct values."""
    return len({json.dumps(t[key], sort_keys=True) for t in tests}) >= at_least


def dedupe_inputs(inputs: Sequence[Sequence[Any]]) -> list[list[Any]]:
    seen, out = set(), []
    for args in inputs:
        key = json.dumps(list(args))
        if key not in seen:
            seen.add(key)
            out.append(list(args))
    return out


def stub_returning(function: str, params: str, value: Any) -> str:
    """Source of a function that ignores its input and returns ``value``."""
    return f"def {function}({params}):\n    return {show(value)}\n"


class FunctionTask(Task):
    """A single-turn task whose answer is a Python function checked on hidden tests.

    ``partial_credit=True`` (constructor or class attribute) rewards the fraction of tests
    passed; by default the reward is 1 only when every test passes.
    """

    family = "code"
    partial_credit: ClassVar[bool] = False

    def __init__(self, answer_format: str | None = None, partial_credit: bool | None = None) -> None:
        super().__init__(answer_format)
        if partial_credit is not None:
            self.partial_credit = partial_credit

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return code_verifier.verify_answer(answer, problem.data, partial_credit=self.partial_credit)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """A stub returning the first test's value for every input: it passes some tests but never
        all (generators keep only problems whose tests have several distinct results), so it
        proves that every test counts. Each corruption costs a sandbox run: the list is short."""
        data = problem.data
        return [stub_returning(data["function"], data.get("params", "*args"), data["tests"][0]["expected"])]


def function_problem(
    *,
    function: str,
    params: str,
    task_text: str,
    tests: list[dict[str, Any]],
    reference_source: str,
    examples: int = 2,
    test_seconds: float = 1.0,
    extra: dict[str, Any] | None = None,
    footer: str = FUNCTION_FOOTER,
) -> Problem:
    """A :class:`Problem` for a function task: prompt with examples, tests in ``data``."""
    shown = f"Examples:\n{examples_text(function, tests, examples)}\n\n" if examples else ""
    prompt = f"{task_text}\n\n{shown}{footer}"
    data = {
        "kind": "function",
        "function": function,
        "params": params,
        "tests": tests,
        "test_seconds": test_seconds,
        **(extra or {}),
    }
    return Problem(prompt=prompt, answer=reference_source, data=data)


class StdioTask(FunctionTask):
    """A single-turn task whose answer is a whole program reading stdin and printing to stdout."""

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        first = problem.data["tests"][0]["stdout"]
        return [f"print({first.rstrip()!r})"]  # right on the first test only


def stdio_problem(
    *, task_text: str, tests: list[dict[str, str]], reference_source: str, test_seconds: float = 0.5,
    extra: dict[str, Any] | None = None,
) -> Problem:
    example = tests[0]
    prompt = (
        f"{task_text}\n\nExample input:\n```\n{example['stdin'].rstrip()}\n```\n"
        f"Example output:\n```\n{example['stdout'].rstrip()}\n```\n\n{STDIO_FOOTER}"
    )
    data = {"kind": "stdio", "tests": tests, "test_seconds": test_seconds, **(extra or {})}
    return Problem(prompt=prompt, answer=reference_source, data=data)


def random_ints(rng: random.Random, length: int, lo: int, hi: int) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(length)]


def int_list_inputs(rng: random.Random, count: int, max_len: int, lo: int, hi: int) -> list[list[Any]]:
    """Inputs ``[xs]``: edge cases (empty, one element, all equal, sorted, negative) then random lists."""
    edge = [
        [],
        [rng.randint(lo, hi)],
        [rng.randint(lo, hi)] * min(max_len, 4),
        sorted(random_ints(rng, min(max_len, 6), lo, hi)),
        sorted(random_ints(rng, min(max_len, 6), lo, hi), reverse=True),
        random_ints(rng, min(max_len, 5), lo, min(hi, -1) if lo < 0 else hi),
    ]
    inputs = [[xs] for xs in edge]
    while len(inputs) < count:
        inputs.append([random_ints(rng, rng.randint(2, max_len), lo, hi)])
    return dedupe_inputs(inputs)
