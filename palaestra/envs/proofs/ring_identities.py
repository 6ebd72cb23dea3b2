"""Equational proof in a commutative ring: a chain of terms, each one ring axiom rewritten at one place.

The identity ``s = t`` is drawn by a random walk of axiom rewrites from a random term over a few
letters, ``0``, ``1``, ``+``, ``*`` and unary ``-`` (:func:`palaestra.envs.proofs._rewriting.random_walk`:
an axiom is drawn among those that apply, then a place; a variable that only one side of an axiom has,
as in ``0 = x + -x``, becomes a random letter), so it holds in every commutative ring and the walk is a
valid reference chain. The axioms:

    R1 (x + y) + z = x + (y + z)   R2 x + y = y + x   R3 x + 0 = x   R4 x + -x = 0
    R5 (x * y) * z = x * (y * z)   R6 x * y = y * x   R7 x * 1 = x   R8 x * (y + z) = (x * y) + (x * z)

The checker reads the chain with a hand-written reader (two operands per operation, brackets below
the top, ``·`` for ``*``, ``−`` for ``-``; no binary minus) and accepts a step when the two terms agree
outside one position and the two subterms there are one axiom's two sides under one substitution, in
either direction (:func:`palaestra.envs.proofs._rewriting.one_step`); **any** valid chain from ``s`` to
``t`` scores, and the first bad step is named. Difficulty: the reference chain's steps plus a quarter
of the two sides' sizes.
"""

from __future__ import annotations

import random

from palaestra.core import register
from palaestra.core.task import Growth
from palaestra.envs.proofs._rewriting import Algebra, ChainTask, Term, pv

X, Y, Z = pv("x"), pv("y"), pv("z")
ZERO: Term = ("zero",)
ONE: Term = ("one",)
RING = Algebra(
    binary={"add": "+", "mul": "*"},
    prefix={"neg": "-"},
    constants={"zero": "0", "one": "1"},
    tokens={("other", "+"): "add", ("op", "*"): "mul", ("op", "·"): "mul", ("dash", "-"): "neg",
            ("dash", "−"): "neg", ("num", "0"): "zero", ("num", "1"): "one"},
    axioms={
        "R1": (("add", ("add", X, Y), Z), ("add", X, ("add", Y, Z))),
        "R2": (("add", X, Y), ("add", Y, X)),
        "R3": (("add", X, ZERO), X),
        "R4": (("add", X, ("neg", X)), ZERO),
        "R5": (("mul", ("mul", X, Y), Z), ("mul", X, ("mul", Y, Z))),
        "R6": (("mul", X, Y), ("mul", Y, X)),
        "R7": (("mul", X, ONE), X),
        "R8": (("mul", X, ("add", Y, Z)), ("add", ("mul", X, Y), ("mul", X, Z))),
    },
)


@register
class RingIdentities(ChainTask):
    id = "proofs/ring_identities"
    family = "proofs"
    description = "Prove a commutative-ring identity by a chain of terms, each one ring axiom rewritten at one place."
    tags = ("algebra", "proofs", "rewriting", "rings")
    version = 1
    algebra = RING
    structure = "commutative ring (with 0, 1, +, * and unary -)"
    axiom_text = ("R1 (x + y) + z = x + (y + z);  R2 x + y = y + x;  R3 x + 0 = x;  R4 x + -x = 0;\n  "
                  "R5 (x * y) * z = x * (y * z);  R6 x * y = y * x;  R7 x * 1 = x;  R8 x * (y + z) = (x * y) + (x * z)")
    example = "(a * 1) + b\n= a + b\n= b + a"
    distinct_from = {"proofs/equational": "ring axioms (two operations, distributivity, commutativity, additive "
                                          "inverses) instead of the group axioms; identities drawn by random walks"}

    presets = (
        ChainTask.Config(letters=2, start_size=2, steps=4, min_steps=3, max_size=9),
        ChainTask.Config(letters=2, start_size=3, steps=6, min_steps=5, max_size=11),
        ChainTask.Config(letters=3, start_size=3, steps=9, min_steps=7, max_size=13),
        ChainTask.Config(letters=3, start_size=4, steps=12, min_steps=9, max_size=15),
        ChainTask.Config(letters=3, start_size=5, steps=15, min_steps=11, max_size=17),
    )
    growth = Growth(steps={"steps": 3, "min_steps": 2, "max_size": 2, "start_size": 1},
                    limits={"letters": 6, "start_size": 10, "steps": 45, "min_steps": 34, "max_size": 34})

    def draw_start(self, rng: random.Random, letters: str, operations: int) -> Term:
        if operations == 0:
            return ("var", rng.choice(letters)) if rng.random() < 0.85 else rng.choice([ZERO, ONE])
        if rng.random() < 0.15:
            return ("neg", self.draw_start(rng, letters, operations - 1))
        left = rng.randint(0, operations - 1)
        return (rng.choice(["add", "mul"]), self.draw_start(rng, letters, left),
                self.draw_start(rng, letters, operations - 1 - left))
