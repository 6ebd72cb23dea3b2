"""Give a loop invariant that proves a small imperative program's assertion (Dafny-style).

A program over mathematical integers: a precondition on its input ``n``, initial assignments, a
``while`` loop with a counter running up from 1, 2 or 3 (``i := 2; while (i <= n + 1)``) or down
from ``n + o`` to ``o`` (so the counter is never the number of passes, and the assertion with ``n``
renamed to the counter is not an invariant) and a body
of assignments (accumulators, an odd-number sum building a square, a triangular sum, an
``if``/``else`` that keeps two variables balanced), then an ``assert`` after the loop. The
answer is an invariant; z3 checks the three verification conditions over the integers:
initiation (precondition and initial values imply it), consecution (it and the loop
condition imply it after one pass of the body) and exit (it and the negated condition imply
the assertion). The precondition is assumed throughout since the loop never changes ``n``.
**Any** invariant that passes scores.

The generator builds the program from the invariant it knows (each template's invariant is an
algebraic identity of the loop over the passes ``p`` (``i - o`` or ``n + o - i``): ``v == start +
step*p``, ``2*s == scale*p*(p + 2o - 1) + 2*start``, ``u == p*p``, ``x + y == step*p`` with ``x == y ||
x == y + step``), so every problem has an
answer. Generation does not call z3 (a proof costs 5-20 ms, and the kit generates thousands of
problems); the test suite proves the known invariant with the verifier's own limits for many
seeds at every level, and the kit's reference check proves it again.
The model's text is read by a bounded parser (:func:`~palaestra.envs.verification.common.parse_formula`:
integer arithmetic with ``+ - *``, comparisons, and/or/not/implies, caps on length, nesting and
constants) into z3 terms, never evaluated as code; z3 runs under a time and a resource limit,
and a formula it cannot settle within them scores 0 with a message saying so. The formula may come
in a naming sentence ("The loop invariant is: ..."; version 2 rejected it), alone after it: a hedge
or a second formula leaves the answer unread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.envs.verification.common import FormulaError, parse_formula, require_z3, z3_formula
from palaestra.verifiers.normalize import named, read_answer, strip_wrappers, unify

TIMEOUT_MS = 200  # per solver call: at most four calls stay under a second
RLIMIT = 3_000_000  # z3 resource units per solver call; deterministic, unlike the timeout
_ACCUMULATORS = "stuvwxyzabpq"


@register
class LoopInvariant(Task):
    id = "verification/loop_invariant"
    family = "verification"
    description = "Write a loop invariant that lets an SMT solver prove a program's assertion."
    tags = ("verification", "invariants", "smt", "program-proofs")
    max_answer_chars = 2_000
    python_requires = ("z3",)
    multiline = True
    version = 3  # v3: a naming sentence ("The loop invariant is ...") is read (it was rejected)

    @dataclass(frozen=True)
    class Config:
        linear: int  # accumulators growing by a constant each pass
        triangular: bool  # an accumulator adding the counter each pass (a quadratic invariant)
        square: bool  # a pair summing odd numbers into a square
        balanced: bool  # an if/else keeping two variables within one step of each other
        count_down: bool  # the counter may also run from n down to 0

    presets = (
        Config(linear=1, triangular=False, square=False, balanced=False, count_down=True),
        Config(linear=2, triangular=False, square=False, balanced=False, count_down=True),
        Config(linear=1, triangular=True, square=False, balanced=False, count_down=False),
        Config(linear=1, triangular=False, square=False, balanced=True, count_down=True),
        Config(linear=0, triangular=False, square=True, balanced=True, count_down=False),
    )
    bounded = "its levels are kinds of problem (the `triangular` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        program = _draw_program(rng, config)
        counter, names = program["counter"], program["variables"]
        example = f"{counter} >= 0 && {names[-1]} >= {counter}"
        prompt = (
            "Over mathematical integers (no overflow), consider this program:\n\n"
            f"{render(program)}\n\n"
            "Give a loop invariant for the while loop that lets the assertion be proven. It must hold before "
            "the loop (given the precondition and the initial assignments), be preserved by every pass of the "
            "body that starts with the loop condition true, and, together with the loop condition being false, "
            "imply the assertion. The precondition may be assumed throughout (the loop never changes "
            f"{program['variables'][0]}). The "
            "Z3 SMT solver checks these three conditions within a time limit; any invariant it proves is "
            f"accepted. Write one formula over the variables {', '.join(names)} using integer constants, "
            "+, - and *, comparisons (<, <=, >, >=, ==, !=), && (and), || (or), ! (not), ==> (implies) and "
            f"parentheses, for example: {example}"
        )
        data = {key: program[key] for key in ("variables", "pre", "init", "condition", "body", "post")}
        return Problem(prompt=prompt, answer=program["invariant"], data=data)

    def difficulty(self, problem: Problem) -> float:
        """Comparisons in the known invariant plus body statements, plus two when it is nonlinear, plus a
        tenth of the digits of the constants in the loop and a twentieth of the postcondition's characters."""
        tree = parse_formula(problem.answer or "", set(problem.data["variables"]))
        constants = sum(c.isdigit() for step in problem.data["body"] for c in str(step)) + sum(
            c.isdigit() for step in problem.data["init"] for c in str(step))
        return float(_count_comparisons(tree) + _count_statements(problem.data["body"]) + 2 * _nonlinear(tree)) \
            + constants / 10 + len(problem.data["post"]) / 20

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        names = set(problem.data["variables"])
        tree, error = _read_invariant(answer, names)
        if tree is None:
            return Verdict.unparsed(f"not a formula this checker reads: {error}")
        status, message = check_invariant(problem.data, tree, timeout_ms=TIMEOUT_MS)
        if status == "proved":
            return Verdict.right("z3 proved all three conditions")
        return Verdict.wrong(message)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        conjuncts = gold.split(" && ")
        return [*super().spellings(problem),
                gold.replace("&&", "and").replace("||", "or"),
                gold.replace("&&", "∧").replace("<=", "≤").replace(">=", "≥").replace("==", "="),
                " && ".join(reversed(conjuncts)),
                "\n".join(f"invariant {c}" for c in conjuncts),
                f"invariant {gold};",
                f"({gold})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        conjuncts = gold.split(" && ")
        wrong = ["true", "false", f"{gold} ||"]
        if len(conjuncts) > 1:  # a missing conjunct: either the proof of the assertion or the induction breaks
            wrong.append(" && ".join(conjuncts[1:]))
        return wrong


def _read_invariant(answer: str, names: set[str]) -> tuple[tuple | None, str]:
    """The parsed invariant, or None and the reason; ``invariant`` lead words and a trailing ``;`` are skipped."""
    text = strip_wrappers(unify(answer))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and all(_drop_lead(line) != line for line in lines):
        text = " && ".join(f"({_drop_lead(line)})" for line in lines)  # Dafny's one invariant clause per line
    else:
        text = _drop_lead(" ".join(lines))
    first_error = ""

    def parse(candidate: str) -> tuple | None:
        nonlocal first_error
        try:
            return parse_formula(_drop_lead(candidate), names)
        except FormulaError as exc:
            first_error = first_error or str(exc)
            return None

    tree = parse(text)
    if tree is None:  # wrappers, closing punctuation, a naming sentence ("The invariant is ...")
        tree = read_answer(text, named(parse, r"invariant(?:\s+is)?"))
    return tree, first_error


def _drop_lead(line: str) -> str:
    s = line.strip().rstrip(";.").strip()
    for lead in ("loop invariant", "invariant", "inv"):
        if s.lower().startswith(lead) and s[len(lead):len(lead) + 1] in (" ", ":"):
            return s[len(lead):].lstrip(" :").strip()
    return s


# --- programs ---------------------------------------------------------------------------------


def _linear(coefficient: int, term: str, constant: int) -> str:
    """``coefficient*term + constant`` written the way a person would (``3*i + 5``, ``-i - 2``, ``7``)."""
    parts = []
    if coefficient:
        factor = "" if abs(coefficient) == 1 else f"{abs(coefficient)}*"
        parts.append(("-" if coefficient < 0 else "") + factor + term)
    if constant or not parts:
        if parts:
            parts.append(f"{'-' if constant < 0 else '+'} {abs(constant)}")
        else:
            parts.append(str(constant))
    return " ".join(parts)


def _draw_program(rng: random.Random, config: LoopInvariant.Config) -> dict[str, Any]:
    counter, bound = rng.choice("ijk"), rng.choice("nm")
    pool = list(_ACCUMULATORS)
    rng.shuffle(pool)
    down = config.count_down and rng.random() < 0.5
    # The counter starts at an offset (up: 1 to 3, from 1 to n, 2 to n + 1, ...; down: from n + offset to
    # offset), so it is never the number of passes: the assertion with the bound renamed to the counter
    # is not an invariant.
    offset = rng.randint(0, 2) if down else rng.randint(1, 3)
    top = _linear(1, bound, offset)
    # the number of passes made so far, as an expression over the counter
    passes = f"({top} - {counter})" if down else f"({counter} - {offset})"
    init: list[list[str]] = [[counter, top if down else str(offset)]]
    blocks: list[list[list[Any]]] = []  # statements that must stay in order; blocks are shuffled
    invariant = [f"{counter} >= {offset}" if down else f"{counter} <= {top}"]
    post: list[str] = []
    variables = [bound, counter]

    for _ in range(config.linear):
        v = pool.pop()
        start, step = rng.randint(-9, 9), rng.choice([d for d in range(-9, 10) if d not in (0, 1)])
        init.append([v, str(start)])
        blocks.append([["set", v, f"{v} + {step}" if step > 0 else f"{v} - {-step}"]])
        invariant.append(f"{v} == {_linear(step, passes, start)}")
        post.append(f"{v} == {_linear(step, bound, start)}")
        variables.append(v)
    after_increment = rng.random() < 0.5  # where the counter's update sits decides the triangular sum's form
    if config.triangular:
        v, scale, start = pool.pop(), rng.randint(1, 4), rng.randint(-9, 9)
        init.append([v, str(start)])
        blocks.append([["set", v, f"{v} + {'' if scale == 1 else f'{scale}*'}{counter}"]])
        # the counter runs over offset, offset + 1, ... (or from offset + 1 when it moves first): the sum after
        # p passes is scale*p*(p + 2*offset -+ 1)/2, over the counter (p = counter - offset) as below
        lag = 2 * offset + (1 if after_increment else -1)
        invariant.append(f"2*{v} == {_linear(scale, f'{passes}*({_linear(1, counter, lag - offset)})', 2 * start)}")
        post.append(f"2*{v} == {_linear(scale, f'{bound}*({_linear(1, bound, lag)})', 2 * start)}")
        variables.append(v)
    if config.square:
        total, odd = pool.pop(), pool.pop()
        init += [[total, "0"], [odd, "1"]]
        blocks.append([["set", total, f"{total} + {odd}"], ["set", odd, f"{odd} + 2"]])
        invariant += [f"{total} == {passes}*{passes}", f"{odd} == {_linear(2, passes, 1)}"]
        post.append(f"{total} == {bound}*{bound}")
        variables += [total, odd]
    if config.balanced:
        x, y, step = pool.pop(), pool.pop(), rng.randint(1, 5)
        init += [[x, "0"], [y, "0"]]
        blocks.append([["if", f"{x} <= {y}", [["set", x, f"{x} + {step}"]], [["set", y, f"{y} + {step}"]]]])
        invariant += [f"{x} + {y} == {_linear(step, passes, 0)}", f"({x} == {y} || {x} == {y} + {step})"]
        post += [f"{x} + {y} == {_linear(step, bound, 0)}", f"{y} <= {x}", f"{x} <= {y} + {step}"]
        variables += [x, y]
    rng.shuffle(blocks)
    counter_update = [["set", counter, f"{counter} - 1" if down else f"{counter} + 1"]]
    if config.triangular:
        blocks.insert(0 if after_increment else len(blocks), counter_update)
    else:
        blocks.insert(rng.randrange(len(blocks) + 1), counter_update)
    body = [statement for block in blocks for statement in block]
    return {
        "counter": counter,
        "variables": variables,
        "pre": f"{bound} >= 0",
        "init": init,
        "condition": f"{counter} > {offset}" if down else f"{counter} <= {_linear(1, bound, offset - 1)}",
        "body": body,
        "post": " && ".join(post),
        "invariant": " && ".join(invariant),
    }


def render(program: dict[str, Any]) -> str:
    """The program in Dafny-like syntax, with ``???`` where the invariant goes."""
    bound = program["variables"][0]
    lines = [f"requires {program['pre']}  // {bound} is the input"]
    lines += [f"{v} := {value};" for v, value in program["init"]]
    lines += [f"while ({program['condition']})", "    invariant ???", "{"]
    lines += _render_statements(program["body"], "    ")
    lines += ["}", f"assert {program['post']};"]
    return "\n".join(lines)


def _render_statements(statements: list, indent: str) -> list[str]:
    lines = []
    for statement in statements:
        if statement[0] == "set":
            lines.append(f"{indent}{statement[1]} := {statement[2]};")
        else:
            lines.append(f"{indent}if ({statement[1]}) {{")
            lines += _render_statements(statement[2], indent + "    ")
            lines.append(f"{indent}}} else {{")
            lines += _render_statements(statement[3], indent + "    ")
            lines.append(f"{indent}}}")
    return lines


def _count_statements(statements: list) -> int:
    return sum(1 if s[0] == "set" else _count_statements(s[2]) + _count_statements(s[3]) for s in statements)


def _count_comparisons(tree: tuple) -> int:
    if tree[0] in ("<", "<=", ">", ">=", "==", "!="):
        return 1
    return sum(_count_comparisons(child) for child in tree[1:] if isinstance(child, tuple))


def _nonlinear(tree: tuple) -> bool:
    if tree[0] == "*":
        return _has_variable(tree[1]) and _has_variable(tree[2]) or any(_nonlinear(c) for c in tree[1:])
    if tree[0] == "^":
        return tree[2] > 1 and _has_variable(tree[1])
    return any(_nonlinear(child) for child in tree[1:] if isinstance(child, tuple))


def _has_variable(tree: tuple) -> bool:
    return tree[0] == "var" or any(_has_variable(child) for child in tree[1:] if isinstance(child, tuple))


# --- checking with z3 ---------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _parsed(text: str, names: frozenset[str]) -> tuple:
    return parse_formula(text, names, boolean=True)


@lru_cache(maxsize=256)
def _parsed_expression(text: str, names: frozenset[str]) -> tuple:
    return parse_formula(text, names, boolean=False)


def _execute(z3: Any, statements: list, env: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    """The state after ``statements`` from ``env`` (variable -> z3 term), branches merged with If."""
    env = dict(env)
    for statement in statements:
        if statement[0] == "set":
            env[statement[1]] = z3_formula(_parsed_expression(statement[2], names), env)
        else:
            condition = z3_formula(_parsed(statement[1], names), env)
            then = _execute(z3, statement[2], env, names)
            other = _execute(z3, statement[3], env, names)
            env = {v: z3.If(condition, then[v], other[v]) for v in env}
    return env


def check_invariant(program: dict[str, Any], invariant: str | tuple, timeout_ms: int | None) -> tuple[str, str]:
    """``("proved", "")``, or ``("refuted" | "unknown", why)`` for ``invariant`` on ``program``.

    One solver call checks the three conditions together; only when they fail is each checked
    on its own, to say which. Every call runs under :data:`RLIMIT` and, when ``timeout_ms`` is
    given, that wall-clock limit.
    """
    z3 = require_z3()
    names = frozenset(program["variables"])
    state = {v: z3.Int(v) for v in program["variables"]}
    tree = _parsed(invariant, names) if isinstance(invariant, str) else invariant

    def formula(text: str, env: dict[str, Any]) -> Any:
        return z3_formula(_parsed(text, names), env)

    start = dict(state)
    for v, value in program["init"]:
        start[v] = z3_formula(_parsed_expression(value, names), start)
    after = _execute(z3, program["body"], state, names)
    pre, condition = formula(program["pre"], state), formula(program["condition"], state)
    now = z3_formula(tree, state)
    conditions = [
        ("it does not hold before the loop", z3.Implies(pre, z3_formula(tree, start))),
        ("one pass of the loop body does not preserve it", z3.Implies(z3.And(pre, now, condition), z3_formula(tree, after))),
        ("it does not imply the assertion when the loop exits",
         z3.Implies(z3.And(pre, now, z3.Not(condition)), formula(program["post"], state))),
    ]
    everything = z3.Not(z3.And(*(claim for _, claim in conditions)))
    result = _check(z3, everything, timeout_ms)
    if result == z3.unsat:  # the common case for a right answer: one solver call
        return "proved", ""
    if result != z3.sat:
        return "unknown", "z3 could not settle the three conditions within its time and resource limits"
    for index, (failure, claim) in enumerate(conditions):
        solver = _solver(z3, timeout_ms)
        solver.add(z3.Not(claim))
        result = solver.check()
        if result == z3.sat:
            model = solver.model()
            shown = program["variables"][:1] if index == 0 else program["variables"]  # before the loop: the input
            values = ", ".join(f"{v} = {model.eval(state[v], model_completion=True)}" for v in shown)
            return "refuted", f"{failure} (for example with {values})"
        if result != z3.unsat:
            return "unknown", f"z3 could not settle whether {failure.replace('it does not', 'it does')} within its limits"
    return "unknown", "z3 gave inconsistent answers"


def _solver(z3: Any, timeout_ms: int | None) -> Any:
    # Normalising polynomials and substituting solved equalities first turns the typical condition
    # (an identity such as (i + 1)*(i + 1) == i*i + 2*i + 1) into a trivial one: 3-5x faster than
    # the default solver on the nonlinear levels.
    solver = z3.Then(z3.With("simplify", som=True), "propagate-values", "solve-eqs",
                     z3.With("simplify", som=True), "smt").solver()
    solver.set("rlimit", RLIMIT)
    if timeout_ms is not None:
        solver.set("timeout", timeout_ms)
    return solver


def _check(z3: Any, claim: Any, timeout_ms: int | None) -> Any:
    solver = _solver(z3, timeout_ms)
    solver.add(claim)
    return solver.check()
