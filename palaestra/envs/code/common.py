"""Shared machinery of the code family: task bases, prompts, tests and corruptions.

Every code env generates a specification, a **trusted reference** (a Python callable of ours,
run in-process to compute the expected outputs of the hidden tests) and the **reference
source** (the same algorithm rendered as code: the env's reference answer, which only ever
runs in the sandbox). ``tests/code`` checks that the two agree through the sandbox.
Verification is :func:`palaestra.verifiers.code.verify_answer` on ``Problem.data``.
"""

from __future__ import annotations

import builtins
import functools
import json
import random
import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from palaestra.core import Problem, Task, Verdict
from palaestra.verifiers import code as code_verifier
from palaestra.verifiers.verdict_cache import problem_scope

FUNCTION_CHECKED = ("Your function is checked on hidden tests (the examples are among them). Use only the standard "
                    "library; do not read input or print.")


def function_footer(function: str, params: str, checked: str = FUNCTION_CHECKED, what: str = "the function") -> str:
    """How a function answer is ``checked`` and written (an example skeleton that is not the answer)."""
    return (f"{checked} Answer with the complete code of {what} in a ```python code block, for example:\n"
            f"```python\ndef {function}({params}):\n    ...\n```")


STDIO_FOOTER = (
    "Your program is run on hidden tests (the example is among them): it reads the input from standard "
    "input and prints to standard output. Use only the standard library. Answer with the complete program "
    "in a ```python code block, for example:\n```python\nimport sys\n\ndata = sys.stdin.read().split()\n"
    "...\n```"
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


def rejects_near_misses(near_misses: Iterable[Callable[..., Any]], tests: Sequence[dict[str, Any]]) -> bool:
    """Whether every near miss of a reference (a clause left out, a constant moved by one) fails some test, so
    the hidden tests pin the specification down; a near miss that raises where the reference does not fails."""
    for near_miss in near_misses:
        try:
            if all(near_miss(*t["args"]) == t["expected"] for t in tests):
                return False
        except (ArithmeticError, IndexError, ValueError):
            continue
    return True


def pinned_tests(
    source: Callable[[Any], str], spec: Any, near_misses: Iterable[Any], inputs: Sequence[Sequence[Any]], at_least: int
) -> list[dict[str, Any]] | None:
    """The tests, on ``inputs`` (deduplicated), of the function ``solve`` that ``source(spec)`` defines (our own
    code, run in-process: the reference is written once), or None unless their results take ``at_least``
    distinct values and reject the function of every near-miss specification."""
    tests = function_tests(compiled_function(source(spec)), dedupe_inputs(inputs))
    if not varied(tests, at_least=at_least):
        return None
    return tests if rejects_near_misses((compiled_function(source(near)) for near in near_misses), tests) else None


def dedupe_inputs(inputs: Sequence[Sequence[Any]]) -> list[list[Any]]:
    seen, out = set(), []
    for args in inputs:
        key = json.dumps(list(args))
        if key not in seen:
            seen.add(key)
            out.append(list(args))
    return out


@functools.lru_cache(maxsize=1024)
def compiled_function(source: str, name: str = "solve", allowed: tuple[str, ...] | None = None) -> Callable[..., Any]:
    """The function ``name`` that one of **our own** reference sources defines, compiled in-process once
    per source (never a candidate's code: that only runs in the sandbox), with only the builtins named in
    ``allowed`` when given. An env whose gold answer is a Python function uses it as its trusted
    reference, so each algorithm is written once."""
    namespace: dict[str, Any] = {} if allowed is None else {"__builtins__": {b: getattr(builtins, b) for b in allowed}}
    exec(compile(source, f"{name}.py", "exec"), namespace)  # noqa: S102 - our reference source, not model text
    return namespace[name]


def stub_returning(function: str, params: str, value: Any) -> str:
    """Source of a function that ignores its input and returns ``value``."""
    return f"def {function}({params}):\n    return {show(value)}\n"


class CodeTask:
    """What the code tasks share, mixed in before their ``Task`` or ``MultiTurnTask``: their family,
    multi-line answers and the ``partial_credit`` option (constructor, so ``palaestra.make(id,
    partial_credit=True)``, or class attribute), which rewards the fraction of tests passed; by
    default the reward is 1 only when every test passes."""

    family = "code"
    multiline = True
    partial_credit: bool = False  # a class default; the constructor may override it per instance
    option_variants: tuple[dict[str, Any], ...] = ({"partial_credit": True},)

    def __init__(self, answer_format: str | None = None, partial_credit: bool | None = None) -> None:
        super().__init__(answer_format)  # type: ignore[call-arg]  # the task class mixed in after this one
        if partial_credit is not None:
            self.partial_credit = partial_credit


class FunctionTask(CodeTask, Task):
    """A single-turn task whose answer is a Python function checked on hidden tests (subclasses define
    ``difficulty``)."""

    def verify(self, problem: Problem, answer: str) -> Verdict:
        with problem_scope(problem):  # identical candidates on this problem are judged once
            return code_verifier.verify_answer(answer, problem.data, partial_credit=self.partial_credit)

    def spellings(self, problem: Problem) -> list[str]:
        """The reference in a fence (``python`` or ``py``), with a sentence before and after it, with a
        demo under ``if __name__ == "__main__":`` (the tests import the module, so it never runs), with
        a usage example in a second block after it, and indented inside its fence."""
        ref = (problem.answer or "").rstrip("\n") + "\n"
        demo = call_text(problem.data["function"], problem.data["tests"][0]["args"])
        return [
            *super().spellings(problem),
            f"```python\n{ref}```",
            f"Here is the function:\n\n```python\n{ref}```",
            f"```py\n{ref}```",
            f"```python\n{ref}\n\nif __name__ == \"__main__\":\n    print({demo})\n```",
            f"```python\n{ref}```\nFor example:\n```python\nprint({demo})\n```",
            f"```python\n{textwrap.indent(ref, '    ')}```",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """Certainly wrong programs (each costs a sandbox run, so the list is short): a stub returning the
        first test's value for every input (generators keep only problems whose tests have several
        distinct results), the reference wrong on one test only, and the reference under another name."""
        data = problem.data
        name, ref = data["function"], problem.answer or ""
        return [
            stub_returning(name, data.get("params", "*args"), data["tests"][0]["expected"]),
            wrong_on_one_test(ref, name, data["tests"][rng.randrange(len(data["tests"]))]),
            rename_function(ref, name, f"{name}_v2"),
        ]


def rename_function(source: str, name: str, new_name: str) -> str:
    """``source`` with its definition of ``name`` renamed (so ``name`` is no longer defined)."""
    return re.sub(rf"^def {re.escape(name)}\(", f"def {new_name}(", source, count=1, flags=re.MULTILINE)


def other_value(value: Any) -> Any:
    """A JSON value certainly different from ``value`` (of the same kind where possible)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, 0]
    if isinstance(value, dict):
        return {**value, "extra": 0}
    return 0


def wrong_on_one_test(source: str, name: str, test: dict[str, Any]) -> str:
    """The reference function, except that on ``test``'s arguments it returns another value:
    a near miss that passes every other test, so it proves each test is checked."""
    return (
        rename_function(source, name, "_reference")
        + f"\n\ndef {name}(*args):\n"
        + f"    if __import__('json').dumps(list(args)) == {json.dumps(test['args'])!r}:\n"
        + f"        return {show(other_value(test['expected']))}\n"
        + "    return _reference(*args)\n"
    )


def size_note(tests: Sequence[dict[str, Any]], test_seconds: float) -> str:
    """The sizes of the hidden tests' arguments and the time limit, so a correct but too slow
    solution is not a surprise (e.g. "lists have at most 24 elements; each test must finish within 1 s")."""
    longest_list = longest_text = largest = None
    for test in tests:
        for arg in test["args"]:
            if isinstance(arg, list):
                longest_list = max(longest_list or 0, len(arg))
                texts = [len(x) for x in arg if isinstance(x, str)]
                if texts:
                    longest_text = max(longest_text or 0, *texts)
            elif isinstance(arg, str):
                longest_text = max(longest_text or 0, len(arg))
            elif isinstance(arg, int) and not isinstance(arg, bool):
                largest = max(largest or 0, abs(arg))
    parts = []
    if longest_list is not None:
        parts.append(f"lists have at most {longest_list} elements")
    if longest_text is not None:
        parts.append(f"strings have at most {longest_text} characters")
    if largest is not None:
        parts.append(f"integer arguments are at most {largest} in absolute value")
    sizes = f"In the hidden tests, {', '.join(parts)}; each" if parts else "Each"
    return f"{sizes} test must finish within {test_seconds:g} s."


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
    footer: str | None = None,
) -> Problem:
    """A :class:`Problem` for a function task: prompt with examples, tests in ``data``."""
    shown = f"Examples:\n{examples_text(function, tests, examples)}\n\n" if examples else ""
    prompt = f"{task_text}\n\n{shown}{size_note(tests, test_seconds)} {footer or function_footer(function, params)}"
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

    def spellings(self, problem: Problem) -> list[str]:
        ref = (problem.answer or "").rstrip("\n") + "\n"
        out = [
            *Task.spellings(self, problem),
            f"```python\n{ref}```",
            f"Here is the program:\n\n```python\n{ref}```",
        ]
        call = "\n\nmain()\n"
        if ref.endswith(call):  # the program is run as __main__, so a main guard runs too
            guarded = ref[: -len(call)] + '\n\nif __name__ == "__main__":\n    main()\n'
            out.append(f"```python\n{guarded}```")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """A program printing the first test's output (right on that test only) and the reference wrong
        on one test only (an extra output line)."""
        tests = problem.data["tests"]
        test = tests[rng.randrange(len(tests))]
        near_miss = (
            "import io\nimport sys\n\n"
            "_data = sys.stdin.read()\n"
            f"if _data == {test['stdin']!r}:\n"
            f"    print({test['stdout'].rstrip() + chr(10) + '0'!r})\n"
            "else:\n"
            "    sys.stdin = io.StringIO(_data)\n"
            f"    exec(compile({(problem.answer or '')!r}, 'solution.py', 'exec'), {{'__name__': '__main__'}})\n"
        )
        return [f"print({tests[0]['stdout'].rstrip()!r})", near_miss]


def stdio_problem(
    *, task_text: str, tests: list[dict[str, str]], reference_source: str, test_seconds: float = 0.5,
    extra: dict[str, Any] | None = None,
) -> Problem:
    example = tests[0]
    prompt = (
        f"{task_text}\n\nExample input:\n```\n{example['stdin'].rstrip()}\n```\n"
        f"Example output:\n```\n{example['stdout'].rstrip()}\n```\n\n"
        f"The hidden inputs hold at most {max(len(t['stdin'].split()) for t in tests)} numbers and words; each test "
        f"must finish within {test_seconds:g} s. {STDIO_FOOTER}"
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
