"""Red-team regressions (round 3, session 20, "spell"): right answers in spellings a careful grader accepts that the
verifiers refused. Each test fails on the code before the fix, and also pins that a wrong answer, a hedge or a second
answer in the new spelling is still refused (the readers accept a positive grammar, never "a number anywhere")."""

from __future__ import annotations

import re
from fractions import Fraction

import palaestra
from palaestra.kit.base import sample
from palaestra.verifiers.rationals import format_fraction


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


def _first(env_id: str, accept, levels=range(5), seeds=range(300)):
    for level in levels:
        for seed in seeds:
            problem = sample(env_id, level, seed)
            if accept(problem):
                return problem
    raise AssertionError(f"no {env_id} problem of the kind asked")


# --- 1. biology/codon_mutations: "M1 - nonsense" ---------------------------------------------------------------


def test_codon_mutations_reads_a_dash_between_name_and_class():
    swap = {
        "silent": "missense",
        "missense": "silent",
        "nonsense": "missense",
        "frameshift": "in-frame",
        "in-frame": "frameshift",
    }
    for level, seed in ((0, 1), (2, 3), (4, 5)):
        problem = sample("biology/codon_mutations", level, seed)
        mutations = problem.data["mutations"]
        for dash in (" - ", " – ", " — "):
            assert _reward(problem, "\n".join(f"{m['name']}{dash}{m['label']}" for m in mutations)) == 1.0, dash
        assert _reward(problem, ", ".join(f"{m['name']} - {m['label']}" for m in mutations) + ".") == 1.0
        wrong = [f"{m['name']} - {swap[m['label']] if k == 0 else m['label']}" for k, m in enumerate(mutations)]
        assert _reward(problem, "\n".join(wrong)) == 0.0
        first = mutations[0]
        hedge = [f"{m['name']} - {m['label']}" for m in mutations]
        assert _reward(problem, "\n".join([*hedge, f"{first['name']} - {swap[first['label']]}"])) == 0.0
        hedge[0] += f" or {swap[first['label']]}"
        assert _reward(problem, "\n".join(hedge)) == 0.0
        right = "\n".join(f"{m['name']} - {m['label']}" for m in mutations)
        assert _reward(problem, right + "\nJust kidding, I do not know.") == 0.0


# --- 2. economics/shapley_value: "φ_A = 53/420" -----------------------------------------------------------------


def test_shapley_value_reads_player_subscripted_phi():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("economics/shapley_value", level, seed)
        pairs = list(zip(problem.data["names"], problem.data["values"], strict=True))
        for form in ("φ_{n} = {v}", "φ({n}) = {v}", "\\phi_{{{n}}} = {v}", "$\\varphi_{n} = {v}$", "ϕ_{n}: {v}"):
            reply = ", ".join(form.format(n=n, v=v) for n, v in pairs)
            assert _reward(problem, reply) == 1.0, reply
        wrong = [(n, v if k else format_fraction(Fraction(v) + 1)) for k, (n, v) in enumerate(pairs)]
        assert _reward(problem, ", ".join(f"φ_{n} = {v}" for n, v in wrong)) == 0.0
        first, value = pairs[0]
        right = ", ".join(f"φ_{n} = {v}" for n, v in pairs)
        assert _reward(problem, f"{right}, φ_{first} = {format_fraction(Fraction(value) + 1)}") == 0.0
        assert _reward(problem, f"{right}, A = {format_fraction(Fraction(pairs[0][1]) + 1)}") == 0.0
        assert _reward(problem, f"{right}. That is not the answer.") == 0.0


# --- 3. economics/auction_outcomes: "Jordan wins and pays $237." ------------------------------------------------


