"""Red team, round 3, session 31: code envs whose hidden tests let plausible wrong programs pass.

Each slip is written as a concrete program (the gold program with one plausible mistake) and must be rejected on
the problems drawn, while the gold program is accepted.
"""

from __future__ import annotations

import shutil

import pytest

from palaestra.envs.code import go_programs, sql_window

PAIRS = {")": "(", "]": "[", "}": "{"}


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")


def _lines(expected: list[str]) -> list[str]:
    return [line.split(": ", 1)[1] if line.startswith("Case #") else line for line in expected]


def _brackets(text: str, right: str, wrong: str, stray: str = "reject", kinds: bool = True, past_end: int = 1) -> str:
    """An independent bracket checker, with the slips as switches."""
    stack: list[str] = []
    deepest = 0
    for position, c in enumerate(text, 1):
        if c in "([{":
            stack.append(c)
            deepest = max(deepest, len(stack))
        elif not stack:
            if stray == "reject":
                return f"{wrong} {position}"
        elif stack.pop() != PAIRS[c] and kinds:
            return f"{wrong} {position}"
    return f"{wrong} {len(text) + past_end}" if stack else f"{right} {deepest}"


BRACKET_SLIPS = {"stray closing bracket skipped": {"stray": "skip"}, "kinds ignored": {"kinds": False},
                 "length for brackets left open": {"past_end": 0}}


@pytest.mark.parametrize("slip", sorted(BRACKET_SLIPS))
def test_go_bracket_slips_fail_the_hidden_tests(slip: str) -> None:
    # Before v3 a closing bracket with none open never occurred (skipping it passed 1.00 of the problems), and
    # ignoring the kinds passed 0.22-0.68.
    env = go_programs.GoPrograms()
    passed = drawn = 0
    for level in (0, 2, 4):
        for seed in range(60):
            data = env.sample(level=level, seed=seed).data
            if data["template"] != "brackets":
                continue
            drawn += 1
            p = data["params"]
            slipped = [_brackets(text.strip(), p["right"], p["wrong"], **BRACKET_SLIPS[slip]) for text in data["inputs"]]
            assert [_brackets(text.strip(), p["right"], p["wrong"]) for text in data["inputs"]] == _lines(
                data["expected"])
            passed += slipped == _lines(data["expected"])
    assert drawn >= 30 and passed / drawn < 0.1, (passed, drawn)


def _in_class(n: int, p: dict) -> bool:
    return n > 1 and n % p["modulus"] == p["residue"] and all(n % k for k in range(2, int(n**0.5) + 1))


def test_go_prime_range_read_as_strict_fails() -> None:
    # Before v3 "low <= p <= high" read with a strict bound at one end passed 0.34-0.55 of the prime problems.
    env = go_programs.GoPrograms()
    passed = drawn = 0
    for level in (1, 3, 4):
        for seed in range(60):
            data = env.sample(level=level, seed=seed).data
            if data["template"] != "primes":
                continue
            drawn += 1
            ranges = [list(map(int, text.split())) for text in data["inputs"]]
            # A strict bound changes a test's answer exactly when that end of its range is a prime asked about.
            for end in (0, 1):
                passed += not any(_in_class(bounds[end], data["params"]) for bounds in ranges)
    assert drawn >= 30 and passed == 0, (passed, drawn)


