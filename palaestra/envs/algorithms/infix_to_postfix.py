"""Convert an infix expression to postfix (reverse Polish) notation.

Random expression trees over one-letter variables, with ``+ - * /`` (left-associative) and, from
level 2 on, ``^`` (right-associative, binding tightest). The infix text uses the fewest
parentheses the precedence rules need, plus (from level 3 on) a few redundant ones. The postfix
form of a parse is unique, so the verifier compares tokens exactly: tokens separated by spaces or
commas, or all run together (``ab+``); a mix of the two (``ab +``) is not read.

From level 2 on, every expression has an unparenthesised chain ``a ^ b ^ c`` whose grouping
matters: reading ``^`` as left-associative like the other operators (the rule a lazy converter
drops) gave the right answer for 0.81-0.89 of levels 2-6 before version 2; expressions are redrawn
until it does not. Version 3 also redraws every expression that a converter ignoring precedence (every
operator applied left to right but ^ grouped either way, parentheses kept) gets right, 0.87 and 0.67 of levels
0 and 1 before (0.80 of level 2 with ^ grouped to the right), and
every one that grouping all equal-precedence operators right to left gets right, 0.63, 0.30, 0.63, 0.50, 0.27
of levels 0-4 before; none now.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}
_FLAT = dict.fromkeys(PRECEDENCE, 1)
_TOKENS = re.compile(r"^[a-z+\-*/^]+$")
_SPELLED = str.maketrans({"×": "*", "÷": "/", "−": "-", "·": "*"})

Tree = str | tuple  # a variable, or (operator, left, right)


@register
class InfixToPostfix(Task):
    id = "algorithms/infix_to_postfix"
    family = "algorithms"
    description = "Convert an infix expression to postfix (reverse Polish) notation."
    tags = ("algorithms", "parsing", "stacks")
    version = 3  # v3: expressions that ignoring precedence, or grouping all ties to the right, converts are redrawn
    max_answer_chars = 1_000

    @dataclass(frozen=True)
    class Config:
        operators: int
        symbols: str
        redundant: float  # chance of redundant parentheses around a subexpression

    presets = (
        Config(operators=3, symbols="+-*", redundant=0.0),
        Config(operators=4, symbols="+-*/", redundant=0.0),
        Config(operators=6, symbols="+-*/^", redundant=0.0),
        Config(operators=8, symbols="+-*/^", redundant=0.15),
        Config(operators=11, symbols="+-*/^", redundant=0.2),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        variables = rng.sample("abcdefghijkmnpqrstuvwxyz", min(config.operators + 1, 12))

        def draw() -> tuple[str, str] | None:
            tree = _random_tree(rng, config.operators, config.symbols, variables)
            infix = _infix(tree, rng, config.redundant)
            postfix = " ".join(_postfix(tree))
            if "^" in config.symbols and _converted(infix) == postfix:
                return None  # grouping ^ to the left like the rest would give the same answer
            careless = (_converted(infix, _FLAT), _converted(infix, _FLAT, right="^"), _converted(infix, right="+-*/^"))
            if postfix in careless:
                return None  # so would ignoring precedence (^ grouped either way), or grouping every operator right to left
            return infix, postfix

        infix, postfix = retry(draw, attempts=10_000, what="an expression only the stated rules convert")
        prompt = (
            f"Convert this infix expression to postfix notation (reverse Polish notation):\n{infix}\n\n"
            "Use the usual rules: ^ binds tightest and groups right to left (a ^ b ^ c = a ^ (b ^ c)); * and / "
            "bind tighter than + and -; operators of equal precedence otherwise group left to right. Write the "
            "postfix tokens separated by spaces, for example: x y z * + w -"
        )
        return Problem(prompt=prompt, answer=postfix, data={"infix": infix, "postfix": postfix})

    def difficulty(self, problem: Problem) -> float:
        """Operators in the expression, plus the parentheses to resolve and the operators that change
        precedence on the way (each one pops the stack)."""
        postfix = problem.data["postfix"].split()
        operators = [t for t in postfix if t in PRECEDENCE]
        changes = sum(PRECEDENCE[a] != PRECEDENCE[b] for a, b in zip(operators, operators[1:]))
        return float(len(operators)) + problem.data["infix"].count("(") / 2 + changes / 4

    def verify(self, problem: Problem, answer: str) -> Verdict:
        tokens = _read_tokens(answer, set(problem.data["infix"]) - set(PRECEDENCE) - set("() "))
        if tokens is None:
            return Verdict.unparsed("expected postfix tokens separated by spaces")
        return Verdict.judge(tokens == problem.data["postfix"].replace(" ", ""), "that is not the postfix form")

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.replace(" ", ""), ", ".join(gold.split()), f"`{gold}`"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        tokens = (problem.answer or "").split()
        operators = [i for i, t in enumerate(tokens) if t in PRECEDENCE]
        i, j = operators[-1], operators[0]
        moved = tokens[:j] + tokens[j + 1 :]
        moved.append(tokens[j])  # the first operator applied last instead
        wrong = [" ".join(tokens[:-1]), " ".join(moved), problem.data["infix"]]
        distinct = [k for k in operators if tokens[k] != tokens[i]]
        if distinct:
            swapped = tokens[:]
            k = distinct[0]
            swapped[i], swapped[k] = swapped[k], swapped[i]
            wrong.append(" ".join(swapped))
        return [w for w in wrong if w.replace(" ", "") != "".join(tokens)]


def _random_tree(rng: random.Random, operators: int, symbols: str, variables: list[str]) -> Tree:
    """A random binary tree with ``operators`` inner nodes; leaves are drawn from ``variables``."""
    if operators == 0:
        return rng.choice(variables)
    left = rng.randint(0, operators - 1)
    op = rng.choice(symbols)
    right = operators - 1 - left
    return (op, _random_tree(rng, left, symbols, variables), _random_tree(rng, right, symbols, variables))


def _needs_parentheses(child: Tree, parent_op: str, right_side: bool) -> bool:
    if isinstance(child, str):
        return False
    mine, theirs = PRECEDENCE[child[0]], PRECEDENCE[parent_op]
    if mine != theirs:
        return mine < theirs
    return right_side if parent_op != "^" else not right_side


def _infix(tree: Tree, rng: random.Random, redundant: float) -> str:
    if isinstance(tree, str):
        return tree
    op, left, right = tree
    parts = []
    for child, right_side in ((left, False), (right, True)):
        text = _infix(child, rng, redundant)
        if _needs_parentheses(child, op, right_side) or (not isinstance(child, str) and rng.random() < redundant):
            text = f"({text})"
        parts.append(text)
    return f"{parts[0]} {op} {parts[1]}"


def _converted(infix: str, ranks: dict[str, int] = PRECEDENCE, right: str = "") -> str:
    """The postfix form a converter gives that binds operators by ``ranks`` (``_FLAT``: one rank, the rule that
    ignores precedence) and groups those in ``right`` right to left, the others left to right.

    >>> _converted("a + b * c"), _converted("a + b * c", ranks=_FLAT), _converted("a - b + c", right="+-")
    ('a b c * +', 'a b + c *', 'a b c + -')
    """
    output: list[str] = []
    stack: list[str] = []
    for token in infix.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            stack.append(token)
        elif token == ")":
            while stack[-1] != "(":
                output.append(stack.pop())
            stack.pop()
        elif token in PRECEDENCE:
            while stack and stack[-1] != "(" and (
                ranks[stack[-1]] > ranks[token] or ranks[stack[-1]] == ranks[token] and token not in right
            ):
                output.append(stack.pop())
            stack.append(token)
        else:
            output.append(token)
    return " ".join(output + stack[::-1])


def _postfix(tree: Tree) -> list[str]:
    if isinstance(tree, str):
        return [tree]
    op, left, right = tree
    return [*_postfix(left), *_postfix(right), op]


def _read_tokens(answer: str, variables: set[str]) -> str | None:
    """The answer's tokens run together (``"ab+"``), or None. Letters must be the problem's variables,
    so the words of a trailing sentence are not read as tokens (the sentence is then cut as a tail).

    Two layouts are read: every token separated from the next (by spaces or commas: ``a b +``, ``a, b, +``),
    or none separated (``ab+``, unambiguous with one-character tokens). A mix (``ab +``, ``rc v * -``) is not
    postfix written token by token, so it is not read."""
    if not isinstance(answer, str) or len(answer) > InfixToPostfix.max_answer_chars:
        return None

    def core(text: str) -> str | None:
        s = strip_wrappers(text).translate(_SPELLED).lower().strip()
        pieces = [piece for piece in re.split(r"[\s,]+", s) if piece]
        if len(pieces) > 1 and any(len(piece) != 1 for piece in pieces):
            return None
        s = "".join(pieces)
        return s if _TOKENS.match(s) and all(c in variables for c in s if c.isalpha()) else None

    return read_answer(unify(answer), core)
