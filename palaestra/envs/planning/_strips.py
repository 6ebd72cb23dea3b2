"""STRIPS planning for the planning envs: domains, their PDDL text, a plan simulator and a plan reader.

A :class:`Domain` is a list of typed action :class:`Schema` s (preconditions, add and delete
lists over atoms such as ``("on", "?x", "?y")``); an :class:`Instance` adds typed objects, an
initial state and a goal. Both print themselves as PDDL (``:strips`` and ``:typing``), which
is what a prompt shows. :class:`StripsRules` plays a plan under the STRIPS semantics (every
precondition must hold; the delete list is removed, then the add list added) through
:class:`palaestra.solvers.simulate.Rules`, so a verifier can name the first inapplicable action
and the precondition it lacks. :func:`read_plan` reads a plan as a model writes it.

This is a family helper (no env registers here); the simulator part could move to
``palaestra/solvers/`` if another family needs STRIPS.

Example::

    >>> bw = Domain("toy", (("block", "object"),), (("on", (("?x", "block"), ("?y", "block"))),
    ...     ("free", (("?x", "block"),))), (Schema("put", (("?x", "block"), ("?y", "block")),
    ...     (("free", "?x"), ("free", "?y")), (("on", "?x", "?y"),), (("free", "?y"),)),))
    >>> task = Instance("t", bw, (("a", "block"), ("b", "block")), frozenset({("free", "a"), ("free", "b")}),
    ...                 (("on", "a", "b"),))
    >>> StripsRules(task).run(read_plan("(put a b)", 10)).solved
    True
    >>> read_plan("1. put(A, B)\\n2. put b a", 10, ["put"])
    [('put', ('a', 'b')), ('put', ('b', 'a'))]
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from palaestra.core import Problem, Task, Verdict
from palaestra.solvers.simulate import Rules
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, unify

Atom = tuple[str, ...]
Action = tuple[str, tuple[str, ...]]  # ("stack", ("a", "b"))
State = frozenset

MAX_PLAN_CHARS_PER_ACTION = 120


@dataclass(frozen=True)
class Schema:
    """One action schema: typed parameters, precondition atoms, add and delete lists (atoms over ``?vars``)."""

    name: str
    parameters: tuple[tuple[str, str], ...]
    precondition: tuple[Atom, ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]

    def ground(self, args: Sequence[str]) -> tuple[list[Atom], list[Atom], list[Atom]]:
        """The precondition, add and delete lists with the parameters bound to ``args``."""
        binding = {var: arg for (var, _), arg in zip(self.parameters, args)}

        def bind(atoms: tuple[Atom, ...]) -> list[Atom]:
            return [(a[0], *(binding.get(t, t) for t in a[1:])) for a in atoms]

        return bind(self.precondition), bind(self.add), bind(self.delete)

    def pddl(self) -> str:
        params = " ".join(f"{var} - {kind}" for var, kind in self.parameters)
        effects = [atom_text(a) for a in self.add] + [f"(not {atom_text(a)})" for a in self.delete]
        return (f"  (:action {self.name}\n    :parameters ({params})\n"
                f"    :precondition {_conjunction(self.precondition)}\n"
                f"    :effect (and {' '.join(effects)}))")


@dataclass(frozen=True)
class Domain:
    """A typed STRIPS domain: ``types`` as ``(type, parent)`` pairs, predicates with typed parameters, schemas."""

    name: str
    types: tuple[tuple[str, str], ...]
    predicates: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    schemas: tuple[Schema, ...]
    _by_name: dict[str, Schema] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_name.update({s.name: s for s in self.schemas})

    def schema(self, name: str) -> Schema | None:
        return self._by_name.get(name)

    def is_a(self, kind: str, wanted: str) -> bool:
        """Whether type ``kind`` is ``wanted`` or one of its subtypes."""
        parents = dict(self.types)
        for _ in range(len(parents) + 1):
            if kind == wanted:
                return True
            if kind not in parents:
                return wanted == "object"
            kind = parents[kind]
        return False

    def pddl(self) -> str:
        by_parent: dict[str, list[str]] = {}
        for kind, parent in self.types:
            by_parent.setdefault(parent, []).append(kind)
        types = " ".join(f"{' '.join(kinds)} - {parent}" for parent, kinds in by_parent.items())
        predicates = " ".join("(" + " ".join([name, *(f"{var} - {kind}" for var, kind in params)]) + ")"
                              for name, params in self.predicates)
        actions = "\n".join(s.pddl() for s in self.schemas)
        return (f"(define (domain {self.name})\n  (:requirements :strips :typing)\n  (:types {types})\n"
                f"  (:predicates {predicates})\n{actions})")


@dataclass(frozen=True)
class Instance:
    """A planning problem of ``domain``: typed objects, the initial atoms and the goal atoms."""

    name: str
    domain: Domain
    objects: tuple[tuple[str, str], ...]
    init: frozenset
    goal: tuple[Atom, ...]

    def pddl(self) -> str:
        by_type: dict[str, list[str]] = {}
        for obj, kind in self.objects:
            by_type.setdefault(kind, []).append(obj)
        objects = "\n    ".join(f"{' '.join(objs)} - {kind}" for kind, objs in by_type.items())
        init = "\n    ".join(atom_text(a) for a in sorted(self.init))
        goal = "\n      ".join(atom_text(a) for a in self.goal)
        return (f"(define (problem {self.name})\n  (:domain {self.domain.name})\n  (:objects\n    {objects})\n"
                f"  (:init\n    {init})\n  (:goal (and\n      {goal})))")


def atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def action_text(action: Action) -> str:
    """An action in PDDL plan syntax: ``(stack a b)``."""
    return "(" + " ".join([action[0], *action[1]]) + ")"


def plan_text(plan: Iterable[Action]) -> str:
    return "\n".join(action_text(a) for a in plan)


def _conjunction(atoms: Sequence[Atom]) -> str:
    return atom_text(atoms[0]) if len(atoms) == 1 else "(and " + " ".join(atom_text(a) for a in atoms) + ")"


class StripsRules(Rules[frozenset, Action]):
    """An instance's rules for :class:`~palaestra.solvers.simulate.Rules`: states are frozensets of atoms."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.kind = dict(instance.objects)
        self.goal_atoms = frozenset(instance.goal)

    def initial(self) -> frozenset:
        return self.instance.init

    def check(self, state: frozenset, move: Action) -> str | None:
        name, args = move
        schema = self.instance.domain.schema(name)
        if schema is None:
            return f"there is no action named {name}"
        if len(args) != len(schema.parameters):
            return f"{name} takes {len(schema.parameters)} arguments, not {len(args)}"
        for (var, wanted), arg in zip(schema.parameters, args):
            if arg not in self.kind:
                return f"there is no object named {arg}"
            if not self.instance.domain.is_a(self.kind[arg], wanted):
                return f"{arg} is not a {wanted} (parameter {var} of {name})"
        precondition, _, _ = schema.ground(args)
        for atom in precondition:
            if atom not in state:
                return f"its precondition {atom_text(atom)} does not hold"
        return None

    def apply(self, state: frozenset, move: Action) -> frozenset:
        _, add, delete = self.instance.domain.schema(move[0]).ground(move[1])
        return (state - frozenset(delete)) | frozenset(add)

    def goal(self, state: frozenset) -> bool:
        return self.goal_atoms <= state

    def moves(self, state: frozenset) -> Iterator[Action]:
        """Every ground action (for small instances: the generic search used by the tests)."""
        for schema in self.instance.domain.schemas:
            pools = [[o for o, k in self.instance.objects if self.instance.domain.is_a(k, wanted)]
                     for _, wanted in schema.parameters]
            for args in itertools.product(*pools):
                yield schema.name, args