def _spiral_without_guards(grid: list[list[int]], skip: int, step: int) -> str:
    """The spiral walk that leaves out the checks for a last single row or column (walking it back again)."""
    out: list[int] = []
    top, bottom, left, right = 0, len(grid) - 1, 0, len(grid[0]) - 1
    while top <= bottom and left <= right:
        out += grid[top][left:right + 1] + [grid[r][right] for r in range(top + 1, bottom + 1)]
        out += grid[bottom][left:right][::-1] + [grid[r][left] for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return " ".join(map(str, out[skip::step]))


def test_go_spiral_without_its_last_line_checks_fails() -> None:
    # Before v3 it passed 0.09-0.40 of the spiral problems (most often at level 0).
    env = go_programs.GoPrograms()
    passed = drawn = 0
    for level in (0, 1, 3):
        for seed in range(60):
            data = env.sample(level=level, seed=seed).data
            if data["template"] != "spiral":
                continue
            drawn += 1
            grids = [[list(map(int, line.split())) for line in text.strip().split("\n")[1:]] for text in data["inputs"]]
            slipped = [_spiral_without_guards(grid, data["params"]["skip"], data["params"]["step"]) for grid in grids]
            passed += slipped == _lines(data["expected"])
    assert drawn >= 30 and passed / drawn < 0.05, (passed, drawn)


def _first(template: str, level: int) -> object:
    env = go_programs.GoPrograms()
    return env, next(problem for seed in range(200)
                     if (problem := env.sample(level=level, seed=seed)).data["template"] == template)


GO_SLIPS = {  # template, level, the gold program's text, its slip
    "stray closing bracket skipped": (
        "brackets", 0, "} else if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {",
        "} else if len(stack) == 0 {\n\t\t\tcontinue\n\t\t} else if stack[len(stack)-1] != pairs[c] {"),
    "bracket kinds ignored": ("brackets", 2, "len(stack) == 0 || stack[len(stack)-1] != pairs[c]",
                              "len(stack) == 0 || pairs[c] == 0"),  # pairs[c] is never 0: kinds not compared
    "spiral walks a last line twice": ("spiral", 1, "if top < bottom {", "if top <= bottom {"),
    "strict low bound on primes": ("primes", 1, "p >= low", "p > low"),
    "FIFO for LRU or LRU for FIFO": ("cache", 0, "", ""),
}


@pytest.mark.parametrize("slip", sorted(GO_SLIPS))
def test_go_slipped_programs_rejected_and_gold_accepted(slip: str) -> None:
    _need("go")
    template, level, gold_text, slipped_text = GO_SLIPS[slip]
    env, problem = _first(template, level)
    gold = problem.answer.split("\n", 1)[1].rsplit("```", 1)[0]
    if template == "cache":
        p = problem.data["params"]
        other = {**p, "policy": "fifo" if p["policy"] == "lru" else "lru"}
        wrong = go_programs.TEMPLATES["cache"].sources(other)["go"]
    else:
        assert gold.count(gold_text) == 1
        wrong = gold.replace(gold_text, slipped_text)
    assert env.verify(problem, problem.answer).correct
    verdict = env.verify(problem, f"```go\n{wrong}\n```")
    assert not verdict.correct and "expected" in verdict.feedback, verdict


# -- sql_window ------------------------------------------------------------------------------------

def _top_n_problem(ties: str) -> object:
    env = sql_window.SqlWindow()
    return env, next(problem for seed in range(300) if (problem := env.sample(level=4, seed=seed)).data[
        "question"] == "top_n" and problem.data["params"]["ties"] == ties)


@pytest.mark.parametrize("ties", ["included", "by_id"])
def test_sql_top_n_ranking_slips_rejected_and_reference_accepted(ties: str) -> None:
    # A top-N question's slips: another ranking function, or "<" for "<=" on the position.
    env, problem = _top_n_problem(ties)
    reference = problem.answer
    assert env.verify(problem, reference).correct
    n, s = problem.data["params"]["n"], sql_window.schema_of(problem.data["params"])
    # Another ranking function with the same window: by value alone (ties left to the ranking function).
    by_value = reference.replace(f", {s.id}) AS position", ") AS position")
    stated = "RANK()" if ties == "included" else "ROW_NUMBER()"
    slips = [by_value.replace(stated, other) for other in ("RANK()", "ROW_NUMBER()", "DENSE_RANK()")
             if other != stated]
    slips.append(reference.replace(f"position <= {n}", f"position < {n}"))
    slips.append(reference.replace(f"position <= {n}", f"position <= {n + 1}"))
    for slip in slips:
        assert slip != reference
        verdict = env.verify(problem, slip)
        assert not verdict.correct, slip


def test_sql_top_n_slips_fail_some_hidden_table_in_every_problem() -> None:
    env = sql_window.SqlWindow()
    drawn = 0
    for level in (2, 3, 4):
        for seed in range(80):
            data = env.sample(level=level, seed=seed).data
            if data["question"] != "top_n":
                continue
            drawn += 1
            p, s = data["params"], sql_window.schema_of(data["params"])
            expected = [sql_window._key(r) for r in data["results"]]
            stated = "rank" if p["ties"] == "included" else "row_number"
            for position in sql_window.POSITIONS:
                for shift in (-1, 0, 1):
                    if (position, shift) == (stated, 0):
                        continue
                    moved = {**p, "n": p["n"] + shift}
                    got = [sql_window._key(sql_window._top(moved, s, rows, position)) for rows in data["tables"]]
                    assert got != expected, (level, seed, position, shift)
    assert drawn >= 30


# -- prolog_list_relations -------------------------------------------------------------------------

PROLOG_SLIPS = {  # relation: {slip: program (NAME stands for the drawn predicate name)}
    "stutter": {
        # The inverse mode takes every k-th element and never checks that the copies are equal.
        "copies not compared": (
            "NAME(L, R) :- is_list(L), !, NAME_fwd(L, R).\n"
            "NAME(L, R) :- NAME_back(R, L).\n"
            "NAME_fwd([], []).\n"
            "NAME_fwd([X|T], R) :- COPIES, append(Xs, R1, R), NAME_fwd(T, R1).\n"
            "NAME_back([], []).\n"
            "NAME_back(R, [X|T]) :- LEN, append(Group, R1, R), Group = [X|_], NAME_back(R1, T).\n"),
    },
    "runs": {
        "count of 0 accepted": (
            "NAME(L, R) :- is_list(L), !, NAME_enc(L, R).\n"
            "NAME(L, R) :- NAME_dec(R, none, L).\n"
            "NAME_enc([], []).\n"
            "NAME_enc([X|T], [N-X|R]) :- NAME_take(X, T, 1, N, Rest), NAME_enc(Rest, R).\n"
            "NAME_take(X, [Y|T], K, N, Rest) :- X == Y, !, K1 is K + 1, NAME_take(X, T, K1, N, Rest).\n"
            "NAME_take(_, Rest, N, N, Rest).\n"
            "NAME_dec([], _, []).\n"
            "NAME_dec([N-X|R], P, L) :- integer(N), X \\== P, length(C, N), maplist(=(X), C), "
            "NAME_dec(R, X, T), append(C, T, L).\n"),
        "equal neighbours accepted": (
            "NAME(L, R) :- is_list(L), !, NAME_enc(L, R).\n"
            "NAME(L, R) :- NAME_dec(R, L).\n"
            "NAME_enc([], []).\n"
            "NAME_enc([X|T], [N-X|R]) :- NAME_take(X, T, 1, N, Rest), NAME_enc(Rest, R).\n"
            "NAME_take(X, [Y|T], K, N, Rest) :- X == Y, !, K1 is K + 1, NAME_take(X, T, K1, N, Rest).\n"
            "NAME_take(_, Rest, N, N, Rest).\n"
            "NAME_dec([], []).\n"
            "NAME_dec([N-X|R], L) :- integer(N), N >= 1, length(C, N), maplist(=(X), C), "
            "NAME_dec(R, T), append(C, T, L).\n"),
    },
}


def _prolog_problems(relation: str, count: int) -> list:
    from palaestra.envs.code.prolog_list_relations import PrologListRelations

    env = PrologListRelations()
    levels = {"stutter": (0, 1, 3), "runs": (2, 3, 4)}[relation]
    found = [problem for level in levels for seed in range(40)
             if (problem := env.sample(level=level, seed=seed)).data["relation"] == relation]
    return [env, found[:count]]


@pytest.mark.parametrize(("relation", "slip"), [(r, s) for r in sorted(PROLOG_SLIPS) for s in sorted(PROLOG_SLIPS[r])])
def test_prolog_decoding_without_a_stated_check_rejected(relation: str, slip: str) -> None:
    # Before v2: the stutter slip passed 1.00 of the stutter problems, a zero count 0.67-0.70, equal neighbours
    # 0.31-0.35 of the runs problems.
    _need("swipl")
    env, problems = _prolog_problems(relation, 4)
    assert len(problems) == 4
    for problem in problems:
        name, p = problem.data["name"], problem.data["params"]
        program = PROLOG_SLIPS[relation][slip].replace("NAME", name)
        if relation == "stutter":
            k = p["copies"]
            program = (program.replace("COPIES", f"length(Xs, {k}), maplist(=(X), Xs)")
                       .replace("LEN", f"length(Group, {k})"))
        assert env.verify(problem, problem.answer).correct
        verdict = env.verify(problem, f"```prolog\n{program}```")
        assert not verdict.correct, (slip, problem.data["queries"], verdict.feedback)