def test_auction_outcomes_reads_a_winning_sentence():
    for level, seed in ((0, 1), (2, 2), (4, 3), (3, 7)):
        problem = sample("economics/auction_outcomes", level, seed)
        winner, price = problem.data["winner"], problem.data["price"]
        for reply in (
            f"{winner} wins and pays ${price}.",
            f"{winner} wins, paying {price} dollars",
            f"{winner} wins the auction at a price of ${price}",
            f"**{winner} wins and pays ${price}**",
        ):
            assert _reward(problem, reply) == 1.0, reply
        other = next(n for n in problem.data["names"] if n != winner)
        more = format_fraction(Fraction(price) + 3)
        for reply in (
            f"{other} wins and pays ${price}.",
            f"{winner} wins and pays ${more}.",
            f"{winner} wins and pays ${price}, or maybe ${more}",
            f"{winner} wins and pays ${price} or {more}",
            f"{winner} or {other} wins and pays ${price}",
            f"{winner} wins and pays ${price}. Or not.",
            f"{winner} wins and does not pay ${price}",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- 4. economics/voting_rules: "Ada wins." (and the top level's two names) -----------------------------------


def test_voting_rules_reads_a_winning_sentence():
    for level, seed in ((0, 1), (2, 2), (3, 3)):
        problem = sample("economics/voting_rules", level, seed)
        winner = problem.answer
        other = next(n for n in problem.data["names"] if n != winner)
        for reply in (f"{winner} wins.", f"{winner} wins the election", f"{winner} wins!"):
            assert _reward(problem, reply) == 1.0, reply
        for reply in (
            f"{other} wins.",
            f"{winner} wins, or maybe {other}",
            f"{winner} wins. Or {other}.",
            f"{winner} or {other} wins",
            f"{winner} wins, then {other}",
            f"{winner} does not win",
        ):
            assert _reward(problem, reply) == 0.0, reply
    problem = sample("economics/voting_rules", 4, 1)
    first, second = problem.answer.split(", ")
    other = next(n for n in problem.data["names"] if n not in (first, second))
    for reply in (
        f"{first} wins, then {second}.",
        f"{first} wins; then {second} wins",
        f"{first} wins and then {second}",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        f"{first} wins.",
        f"{first} wins, then {other}.",
        f"{second} wins, then {first}",
        f"{first} wins, then {second} or {other}",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- 5. biology/reverse_complement: "5' ACGT 3'" ---------------------------------------------------------------


def test_reverse_complement_reads_end_marks_set_off_by_spaces():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("biology/reverse_complement", level, seed)
        gold = problem.answer
        wrong = gold[:-1] + ("A" if gold[-1] != "A" else "C")
        for reply in (f"5' {gold} 3'", f"5′ {gold} 3′", f"5' - {gold} - 3'", f"5'{gold}3'", f"5' {gold} 3'."):
            assert _reward(problem, reply) == 1.0, reply
        for reply in (
            f"5' {wrong} 3'",
            f"5' {gold} 3' or 5' {wrong} 3'",
            f"5' {gold} 3' 3'",
            f"5' {gold[::-1]} 3'",
            f"5' {gold} 3'. That is not the answer.",
            f"3' {gold} 5'",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- 6. biology/michaelis_menten: "Ki(X) = ..." -----------------------------------------------------------------


def test_michaelis_menten_reads_the_inhibitor_in_brackets():
    for level, seed in ((1, 1), (3, 2), (4, 3)):
        problem = sample("biology/michaelis_menten", level, seed)
        gold = problem.answer
        assert "Ki_" in gold
        for form in (r"Ki(\1)", r"K_i(\1)", r"K_{i}(\1)", r"K_{i,\1}", r"Ki[\1]"):
            reply = re.sub(r"Ki_([A-Z])", form, gold)
            assert _reward(problem, reply) == 1.0, reply
        brackets = re.sub(r"Ki_([A-Z])", r"Ki(\1)", gold)
        first = problem.data["inhibitors"][0]
        name, ki = first["name"], Fraction(first["ki"])
        doubled = brackets.replace(f"Ki({name}) = ", f"Ki({name}) = {float(ki) * 2:.4g} or ", 1)
        assert _reward(problem, doubled) == 0.0
        off = re.sub(rf"Ki\({name}\) = [^,]+", f"Ki({name}) = {float(ki) * 1.5:.4g}", brackets)
        assert _reward(problem, off) == 0.0, off
        assert _reward(problem, f"{brackets}, Ki_{name} = {float(ki) * 1.5:.4g}") == 0.0


# --- 7. economics/oligopoly: "p₁ = ..." ------------------------------------------------------------------------


def test_oligopoly_reads_unicode_subscript_indices():
    subscript = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    for kind in ("cournot", "bertrand", "cournot_many", "stackelberg"):
        problem = _first("economics/oligopoly", lambda p, kind=kind: p.data["kind"] == kind)
        values = problem.data["values"]

        def spelled(changed: dict[str, str], values=values) -> str:
            return ", ".join(f"{name[0]}{name[1:].translate(subscript)} = {changed[name]}" for name in values)

        assert _reward(problem, spelled(values)) == 1.0, spelled(values)
        first = next(iter(values))
        wrong = {**values, first: format_fraction(Fraction(values[first]) + 1)}
        assert _reward(problem, spelled(wrong)) == 0.0
        sub_first = f"{first[0]}{first[1:].translate(subscript)}"
        assert _reward(problem, f"{spelled(values)} or {sub_first} = {wrong[first]}") == 0.0
        assert _reward(problem, f"{spelled(values)}, {first} = {wrong[first]}") == 0.0
        last = list(values)[-1]
        if len(values[last]) > 1 and values[last][1].isdigit():  # a subscript digit inside a number is no index
            blurred = values[last][0] + values[last][1:].translate(subscript)
            assert _reward(problem, spelled({**values, last: blurred})) == 0.0


# --- 8. calculus/limits: "does not exist (the one-sided limits differ)" ----------------------------------------


def test_limits_reads_does_not_exist_with_its_reason():
    problem = _first("calculus/limits", lambda p: p.answer == "does not exist", levels=(3,))
    for reply in (
        "does not exist (the one-sided limits differ)",
        "DNE (one-sided limits differ)",
        "The limit does not exist, because the left and right limits are not equal.",
        "does not exist: the left-hand and right-hand limits differ",
        "does not exist since the one-sided limits are different",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "does not exist (no, that is wrong)",
        "does not exist (or maybe 1)",
        "does not exist (I think)",
        "does not exist (the one-sided limits differ) or 1",
        "does not exist (the one-sided limits agree)",
        "does not exist (the one-sided limits differ). Just kidding, it is 1.",
    ):
        assert _reward(problem, reply) == 0.0, reply
    finite = _first("calculus/limits", lambda p: p.answer not in ("does not exist", "∞", "-∞"), levels=(0,))
    assert _reward(finite, f"{finite.answer} (the one-sided limits differ)") == 0.0
    assert _reward(finite, "does not exist (the one-sided limits differ)") == 0.0


# --- 9. linalg/null_space: "(1, -2, 1)^T" -----------------------------------------------------------------------


def test_null_space_reads_transposed_rows():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("linalg/null_space", level, seed)
        vectors = re.findall(r"\([^)]*\)", problem.answer)
        for mark in ("^T", "^{T}", "ᵀ", "^\\top"):
            reply = ", ".join(v + mark for v in vectors)
            assert _reward(problem, reply) == 1.0, reply
        first = [Fraction(x) for x in vectors[0].strip("()").split(",")]
        first[0] += 1
        wrong = "(" + ", ".join(format_fraction(x) for x in first) + ")^T"
        assert _reward(problem, ", ".join([wrong, *(v + "^T" for v in vectors[1:])])) == 0.0
        assert _reward(problem, ", ".join(v + "^T" for v in vectors) + " or " + wrong) == 0.0
        assert _reward(problem, ", ".join(v + "^2" for v in vectors)) == 0.0


# --- 10. algebra/inequalities: "]a, b[" ---------------------------------------------------------------------------


def _french(answer: str) -> str:
    """Interval notation with outward brackets for open ends: "(a, b]" -> "]a, b]", "[a, b)" -> "[a, b["."""
    pieces = []
    for piece in answer.split(" ∪ "):
        if piece.startswith("{"):
            pieces.append(piece)
            continue
        pieces.append(("]" if piece[0] == "(" else "[") + piece[1:-1] + ("[" if piece[-1] == ")" else "]"))
    return " ∪ ".join(pieces)


def test_inequalities_reads_french_interval_notation():
    seen = 0
    for level in (0, 2, 4):
        for seed in range(6):
            problem = sample("algebra/inequalities", level, seed)
            if "(" not in problem.answer and ")" not in problem.answer:
                continue
            seen += 1
            french = _french(problem.answer)
            for reply in (
                french,
                f"x ∈ {french}",
                french.replace("∞", "+∞").replace("-+∞", "-∞") + ".",
                french.replace(", ", " ; "),
            ):
                assert _reward(problem, reply) == 1.0, (problem.answer, reply)
    assert seen >= 10
    problem = _first("algebra/inequalities", lambda p: re.fullmatch(r"\((-?\d+), (-?\d+)\)", p.answer) is not None)
    low, high = re.fullmatch(r"\((-?\d+), (-?\d+)\)", problem.answer).groups()  # type: ignore[union-attr]
    assert _reward(problem, f"]{low}, {high}[") == 1.0
    for reply in (
        f"]{low}, {int(high) + 1}[",
        f"[{low}, {high}[",
        f"]{low}, {high})",
        f"({low}, {high}[",
        f"]{low}, {high}[ or ]{high}, {int(high) + 1}[",
        f"]{low}, {high}[ or ]{low}, {int(high) + 1}[",
        f"]{low}; {high})",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- 11. operations/lot_sizing: "Quantities: 60 80 ..." -----------------------------------------------------------


def test_lot_sizing_reads_a_label_before_the_quantities():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("operations/lot_sizing", level, seed)
        gold = problem.answer
        for reply in (
            f"Quantities: {gold}",
            f"Production plan: {gold}.",
            f"**Lot sizes:** {gold}",
            f"Production quantities: {gold}",
        ):
            assert _reward(problem, reply) == 1.0, reply
        plan = [int(q) for q in gold.split()]
        moved = plan[:]
        moved[0] += 5  # still feasible, but holds 5 more units: costs more than the optimum
        for reply in (
            f"Quantities: {' '.join(map(str, moved))}",
            f"Quantities: {gold} or {' '.join(map(str, moved))}",
            f"Quantities: {gold}. That is not the answer.",
            f"Cost: {gold}",
            f"Quantities: {gold} units?",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- 12. operations/vehicle_routing: a bullet list ("- Route 1: C2 C1" was read; a bare bullet "- C2 C1" was not) ---


def test_vehicle_routing_reads_bare_bullets():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("operations/vehicle_routing", level, seed)
        lines = problem.answer.splitlines()
        for bullet in ("- ", "* ", "• "):
            assert _reward(problem, "\n".join(bullet + line for line in lines)) == 1.0, bullet
        bullets = "\n".join("- " + line for line in lines)
        for reply in (
            bullets + "\n- " + lines[0],
            "\n".join("- " + line for line in lines[:-1]),
            bullets + "\n- or maybe not",
            bullets + "\nJust kidding, I do not know.",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- 13. operations/exam_timetabling: "E1: S2 R1; E2: S1 R3" -----------------------------------------------------


def test_exam_timetabling_reads_placements_separated_by_semicolons():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("operations/exam_timetabling", level, seed)
        lines = problem.answer.splitlines()
        for reply in ("; ".join(lines), "; ".join(lines) + ".", ", ".join(lines), ";\n".join(lines)):
            assert _reward(problem, reply) == 1.0, reply
        exam, slot, room = lines[0].replace(":", "").split()
        other = next(f"S{k}" for k in range(1, problem.data["slots"] + 1) if f"S{k}" != slot)
        for reply in (
            "; ".join([*lines, f"{exam}: {other} {room}"]),
            "; ".join(lines[1:]),
            "; ".join(lines) + f"; or {other} {room}",
            "; ".join(lines) + "; not sure",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- 14. operations/project_crashing: "F = 2 days" -----------------------------------------------------------------


def test_project_crashing_reads_days_after_each_amount():
    for level, seed in ((0, 1), (2, 2), (4, 3)):
        problem = sample("operations/project_crashing", level, seed)
        gold = problem.answer
        days = re.sub(r"= (\d+)", lambda m: f"= {m.group(1)} {'day' if m.group(1) == '1' else 'days'}", gold)
        assert _reward(problem, days) == 1.0, days
        assert _reward(problem, days.replace(", ", "\n") + ".") == 1.0
        first = gold.split(", ")[0]
        name, amount = first.split(" = ")
        hedge = days.replace(f"{name} = {amount} ", f"{name} = {amount} or {int(amount) + 1} ", 1)
        for reply in (hedge, days.replace(" days", " hours"), f"{days}, {name} = {int(amount) + 1} days"):
            assert _reward(problem, reply) == 0.0, reply


# --- 15. cube roots written cbrt(...) or ∛ (algebra/function_inverse, calculus/derivative) -------------------------


def test_formulas_read_cube_roots():
    problem = _first("algebra/function_inverse", lambda p: "^(1/3)" in p.answer, levels=(4,))
    gold = problem.answer  # "((x - 3)/14)^(1/3) - 17"
    for sign in ("cbrt", "∛", "∛ "):
        reply = gold.replace("((x", f"{sign}((x", 1).replace("^(1/3)", "", 1)
        assert _reward(problem, reply) == 1.0, reply
        assert _reward(problem, reply + " + 1") == 0.0
        assert _reward(problem, reply.replace(sign, "sqrt", 1)) == 0.0
        assert _reward(problem, f"{reply} or {gold} + 1") == 0.0
    derivative = _first(
        "calculus/derivative", lambda p: re.search(r"\((\d+)/3\)x\^\(-2/3\)", p.answer) is not None, levels=(0,)
    )
    for root in ("∛(x^2)", "cbrt(x^2)", "∛x^2", "∛(x²)"):
        reply = re.sub(r"\((\d+)/3\)x\^\(-2/3\)", rf"\1/(3{root})", derivative.answer)
        assert _reward(derivative, reply) == 1.0, reply
        wrong = re.sub(r"\((\d+)/3\)x\^\(-2/3\)", rf"\1/(2{root})", derivative.answer)
        assert _reward(derivative, wrong) == 0.0, wrong