def missing_goals(rules: StripsRules, state: frozenset) -> list[Atom]:
    return [atom for atom in rules.instance.goal if atom not in state]


# --- reading plans -----------------------------------------------------------------------------------------------

_NAME = r"[A-Za-z][\w-]*"
_SEPARATOR = re.compile(r"(?:\s|[,;]|->|→|\bthen\b)*", re.IGNORECASE)
_NUMBERING = r"(?:(?:step\s*)?\d{1,4}(?:\.\d+)?\s*[.):]\s*)?"
_DURATION = r"(?:[ \t]*\[\d+(?:\.\d+)?\])?"
_ACTION = re.compile(
    _NUMBERING
    + rf"(?:\(\s*(?P<p>{_NAME})(?P<pargs>(?:\s+{_NAME})*)\s*\)"  # (stack a b)
    + rf"|(?P<f>{_NAME})\s*\(\s*(?P<fargs>{_NAME}(?:\s*,\s*{_NAME})*)?\s*\)"  # stack(a, b)
    + rf"|(?P<b>{_NAME})(?P<bargs>(?:[ \t]+{_NAME})*)[ \t]*(?=[\n,;]|$))"  # stack a b  (alone on its line)
    + _DURATION,
    re.IGNORECASE,
)
_COMMENT = re.compile(r"^\s*;.*$", re.MULTILINE)
_LABEL = re.compile(r"^\s*(?:the\s+)?plan\s*(?:is)?\s*:?\s*\n?", re.IGNORECASE)


