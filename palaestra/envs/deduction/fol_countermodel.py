"""Find a countermodel: a finite structure in which first-order premises are true and a conclusion false.

The prompt gives an invalid argument: premises and a conclusion, first-order sentences over unary
predicates (P, Q, R) and, from level 2, binary relations (L, M), with a bound N on the domain size.
The answer is a structure: a domain {1, ..., n} with n <= N and the extension of every predicate
and relation. The verifier parses it with a small bounded reader and evaluates every sentence on
it; any structure in which all the premises hold and the conclusion fails scores, so the
structure is never compared with a reference.

Generation plants a countermodel: a random structure of size N is drawn first, then a conclusion
false in it and premises true in it, so a countermodel within the bound exists by construction.
To keep the search from being a guess, each argument must rule out a batch of easy countermodels
(probes): with unary predicates only, every structure of size <= N up to isomorphism (a few
look-alikes of the planted one may stay); with relations, 200 random structures, half of them
sparse with two elements (what a solver finds first). The probes also hold 256 uniformly random
structures of each size from 2 to N (to 4 past the presets). The conclusion is the best of a dozen
(true in the most probes) and each premise the best of a few (ruling out the most probes where the conclusion fails, less the
uniform ones where it holds, weighed by their current ratio); all the probes are evaluated at once
with bit masks. Premises are added (up to two past ``max_premises``) until, at every size, at most
``COUNTERMODEL_SHARE`` (a quarter) of the uniform probes where the premises hold are countermodels,
and an argument is kept only when that also holds of 2,048 fresh uniformly random structures of
each size: a random model of the premises, found without reading the conclusion, is rarely a
countermodel (``heuristics``). A SAT solver (the sentences grounded over a
one-element domain) proves no countermodel has fewer than ``min_size`` elements, and neither the
all-empty nor the all-full structure of any allowed size is one. Unlike deduction/fol_evaluate
(the truth value of one sentence in a given structure) the structure here is to be built.

Answer format, one statement per line (``;`` also separates); a predicate left out is empty::

    domain = {1, 2, 3}
    P = {1, 3}
    Q = {}
    L = {(1, 2), (3, 3)}

Version 2: countermodels are at most a quarter of the premises' random models at each size. In version 1 a
uniformly random model of the premises of the largest size, ignoring the conclusion, was a countermodel 0.55, 0.53
and 0.69 of the time at levels 0, 2 and 4 (150 seeds each), and the first model a SAT solver finds for the premises
alone 0.57, 0.47 and 0.56; now 0.11, 0.08 and 0.07, and 0.13, 0.09 and 0.16 (random models with atoms true at
chance 3/4: 0.22, 0.16, 0.13; at 1/4: 0.14, 0.13, 0.09). Past the presets only sizes up to 4 are sampled.

Generation speed: about 45 problems/s at level 4 (140 in version 1: a draw now fails more often). Most of the time
goes to evaluating candidate sentences on the probes (200 random structures with relations, every small structure without) to keep, of a few candidates each, the
conclusion and premises that rule out the most easy countermodels, and to the SAT proof of the smallest
countermodel size; both are kept because without them a tiny, empty or first-found structure would earn reward.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction._first_order import (
    BINARY,
    UNARY,
    TruthBatch,
    degenerate,
    ground,
    holds,
    random_sentence,
    random_structure,
    render,
    size,
    structure_from_model,
)
from palaestra.solvers.sat import CNF, Budget, solve
from palaestra.verifiers.blocks import read_block
from palaestra.verifiers.normalize import is_closing, strip_wrappers, unify

# The sentences ground to a few hundred gates: a proof takes a handful of conflicts.
_PROOF_BUDGET = Budget(conflicts=20_000)
_MAX_STATEMENTS = 32
_PROBES = 100  # random structures of each kind
_LEFT = 3  # monadic probes left as countermodels when the premises are complete (the planted one's look-alikes)
_CHOICES = 6  # candidate sentences compared at each step
_CONCLUSIONS = 12  # candidate conclusions compared
_EXTRA = 2  # premises past max_premises that may be added to make countermodels rare among the premises' models
_UNIFORM = 256  # uniform random structures of each size from 2 to N among the probes (their premise models)
_LARGEST_SAMPLED = 4  # the largest size sampled (every preset's bound); past it sampling costs too much CPU
_SAMPLE = 2048  # fresh uniform random structures of each size that measure the countermodels' share
COUNTERMODEL_SHARE = 0.25  # at most this share of the premises' sampled models of each size are countermodels
_DOMAIN_NAMES = frozenset({"domain", "d", "universe", "u", "size", "n", "|d|", "dom", "domain size"})
# A name, "domain size", or a predicate with its variables (``P(x) = {1}``, ``L(x, y) = ...``), then its value.
_STATEMENT = re.compile(r"^([A-Za-z|]{1,8}(?: size)?)(?:\s*\(\s*[a-z]\s*(?:,\s*[a-z]\s*)?\))?\s*(?::=|=|:)\s*(.*)$")
_PAIR = re.compile(r"[(<⟨]\s*(\d{1,3})\s*,\s*(\d{1,3})\s*[)>⟩]")
# {1, ..., n}, {1, 2, ..., n} and the range {1..n}
_ELLIPSIS_SET = re.compile(r"^1\s*(?:,\s*(?:2\s*,\s*)?)?(?:\.\.\.|\.\.|…|\\ldots|\\dots|\\cdots)\s*,?\s*(\d{1,3})$")
_NEXT_STATEMENT = re.compile(r"\s*[A-Za-z|]{1,8}(?:\s*\(\s*[a-z]\s*(?:,\s*[a-z]\s*)?\))?\s*(?::=|=|:)")
_LATEX_NAME = re.compile(r"\\(?:text|mathrm|mathit|textrm|operatorname)\{([A-Za-z|]{1,8})\}")
_EMPTY = frozenset({"", "∅", "\\emptyset", "\\varnothing", "empty", "none"})


@register
class FolCountermodel(Task):
    id = "deduction/fol_countermodel"
    family = "deduction"
    description = "Build a finite structure in which given first-order premises are true and a conclusion false."
    tags = ("logic", "first-order-logic", "model-finding", "countermodel")
    multiline = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        max_domain: int  # N: the answer's domain has at most this many elements
        min_size: int  # no countermodel has fewer elements (proved by SAT at generation; random
        # sentences almost never force 3 elements, so every level asks for 2)
        min_premises: int
        max_premises: int  # premises are added until no probe structure is a countermodel (and up to two more
        # until countermodels are rare among the premises' uniformly random models)
        quantifiers: tuple[int, ...]  # quantifiers per sentence, drawn from these
        connectives: int
        unary: int  # predicates P, Q, R in the vocabulary
        binary: int  # relations L, M in the vocabulary

    presets = (
        Config(max_domain=3, min_size=2, min_premises=2, max_premises=6, quantifiers=(1,), connectives=1, unary=3, binary=0),
        Config(max_domain=3, min_size=2, min_premises=2, max_premises=6, quantifiers=(1, 2), connectives=2, unary=3, binary=0),
        Config(max_domain=3, min_size=2, min_premises=2, max_premises=6, quantifiers=(2,), connectives=1, unary=2, binary=1),
        Config(max_domain=4, min_size=2, min_premises=3, max_premises=7, quantifiers=(2,), connectives=2, unary=2, binary=1),
        Config(max_domain=4, min_size=2, min_premises=3, max_premises=7, quantifiers=(2, 3), connectives=2, unary=3, binary=2),
    )
    # Capped at level 13's values: past them generation raises or passes its CPU bound (difficulty saturates). The
    # domain stops at 7 (level 7's) since version 2: the premises' random-model sample made a 13-element domain's
    # draws take up to 3 s of CPU at level 20 (7 elements: 0.7-1.7 s on a heavily loaded host, under the kit's 2 s).
    growth = Growth(limits={"max_domain": 7, "min_premises": 12, "max_premises": 16, "connectives": 11, "binary": 11})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        unary, binary = UNARY[: config.unary], BINARY[: config.binary]

        probes = _probes(rng, config.max_domain, unary, binary)
        sizes = range(2, min(config.max_domain, _LARGEST_SAMPLED) + 1)  # no countermodel has one element
        batch = _with_uniform(TruthBatch(probes), rng, sizes, _UNIFORM, unary, binary)
        planted_bit = batch.count
        small = (1 << len(probes)) - 1  # the easy countermodels' bits; the uniform structures' come after
        blocks = [((1 << _UNIFORM) - 1) << (len(probes) + i * _UNIFORM) for i in range(len(sizes))]  # per size
        uniform = ((1 << planted_bit) - 1) ^ small
        left = 0 if binary else _LEFT  # random probes never include the planted structure's look-alikes

        def draw() -> tuple[list[list], list] | None:
            mask = batch.plus(random_structure(rng, config.max_domain, unary, binary))  # the planted one last

            def sentence(truth: bool) -> tuple[list, int] | None:
                made = random_sentence(rng, rng.choice(config.quantifiers), config.connectives, unary, binary)
                if degenerate(made):
                    return None
                bits = mask(made)
                if bool(bits >> planted_bit & 1) != truth:  # its negation has the truth value wanted
                    made, bits = _negated(made), bits ^ ((1 << (planted_bit + 1)) - 1)
                return made, bits

            # The best of a few conclusions false in the planted structure: the one true in most probes.
            options = [option for option in (_first(lambda: sentence(False), 20) for _ in range(_CONCLUSIONS))
                       if option is not None]
            if not options:
                return None
            every = (1 << planted_bit) - 1  # the probes' bits
            conclusion, true_in_conclusion = max(options, key=lambda option: option[1].bit_count())
            easy = every & ~true_in_conclusion  # the probes where the conclusion fails
            good = every & true_in_conclusion & uniform  # the uniform probes where the premises and conclusion hold
            premises: list[list] = []

            def rare() -> bool:
                return all((easy & block).bit_count() <= 0.8 * COUNTERMODEL_SHARE * (
                    (easy | good) & block).bit_count() for block in blocks)

            for _ in range(config.max_premises + _EXTRA):
                if len(premises) >= config.min_premises and (easy & small).bit_count() <= left and rare():
                    break
                if len(premises) >= config.max_premises and (easy & small).bit_count() > left:
                    break
                # The best of a few premises true in the planted structure: the one ruling out most probes
                # where the conclusion fails, less the uniform ones where it holds that it rules out too.
                options = [option for option in (_first(lambda: sentence(True), 20) for _ in range(_CHOICES))
                           if option is not None and option[0] not in premises and option[0] != conclusion]
                if not options:
                    return None
                ratio = (easy & uniform).bit_count() / max(1, good.bit_count())
                premise, true_in = max(options, key=lambda option: (easy & ~option[1]).bit_count()
                                       - ratio * (good & ~option[1]).bit_count())
                premises.append(premise)
                easy &= true_in
                good &= true_in
            if (easy & small).bit_count() > left or not rare():
                return None
            if _trivial(premises, conclusion, config, unary, binary):
                return None
            if not _rare(rng, premises, conclusion, sizes, unary, binary):
                return None
            return premises, conclusion

        premises, conclusion = retry(draw, what="an invalid argument with no small countermodel")
        example = retry(lambda: _example(rng, premises, conclusion, unary, binary), attempts=50,
                        what="a format example that is no countermodel")
        listed = "\n".join(f"{i}. {render(p)}" for i, p in enumerate(premises, 1))
        names = ", ".join(unary) + (f" and the binary relation{'s' if len(binary) > 1 else ''} "
                                    f"{', '.join(binary)}" if binary else "")
        n = config.max_domain
        relations = (" and L(x, y) holds when the ordered pair (x, y) is in L") if binary else ""
        prompt = (
            f"Premises:\n{listed}\nConclusion: {render(conclusion)}\n\n"
            f"The sentences use the unary predicates {names}. ∀ means for all and ∃ there exists (both range "
            f"over the domain), ¬ not, ∧ and, ∨ or, → implies{relations}. This argument is invalid: some finite "
            "structure makes every premise true and the conclusion false, and one exists with at most "
            f"{n} elements. Find one. Its domain must be {{1, ..., n}} with 1 ≤ n ≤ {n}.\n\n"
            "Write the structure as one line for the domain and one line per predicate"
            + (" or relation listing the elements (for a relation, the ordered pairs) it holds of; a predicate or "
               "relation you leave out is empty." if binary else
               " listing the elements it holds of; a predicate you leave out is empty.")
            + " For example (this only shows the format; it is not a countermodel):\n"
            f"{_format(example)}"
        )
        data = {"premises": premises, "conclusion": conclusion, "max_domain": n,
                "unary": list(unary), "binary": list(binary)}
        answer = _format(_countermodel(premises, conclusion, config, unary, binary))
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Search space times reading: ground atoms over the largest allowed domain (the bits of a
        structure), times the symbols in the premises and the conclusion."""
        n, data = problem.data["max_domain"], problem.data
        atoms = len(data["unary"]) * n + len(data["binary"]) * n * n
        return float(atoms * sum(size(f) for f in [*data["premises"], data["conclusion"]]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        read = read_structure(strip_wrappers(answer), data["unary"], data["binary"])
        if isinstance(read, str):
            return Verdict.unparsed(read)
        n = read["size"]
        if not 1 <= n <= data["max_domain"]:
            return Verdict.wrong(f"the domain must have 1 to {data['max_domain']} elements, not {n}")
        inside = all(1 <= d <= n for members in read["unary"].values() for d in members) and all(
            1 <= d <= n for pairs in read["binary"].values() for pair in pairs for d in pair)
        if not inside:
            return Verdict.wrong(f"an extension names an element outside the domain 1..{n}")
        for i, premise in enumerate(data["premises"], 1):
            if not holds(read, premise):
                return Verdict.wrong(f"premise {i} is false in this structure")
        if holds(read, data["conclusion"]):
            return Verdict.wrong("the conclusion is true in this structure")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """A uniformly random model of the premises that ignores the conclusion, of the largest allowed size or a
        random one (seeded by the prompt): generation keeps it a countermodel at most a quarter of the time."""
        return {"random model of the premises (largest size)": lambda p: random_premise_model(p, largest=True),
                "random model of the premises (random size)": lambda p: random_premise_model(p, largest=False)}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        lines = gold.split("\n")
        n = int(lines[0].rsplit(",", 1)[-1].strip(" }")) if lines[0] != "domain = {1}" else 1
        compact = [line.replace(", ", ",").replace(" = ", "=") for line in lines]
        without_empty = [line for line in lines if not line.endswith("{}")]
        colon = [line.replace(" = ", ": ") for line in lines]
        return [
            *super().spellings(problem),
            "; ".join(lines),
            ", ".join(lines),
            "\n".join(compact),
            "\n".join(without_empty),
            "\n".join([f"Domain: {n}", *colon[1:]]),
            "\n".join([*reversed(lines[1:]), lines[0]]),
            "```\n" + gold + "\n```",
            "Countermodel:\n" + gold.replace("{}", "∅"),
            gold + ".",
            "\n".join("$" + line.replace("{", "\\{").replace("}", "\\}") + "$" for line in lines),
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        gold = read_structure(problem.answer or "", data["unary"], data["binary"])
        assert isinstance(gold, dict)
        wrong = []
        for _ in range(12):  # single flips of the reference's atoms, kept when they break it
            flipped = _flip(rng, gold)
            if not self.verify(problem, _format(flipped)).correct:
                wrong.append(_format(flipped))
        big = {**gold, "size": data["max_domain"] + 1}
        hedge = (problem.answer or "") + "\nor\n" + _format(_flip(rng, gold))
        first = data["unary"][0]
        twice = (problem.answer or "") + f"\n{first} = {{1}}\n{first} = {{}}"
        return [*wrong[:4], _format(big), hedge, twice, "domain = {}", "no countermodel exists"]


def read_structure(text: str, unary: list[str], binary: list[str]) -> dict[str, Any] | str:
    """The structure written in ``text`` (domain size and extensions), or a message saying why it is
    unreadable. Names are matched in any case; a predicate left out is empty; a name given twice,
    an unknown name or a malformed set is unreadable. Elements are not range-checked here.

    >>> read_structure("domain = {1, 2}\\nP = {2}; L = {(1, 2)}", ["P", "Q"], ["L"])["unary"]
    {'P': [2], 'Q': []}
    """
    if not isinstance(text, str):
        return "not text"
    lines = read_block(unify(text).replace("\\{", "{").replace("\\}", "}"), leading="strip")
    if lines is None:
        return "empty or unreadable block"
    statements = [s.strip() for line in lines for s in _split_statements(_LATEX_NAME.sub(r"\1", line))]
    statements = [s for s in statements if s]
    if statements and statements[0].endswith(":") and "=" not in statements[0] and len(statements[0]) <= 40:
        statements = statements[1:]  # a label line such as "Countermodel:"
    if statements and not _STATEMENT.match(_clean(statements[-1])) and is_closing("\n" + statements[-1]):
        statements = statements[:-1]  # a closing remark
    if not statements or len(statements) > _MAX_STATEMENTS:
        return "expected a domain line and one line per predicate"
    names = {name.lower(): name for name in [*unary, *binary]}
    size: int | None = None
    values: dict[str, Any] = {}
    for statement in statements:
        match = _STATEMENT.match(_clean(statement))
        if match is None:
            return f"cannot read the line {statement[:40]!r}"
        key, value = match.group(1).lower(), match.group(2).strip().rstrip(",.").strip()
        if key in _DOMAIN_NAMES and key not in names:
            if size is not None:
                return "the domain is given twice"
            size = _read_domain(value)
            if size is None:
                return "the domain must be a number n or the set {1, ..., n}"
            continue
        name = names.get(key)
        if name is None:
            return f"unknown predicate {match.group(1)!r}"
        if name in values:
            return f"{name} is given twice"
        found = _read_elements(value) if name in unary else _read_pairs(value)
        if found is None:
            return f"cannot read the extension of {name}"
        values[name] = found
    if size is None:
        return "no domain line (e.g. domain = {1, 2})"
    return {
        "size": size,
        "unary": {name: sorted(values.get(name, [])) for name in unary},
        "binary": {name: sorted(values.get(name, [])) for name in binary},
    }


def _split_statements(line: str) -> list[str]:
    """``line`` cut at every ``;`` and at every comma outside braces that starts a new ``NAME =``."""
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(line):
        depth += (char == "{") - (char == "}")
        cut = char == ";" or (char == "," and depth == 0 and _NEXT_STATEMENT.match(line, i + 1) is not None)
        if cut:
            pieces.append(line[start:i])
            start = i + 1
    return [*pieces, line[start:]]


def _clean(statement: str) -> str:
    """One statement without list bullets, markdown emphasis (``**P** = {1}``) and maths wrappers (``$D$ = ...``);
    no name or extension holds a ``*`` or a ``$``."""
    statement = statement.replace("*", "").replace("$", "").lstrip("-• ").strip()
    return strip_wrappers(statement).strip()


def _set_body(value: str) -> str | None:
    """The inside of ``{...}`` (or the bare list); None when braces do not match."""
    value = value.strip()
    if value in _EMPTY or value.lower() in _EMPTY:
        return ""
    if value.startswith("{") or value.endswith("}"):
        if not (value.startswith("{") and value.endswith("}")) or "{" in value[1:-1] or "}" in value[1:-1]:
            return None
        return value[1:-1].strip()
    return value


def _read_domain(value: str) -> int | None:
    if value.isdigit() and len(value) <= 3:
        return int(value)
    body = _set_body(value)
    if body is None or not body:
        return None
    ellipsis = _ELLIPSIS_SET.match(body)
    if ellipsis:
        return int(ellipsis.group(1))
    elements = _read_elements(value)
    if elements is None or sorted(elements) != list(range(1, len(elements) + 1)):
        return None
    return len(elements)


def _read_elements(value: str) -> list[int] | None:
    body = _set_body(value)
    if body is None:
        return None
    tokens = [t for t in re.split(r"[,\s]+", body) if t]
    if not all(t.isdecimal() and len(t) <= 3 for t in tokens):  # isdigit() holds for "³", which int() refuses
        return None
    return sorted(set(map(int, tokens)))


def _read_pairs(value: str) -> list[list[int]] | None:
    body = _set_body(value)
    if body is None:
        return None
    if _PAIR.sub("", body).strip(", \t"):
        return None  # something besides pairs and separators
    pairs = {(int(a), int(b)) for a, b in _PAIR.findall(body)}
    return [list(pair) for pair in sorted(pairs)]


def _format(structure: dict[str, Any]) -> str:
    n = structure["size"]
    lines = [f"domain = {{{', '.join(str(d) for d in range(1, n + 1))}}}"]
    lines += [f"{name} = {{{', '.join(map(str, members))}}}" for name, members in structure["unary"].items()]
    lines += [f"{name} = {{{', '.join(f'({a}, {b})' for a, b in pairs)}}}"
              for name, pairs in structure["binary"].items()]
    return "\n".join(lines)


def _is_countermodel(structure: dict, premises: list[list], conclusion: list) -> bool:
    return all(holds(structure, p) for p in premises) and not holds(structure, conclusion)


def _grounded(premises: list[list], conclusion: list, n: int) -> CNF:
    cnf = CNF()
    for premise in premises:
        cnf.add([ground(cnf, premise, n)])
    cnf.add([-ground(cnf, conclusion, n)])
    return cnf


def _trivial(premises: list[list], conclusion: list, config: Any, unary: tuple, binary: tuple) -> bool:
    """Whether a countermodel is too easy to hit: one smaller than ``min_size`` (SAT proves none), or
    the all-empty or all-full structure of an allowed size."""
    for n in range(1, config.max_domain + 1):
        for full in (False, True):
            domain = list(range(1, n + 1))
            extreme = {"size": n, "unary": {p: domain if full else [] for p in unary},
                       "binary": {r: [[a, b] for a in domain for b in domain] if full else [] for r in binary}}
            if _is_countermodel(extreme, premises, conclusion):
                return True
    return any(solve(_grounded(premises, conclusion, n), budget=_PROOF_BUDGET) is not None
               for n in range(1, config.min_size))


def _countermodel(premises: list[list], conclusion: list, config: Any, unary: tuple, binary: tuple) -> dict:
    """A smallest countermodel (sizes from ``min_size`` up): the reference answer."""
    for n in range(config.min_size, config.max_domain + 1):
        model = solve(_grounded(premises, conclusion, n), budget=_PROOF_BUDGET)
        if model is not None:
            return structure_from_model(model, n, unary, binary)
    raise AssertionError("the planted countermodel was lost")


def _negated(f: list) -> list:
    """The negation of ``f``, pushed through its quantifier prefix (``¬∀x φ`` is written ``∃x ¬φ``)."""
    if f[0] in ("forall", "exists"):
        return ["exists" if f[0] == "forall" else "forall", f[1], _negated(f[2])]
    return f[1] if f[0] == "not" else ["not", f]


def _first(draw: Any, attempts: int) -> Any:
    """The first of ``attempts`` draws that is not None, else None (the caller then starts over)."""
    for _ in range(attempts):
        found = draw()
        if found is not None:
            return found
    return None


def _probes(rng: random.Random, max_domain: int, unary: tuple[str, ...], binary: tuple[str, ...]) -> list[dict]:
    """Easy countermodels an argument must rule out. With unary predicates only, every structure of
    each allowed size up to isomorphism (a multiset of element types); with relations, sparse
    two-element structures (what a solver finds first) and random ones of every size and density."""
    if not binary:
        types = list(itertools.product((False, True), repeat=len(unary)))
        return [
            {"size": n, "binary": {},
             "unary": {p: [d for d, kind in enumerate(kinds, 1) if kind[i]] for i, p in enumerate(unary)}}
            for n in range(1, max_domain + 1) for kinds in itertools.combinations_with_replacement(types, n)
        ]
    probes = [random_structure(rng, 2, unary, binary, density=rng.uniform(0.0, 0.4)) for _ in range(_PROBES)]
    return probes + [random_structure(rng, rng.randint(1, max_domain), unary, binary, density=rng.uniform(0.1, 0.7))
                     for _ in range(_PROBES)]


def _example(rng: random.Random, premises: list[list], conclusion: list, unary: tuple, binary: tuple) -> dict | None:
    example = random_structure(rng, 2, unary, binary)
    return None if _is_countermodel(example, premises, conclusion) else example


def _flip(rng: random.Random, structure: dict) -> dict:
    """``structure`` with one atom's truth value changed."""
    n = structure["size"]
    unary = {k: list(v) for k, v in structure["unary"].items()}
    binary = {k: [list(p) for p in v] for k, v in structure["binary"].items()}
    if binary and rng.random() < 0.5:
        name = rng.choice(sorted(binary))
        pair = [rng.randint(1, n), rng.randint(1, n)]
        binary[name] = sorted([p for p in binary[name] if p != pair] if pair in binary[name] else binary[name] + [pair])
    else:
        name = rng.choice(sorted(unary))
        d = rng.randint(1, n)
        unary[name] = sorted(set(unary[name]) ^ {d})
    return {"size": n, "unary": unary, "binary": binary}


def _with_uniform(batch: TruthBatch, rng: random.Random, sizes: range, count: int, unary: tuple[str, ...],
                  binary: tuple[str, ...]) -> TruthBatch:
    """``batch`` and then ``count`` uniformly random structures of each size in ``sizes`` (every atom true with
    chance 1/2), drawn a whole atom's column of bits at a time."""
    grown = TruthBatch([])
    grown.count, grown.largest = batch.count, batch.largest
    grown.present, grown.atoms = dict(batch.present), dict(batch.atoms)
    for n in sizes:
        block = ((1 << count) - 1) << grown.count
        for d in range(1, n + 1):
            grown.present[d] = grown.present.get(d, 0) | block
        keys: list[tuple[str, int] | tuple[str, int, int]] = [(p, d) for p in unary for d in range(1, n + 1)]
        keys += [(r, a, b) for r in binary for a in range(1, n + 1) for b in range(1, n + 1)]
        for key in keys:
            grown.atoms[key] = grown.atoms.get(key, 0) | rng.getrandbits(count) << grown.count
        grown.count += count
        grown.largest = max(grown.largest, n)
    return grown


def _premise_models(rng: random.Random, premises: list[list], conclusion: list, n: int, count: int,
                    unary: tuple[str, ...], binary: tuple[str, ...]) -> tuple[TruthBatch, int, int]:
    """``count`` uniformly random structures of size ``n``: their batch, the bits of those where every premise
    holds, and the bits of those that are countermodels."""
    batch = _with_uniform(TruthBatch([]), rng, range(n, n + 1), count, unary, binary)
    models = (1 << count) - 1
    for premise in premises:
        models &= batch(premise)
    return batch, models, models & ~batch(conclusion)


def _rare(rng: random.Random, premises: list[list], conclusion: list, sizes: range, unary: tuple[str, ...],
          binary: tuple[str, ...]) -> bool:
    """Whether, at every size, at most ``COUNTERMODEL_SHARE`` of fresh uniformly random models of the premises are
    countermodels (a random model of the premises, found without reading the conclusion, is rarely one)."""
    for n in sizes:
        _, models, countermodels = _premise_models(rng, premises, conclusion, n, _SAMPLE, unary, binary)
        if countermodels.bit_count() > COUNTERMODEL_SHARE * models.bit_count():
            return False
    return True


def _structure_at(batch: TruthBatch, bit: int, n: int, unary: list[str], binary: list[str]) -> dict[str, Any]:
    """The structure of size ``n`` at ``bit`` of ``batch``."""
    domain = range(1, n + 1)
    return {"size": n,
            "unary": {p: [d for d in domain if batch.atoms.get((p, d), 0) >> bit & 1] for p in unary},
            "binary": {r: [[a, b] for a in domain for b in domain if batch.atoms.get((r, a, b), 0) >> bit & 1]
                       for r in binary}}


def random_premise_model(problem: Problem, largest: bool) -> str:
    """A uniformly random model of the premises (seeded by the prompt) that never reads the conclusion: of the
    largest allowed size, or of a random size from 2 up; the empty structure of that size when none is drawn."""
    data = problem.data
    rng = random.Random(problem.prompt)
    n = data["max_domain"] if largest else rng.randint(2, data["max_domain"])
    unary, binary = tuple(data["unary"]), tuple(data["binary"])
    batch, models, _ = _premise_models(rng, data["premises"], ["forall", "x", ["eq", "x", "x"]], n, 4096, unary, binary)
    if not models:
        return _format({"size": n, "unary": {p: [] for p in unary}, "binary": {r: [] for r in binary}})
    chosen = rng.choice([bit for bit in range(4096) if models >> bit & 1])
    return _format(_structure_at(batch, chosen, n, list(unary), list(binary)))
