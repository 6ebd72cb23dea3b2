"""Context-free grammar membership: does this grammar generate this string? A yes comes with a derivation.

A random grammar (no empty and no unit productions, see :mod:`palaestra.envs.languages._grammar`)
and a string. The label is drawn first: three times in four the grammar generates the string
(``MEMBER_SHARE``). A member string is drawn from the grammar at a random length (each derivation
tree of that length as likely); a non-member is such a drawn string with one letter changed or two
neighbours swapped, kept only when the grammar does not generate it, so both labels share the same
lengths and letters and a string's look says nothing about the answer.

A yes has a short certificate, so it must be shown: the answer is ``yes:`` and a derivation, the
sentential forms from ``S`` to the string separated by ``=>`` (``yes: S => aSb => aabb``; also
``->``, ``⇒``, one form per line, numbered, spaces between symbols, ``S`` left out). The verifier
checks it step by step: each form comes from the one before by replacing one nonterminal occurrence
(any one, not necessarily the leftmost) with one of its alternatives, and the last form is the
string; **any** valid derivation is accepted. Since no rule is empty or a unit rule, every step
lengthens the form or turns a nonterminal into a letter, so a derivation of ``n`` letters has at
most ``2n - 1`` steps; a longer chain is refused before any step is checked, which bounds the work
on any text. A bare ``yes`` is not an answer. No has no short certificate, so ``no`` is answered
alone and is the answer of a quarter of the problems: a constant ``no`` scores 0.25 (the kit's
certificate-free bound). A derivation with a ``no`` beside it is not read.

Guessing a derivation must not pay either. A drawn string (before the near-miss edit, so for both
labels alike) is drawn again when the derivation trees of its length that yield it are more than a
sixteenth of all of them (``BLIND_SHARE``: deriving a random string of the right length would hit
it), or when a matcher without backtracking derives it: at the leftmost (or rightmost) nonterminal
it takes an alternative that keeps the form no longer than the string, with the letters before its
first nonterminal (and after its last one) equal to the string's; greedily (the first such
alternative as listed, the first longest, the first shortest) or at random (``RANDOM_WALKS`` tries).
Those policies, answering no when they find nothing, score what the constant no scores, within 0.05
(``heuristics`` declares them for the kit). Version 1's level 0 (two nonterminals of two
alternatives, strings of 3 to 6 letters) had hardly more than one string of each length, so level 0
now has three or four alternatives per nonterminal and 5 to 8 letters, level 1 6 to 9 and level 2 8
to 12.

Version 2: a yes must come with a derivation and no is a quarter of the problems, with the redraws
above. Version 1 took a bare yes or no on balanced problems, which a coin paid half the time; the
greedy matcher derived 0.91 of its level-0 member strings and 0.10 of its level-4 ones, and a random
derivation of the string's length hit 0.85 of them at level 0.

Generation speed: about 230 problems/s at level 4 and 320 at level 0 on this 2-core machine (540 at
level 4 before version 2). Most of it is counting the derivation trees of every string length in range
for each freshly drawn grammar (a memoised dynamic programme over nonterminals, bodies and split
points), which lets the member string be drawn uniformly from the grammar's derivations, and counting
the drawn string's own trees; the redraws above reject most strings at the low levels, so each grammar
gets up to ``STRINGS_PER_GRAMMAR`` strings before another is drawn.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._grammar import Grammar, random_grammar
from palaestra.envs.languages.common import read_chain
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.normalize import strip_wrappers, unify

MEMBER_SHARE = 0.75  # the certificate-free "no" answers the rest: a constant "no" scores 0.25
BLIND_SHARE = 1 / 16  # the most of its length's derivation trees a kept string may take
STRINGS_PER_GRAMMAR = 4  # strings drawn from one grammar before drawing another
RANDOM_WALKS = 8  # random walks of a matcher tried on a drawn string (half of them rewriting the rightmost nonterminal)
# "yes", "Yes, it does:", "**Yes**. A derivation:", "Derivation:" before the derivation (a bare one is read too)
_YES_LEAD = re.compile(r"^(?:\**yes\b\**(?:,?\s*(?:it does|the grammar generates it|it is generated)\b)?\**[\s,.:;!—–-]*)?"
                       r"(?:(?:a|the|one)\s+)?(?:leftmost\s+|rightmost\s+)?(?:derivation(?:\s+is)?\s*:\s*)?",
                       re.IGNORECASE)
_NONTERMINAL = re.compile("[A-Z]")
_LAST_NONTERMINAL = re.compile("[A-Z][^A-Z]*\\Z")
_EXAMPLE = "S => xSy => xxyy"  # a derivation for the prompt's toy grammar (letters no problem uses)


@register
class CfgMembership(Task):
    id = "languages/cfg_membership"
    family = "languages"
    description = "Decide whether a context-free grammar generates a string; a yes comes with a derivation."
    tags = ("formal-languages", "grammar", "classification", "certificates")
    version = 2
    multiline = True
    certificate_free = ("no",)
    bare_verdicts = ("yes",)

    @dataclass(frozen=True)
    class Config:
        nonterminals: int
        terminals: str
        bodies: tuple[int, int]  # right-hand sides per nonterminal
        max_body: int
        lengths: tuple[int, int]  # the string's length range

    presets = (
        Config(nonterminals=2, terminals="ab", bodies=(3, 4), max_body=3, lengths=(5, 8)),
        Config(nonterminals=3, terminals="ab", bodies=(2, 3), max_body=3, lengths=(6, 9)),
        Config(nonterminals=3, terminals="abc", bodies=(2, 3), max_body=3, lengths=(8, 12)),
        Config(nonterminals=4, terminals="abc", bodies=(2, 3), max_body=3, lengths=(9, 14)),
        Config(nonterminals=5, terminals="abc", bodies=(2, 4), max_body=4, lengths=(12, 18)),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nonterminals": 11, "bodies": (2, 10), "max_body": 10, "lengths": (30, 42)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        member = rng.random() < MEMBER_SHARE

        def draw() -> tuple[Grammar, str, list[str]] | None:
            grammar = random_grammar(rng, config.nonterminals, config.terminals, config.bodies, config.max_body)
            lengths = [n for n in range(config.lengths[0], config.lengths[1] + 1)
                       if grammar.count("S", n) * BLIND_SHARE >= 1]  # (fewer trees: any string of them is guessable)
            if len(lengths) < 2:
                return None  # a language with hardly any strings in range
            # (the grammar's counts are most of the work: a few strings are tried on it)
            drawn = (grammar.sample(rng, rng.choice(lengths)) for _ in range(STRINGS_PER_GRAMMAR))
            tree = next((tree for tree in drawn if tree and not _guessable(grammar, Grammar.string(tree), rng)), None)
            if tree is None:
                return None
            # (the same filter for both labels: the non-members are near misses of such strings)
            string = Grammar.string(tree) if member else _near_miss(rng, grammar, Grammar.string(tree), config.terminals)
            return (grammar, string, grammar.leftmost(tree)) if string else None

        grammar, string, derivation = retry(draw, what="a grammar and a string with the drawn label")
        prompt = (
            "Here is a context-free grammar. Capital letters are nonterminals, small letters are terminals, S is the "
            "start symbol, and | separates alternatives:\n\n"
            f"{grammar.text()}\n\n"
            f'Does this grammar generate the string "{string}"? If it does, answer yes followed by a derivation: the '
            "sentential forms from S to the string, each obtained from the one before by replacing one nonterminal "
            "(any one, not necessarily the leftmost) with one of its alternatives, written without spaces and "
            'separated by =>. For example, for the grammar S -> x S y | x y and the string "xxyy", that answer '
            f"would be written: yes: {_EXAMPLE}. If it does not, answer with the single word no."
        )
        answer = "yes: " + " => ".join(derivation) if member else "no"
        return Problem(prompt=prompt, answer=answer, data={"rules": grammar.to_json(), "string": string})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        grammar = Grammar(problem.data["rules"])
        target = problem.data["string"]
        said = read_yes_no(answer)
        if said is False:
            return Verdict.judge(not grammar.accepts(target), "the grammar generates the string: give a derivation")
        if said is True:
            return Verdict.wrong("a yes needs a derivation of the string")
        most = 2 * len(target)  # forms of the longest derivation (2n - 1 steps), S included
        forms = read_chain(_YES_LEAD.sub("", strip_wrappers(unify(answer)), count=1).strip(), max_items=most + 1,
                           max_length=len(target))
        if forms is None:
            return Verdict.unparsed("expected yes followed by a derivation such as S => aSb => ab, or no")
        if forms[0] != "S":
            forms = ["S", *forms]  # the start symbol may go without saying
        if len(forms) > most:
            return Verdict.wrong(f"a derivation of {len(target)} letters takes at most {most - 1} steps here")
        error = grammar.derivation_error(forms, target)
        return Verdict.wrong(error) if error else Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The string's length times the number of productions (the work of a chart parser)."""
        productions = sum(len(bodies) for bodies in problem.data["rules"].values())
        return float(len(problem.data["string"]) * productions)

    def surface_features(self, problem: Problem) -> dict[str, float]:
        string = problem.data["string"]
        features = {"length": float(len(string)), "first letter": float(ord(string[0])),
                    "last letter": float(ord(string[-1]))}
        for letter in "abc":
            features[f"count {letter}"] = float(string.count(letter))
        return features

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def first_alternatives(problem: Problem) -> str:
            grammar = Grammar(problem.data["rules"])
            forms = ["S"]
            for _ in range(2 * len(problem.data["string"])):
                head = _first_nonterminal(forms[-1])
                if head == len(forms[-1]):
                    break
                forms.append(forms[-1][:head] + grammar.rules[forms[-1][head]][0] + forms[-1][head + 1 :])
            return "yes: " + " => ".join(forms)

        def random_derivation(problem: Problem) -> str:
            grammar, string = Grammar(problem.data["rules"]), problem.data["string"]
            tree = grammar.sample(random.Random(problem.seed), len(string))
            return "yes: " + " => ".join(grammar.leftmost(tree)) if tree and Grammar.string(tree) == string else "no"

        def greedy(pick: Callable[[list[str]], str]) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                forms = _match(Grammar(problem.data["rules"]), problem.data["string"], pick)
                return "yes: " + " => ".join(forms) if forms else "no"
            return policy

        def random_walk(rightmost: bool) -> Callable[[Problem], str]:
            def policy(problem: Problem) -> str:
                forms = _match(Grammar(problem.data["rules"]), problem.data["string"],
                               random.Random(problem.seed).choice, rightmost=rightmost)
                return "yes: " + " => ".join(forms) if forms else "no"
            return policy

        return {"first alternatives": first_alternatives, "random derivation of the string's length, else no": random_derivation,
                **{f"greedy matcher, option {order}, else no": greedy(pick) for order, pick in _GREEDY.items()},
                "random leftmost matcher, else no": random_walk(False), "random rightmost matcher, else no": random_walk(True)}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if gold == "no":
            return [*super().spellings(problem), "NO", "**No**", "No."]
        forms = gold.removeprefix("yes: ").split(" => ")
        grammar = Grammar(problem.data["rules"])
        tree = grammar.tree(problem.data["string"])  # (the first tree found: maybe another than the reference's)
        rightmost = grammar.rightmost(tree) if tree else forms
        return [*super().spellings(problem), "Yes: " + " ⇒ ".join(forms), "yes\n" + "\n".join(forms),
                "**Yes**, it does: " + " -> ".join(" ".join(form) for form in forms), " => ".join(forms[1:]),
                "Yes. A derivation: " + " => ".join(forms),
                "yes: " + " => ".join(rightmost), "Yes.\n" + "\n".join(f"{i}. {form}" for i, form in enumerate(forms)),
                f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        string = problem.data["string"]
        if problem.answer == "no":
            return ["yes", f"yes: S => {string}", f"yes: {_EXAMPLE}", "no or yes", "maybe", "No. Actually, yes."]
        forms = (problem.answer or "").removeprefix("yes: ").split(" => ")
        grammar = Grammar(problem.data["rules"])
        chain = " => ".join(forms)
        wrong = ["yes", "no", f"yes: {' => '.join(forms[:-1])}", f"{problem.answer}. No.", f"{problem.answer} or no",
                 f"no ({chain})", f"yes: {chain}\nNo, it does not.", f"yes: {chain} => {string}{string[0]}"]
        i = rng.randrange(1, max(2, len(forms) - 1))
        if len(forms) > 2 and not grammar.one_step(forms[i - 1], forms[i + 1]):  # two rewrites in one step
            wrong.append("yes: " + " => ".join(forms[:i] + forms[i + 1 :]))
        return wrong


def _first_nonterminal(form: str) -> int:
    """The index of ``form``'s first nonterminal, or its length when it has none."""
    found = _NONTERMINAL.search(form)
    return found.start() if found else len(form)


def _match(grammar: Grammar, string: str, pick: Callable[[list[str]], str], *, rightmost: bool = False,
           both_ends: bool = True) -> list[str] | None:
    """The derivation of ``string`` a matcher without backtracking finds, or None when it gets stuck or misses.

    At each step the leftmost (or rightmost) nonterminal is rewritten; of its alternatives, those that keep the
    form no longer than the string, with the letters before its first nonterminal (and, when ``both_ends``, after
    its last one) equal to the string's, are the options, in the grammar's order, and ``pick`` chooses one."""
    forms = ["S"]
    for _ in range(2 * len(string)):  # a derivation of n letters takes at most 2n - 1 steps
        form = forms[-1]
        place = max(form.rfind(head) for head in grammar.rules) if rightmost else _first_nonterminal(form)
        if place in (-1, len(form)):
            break
        grown = (form[:place] + body + form[place + 1 :] for body in grammar.rules[form[place]])
        options = [new for new in grown if _fits(new, string, both_ends)]
        if not options:
            return None
        forms.append(pick(options))
    return forms if forms[-1] == string else None


def _fits(form: str, string: str, both_ends: bool) -> bool:
    """Whether ``form`` could still derive ``string`` as far as its length and its outer letters tell."""
    if len(form) > len(string):
        return False
    first = _NONTERMINAL.search(form)
    if first is None:
        return form == string
    if not string.startswith(form[:first.start()]):
        return False
    if not both_ends:
        return True
    last = _LAST_NONTERMINAL.search(form, first.start())  # (it runs for every option of every step)
    assert last is not None  # there is a nonterminal from ``first`` on
    return string.endswith(form[last.start() + 1:])  # the letters after the last nonterminal


# How a greedy matcher picks among the options: the first as listed, the first longest, the first shortest.
_GREEDY: dict[str, Callable[[list[str]], str]] = {
    "as listed": lambda options: options[0], "longest first": lambda options: max(options, key=len),
    "shortest first": lambda options: min(options, key=len)}


def _guessable(grammar: Grammar, string: str, rng: random.Random) -> bool:
    """Whether a derivation of ``string`` comes without parsing it: a random derivation of its length hits it
    often, a greedy matcher finds one, or one of a few random walks of a matcher does."""
    if grammar.parses(string) > BLIND_SHARE * grammar.count("S", len(string)):
        return True
    greedy = ((pick, rightmost, both_ends) for pick in _GREEDY.values() for rightmost in (False, True)
              for both_ends in ((True,) if rightmost else (True, False)))  # (only a leftmost one may ignore the end)
    walks = ((lambda options: rng.choice(options), walk % 2 == 1, True) for walk in range(RANDOM_WALKS))
    return any(_match(grammar, string, pick, rightmost=rightmost, both_ends=both_ends)
               for pick, rightmost, both_ends in (*greedy, *walks))


def _near_miss(rng: random.Random, grammar: Grammar, string: str, terminals: str) -> str | None:
    """``string`` with one letter changed or two neighbours swapped, not generated by ``grammar``."""
    for _ in range(20):
        chars = list(string)
        i = rng.randrange(len(chars))
        if rng.random() < 0.5 and len(chars) > 1:
            j = min(i + 1, len(chars) - 1) if i + 1 < len(chars) else i - 1
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars[i] = rng.choice([t for t in terminals if t != chars[i]])
        candidate = "".join(chars)
        if candidate != string and not grammar.accepts(candidate):
            return candidate
    return None
