"""Symbolic-reasoning envs (issue 13): uniqueness proofs against brute force, and the parsers' hard cases.

The generators prove that the implied answer is unique (ciphers: one key fits the crib;
induction tasks: every short program agreeing with the examples agrees on the test input;
self-reference: one consistent assignment). These tests redo those proofs by plain brute force,
check known values (blinker, Church numerals, classic principal types) and the bounded parsers.
"""

from __future__ import annotations

import itertools
import string

from palaestra.core.registry import make_source
from palaestra.envs.symbolic import _rows as rows
from palaestra.envs.symbolic import list_functions
from palaestra.envs.symbolic._programs import run
from palaestra.envs.symbolic.cipher import decrypt
from palaestra.envs.symbolic.cube_rotation import rotate
from palaestra.envs.symbolic.elementary_ca import step
from palaestra.envs.symbolic.game_of_life import evolve
from palaestra.envs.symbolic.lambda_reduction import normalize, parse_term, read_term, to_de_bruijn
from palaestra.envs.symbolic.type_inference import canonical, infer, read_type


def _brute_force_substitutions(text, crib):
    """Every plaintext from placing each crib word on any ciphertext word with a consistent one-to-one
    mapping ("?" when a placement leaves a ciphertext letter unmapped)."""
    readings = set()
    same_length = [[c for c in sorted(set(text.split())) if len(c) == len(w)] for w in crib]
    for placement in itertools.product(*same_length):
        mapping = {}
        if all(mapping.setdefault(a, b) == b for c, w in zip(placement, crib) for a, b in zip(c, w)) and \
                len(set(mapping.values())) == len(mapping):
            covered = all(ch in mapping for ch in text if ch != " ")
            readings.add("".join(mapping.get(ch, ch) for ch in text) if covered else "?")
    return readings


def test_cipher_crib_fits_exactly_one_key_by_brute_force():
    task = make_source("symbolic/cipher")
    for level in range(5):
        for seed in range(5):
            data = task.sample(level, seed).data
            kind, crib, text = data["cipher"], data["crib"], data["text"]
            if kind == "substitution":
                assert _brute_force_substitutions(text, crib[1]) == {data["plain"]}, (level, seed)
                continue
            if kind == "caesar":
                keys = [[k] for k in range(26)]
            elif kind == "affine":
                keys = [[a, b] for a in range(1, 26, 2) if a != 13 for b in range(26)]
            letters = [decrypt(kind, k, text) for k in keys] if kind != "vigenere" else None
            if kind == "vigenere":  # key letters are independent: try all 26 for each, against the crib letters
                head = "".join(ch for ch in text if ch in string.ascii_uppercase)[: len(crib[1])]
                size = len(data["key"])
                per_letter = [[k for k in range(26) if all((ord(head[j]) - 65 - k) % 26 == ord(crib[1][j]) - 65
                                                           for j in range(i, len(head), size))] for i in range(size)]
                fits = [list(k) for k in itertools.product(*per_letter)]
            elif crib[0] == "first word":
                fits = [k for k, plain in zip(keys, letters) if plain.split()[0] == crib[1]]
            else:
                fits = [k for k, plain in zip(keys, letters) if crib[1] in plain.split()]
            assert fits == [data["key"]], (level, seed)


def test_induction_tasks_are_unique_among_all_short_programs():
    for module, domain in ((list_functions, "numbers"), (rows, "rows")):  # symbolic/arc_1d merged in as rows
        task = make_source("symbolic/list_functions", domain=domain)
        library = module.library()
        for level in (0, 1, 2):
            for seed in range(3):
                data = task.sample(level, seed).data
                examples = [(tuple(x), tuple(y)) for x, y in data["examples"]]
                query = tuple(data["query"])
                outputs = set()
                for depth in range(1, len(data["program"]) + 1):
                    for program in itertools.product(library, repeat=depth):
                        if all(run(program, x) == y for x, y in examples):
                            outputs.add(run(program, query))
                by_name = {p.name: p for p in library}
                assert outputs == {run([by_name[n] for n in data["program"]], query)}, (domain, level, seed)


