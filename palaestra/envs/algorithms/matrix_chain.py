"""Matrix-chain multiplication: parenthesise a product of matrices to use the fewest scalar multiplications.

Matrices A, B, C, ... have random compatible dimensions; multiplying a p×q by a q×r matrix costs
p·q·r scalar multiplications. The optimum comes from the classic interval dynamic programme at
generation. Dimensions are redrawn while a textbook shape reaches the optimum (the declared
``heuristics``: left to right, right to left, split at the smallest dimension, cheapest adjacent
pair first, largest inner dimension first, smallest product (p × r, or p·r − q) first, cheapest
product per inner dimension (p·r/q) first, and the two chains meeting at the smallest dimension),
except in :data:`UNCHECKED_SHARE` of problems, so that a policy cannot learn "never a textbook shape"
either. The answer is a full parenthesisation such as ``((AB)C)D``: every product
of two factors in its own parentheses (the outermost pair may be left out; ``*``, ``×`` and spaces
are ignored; ``ABC`` without parentheses is ambiguous and unreadable). The verifier accepts **any**
parenthesisation of the chain, in order, whose cost equals the optimum, also after a naming lead-in
(``Order:``, ``The optimal order is``).

Version 2: with 3 matrices only two answers existed (``A(BC)`` 0.56, ``(AB)C`` 0.44, so a coin earned
~0.5), and with uniform random dimensions the optimum concentrates on a few shapes (two chains meeting
at the smallest dimension: ``(AB)(((((CD)E)F)G)H)`` 0.14 at 8 matrices), so a constant earned ~0.14 at
the top level. Level 0 now has 6 matrices (42 shapes) and the textbook shapes are redrawn away (above);
measured over 1000 seeds per level, no shape is optimal in more than 0.06 of the problems at level 0
(0.03 at level 1, under 0.02 above), and every heuristic scores at most 0.04 at every level.

Version 3: three more greedy rules are redrawn away. Multiplying first the adjacent pair (p × q by q × r) with the
smallest p·r, p·r − q or p·r/q was optimal in 0.62/0.47/0.31/0.20/0.14, 0.67/0.49/0.34/0.23/0.18 and
0.44/0.34/0.24/0.23/0.16 of levels 0-4 (200 seeds a level); now in at most 0.03 each (the most common constant
shape stays at 0.06). A right order after a naming lead-in ("Order: ...", "The optimal order is ...") was refused
as unreadable and is now read.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.generators.graphs import letter_labels
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

UNCHECKED_SHARE = 0.05  # problems whose draw is not redrawn when a textbook shape is optimal
_IGNORED = str.maketrans("", "", " *×·⋅")
# A naming lead-in ("Order: (AB)C", "The optimal order is (AB)C"), read past only at the start of the answer.
_LABEL = re.compile(r"(?:the\s+)?(?:(?:optimal|best|cheapest)\s+)?(?:multiplication\s+)?(?:order|parenthe[sz]i[sz]ation)"
                    r"\s*(?:is\b|:)\s*", re.IGNORECASE)


@register
class MatrixChain(Task):
    id = "algorithms/matrix_chain"
    family = "algorithms"
    description = "Parenthesise a chain of matrix products to minimise scalar multiplications."
    tags = ("algorithms", "dynamic-programming", "optimization")
    max_answer_chars = 400
    version = 3  # v3: the smallest-product and cheapest-per-inner-dimension greedy rules are redrawn away too

    @dataclass(frozen=True)
    class Config:
        matrices: int
        largest: int

    # From 6 matrices on: 5 matrices have only 14 shapes, too few once the textbook ones are redrawn away.
    presets = (
        Config(matrices=6, largest=40),
        Config(matrices=7, largest=50),
        Config(matrices=8, largest=60),
        Config(matrices=10, largest=80),
        Config(matrices=12, largest=100),
    )
    # The matrices are named A-Z: difficulty saturates at 26 matrices (level 11).
    growth = Growth(limits={"matrices": 26, "largest": 140})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.matrices
        names = letter_labels(n)
        checked = rng.random() >= UNCHECKED_SHARE

        def draw() -> tuple[list[int], int, list[list[int]]]:
            dims = [rng.randint(2, config.largest) for _ in range(n + 1)]
            return (dims, *_optimal(dims))

        def beats_textbook(drawn: tuple[list[int], int, list[list[int]]]) -> bool:
            dims, cost, _ = drawn
            return not checked or all(_cost(rule(dims), dims) > cost for rule in _TEXTBOOK.values())

        dims, cost, split = retry(draw, beats_textbook, what="dimensions no textbook shape multiplies optimally")
        listing = "\n".join(f"{name}: {dims[i]} × {dims[i + 1]}" for i, name in enumerate(names))
        tree = _chain(0, n - 1, lambda i, j: split[i][j])
        prompt = (
            f"Matrices:\n{listing}\n\nThe product {''.join(names)} can be computed in different orders; multiplying "
            "a p × q matrix by a q × r matrix costs p·q·r scalar multiplications. Give an order with the fewest "
            "scalar multiplications in total, as a parenthesisation that puts every product of two factors in "
            "parentheses, for example, for a chain of four matrices W, X, Y, Z: (W(XY))Z"
        )
        return Problem(prompt=prompt, answer=_spell(tree, names, outer=False),
                       data={"names": names, "dims": dims, "cost": cost})

    def difficulty(self, problem: Problem) -> float:
        """Number of matrices plus a tenth of the digits of the optimal cost (the products compared)."""
        return float(len(problem.data["names"])) + len(str(problem.data["cost"])) / 10

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[list[int]], Tree]) -> Callable[[Problem], str]:
            return lambda problem: _spell(rule(problem.data["dims"]), problem.data["names"], outer=False)

        return {name: policy(rule) for name, rule in _TEXTBOOK.items()}

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names, dims = problem.data["names"], problem.data["dims"]
        tree = _read_tree(answer, names)
        if tree is None:
            return Verdict.unparsed("expected a full parenthesisation such as (A(BC))D")
        if _leaves(tree) != list(range(len(names))):
            return Verdict.wrong(f"the product must use {''.join(names)} once each, in that order")
        cost = _cost(tree, dims)
        return Verdict.judge(cost == problem.data["cost"], f"this order costs {cost}, not the fewest")

    def spellings(self, problem: Problem) -> list[str]:
        names = problem.data["names"]
        tree = _read_tree(problem.answer or "", names)
        return [*super().spellings(problem), _spell(tree, names, outer=True),
                _spell(tree, names, outer=False, times=" × "), f"$ {problem.answer} $", f"Order: {problem.answer}",
                f"The optimal order is {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, dims = problem.data["names"], problem.data["dims"]
        wrong = ["".join(names)]
        for rule in _TEXTBOOK.values():
            tree = rule(dims)
            if _cost(tree, dims) > problem.data["cost"]:
                wrong.append(_spell(tree, names, outer=False))
        swapped = (problem.answer or "").replace(names[0], "#").replace(names[1], names[0]).replace("#", names[1])
        wrong.append(swapped)
        return wrong


Tree = int | tuple  # a leaf is a matrix index; a product is (left, right)


def _chain(i: int, j: int, split) -> Tree:
    """The product of matrices ``i..j`` split where ``split(i, j)`` says (the left part ends there)."""
    if i == j:
        return i
    k = split(i, j)
    return (_chain(i, k, split), _chain(k + 1, j, split))


def _split_at_smallest(dims: list[int]) -> Tree:
    """Top down: split every product where the shared dimension is smallest."""
    return _chain(0, len(dims) - 2, lambda i, j: min(range(i, j), key=lambda k: dims[k + 1]))


def _greedy_pairs(dims: list[int], key: Callable[[int, int, int], int | Fraction]) -> Tree:
    """Bottom up: multiply the adjacent pair (p × q by q × r) with the smallest ``key(p, q, r)`` first."""
    factors: list[tuple[Tree, int, int]] = [(i, dims[i], dims[i + 1]) for i in range(len(dims) - 1)]
    while len(factors) > 1:
        at = min(range(len(factors) - 1), key=lambda t: key(factors[t][1], factors[t][2], factors[t + 1][2]))
        (left, rows, _), (right, _, cols) = factors[at], factors[at + 1]
        factors[at:at + 2] = [((left, right), rows, cols)]
    return factors[0][0]


def _chains_to_smallest(dims: list[int]) -> Tree:
    """Split once where the shared dimension is smallest; each side multiplies toward that split."""
    n = len(dims) - 1
    k = min(range(n - 1), key=lambda k: dims[k + 1])
    return (_chain(0, k, lambda i, j: i), _chain(k + 1, n - 1, lambda i, j: j - 1))


# The rules most often optimal on a random draw come first: the redraw check stops at the first that is.
_TEXTBOOK: dict[str, Callable[[list[int]], Tree]] = {
    "smallest_product_less_inner_first": lambda dims: _greedy_pairs(dims, lambda p, q, r: p * r - q),
    "smallest_product_first": lambda dims: _greedy_pairs(dims, lambda p, q, r: p * r),
    "cheapest_per_inner_dimension_first": lambda dims: _greedy_pairs(dims, lambda p, q, r: Fraction(p * r, q)),
    "cheapest_pair_first": lambda dims: _greedy_pairs(dims, lambda p, q, r: p * q * r),
    "largest_inner_dimension_first": lambda dims: _greedy_pairs(dims, lambda p, q, r: -q),
    "chains_toward_smallest_dimension": _chains_to_smallest,
    "split_at_smallest_dimension": _split_at_smallest,
    "left_to_right": lambda dims: _chain(0, len(dims) - 2, lambda i, j: j - 1),
    "right_to_left": lambda dims: _chain(0, len(dims) - 2, lambda i, j: i),
}


def _optimal(dims: list[int]) -> tuple[int, list[list[int]]]:
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for span in range(1, n):
        for i in range(n - span):
            j = i + span
            cost[i][j], split[i][j] = min((cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1], k)
                                          for k in range(i, j))
    return cost[0][n - 1], split


def _shape(tree: Tree, dims: list[int]) -> tuple[int, int, int]:
    """(rows, columns, cost) of the product ``tree``."""
    if isinstance(tree, int):
        return dims[tree], dims[tree + 1], 0
    rows, inner, left = _shape(tree[0], dims)
    _, cols, right = _shape(tree[1], dims)
    return rows, cols, left + right + rows * inner * cols


def _cost(tree: Tree, dims: list[int]) -> int:
    return _shape(tree, dims)[2]


def _leaves(tree: Tree) -> list[int]:
    return [tree] if isinstance(tree, int) else _leaves(tree[0]) + _leaves(tree[1])


def _spell(tree: Tree, names: list[str], outer: bool, times: str = "") -> str:
    if isinstance(tree, int):
        return names[tree]
    text = _spell(tree[0], names, True, times) + times + _spell(tree[1], names, True, times)
    return f"({text})" if outer else text


def _read_tree(answer: str, names: list[str]) -> Tree | None:
    if not isinstance(answer, str) or len(answer) > MatrixChain.max_answer_chars:
        return None
    index = {name: i for i, name in enumerate(names)}

    def core(text: str) -> Tree | None:
        s = strip_wrappers(unify(text))
        label = _LABEL.match(s)
        s = (s[label.end():] if label else s).translate(_IGNORED).upper()
        if not s or any(c not in "()" and c not in index for c in s):
            return None
        terms, end = _terms(s, 0, index)
        if terms is None or end != len(s) or not 1 <= len(terms) <= 2:
            return None
        return terms[0] if len(terms) == 1 else (terms[0], terms[1])

    return read_answer(answer, core)


def _terms(s: str, position: int, index: dict[str, int]) -> tuple[list[Tree] | None, int]:
    """The terms from ``position`` to the next unmatched ``)`` (or the end), and where they stop."""
    terms: list[Tree] = []
    while position < len(s) and s[position] != ")":
        if s[position] == "(":
            inner, end = _terms(s, position + 1, index)
            if inner is None or end >= len(s) or not 1 <= len(inner) <= 2:
                return None, end
            terms.append(inner[0] if len(inner) == 1 else (inner[0], inner[1]))
            position = end + 1
        else:
            terms.append(index[s[position]])
            position += 1
    return terms, position
