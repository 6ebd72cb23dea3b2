"""Shared machinery of the multi-language code envs (C, C++, JavaScript, Python, Verilog, SQL).

Every env here renders a **reference program in each language it accepts** (the gold answer is
one of them, in a language drawn per problem; the others are its alternative spellings) and
computes expected outputs **in-process** from trusted Python: a stdin/stdout template's own Python
program (:func:`run_reference`, so each algorithm is written once in Python) or, in the other
envs, a Python reference of the env. The programs' text lives in ``templates/`` (data files, see
:mod:`palaestra.envs.code.templates`). ``tests/code/test_polyglot_envs.py`` checks that every
reference program agrees with the trusted outputs through the sandbox. Verification goes through
:mod:`palaestra.verifiers.polyglot` (the answer convention, one sandbox job per candidate).

stdin/stdout problems (:class:`StdioTemplate`, :func:`stdio_problem`) are multi-test: the input
starts with the number of tests ``T`` and every test's answer is one output line, so one run
of the candidate judges every test. The C++ reference of a template is its C reference (written
in the common subset of both languages): one source, two compilers.
"""

from __future__ import annotations

import builtins
import functools
import io
import json
import math
import random
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, Task, Verdict
from palaestra.core.retry import retry
from palaestra.envs.code.common import CodeTask
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence, read_program
from palaestra.verifiers.verdict_cache import problem_scope

STDIO_LANGUAGES = ("python", "c", "cpp", "javascript")
CODE = ProgramTexts("polyglot")  # the multi-test main loop around a template's solve, per language
LABELLED = "Case #i: followed by its answer, where i numbers the tests from 1"
ALIASES = {"python": "py", "c": "C", "cpp": "c++", "javascript": "js", "verilog": "systemverilog", "sql": "sqlite",
           "bash": "sh", "lua": "Lua", "go": "golang", "prolog": "swipl"}

SKELETONS = {
    "python": "import sys\n\ndata = sys.stdin.read().split()\nt = int(data[0])\n# read each test, print its answer",
    "c": "#include <stdio.h>\n\nint main(void) {\n    int t;\n    scanf(\"%d\", &t);\n"
         "    while (t--) { /* read one test, print its answer */ }\n    return 0;\n}",
    "cpp": "#include <cstdio>\n\nint main() {\n    int t;\n    std::scanf(\"%d\", &t);\n"
           "    while (t--) { /* read one test, print its answer */ }\n}",
    "javascript": "const data = require(\"fs\").readFileSync(0, \"utf8\").split(/\\s+/).filter(Boolean);\n"
                  "let pos = 0;\nconst t = Number(data[pos++]);\n// read each test, print its answer",
    "go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar t int\n\tfmt.Scan(&t)\n"
          "\tfor i := 0; i < t; i++ {\n\t\t// read one test, print its answer\n\t}\n}",
}


def convention(languages: Sequence[str], example: str | None = None, shape: str | None = None) -> str:
    """The prompt's paragraph on how to write the answer, with an example of its shape that is not
    the answer: ``shape`` (code in ``languages[0]``), or the skeleton of a multi-test program in
    ``example``'s language."""
    names = [polyglot.LANGUAGE_NAMES[lang] for lang in languages]
    which = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    text = (f"Write it in {which}. Answer with the complete code in one fenced code block labelled with its "
            f"language ({polyglot.labels_text(languages)}) inside the answer tags")
    if shape is not None:
        return f"{text}, for example (the shape only):\n<answer>\n{fence((languages[0], shape))}\n</answer>"
    if example is None:
        return text + "."
    lang = example if example in SKELETONS else languages[0]
    return f"{text}, for example (the shape only):\n<answer>\n{fence((lang, SKELETONS[lang]))}\n</answer>"