def test_self_reference_has_one_consistent_assignment():
    from palaestra.envs.symbolic.self_reference import holds

    task = make_source("symbolic/self_reference")
    for level in range(5):
        for seed in range(4):
            problem = task.sample(level, seed)
            statements = problem.data["statements"]
            n = len(statements)
            found = [frozenset(i + 1 for i in range(n) if bits[i])
                     for bits in itertools.product((False, True), repeat=n)
                     if all(holds(s, frozenset(j + 1 for j in range(n) if bits[j]), n) == bits[i]
                            for i, s in enumerate(statements))]
            assert len(found) == 1
            assert task.verify(problem, ", ".join(map(str, sorted(found[0]))) or "none").correct


def test_cellular_automata_known_patterns():
    assert step("0001000", 90, wrap=False) == "0010100"
    assert step("0001000", 30, wrap=False) == "0011100"
    blinker = [".....", "..#..", "..#..", "..#..", "....."]
    assert evolve(blinker, "B3/S23", wrap=False) == [".....", ".....", ".###.", ".....", "....."]
    assert evolve(evolve(blinker, "B3/S23", False), "B3/S23", False) == blinker
    cube = dict(zip(("top", "bottom", "front", "back", "left", "right"), "ABCDEF"))
    assert rotate(cube, ["turn left"] * 4) == cube
    assert rotate(cube, ["tip forward"])["front"] == "A"


def test_lambda_terms_alpha_equivalence_normal_forms_and_bounds():
    church = "(\\m n f x. m f (n f x)) (\\f x. f (f x)) (\\f x. f x)"  # 2 + 1
    normal, _ = normalize(to_de_bruijn(parse_term(church)), 100, 10_000)
    assert normal == to_de_bruijn(parse_term("λa.λb.a (a (a b))"))
    assert to_de_bruijn(parse_term("λx y.x")) == to_de_bruijn(parse_term("\\u. \\v. u"))
    assert to_de_bruijn(parse_term("λx.λy.x")) != to_de_bruijn(parse_term("λx.λy.y"))
    assert read_term("λx.x. That is it.") is None  # a remark after the term (issue #21)
    assert parse_term("(" * 300 + "x" + ")" * 300) is None  # deeper than the parser allows
    assert parse_term("λx.") is None and parse_term("x y)") is None
    task = make_source("symbolic/lambda_reduction")
    problem = task.sample(2, 3)
    assert not task.verify(problem, problem.data["term"]).correct
    assert "redex" in task.verify(problem, "(λx.x) (λy.y)").feedback


def test_principal_types():
    k = ["fun", "x", ["fun", "y", ["var", "x"]]]
    twice = ["fun", "f", ["fun", "x", ["app", ["var", "f"], ["app", ["var", "f"], ["var", "x"]]]]]
    assert canonical(infer(k)) == canonical(read_type("'a -> 'b -> 'a"))
    assert canonical(infer(twice)) == canonical(read_type("(a -> a) -> a -> a"))
    poly = ["let", "i", ["fun", "x", ["var", "x"]], ["pair", ["app", ["var", "i"], ["int", 1]],
                                                      ["app", ["var", "i"], ["bool", True]]]]
    assert canonical(infer(poly)) == canonical(read_type("int * bool"))
    try:
        infer(["fun", "x", ["app", ["var", "x"], ["var", "x"]]])
        raise AssertionError("self-application must not type-check (occurs check)")
    except Exception as exc:  # the module's own type error
        assert "infinite" in str(exc)
    assert read_type("'a -> ('b -> 'a)") == read_type("'a -> 'b -> 'a")
    assert read_type("('a -> 'b) -> 'a") != read_type("'a -> 'b -> 'a")
    assert read_type("'a -> 'b or int") is None
    task = make_source("symbolic/type_inference")
    problem = task.sample(3, 1)
    assert task.verify(problem, problem.answer.replace("'", "")).correct


def test_a_consistent_program_undefined_on_the_new_input_makes_the_answer_ambiguous():
    """Regression: programs that fit the examples but did not apply to the new input were ignored, so a
    solver reading the step naturally ("take the first two" of a two-item list) could reach another answer."""
    from palaestra.envs.symbolic._programs import UNDEFINED, Primitive, predictions

    library = [Primitive("first two", lambda xs: xs[:2] if len(xs) > 2 else None),
               Primitive("drop last", lambda xs: xs[:-1])]
    examples = [((1, 2, 3), (1, 2)), ((7, 8, 9), (7, 8))]
    assert predictions(library, examples, (4, 5), depth=1) == {UNDEFINED, (4,)}
    assert predictions(library, examples, (4, 5, 6), depth=2) == {(4, 5)}


