"""Horn-clause inference: which propositions follow from some facts and if-then rules?

Each rule says that when all of its conditions hold, its conclusion holds (a definite Horn
clause); the facts hold outright. Everything that follows is the forward-chaining closure of the
facts under the rules, computed exactly. Rules are drawn in layers so that derivations chain
(the level sets the depth), and in every problem some rule never fires because a condition can never
be derived (a few atoms are concluded only by rules that need another of them), so reading rule
heads is not enough (listing every conclusion of a rule scored 0.30-0.88
at levels 0-6 before version 2, when that was left to chance). Nor is reading "and" as "or": in every problem
a rule fired on any one of its conditions derives something that does not follow (that reading answered 0.24,
0.19, 0.12, 0.07, 0.01 of levels 0-4 before version 3, 200 seeds a level; now 0).

The answer is the set of propositions that follow but are not facts, in any order
(``{cedar, ember}``, ``cedar, ember`` or ``cedar and ember``); the verifier compares it with the
closure (the answer is unique).

Generation speed: about 520 problems/s at level 4. About 20 in 21 drawn rule sets are redrawn, each closed by
forward chaining, because their derivations are too shallow, nothing or everything follows, or every rule's
conclusion follows; the redraws keep listing the rule heads from earning reward.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import without_label
from palaestra.verifiers.sets import one_of, read_set

# fmt: off
_ATOMS = (
    "amber", "basil", "cedar", "delta", "ember", "fable", "glint", "hazel", "ivory", "jasper", "koala", "lotus",
    "mango", "nectar", "olive", "pearl", "quartz", "raven", "sable", "thyme", "umber", "velvet", "willow", "yarrow",
    "zinnia", "aspen", "birch", "coral", "dune", "flint", "garnet", "heron",
)
# fmt: on

# "Derived: cedar, ember", "The true propositions besides the facts are ...": a name before the list
_LABEL = re.compile(r"(?:the\s+)?(?:(?:(?:derived|true|new|inferred|other)\s+)?(?:propositions?|atoms?)\s+"
                    r"(?:that\s+(?:are|is)\s+)?(?:true\s+)?besides\s+the\s+facts|(?:derived|true|new|inferred|other)\s+"
                    r"(?:propositions?|atoms?|facts?|ones?)|true\s+besides\s+the\s+facts|derived|inferred)\b"
                    r"\s*(?::|=|are\b|is\b)\s*", re.IGNORECASE)


@register
class HornInference(Task):
    id = "deduction/horn_inference"
    family = "deduction"
    description = "List the propositions that follow from facts and if-then (Horn) rules by chaining."
    tags = ("logic", "deduction", "horn-clauses", "forward-chaining")
    # v2 (the rules that never fire) left the number at 1
    version = 3  # v3: a rule fired on any one of its conditions derives too much, in every problem

    @dataclass(frozen=True)
    class Config:
        atoms: int
        facts: int
        rules: int
        max_body: int  # conditions per rule: 1..max_body
        min_depth: int  # the longest derivation chain is at least this long

    presets = (
        Config(atoms=6, facts=2, rules=5, max_body=2, min_depth=2),
        Config(atoms=9, facts=3, rules=8, max_body=2, min_depth=3),
        Config(atoms=12, facts=3, rules=12, max_body=3, min_depth=3),
        Config(atoms=16, facts=4, rules=17, max_body=3, min_depth=4),
        Config(atoms=20, facts=4, rules=24, max_body=3, min_depth=5),
    )
    # Capped at level 9's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"rules": 7}, limits={"rules": 59})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        atoms, facts, rules, derived, depth = retry(lambda: _draw(rng, config), what="rules with a deep enough chain")
        fact_text = ", ".join(atoms[i] for i in facts)
        example = [a for a in _ATOMS if a not in atoms][:2]  # words that are not propositions here
        rule_lines = "\n".join(
            f"{k}. If {' and '.join(atoms[i] for i in body)}, then {atoms[head]}." for k, (body, head) in
            enumerate(rules, 1))
        prompt = (
            f"Propositions: {', '.join(sorted(atoms))}.\n\nFacts (true): {fact_text}.\n\nRules:\n{rule_lines}\n\n"
            "A proposition is true only if it is a fact or some rule whose conditions are all true concludes "
            "it. Which propositions are true besides the facts? List them separated by commas, in any order, "
            f"for example: {', '.join(example)}"
        )
        answer = ", ".join(sorted(atoms[i] for i in derived))
        data = {"atoms": atoms, "facts": facts, "rules": [[body, head] for body, head in rules],
                "derived": sorted(atoms[i] for i in derived), "depth": depth}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Rules to consider times the longest derivation chain."""
        return float(len(problem.data["rules"]) * problem.data["depth"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        atoms = problem.data["atoms"]
        said = read_set(without_label(answer, _LABEL), one_of(atoms))
        if said is None:
            return Verdict.unparsed("expected propositions separated by commas")
        expected = set(problem.data["derived"])
        facts = {atoms[i] for i in problem.data["facts"]}
        said = set(said) - facts  # restating a fact is harmless
        if said == expected:
            return Verdict.right()
        missing, extra = sorted(expected - said), sorted(said - expected)
        return Verdict.wrong(f"missing {missing[0]}" if missing else f"{extra[0]} does not follow")

    def spellings(self, problem: Problem) -> list[str]:
        derived = problem.data["derived"]
        facts = [problem.data["atoms"][i] for i in problem.data["facts"]]
        return [*super().spellings(problem), "{" + ", ".join(reversed(derived)) + "}",
                " and ".join(derived) if len(derived) < 3 else ", ".join(derived[:-1]) + ", and " + derived[-1],
                "\n".join(f"- {a}" for a in derived), ", ".join(d.upper() for d in derived),
                ", ".join([*facts, *derived])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        derived = problem.data["derived"]
        atoms = problem.data["atoms"]
        facts = {atoms[i] for i in problem.data["facts"]}
        underived = [a for a in atoms if a not in derived and a not in facts]
        wrong = [", ".join(derived[:-1]) or "none"]
        if underived:
            wrong.append(", ".join([*derived, rng.choice(underived)]))
        wrong.append(f"{', '.join(derived)} or {underived[0] if underived else derived[0]}")
        return wrong


def _closure(facts: set[int], rules: list[tuple[list[int], int]],
             fires: Callable[[Iterable[bool]], bool] = all) -> tuple[set[int], int]:
    """The facts' forward-chaining closure and the longest derivation chain (rounds of rule firing); ``fires``
    says whether a rule fires from which of its conditions are known (``any``: the misreading of "and" as "or")."""
    known, rounds = set(facts), 0
    for _ in range(len(rules) + 1):  # each round adds at least one proposition or stops
        new = {head for body, head in rules if head not in known and fires(b in known for b in body)}
        if not new:
            break
        known |= new
        rounds += 1
    return known, rounds


def _draw(rng: random.Random, config: HornInference.Config) -> tuple | None:
    atoms = rng.sample(_ATOMS, config.atoms)
    order = list(range(config.atoms))
    rng.shuffle(order)
    facts = order[: config.facts]
    # The last atoms are out of reach: a rule concluding one of them needs another of them, so none is ever
    # derived, and rules concluding them stay unfired however many rules there are.
    unreachable = order[config.atoms - max(2, (config.atoms - config.facts) // 4):]
    rules: list[tuple[list[int], int]] = []
    for _ in range(config.rules):
        head = rng.choice(order[config.facts:])
        before = order[: order.index(head)]  # conditions come from earlier atoms, mostly: derivations chain
        pool = before if before and rng.random() < 0.8 else [a for a in order if a != head]
        body = sorted(rng.sample(pool, min(len(pool), rng.randint(1, config.max_body))))
        if head in unreachable and not set(body) & set(unreachable):
            body = sorted({*body[1:], rng.choice([a for a in unreachable if a != head])})
        if (body, head) not in rules:
            rules.append((body, head))
    known, depth = _closure(set(facts), rules)
    derived = known - set(facts)
    if depth < config.min_depth or not derived or len(derived) == config.atoms - config.facts:
        return None  # too shallow, nothing to find, or everything follows
    if {head for _, head in rules} <= known:
        return None  # every rule's conclusion follows: listing the rule heads would be the answer
    if _closure(set(facts), rules, any)[0] == known:
        return None  # firing a rule on any one of its conditions would find the answer
    rng.shuffle(rules)
    return atoms, facts, rules, sorted(derived), depth