class PolyglotTask(CodeTask, Task):
    """A single-turn task whose answer is a program in one of ``problem.data["languages"]``.

    Subclasses implement :meth:`judge` (run a read program against the problem's tests) and
    :meth:`sources` (the reference program in every accepted language). ``partial_credit=True``
    rewards the fraction of tests passed.
    """

    toolchains: ClassVar[tuple[str, ...]] = STDIO_LANGUAGES  # sandbox languages the env's problems need

    def judge(self, problem: Problem, program: Program) -> Report:
        raise NotImplementedError

    def sources(self, problem: Problem) -> dict[str, str]:
        """The reference program in every language the problem accepts."""
        raise NotImplementedError

    def required_name(self, problem: Problem) -> str | None:
        """The function, class or module the answer must define (None: a whole program)."""
        return None

    def verify(self, problem: Problem, answer: str) -> Verdict:
        program = read_program(answer, problem.data["languages"])
        if isinstance(program, str):
            return Verdict.unparsed(program)
        name = self.required_name(problem)
        if name is not None and not polyglot.mentions(program.code, name):
            return Verdict.wrong(f"the code does not define {name}")
        with problem_scope(problem):  # identical candidates on this problem are judged once
            return self.judge(problem, program).verdict(self.partial_credit)

    def spellings(self, problem: Problem) -> list[str]:
        """The gold program under another label and between sentences, and the reference in the
        next accepted language (each other language costs a sandbox run, so one per problem)."""
        languages = problem.data["languages"]
        gold = problem.data["gold"]
        code = self.sources(problem)[gold]
        out = [f"Here is my solution.\n\n{fence((gold, code), ALIASES[gold])}"]
        if len(languages) > 1:
            other = languages[(languages.index(gold) + 1) % len(languages)]
            out.append(fence((other, self.sources(problem)[other])))
        elif gold not in polyglot.FENCE_REQUIRED:
            out.append(code)  # a single-language problem also takes bare code
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """The gold program cut short (it cannot compile or ends early), and the gold program
        labelled as another language when several are accepted."""
        gold = problem.data["gold"]
        code = self.sources(problem)[gold]
        lines = code.splitlines()
        out = [fence((gold, "\n".join(lines[: max(1, len(lines) // 2)])))]
        others = [lang for lang in problem.data["languages"] if lang != gold and {lang, gold} != {"c", "cpp"}]
        if others:
            out.append(fence((rng.choice(others), code)))
        return out


class Template:
    """One kind of problem of a templated env: its name (stored as ``data["template"]``), its algorithmic tier
    (part of the difficulty measure), how it draws its JSON-native parameters, its statement and its reference
    program (the gold answer)."""

    name: ClassVar[str]
    tier: ClassVar[int] = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def reference(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        """The arguments of one test of about ``size`` (a function template's; others draw cases their own way)."""
        raise NotImplementedError


class TemplatedTask(PolyglotTask):
    """A task each of whose problems comes from one of ``templates`` (its name in ``data["template"]``, its
    parameters in ``data["params"]``); by default answered in the one language ``languages[0]``, with the
    template's ``reference(params)`` as the gold program."""

    templates: ClassVar[Mapping[str, Any]] = {}
    languages: ClassVar[tuple[str, ...]]
    budget: ClassVar[Budget] = Budget(cpu_seconds=1.0)  # a candidate's run with the trusted driver

    def template(self, problem: Problem) -> Any:
        return self.templates[problem.data["template"]]

    def judge(self, problem: Problem, program: Program) -> Report:
        """The candidate with the template's trusted driver (its ``driver(params)``) on the stored inputs."""
        data = problem.data
        return polyglot.check_program(program, join_cases(data["inputs"]), data["expected"],
                                      driver=self.template(problem).driver(data["params"]), budget=self.budget)

    def sources(self, problem: Problem) -> dict[str, str]:
        return {self.languages[0]: self.template(problem).reference(problem.data["params"])}

    def difficulty(self, problem: Problem) -> float:
        """The template's algorithmic tier plus log2 of the tests' input (``data["inputs"]``) length in characters."""
        return self.template(problem).tier + math.log2(1 + sum(len(text) for text in problem.data["inputs"]))

    def templated_problem(self, template: Any, p: dict[str, Any], prompt: str, **data: Any) -> Problem:
        """The problem ``prompt`` asks, from ``template`` with parameters ``p``; ``data``: its tests."""
        gold = self.languages[0]
        data = {"template": template.name, "params": p, **data, "languages": [gold], "gold": gold}
        return Problem(prompt=prompt, answer=fence((gold, template.reference(p))), data=data)


# --- stdin/stdout templates -------------------------------------------------------------------

class StdioTemplate(Template):
    """One kind of stdin/stdout problem. ``params`` (JSON-native) vary the statement; a test case
    is JSON-native data; ``answer`` is the trusted reference (one output line): by default the
    template's own Python program run in-process, so each algorithm is written once in Python.
    Its reference programs are :meth:`sources` (one per language). ``pinned``: the integer parameters that
    the tests must pin down (the answers for the parameter moved by one differ on some test), so a program
    with a stated constant off by one fails. ``modulus``: the parameter holding the stated modulus M of an answer
    asked "modulo M" (its value 0: no modulus asked); the problem's tests reach it (see :func:`fitted_modulus`).
    ``slips``: named near-miss programs (a loop bound or an index off by one) that the tests must tell apart from
    the reference (see :meth:`slip_answer`)."""

    pinned: ClassVar[tuple[str, ...]] = ()
    modulus: ClassVar[str] = ""
    slips: ClassVar[tuple[str, ...]] = ()

    def case(self, rng: random.Random, params: dict[str, Any], size: int) -> Any:
        raise NotImplementedError

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        """A test's input lines: by default a list as its length, then its items on one line; any other value
        on one line."""
        if isinstance(case, list):
            return f"{len(case)}\n{' '.join(map(str, case))}\n"
        return f"{case}\n"

    def answer(self, case: Any, params: dict[str, Any]) -> str:
        """One test's expected line: what the Python reference prints on that test alone."""
        return run_reference(_reference_program(self, json.dumps(params, sort_keys=True)),
                             join_cases([self.case_input(case, params)]))

    def sources(self, params: dict[str, Any]) -> dict[str, str]:
        """``python``, ``c`` (also compiled as C++) and ``javascript`` reference programs."""
        raise NotImplementedError

    def slip_answer(self, slip: str, case: Any, params: dict[str, Any]) -> str | None:
        """What a program with the named slip (one of ``slips``) prints on one test, or None when the slip does not
        apply to a problem with ``params``."""
        raise NotImplementedError

    def redraws(self) -> bool:
        """Whether a problem's tests are drawn again when they do not tell a slip apart (pinned constants, a modulus
        to reach, named slips)."""
        return bool(self.pinned or self.modulus or self.slips)


@functools.lru_cache(maxsize=64)
def _reference_program(template: StdioTemplate, params_json: str) -> types.CodeType:
    """The template's Python program for ``params`` (unlabelled lines), compiled once."""
    source = template.sources({**json.loads(params_json), "labelled": False})["python"]
    return compile(source, f"{template.name}.py", "exec")


def run_reference(program: types.CodeType, stdin: str) -> str:
    """What one of **our own** Python reference programs prints on ``stdin``, run in this process
    (never a candidate's code: that only runs in the sandbox). The program sees ``stdin`` as
    ``sys.stdin`` and its ``print`` output is collected; nothing else of the process changes."""
    printed: list[str] = []
    own_sys = types.SimpleNamespace(stdin=io.StringIO(stdin))

    def import_module(name: str, *args: Any, **kwargs: Any) -> Any:
        return own_sys if name == "sys" else __import__(name, *args, **kwargs)

    def collect(*values: Any, sep: str = " ", end: str = "\n") -> None:
        printed.append(sep.join(map(str, values)) + end)

    namespace = {"__name__": "__main__",
                 "__builtins__": {**vars(builtins), "__import__": import_module, "print": collect}}
    exec(program, namespace)  # noqa: S102 - our reference program, not model text
    return "".join(printed).rstrip("\n")


def random_word(rng: random.Random, length: int, letters: str) -> str:
    return "".join(rng.choice(letters) for _ in range(length))


def join_cases(inputs: Sequence[str]) -> str:
    """The whole input of a multi-test run: ``T`` then every test's lines."""
    return f"{len(inputs)}\n" + "".join(inputs)


def near_misses(params: dict[str, Any], keys: Iterable[str]) -> Iterator[dict[str, Any]]:
    """``params`` with one of the integer parameters ``keys`` moved by one, each way: what a program that misreads
    a stated constant (a bound "at least 2" read as 3, a gap or a distance off by one) computes."""
    for key in keys:
        for step in (-1, 1):
            yield {**params, key: params[key] + step}


def pins_constants(near: Iterable[dict[str, Any]], outputs: Callable[[dict[str, Any]], list[Any]],
                   expected: list[Any]) -> bool:
    """Whether the tests' results under every parameter set of ``near`` (see :func:`near_misses`) differ from
    ``expected`` on some test, so that a program with a stated constant off by one fails; a set under which the
    reference breaks (a bound past its range) counts as told apart."""
    for params in near:
        try:
            if outputs(params) == expected:
                return False
        except (ArithmeticError, IndexError, KeyError, ValueError):
            continue
    return True


# The moduli a problem may state, smallest first: the drawn one when a test's answer reaches it, else one that a
# test reaches (small tests' counts are small).
MODULI = (11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 211, 499, 997, 1009,
          2003, 4999, 10007, 65537, 999983, 1000003, 998244353, 1000000007)
UNBOUNDED = 10**60  # a modulus no answer of our tests reaches: the reference with it computes the true count


def fitted_modulus(rng: random.Random, drawn: int, largest: int) -> int | None:
    """The modulus a problem states: ``drawn`` when the largest true answer of its tests (``largest``) reaches it,
    else one of the four largest of :data:`MODULI` that it reaches (None when it reaches none). Some test's true
    answer is then at least the modulus, so a program that leaves the modulus out (or takes another) fails."""
    if largest >= drawn:
        return drawn
    reached = [m for m in MODULI if m <= largest]
    return rng.choice(reached[-4:]) if reached else None


def stdio_problem(
    rng: random.Random,
    template: StdioTemplate,
    sizes: Sequence[int],
    *,
    languages: Sequence[str] = STDIO_LANGUAGES,
    limits_text: str = "",
    extra: dict[str, Any] | None = None,
    min_distinct: int = 3,
) -> Problem | None:
    """A multi-test stdin/stdout problem from ``template`` with one test per size, or None when
    the tests' answers are too uniform (fewer than ``min_distinct`` distinct lines)."""
    params = {**template.params(rng), "labelled": rng.random() < 0.5}
    return _multi_test_problem(rng, template, params, sizes, [], languages, limits_text, min_distinct,
                               {"cpu_seconds": 2.0, **(extra or {})})


def _multi_test_problem(
    rng: random.Random, template: StdioTemplate, params: dict[str, Any], sizes: Sequence[int],
    large: Sequence[int], languages: Sequence[str], limits_text: str, min_distinct: int, extra: dict[str, Any],
) -> Problem | None:
    """The problem of :func:`stdio_problem` and :func:`efficiency_problem`: tests of the ``sizes``
    answered now (the example is drawn from them), those of the ``large`` sizes hidden and answered
    when a candidate is judged (their expected lines are None)."""
    cases = [template.case(rng, params, size) for size in [*sizes, *large]]
    if template.modulus and params[template.modulus]:  # the stated modulus is one that the tests' counts reach
        unbounded = {**params, template.modulus: UNBOUNDED}
        largest = max(int(template.answer(case, unbounded)) for case in cases[: len(sizes)])
        modulus = fitted_modulus(rng, params[template.modulus], largest)
        if modulus is None:
            return None
        params = {**params, template.modulus: modulus}
    inputs = [template.case_input(case, params) for case in cases]
    if len(set(inputs)) < len(inputs):  # a repeated test adds nothing, and may only repeat the example's
        return None
    answers = [template.answer(case, params) for case in cases[: len(sizes)]]
    if len(set(answers)) < min(min_distinct, len(answers)):
        return None
    if not pins_constants(near_misses(params, template.pinned),  # a stated constant off by one must fail some test
                          lambda near: [template.answer(case, near) for case in cases[: len(sizes)]], answers):
        return None
    for slip in template.slips:  # each named near-miss program fails some test
        wrong = [template.slip_answer(slip, case, params) for case in cases[: len(sizes)]]
        if wrong == answers:
            return None
    expected = [f"Case #{i}: {a}" if params["labelled"] else a for i, a in enumerate(answers, 1)]
    shown = _example_indices(inputs[: len(sizes)], expected, count=3 if large else 2)
    example_in = join_cases([inputs[i] for i in shown]).rstrip()
    example_out = "\n".join(relabel(expected[i], k) for k, i in enumerate(shown, 1))
    gold = rng.choice(list(languages))
    prompt = (
        f"{template.statement(params)}\n\n"
        "The input starts with a line holding T, the number of tests; the T tests follow, each in the format "
        f"above. Print one line per test: {LABELLED if params['labelled'] else 'its answer'}.\n"
        + (f"{limits_text}\n" if limits_text else "")
        + f"\nExample input:\n```\n{example_in}\n```\nExample output:\n```\n{example_out}\n```\n\n"
        f"Your program is run once on {'the ' if large else ''}hidden tests and its output is compared line by "
        "line. "
        + convention(languages, gold)
    )
    sources = template.sources(params)
    data = {"template": template.name, "params": params, "inputs": inputs, "languages": list(languages),
            "expected": [*expected, *[None] * len(large)], "gold": gold, **extra}
    if large:  # the hidden tests are answered from their cases when a candidate is judged
        data["cases"] = cases
    return Problem(prompt=prompt, answer=fence((gold, sources["c" if gold == "cpp" else gold])), data=data)


def relabel(line: str, number: int) -> str:
    """An expected line as the ``number``-th test's (its ``Case #i: `` label renumbered)."""
    if line.startswith("Case #"):
        return f"Case #{number}: {line.split(': ', 1)[1]}"
    return line


def _example_indices(inputs: Sequence[str], expected: Sequence[str], count: int = 2) -> list[int]:
    """The shortest tests with distinct answers (at most ``count``), in their order."""
    order = sorted(range(len(inputs)), key=lambda i: (len(inputs[i]), i))
    chosen: list[int] = []
    for i in order:
        if expected[i] not in {expected[j] for j in chosen} and len(chosen) < count:
            chosen.append(i)
    return sorted(chosen)


@dataclass(frozen=True)
class SizedConfig:
    """A level of a templated env whose tests grow: the templates drawn from, the largest test's size and
    the number of tests."""

    templates: tuple[str, ...]
    max_size: int
    tests: int


class StdioPolyglotTask(TemplatedTask):
    """A task built on :class:`StdioTemplate` s (``templates``: name -> template instance).

    By default a problem is one drawn template with ``config.tests`` tests of sizes from half of
    ``config.max_size`` (at least ``smallest``) to all of it, the first at most ``example_size`` (it
    is the example's); the prompt states :meth:`limits`."""

    smallest: ClassVar[int] = 2
    example_size: ClassVar[int] = 4
    min_distinct: ClassVar[int] = 3  # distinct answers the tests need
    sizes_in_data: ClassVar[bool] = False  # the tests' sizes stored as data["sizes"]
    what: ClassVar[str] = "a problem with varied answers"

    def limits(self, config: Any) -> str:
        """The prompt's line on the hidden tests' limits."""
        raise NotImplementedError

    def distinct_answers(self, template: StdioTemplate) -> int:
        return self.min_distinct

    def generate(self, rng: random.Random, config: Any) -> Problem:
        def draw() -> Problem | None:
            template = self.templates[rng.choice(config.templates)]
            # A template with pinned constants (a modulus to reach, named slips) draws its tests again itself (not
            # another template: the mix of templates stays as drawn); the others draw once, as they always did.
            for _ in range(40 if template.redraws() else 1):
                sizes = [rng.randint(max(self.smallest, config.max_size // 2), config.max_size)
                         for _ in range(config.tests)]
                sizes[0] = min(sizes[0], self.example_size)  # a small test for the example
                made = stdio_problem(rng, template, sizes, limits_text=self.limits(config),
                                     min_distinct=self.distinct_answers(template),
                                     extra={"sizes": sizes} if self.sizes_in_data else None)
                if made is not None:
                    return made
            return None

        return retry(draw, attempts=50, what=self.what)

    def sources(self, problem: Problem) -> dict[str, str]:
        made = self.template(problem).sources(problem.data["params"])
        return {"python": made["python"], "c": made["c"], "cpp": made["c"], "javascript": made["javascript"]}

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        return polyglot.check_program(program, join_cases(data["inputs"]), data["expected"],
                                      budget=Budget(cpu_seconds=float(data["cpu_seconds"])))


# --- program wrappers: the multi-test main loop around a template's solve -----------------------

def python_program(body: str, params: dict[str, Any], imports: str = "") -> str:
    """A Python program: ``next_int()``/``next_word()`` readers, ``body`` defining ``solve()`` (which
    returns one test's answer), and the loop printing ``solve()`` for each of the T tests (after
    ``Case #i: `` when ``params["labelled"]``)."""
    if params.get("labelled"):
        main = 'print("\\n".join(f"Case #{i}: {solve()}" for i in range(1, next_int() + 1)))'
    else:
        main = 'print("\\n".join(str(solve()) for _ in range(next_int())))'
    return CODE("main.python", imports=imports, body=body.strip("\n"), main=main)


def c_program(body: str, params: dict[str, Any], word_bytes: int = 1 << 12) -> str:
    """A C program (also valid C++): ``next_int()``/``next_word()`` readers and ``body`` defining
    ``static void solve(void)``, which prints one test's answer line."""
    label = 'printf("Case #%d: ", i);\n        ' if params.get("labelled") else ""
    return CODE("main.c", body=body.strip("\n"), word_bytes=word_bytes, word_width=word_bytes - 1, label=label)


def js_program(body: str, params: dict[str, Any]) -> str:
    """A JavaScript program: ``nextInt()``/``nextWord()`` readers and ``body`` defining ``solve()``."""
    line = "`Case #${i}: ${solve()}`" if params.get("labelled") else "String(solve())"
    return CODE("main.javascript", body=body.strip("\n"), line=line)


def stdio_sources(code: ProgramTexts, name: str, params: dict[str, Any], imports: str = "", suffix: str = "",
                  **fields: Any) -> dict[str, str]:
    """A template's three programs: the sections ``name.python<suffix>``, ``name.c<suffix>`` and
    ``name.javascript<suffix>`` of ``code`` (each takes the fields it names; a field given as a dict with one
    entry per language takes its language's entry) wrapped in their language's multi-test main."""
    def filled(lang: str) -> dict[str, Any]:
        return {key: value[lang] if isinstance(value, dict) and value.keys() == _PER_LANGUAGE else value
                for key, value in fields.items()}

    return {"python": python_program(code(f"{name}.python{suffix}", **filled("python")), params, imports=imports),
            "c": c_program(code(f"{name}.c{suffix}", **filled("c")), params),
            "javascript": js_program(code(f"{name}.javascript{suffix}", **filled("javascript")), params)}


_PER_LANGUAGE = {"python", "c", "javascript"}


def language_texts(code: ProgramTexts, name: str, suffix: str = "", **fields: Any) -> list[str]:
    """The sections ``name.python<suffix>``, ``name.c<suffix>`` and ``name.javascript<suffix>`` of ``code`` (one
    piece of a template in its three languages), each filled with the ``fields`` it names."""
    return [code(f"{name}.{lang}{suffix}", **fields) for lang in ("python", "c", "javascript")]


# --- efficiency: generated inputs, hidden large tests, per-language time budgets ----------------

LCG_PRIMES = (604759, 662401, 694651, 703033, 708559, 714839, 738313, 773987, 784349, 786013, 789367, 837409)


def generator_params(rng: random.Random, low: int, span: int) -> dict[str, int] | None:
    """Constants of the array generator ``a_1 = s, a_{i+1} = (a_i * A + B) mod M, x_i = a_i mod V + L``,
    or None when the multiplier cycles too soon (the caller draws again). Products stay below
    2**40, so the generator is exact in JavaScript's doubles too."""
    m = rng.choice(LCG_PRIMES)
    g = {"a": rng.randrange(1000, m - 1), "b": rng.randrange(m), "m": m, "v": span, "low": low}
    states = generated(1000, 1, {**g, "v": m, "low": 0})
    return g if len(set(states)) == len(states) else None


def generated(n: int, seed: int, g: dict[str, int]) -> list[int]:
    """The trusted array of a generated test."""
    a, mul, add, mod, span, low = seed, g["a"], g["b"], g["m"], g["v"], g["low"]
    out = [0] * n
    for i in range(n):
        out[i] = a % span + low
        a = (a * mul + add) % mod
    return out


def generator_text(g: dict[str, int], name: str = "x") -> str:
    """The statement's description of the generator."""
    low = f" + {g['low']}" if g["low"] > 0 else f" - {-g['low']}" if g["low"] < 0 else ""
    return (f"a_1 = s, a_(i+1) = (a_i * {g['a']} + {g['b']}) mod {g['m']}, and {name}_i = (a_i mod {g['v']}){low} "
            f"for i = 1..n (every intermediate value fits in 64-bit integers and, below 2^53, in JavaScript numbers)")


def generator_code(language: str, g: dict[str, int], name: str = "x") -> str:
    """Code filling ``name[0..n-1]`` from ``n`` and ``s``, in ``language`` (C: a static array the caller declares)."""
    a, b, m, v, low = g["a"], g["b"], g["m"], g["v"], g["low"]
    if language == "python":
        return (f"{name} = [0] * n\n    a = s\n    for i in range(n):\n        {name}[i] = a % {v} + {low}\n"
                f"        a = (a * {a} + {b}) % {m}")
    if language == "c":
        return (f"long long a = s;\n    for (int i = 0; i < n; i++) {{\n        {name}[i] = a % {v} + {low};\n"
                f"        a = (a * {a} + {b}) % {m};\n    }}")
    return (f"const {name} = new Array(n);\n    let a = s;\n    for (let i = 0; i < n; i++) {{\n"
            f"        {name}[i] = (a % {v}) + {low};\n        a = (a * {a} + {b}) % {m};\n    }}")


@functools.lru_cache(maxsize=256)
def _answer(template: StdioTemplate, params_json: str, case_json: str) -> str:
    return template.answer(json.loads(case_json), json.loads(params_json))


def efficiency_problem(
    rng: random.Random,
    template: StdioTemplate,
    small: Sequence[int],
    large: Sequence[int],
    budgets: dict[str, float],
    *,
    limits_text: str = "",
) -> Problem | None:
    """A multi-test problem whose inputs are generated (each test is a short line): the ``small``
    sizes are answered now (and shown in the example), the ``large`` ones are hidden and answered
    by the trusted reference when a candidate is judged. ``budgets``: CPU seconds per language for
    the whole run. None when the small tests' answers are too uniform."""
    params = {**template.params(rng), "labelled": rng.random() < 0.5}
    if params.get("generator") is None:
        return None
    limits = ", ".join(f"{budgets[lang]:g} s in {polyglot.LANGUAGE_NAMES[lang]}" for lang in STDIO_LANGUAGES)
    timing = (f"Time limit for the whole run (all tests together), in CPU time: {limits}. The hidden tests include "
              f"large ones (n up to {max(large)}): a correct but slow algorithm exceeds the limit.")
    return _multi_test_problem(rng, template, params, small, large, STDIO_LANGUAGES,
                               (f"{limits_text}\n" if limits_text else "") + timing, 3,
                               {"budgets": dict(budgets), "cpu_seconds": max(budgets.values())})


class EfficiencyTask(StdioPolyglotTask):
    """Generated-input problems with hidden large tests judged against per-language CPU budgets."""

    def expected(self, problem: Problem) -> list[str]:
        """Every test's expected line: stored ones, and the hidden large ones from the trusted
        reference (cached per template, parameters and test)."""
        data = problem.data
        template = self.template(problem)
        params_json = json.dumps(data["params"], sort_keys=True)
        out = []
        for i, (case, line) in enumerate(zip(data["cases"], data["expected"]), 1):
            if line is None:
                answer = _answer(template, params_json, json.dumps(case, sort_keys=True))
                line = f"Case #{i}: {answer}" if data["params"].get("labelled") else answer
            out.append(line)
        return out

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        budget = Budget(cpu_seconds=float(data["budgets"][program.language]), memory_bytes=512 * 2**20)
        return polyglot.check_program(program, join_cases(data["inputs"]), self.expected(problem), budget=budget)

    def difficulty(self, problem: Problem) -> float:
        """The template's algorithmic tier plus log2 of the total input size n over all tests."""
        return self.template(problem).tier + math.log2(1 + sum(case["n"] for case in problem.data["cases"]))
