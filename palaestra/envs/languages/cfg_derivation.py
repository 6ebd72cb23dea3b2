"""Context-free derivations: derive a given string from a grammar's start symbol, step by step.

A random grammar (see :mod:`palaestra.envs.languages._grammar`) and a string it generates (drawn
at a random length, each derivation tree as likely). The answer is a derivation: the sentential
forms from ``S`` to the string, such as ``S => aSb => aaSbb => aabb``. The verifier checks every
step against the grammar: one nonterminal occurrence (any one, not necessarily the leftmost) is
replaced by one of its right-hand sides. It is bounded: at most ``MAX_STEPS`` forms are read, a
form may never be longer than the string (no rule shrinks a form, so a longer one is a dead
end), and each step is checked in time linear in the form.

Generation speed: about 800 problems/s at level 4 on this 2-core machine. Most of it is counting the
derivation trees of every length in range for the freshly drawn grammar (a memoised dynamic programme),
which is what lets the string be drawn uniformly from the grammar's derivations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._grammar import MAX_LENGTH, Grammar, random_grammar
from palaestra.envs.languages.common import read_chain

MAX_STEPS = 4 * MAX_LENGTH


@register
class CfgDerivation(Task):
    id = "languages/cfg_derivation"
    family = "languages"
    description = "Give a derivation of a string from a context-free grammar, checked step by step."
    tags = ("formal-languages", "grammar", "derivation")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        nonterminals: int
        terminals: str
        bodies: tuple[int, int]
        max_body: int
        lengths: tuple[int, int]

    presets = (
        Config(nonterminals=2, terminals="ab", bodies=(2, 2), max_body=3, lengths=(3, 5)),
        Config(nonterminals=3, terminals="ab", bodies=(2, 3), max_body=3, lengths=(5, 7)),
        Config(nonterminals=3, terminals="abc", bodies=(2, 3), max_body=3, lengths=(7, 10)),
        Config(nonterminals=4, terminals="abc", bodies=(2, 3), max_body=3, lengths=(9, 13)),
        Config(nonterminals=5, terminals="abc", bodies=(2, 4), max_body=4, lengths=(12, 16)),
    )
    # Capped at level 11's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nonterminals": 12, "bodies": (2, 11), "max_body": 11, "lengths": (33, 37)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Grammar, list[str]] | None:
            grammar = random_grammar(rng, config.nonterminals, config.terminals, config.bodies, config.max_body)
            lengths = [n for n in range(config.lengths[0], config.lengths[1] + 1) if grammar.count("S", n)]
            if not lengths:
                return None
            tree = grammar.sample(rng, rng.choice(lengths))
            forms = grammar.leftmost(tree)
            return (grammar, forms) if len(forms) >= 3 else None

        grammar, forms = retry(draw, what="a grammar generating a string of the wanted length")
        string = forms[-1]
        prompt = (
            "Here is a context-free grammar. Capital letters are nonterminals, small letters are terminals, S is the "
            "start symbol, and | separates alternatives:\n\n"
            f"{grammar.text()}\n\n"
            f'Give a derivation of the string "{string}" from S: the sequence of sentential forms, starting with S '
            "and ending with the string, where each form comes from the previous one by replacing one nonterminal "
            "with one of its alternatives. Write the forms without spaces, separated by =>, for example: "
            "S => aSb => aaSbb (this only shows the notation)."
        )
        return Problem(prompt=prompt, answer=" => ".join(forms),
                       data={"rules": grammar.to_json(), "string": string, "steps": len(forms) - 1})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        grammar = Grammar(problem.data["rules"])
        target = problem.data["string"]
        forms = read_forms(answer, len(target))
        if forms is None:
            return Verdict.unparsed("expected sentential forms separated by =>, such as S => aSb => ab")
        if forms[0] != "S":
            forms = ["S", *forms]  # the start symbol may go without saying
        error = grammar.derivation_error(forms, target)
        return Verdict.wrong(error) if error else Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps in the reference (leftmost) derivation."""
        return float(problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        forms = (problem.answer or "").split(" => ")
        grammar = Grammar(problem.data["rules"])
        rightmost = _rightmost(grammar, problem.data["string"])
        return [
            *super().spellings(problem),
            " ⇒ ".join(forms), "\n".join(forms), " -> ".join(" ".join(form) for form in forms),
            " => ".join(forms[1:]), " => ".join(rightmost),
            "\n".join(f"{i}. {form}" for i, form in enumerate(forms)),
            f"{problem.answer}.",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        forms = (problem.answer or "").split(" => ")
        grammar = Grammar(problem.data["rules"])
        wrong = [" => ".join(forms[:-1]), f"{problem.answer} or {forms[-1]}"]
        i = rng.randrange(1, len(forms) - 1)
        if not grammar.one_step(forms[i - 1], forms[i + 1]):  # two rewrites in one step (unless one rule does both)
            wrong.append(" => ".join(forms[:i] + forms[i + 1 :]))
        last = forms[-1]
        swapped = last[1:] + last[0]
        if swapped != last:
            wrong.append(" => ".join([*forms[:-1], swapped]))
        return wrong


def _rightmost(grammar: Grammar, string: str) -> list[str]:
    """A rightmost derivation of ``string`` (another valid order of the same rewrites)."""
    tree = grammar.tree(string)
    forms = ["S"]
    pending: list = [tree]
    for _ in range(MAX_STEPS):
        index = next((k for k in range(len(pending) - 1, -1, -1) if not isinstance(pending[k], str)), None)
        if index is None:
            break
        pending[index : index + 1] = pending[index][2]
        forms.append("".join(item if isinstance(item, str) else item[0] for item in pending))
    return forms


def read_forms(text: str, target_length: int) -> list[str] | None:
    """The sentential forms written in ``text`` (spaces inside a form ignored), or None.

    A form longer than the target string can never lead to it (no rule shrinks a form) and makes
    the answer unreadable, which also bounds the work on hostile text.
    """
    return read_chain(text, max_items=MAX_STEPS + 1, max_length=target_length)