def _plan_core(text: str, max_actions: int, names: frozenset[str]) -> list[Action] | None:
    s = _LABEL.sub("", squeeze_spaces(_COMMENT.sub("", text)), count=1).strip()
    plan: list[Action] = []
    position = 0
    for _ in range(max_actions + 1):  # anchored matches one after another: linear, never a search
        position = _SEPARATOR.match(s, position).end()
        match = _ACTION.match(s, position)
        if match is None or match.end() == position:
            break
        name = match.group("p") or match.group("f") or match.group("b")
        if match.group("b") is not None and name.lower() not in names:
            return None  # a bare line that names no action is prose, not a step
        args = match.group("pargs") or match.group("bargs") or ""
        if match.group("f") is not None:
            args = (match.group("fargs") or "").replace(",", " ")
        plan.append((name.lower(), tuple(a.lower() for a in args.split())))
        position = match.end()
    if position < len(s) or not plan or len(plan) > max_actions:
        return None
    return plan


def read_plan(text: str, max_actions: int, names: Iterable[str] = ()) -> list[Action] | None:
    """The actions of a written plan, lower-cased, in order; ``None`` when it cannot be read.

    Spellings: PDDL ``(stack a b)``, ``stack(a, b)``, or ``stack a b`` alone on a line, one per
    line or separated by commas, semicolons or arrows (the bare form only for the action
    ``names`` given: other bare words are prose); numbering (``1.``, ``Step 1:``, planner
    time stamps ``0.000:`` and durations ``[1]``) and ``;`` comment lines are skipped; a code
    fence, an ``Answer:`` lead-in and a short trailing sentence are read past. More than
    ``max_actions`` actions, or any text that is not an action, makes the plan unreadable.

    >>> read_plan("(pick-up a)\\n(stack a b)", 5), read_plan("(pick-up a) or (pick-up b)", 5, ["pick-up"])
    ([('pick-up', ('a',)), ('stack', ('a', 'b'))], None)
    """
    if not isinstance(text, str) or len(text) > max_actions * MAX_PLAN_CHARS_PER_ACTION + 400:
        return None
    known = frozenset(n.lower() for n in names)
    return read_answer(unify(text), lambda s: _plan_core(s, max_actions, known))


# --- the shared single-turn task ---------------------------------------------------------------------------------

MAX_PLAN_ACTIONS = 400


