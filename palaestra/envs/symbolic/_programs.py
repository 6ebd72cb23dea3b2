"""Induced programs for the symbolic envs: compositions of primitives, and proofs that examples pin one answer.

An induction task (list functions, ARC-1D) shows input/output examples of a hidden program, a
composition of a few primitives from a fixed library, and asks for the output on a new input. The
answer is implied to be unique, so the generator proves it: :func:`predictions` enumerates every
composition of at most ``depth`` primitives that agrees with all the examples and collects what
they output on the new input; the problem is kept only when that set has one element. Programs
are enumerated bottom-up with observational equivalence (two programs with the same outputs on
all inputs, examples and new input together, are one behaviour), and the last layer is only
checked, example by example, with an early exit, once per distinct value on the first example:
that keeps depth 3 cheap.

Values are tuples (hashable). A primitive returns None where it does not apply. A program that fits
the examples but does not apply to the new input counts as a prediction of its own
(:data:`UNDEFINED`): a solver reading the step otherwise (a shift pushing cells off the edge) could
reach another answer, so such problems are not unique. No env registers here.

Example::

    >>> library = [Primitive("reverse", lambda xs: xs[::-1]), Primitive("drop 1", lambda xs: xs[1:] or None)]
    >>> examples = [((1, 2, 3), (2, 1)), ((4, 5, 6, 7), (6, 5, 4))]
    >>> sorted(predictions(library, examples, (9, 8, 7), depth=2))
    [(8, 9)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_BEHAVIOURS = 5_000  # distinct behaviours kept per layer before the last
UNDEFINED = "undefined"  # what a consistent program "outputs" on a new input it does not apply to


@dataclass(frozen=True)
class Primitive:
    name: str
    apply: Callable[[Any], Any]


def run(program: Sequence[Primitive], value: Any) -> Any:
    """``value`` through the primitives in order (None as soon as one does not apply)."""
    for primitive in program:
        if value is None:
            return None
        value = primitive.apply(value)
    return value


class BudgetExceeded(RuntimeError):
    """Too many distinct behaviours to enumerate: uniqueness cannot be proven cheaply."""


def predictions(library: Sequence[Primitive], examples: Sequence[tuple[Any, Any]], query: Any,
                depth: int) -> set[Any]:
    """What every composition of 1..``depth`` primitives consistent with ``examples`` outputs on ``query``.

    Raises :class:`BudgetExceeded` when a layer holds more than ``MAX_BEHAVIOURS`` behaviours.
    """
    inputs = [x for x, _ in examples] + [query]
    wanted = [y for _, y in examples]
    found: set[Any] = set()
    layer = {tuple(inputs)}  # behaviours: outputs on every input (examples first, query last)
    seen = set(layer)
    for level in range(1, depth + 1):
        if level == depth:
            _finish(library, layer, wanted, found)
            break
        nxt: set[tuple] = set()
        for values in layer:
            examples, query = values[:-1], values[-1]
            for primitive in library:
                apply = primitive.apply
                outs = tuple([apply(v) for v in examples])
                if None in outs:
                    continue  # undefined on an example: inconsistent, as is everything built on it
                outs += (None if query is None else apply(query),)
                if outs in seen:
                    continue
                seen.add(outs)
                nxt.add(outs)
                if list(outs[:-1]) == wanted:
                    found.add(UNDEFINED if outs[-1] is None else outs[-1])
        if len(nxt) > MAX_BEHAVIOURS:
            raise BudgetExceeded(f"{len(nxt)} behaviours at depth {level}")
        layer = nxt
    return found


def _finish(library: Sequence[Primitive], layer: set[tuple], wanted: list, found: set[Any]) -> None:
    """The last primitive: only checked, never stored. Behaviours are grouped by their value on the first
    example, so a primitive is tried once per distinct value there (most fail on it) instead of once per
    behaviour."""
    groups: dict[Any, list[tuple]] = {}
    for values in layer:
        groups.setdefault(values[0], []).append(values)
    for first, group in groups.items():
        for primitive in library:
            if primitive.apply(first) != wanted[0]:
                continue
            for values in group:
                if _consistent(primitive, values[1:-1], wanted[1:]):
                    out = None if values[-1] is None else primitive.apply(values[-1])
                    found.add(UNDEFINED if out is None else out)


def _consistent(primitive: Primitive, values: tuple, wanted: list) -> bool:
    for value, target in zip(values, wanted):
        if value is None or primitive.apply(value) != target:
            return False
    return True
