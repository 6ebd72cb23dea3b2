"""Equational proof in a lattice: a chain of terms, each one lattice axiom rewritten at one place.

A lattice has two operations, meet ``∧`` and join ``∨``, each associative and commutative, tied by
the absorption laws; idempotence (``x ∧ x = x``) is not an axiom but follows from absorption, which
is what makes the short identities here exercises. The identity ``s = t`` is drawn by a random walk
of axiom rewrites from a random term over a few letters
(:func:`palaestra.envs.proofs._rewriting.random_walk`: an axiom is drawn among those that apply, then
a place; absorption read backwards, ``x -> x ∧ (x ∨ y)``, binds ``y`` to a random letter), so it holds
in every lattice and the walk is a valid reference chain. The axioms:

    L1 (x ∧ y) ∧ z = x ∧ (y ∧ z)   L2 x ∧ y = y ∧ x   L3 (x ∨ y) ∨ z = x ∨ (y ∨ z)   L4 x ∨ y = y ∨ x
    L5 x ∧ (x ∨ y) = x             L6 x ∨ (x ∧ y) = x

The checker reads the chain with a hand-written reader (two operands per operation, brackets below
the top; ``/\\``, ``&``, ``\\/``, ``|`` as ASCII spellings) and accepts a step when the two terms agree
outside one position and the two subterms there are one axiom's two sides under one substitution, in
either direction (:func:`palaestra.envs.proofs._rewriting.one_step`); **any** valid chain scores and the
first bad step is named. Draws whose two sides are one step apart are refused. Difficulty: the
reference chain's steps plus a quarter of the two sides' sizes.

Generation speed: about 700 problems/s at level 4 on this 2-core machine. Each draw is a random walk of
axiom rewrites in which every step matches each axiom at the term's positions in random order until one
applies, and walks that end too short or one rewrite from their start are redrawn (about 1 in 3); the
walk is itself the reference proof, so its cost is the cost of the problem.
"""

from __future__ import annotations

import random

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.proofs._rewriting import Algebra, ChainTask, Term, pv

X, Y, Z = pv("x"), pv("y"), pv("z")
LATTICE = Algebra(
    binary={"meet": "∧", "join": "∨"},
    prefix={},
    constants={},
    tokens={("conn", "and"): "meet", ("conn", "or"): "join", ("conn", "bar"): "join"},
    axioms={
        "L1": (("meet", ("meet", X, Y), Z), ("meet", X, ("meet", Y, Z))),
        "L2": (("meet", X, Y), ("meet", Y, X)),
        "L3": (("join", ("join", X, Y), Z), ("join", X, ("join", Y, Z))),
        "L4": (("join", X, Y), ("join", Y, X)),
        "L5": (("meet", X, ("join", X, Y)), X),
        "L6": (("join", X, ("meet", X, Y)), X),
    },
)


@register
class LatticeIdentities(ChainTask):
    id = "proofs/lattice_identities"
    family = "proofs"
    description = "Prove a lattice identity (meet, join, absorption) by a chain of one-axiom rewrites."
    tags = ("algebra", "proofs", "rewriting", "lattices")
    version = 1
    algebra = LATTICE
    structure = "lattice (meet ∧ and join ∨)"
    axiom_text = ("L1 (x ∧ y) ∧ z = x ∧ (y ∧ z);  L2 x ∧ y = y ∧ x;  L3 (x ∨ y) ∨ z = x ∨ (y ∨ z);  "
                  "L4 x ∨ y = y ∨ x;\n  L5 x ∧ (x ∨ y) = x;  L6 x ∨ (x ∧ y) = x")
    example = "(a ∨ b) ∧ a\n= a ∧ (a ∨ b)\n= a"
    distinct_from = {"proofs/equational": "lattice axioms (two operations tied by absorption; idempotence derived) "
                                          "instead of the group axioms",
                     "proofs/ring_identities": "a lattice's meet and join with absorption, not a ring's + and * with "
                                               "distributivity and inverses"}

    presets = (
        ChainTask.Config(letters=3, start_size=2, steps=4, min_steps=3, max_size=9),
        ChainTask.Config(letters=2, start_size=2, steps=6, min_steps=5, max_size=11),
        ChainTask.Config(letters=3, start_size=3, steps=9, min_steps=7, max_size=13),
        ChainTask.Config(letters=3, start_size=4, steps=12, min_steps=9, max_size=15),
        ChainTask.Config(letters=4, start_size=5, steps=15, min_steps=11, max_size=17),
    )
    growth = Growth(steps={"steps": 3, "min_steps": 2, "max_size": 2, "start_size": 1},
                    limits={"letters": 6, "start_size": 10, "steps": 45, "min_steps": 34, "max_size": 34})

    def draw_start(self, rng: random.Random, letters: str, operations: int) -> Term:
        if operations == 0:
            return ("var", rng.choice(letters))
        left = rng.randint(0, operations - 1)
        return (rng.choice(["meet", "join"]), self.draw_start(rng, letters, left),
                self.draw_start(rng, letters, operations - 1 - left))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.replace("∧", "/\\").replace("∨", "\\/"),
                gold.replace("∧", "&").replace("∨", "|")]