def test_induction_prompts_name_the_program_family_and_read_labelled_answers():
    for domain, level in (("numbers", 3), ("rows", 4)):
        task = make_source("symbolic/list_functions", domain=domain)
        problem = task.sample(level, 0)
        assert "one to 3 steps applied in turn" in problem.prompt and "The examples determine the answer" in problem.prompt
        assert task.verify(problem, f"The output is {problem.answer}.").correct
        assert not task.verify(problem, f"Output: {problem.answer} or {problem.answer}").correct


def test_cipher_reads_past_labels_and_key_remarks_but_not_hedges():
    task = make_source("symbolic/cipher")
    problem = task.sample(3, 2)
    gold = problem.answer
    for right in (f"Plaintext: {gold}", f"The decrypted message is: {gold.lower()}", f"{gold}\nKey: LEMON",
                  f"{gold} (key 3)"):
        assert task.verify(problem, right).correct, right
    for wrong in (f"{gold} (or {problem.data['text']})", f"Plaintext: {gold} OR HELLO", problem.data["text"]):
        assert not task.verify(problem, wrong).correct, wrong


def test_lambda_verifier_survives_long_application_chains_and_reads_juxtaposition():
    """Regression: an answer of ~1,000 applications (within the length cap) raised RecursionError."""
    task = make_source("symbolic/lambda_reduction")
    problem = task.sample(4, 3)
    for hostile in ("x " * 999, "λx." + "x " * 998, "(λx.x)" + " x" * 997):
        verdict = task.verify(problem, hostile)
        assert not verdict.correct and not verdict.parsed
    gold = problem.answer
    assert gold == "λx.x x (λy.y) (x x) x"  # the juxtaposed spelling below is written for this answer
    assert task.verify(problem, "λx.xx(λy.y)(xx)x").correct
    assert not task.verify(problem, "λx.xx(λy.y)(xxx)x").correct
    assert not task.verify(problem, f"{gold} or λa.a").correct


def test_type_inference_spellings_and_ambiguous_products():
    task = make_source("symbolic/type_inference")
    problem = task.sample(2, 5)
    gold = problem.answer
    assert gold == "int -> (int -> int) * ('a -> int)"
    for right in ("Int -> (Int -> Int) * (a -> Int)", f"val f : {gold}", f"- : {gold} = <fun>", f"({gold})"):
        assert task.verify(problem, right).correct, right
    assert read_type("'a * 'b * 'c") is None  # a triple in ML; this language has only pairs
    assert canonical(read_type("('a * 'b) * 'c")) != canonical(read_type("'a * ('b * 'c)"))
    assert not task.verify(problem, f"{gold} or int").correct


def test_self_reference_reads_a_sentence_but_not_a_hedge():
    task = make_source("symbolic/self_reference")
    problem = task.sample(2, 13)
    assert problem.answer == "4, 5"
    assert task.verify(problem, "Statements 4 and 5 are true.").correct
    assert task.verify(problem, "The true statements are 4, 5.").correct
    assert not task.verify(problem, "Statements 4, 5 are true, or 1").correct
    assert not task.verify(problem, "Statements 4 and 5 are false.").correct
    none_problem = next(p for p in (task.sample(0, s) for s in range(400)) if p.answer == "none")
    assert task.verify(none_problem, "no statement is true").correct


def test_elementary_ca_example_is_the_same_whatever_the_answer():
    """Round 3: the example row was changed when it was the answer, which told the answer is not 0...0101."""
    task = make_source("symbolic/elementary_ca")
    examples = {task.sample(0, seed).prompt.split("for example: ")[1].split("\n")[0] for seed in range(200)}
    assert len(examples) == 1 and examples.pop().endswith("101")
    problem = task.sample(3, 3)
    assert task.verify(problem, f"The final row is {problem.answer}").correct