class PlanTask(Task):
    """What every PDDL planning env shares: the prompt's tail, plan checking, spellings and near misses.

    A subclass sets ``domain`` and writes ``generate``, returning :meth:`problem_for`'s result. The
    problem's data holds the instance (objects, initial atoms, goal atoms), the reference plan's
    length and ``optimal``: the minimum number of actions when the level asks for a shortest plan
    (found by search at generation), else ``None`` (any valid plan scores).
    """

    multiline = True
    domain: ClassVar[Domain]
    example: ClassVar[tuple[Action, ...]]  # two actions that show the plan syntax

    def action_names(self) -> list[str]:
        return [schema.name for schema in self.domain.schemas]

    def instance(self, problem: Problem) -> Instance:
        data = problem.data
        return Instance(data["name"], self.domain, tuple((o, k) for o, k in data["objects"]),
                        frozenset(tuple(a) for a in data["init"]), tuple(tuple(a) for a in data["goal"]))

    def problem_for(self, instance: Instance, plan: list[Action], optimal: bool, preamble: str) -> Problem:
        """The problem showing ``instance`` in PDDL, with ``plan`` (a shortest one when ``optimal``) as reference."""
        answer = plan_text(plan)
        example = plan_text(self.example)  # a fixed placeholder: independent of the answer
        rule = ("The plan must be as short as possible: use the minimum number of actions." if optimal
                else "Any valid plan is accepted; it need not be the shortest.")
        prompt = (
            f"{preamble}\n\nDomain:\n```pddl\n{self.domain.pddl()}\n```\n\nProblem:\n```pddl\n{instance.pddl()}\n```\n\n"
            "Find a plan: a sequence of ground actions, applied one after another from the initial state, after "
            "which every goal atom holds. An action can be applied only when all its preconditions hold; its "
            f"effects then delete the negated atoms and add the others. {rule}\n"
            f"Write one action per line in PDDL plan syntax, for example:\n{example}"
        )
        data = {
            "name": instance.name,
            "objects": [list(pair) for pair in instance.objects],
            "init": [list(atom) for atom in sorted(instance.init)],
            "goal": [list(atom) for atom in instance.goal],
            "optimal": len(plan) if optimal else None,
            "length": len(plan),
        }
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        plan = read_plan(answer, MAX_PLAN_ACTIONS, self.action_names())
        if plan is None:
            return Verdict.unparsed("expected a plan: one action per line such as (name arg1 arg2)")
        rules = StripsRules(self.instance(problem))
        run = rules.run(plan)
        if run.illegal is not None:
            bad = run.illegal
            return Verdict.wrong(f"action {bad.index + 1} {action_text(bad.move)} cannot be applied: {bad.reason}")
        if not run.solved:
            missing = missing_goals(rules, run.state)
            return Verdict.wrong(f"the plan ends without reaching the goal: {atom_text(missing[0])} does not hold")
        optimal = problem.data["optimal"]
        if optimal is not None and len(plan) > optimal:
            return Verdict.wrong(f"the plan has {len(plan)} actions; a plan with {optimal} exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Actions in the reference plan (a shortest plan wherever the search computed one)."""
        return float(problem.data["length"])

    def spellings(self, problem: Problem) -> list[str]:
        plan = read_plan(problem.answer or "", MAX_PLAN_ACTIONS, self.action_names()) or []
        return [
            *super().spellings(problem),
            "\n".join(f"{i}. {action_text(a)}" for i, a in enumerate(plan, 1)),
            ", ".join(f"{a[0]}({', '.join(a[1])})" for a in plan),
            "\n".join(" ".join([a[0], *a[1]]) for a in plan),
            (problem.answer or "").upper(),
            "\n".join(f"{i}.000: {action_text(a)} [1]" for i, a in enumerate(plan)),
            f"```\n{problem.answer}\n```",
            f"Plan:\n{problem.answer}",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        plan = read_plan(problem.answer or "", MAX_PLAN_ACTIONS, self.action_names()) or []
        rules = StripsRules(self.instance(problem))
        wrong = [f"{plan_text(plan)}\nor\n{action_text(plan[-1])}"]
        if not rules.run(plan[:-1]).solved:
            wrong.append(plan_text(plan[:-1]) or "(none)")
        if len(plan) >= 2:
            i = rng.randrange(len(plan) - 1)
            swapped = plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2 :]
            if not rules.run(swapped).solved:
                wrong.append(plan_text(swapped))
        if problem.data["optimal"] is not None:
            detour = _round_trip(rules, rules.run(plan).state)
            if detour:
                wrong.append(plan_text(plan + detour))  # still valid, two actions too long
        return wrong


def _round_trip(rules: StripsRules, state: frozenset) -> list[Action] | None:
    """Two actions that leave ``state`` and come back to it (a detour), or None."""
    for first in rules.moves(state):
        if rules.check(state, first) is None:
            middle = rules.apply(state, first)
            for second in rules.moves(middle):
                if rules.check(middle, second) is None and rules.apply(middle, second) == state:
                    return [first, second]
    return None
