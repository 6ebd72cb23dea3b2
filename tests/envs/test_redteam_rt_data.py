"""Red-team regressions (#21) for data, strings, spatial, languages, temporal, symbolic: shortcuts that paid
without solving, and grading that misread right or wrong answers."""

from __future__ import annotations

from palaestra.core.registry import make_source
from palaestra.envs.languages._automata import closure, run_nfa


def _from_every_state(nfa: dict, string: str) -> set[str]:
    current = closure(nfa, set(nfa["states"]))
    for letter in string:
        current = closure(nfa, {t for s in current for t in nfa["delta"].get(s, {}).get(letter, [])})
    return current


def test_nfa_run_needs_the_whole_string() -> None:
    """Regression: dense random NFAs forgot their start, so reading the last two letters from every state
    answered 0.76 of level 4 (0.55 with the last letter alone), and reading only the first letter from the
    start answered 0.37 of level 0. No lazy reading (a proper suffix from all states, a proper prefix from
    the start) gives the answer now."""
    task = make_source("languages/nfa_run")
    for level in (0, 2, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            nfa, string = problem.data["nfa"], problem.data["string"]
            final = run_nfa(nfa, string)
            assert all(_from_every_state(nfa, string[k:]) != final for k in range(1, len(string)))
            assert all(run_nfa(nfa, string[:k]) != final for k in range(len(string)))


def test_lambda_reduction_identity_is_no_common_answer() -> None:
    """Regression: λx.x was the normal form of 0.20 of level 0 and 0.12 of level 2, so the constant answer
    paid twice what the kit allows; tiny normal forms are thinned now."""
    from palaestra.envs.symbolic.lambda_reduction import normalize, parse_term, to_de_bruijn

    task = make_source("symbolic/lambda_reduction")
    identity = to_de_bruijn(parse_term("λx.x"))
    for level in (0, 2):
        problems = [task.sample(level, seed) for seed in range(150)]
        hits = sum(normalize(to_de_bruijn(parse_term(p.data["term"])), p.data["steps"], 10**6)[0] == identity
                   for p in problems)
        assert hits / len(problems) <= 0.10, (level, hits)


def test_cipher_reads_a_boxed_answer_before_a_full_stop() -> None:
    """Regression: ``\\boxed{PLAINTEXT}.`` was unparsed (the wrapper sat inside the closing full stop)."""
    task = make_source("symbolic/cipher")
    problem = task.sample(0, 0)
    gold = problem.answer or ""
    assert task.verify(problem, f"\\boxed{{{gold}}}.").correct
    assert task.verify(problem, f"**{gold}**.").correct
    assert not task.verify(problem, f"\\boxed{{{gold} X}}.").correct
    assert not task.verify(problem, f"\\boxed{{{gold}}}. Or not.").correct


def test_funnel_order_and_time_limit_matter() -> None:
    """Regression: counting users by which funnel events they have, in any order, answered 0.72 of level 0
    and 0.64 of level 2; ignoring the time limit answered 0.72 of level 4. Both readings are wrong now."""
    from palaestra.envs.data.funnel import funnel_counts, order_blind_counts

    task = make_source("data/funnel")
    for level in (0, 2, 3, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            events = [[int(h) * 3600 + int(m) * 60 + int(s), user, name] for h, m, s, user, name in
                      (line.replace(":", " ").split() for line in problem.prompt.split("```")[1].strip().split("\n"))]
            counts = problem.data["counts"]
            assert funnel_counts(events, problem.data["steps"], problem.data["window"]) == counts
            assert order_blind_counts(events, problem.data["steps"]) != counts
            if problem.data["window"] is not None:
                assert funnel_counts(events, problem.data["steps"], None) != counts


def test_dedupe_transitivity_matters() -> None:
    """Regression: matching each record only with the records it matches directly (ignoring the stated
    transitivity) answered 0.77 of level 0 and 0.53 of level 2; every problem now has a record joined to its
    group's first id only through another record, so that reading is wrong everywhere."""
    from palaestra.envs.data.dedupe import _digits

    task = make_source("data/dedupe")

    def direct(a: dict, b: dict) -> bool:
        return a["email"].strip().lower() == b["email"].strip().lower() or _digits(a["phone"]) == _digits(b["phone"])

    for level in (0, 1, 2, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            records = problem.data["records"]
            lazy = {r["id"]: min((o["id"] for o in records if o is r or direct(r, o)), key=lambda i: int(i[1:]))
                    for r in records}
            assert lazy != problem.data["result"]


def test_sessionize_gap_of_exactly_the_limit_matters() -> None:
    """Regression: splitting sessions at a gap of exactly the limit (the stated rule says it does not split)
    answered 0.46 of level 0 and 0.14 of level 2: the exact gap was often missing or after a user's last event."""
    from palaestra.envs.data.sessionize import sessions

    task = make_source("data/sessionize")
    for level in (0, 2, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            events = []
            for line in problem.prompt.split("```")[1].strip().split("\n"):
                stamp, user, page = line.split()
                hours, minutes, seconds = map(int, stamp.split(":"))
                events.append([hours * 3600 + minutes * 60 + seconds, user, page])
            gap = problem.data["gap"]
            assert {u: list(v) for u, v in sessions(events, gap).items()} == problem.data["result"]
            lazy = {u: list(v) for u, v in sessions(events, gap, exact_gap_splits=True).items()}
            assert lazy != problem.data["result"]



def test_log_windows_half_open_rule_matters() -> None:
    """Regression: reading the windows as closed (a line stamped at a window's end kept in it) answered 0.57
    of level 0 and 0.25 of level 4; a line on a window's end now always decides a count."""
    import re
    from datetime import datetime

    from palaestra.envs.data.log_windows import window_counts

    assert window_counts([0, 299, 300, 600], 300, 2) == [2, 1]
    assert window_counts([0, 299, 300, 600], 300, 2, end_inclusive=True) == [3, 1]
    task = make_source("data/log_windows")
    for level in (0, 1, 2):  # no UTC offsets below level 3: every stamp ends in Z
        for seed in range(30):
            problem = task.sample(level, seed)
            span = re.search(r"from (\S+ \S+) to (\S+ \S+) UTC into consecutive (\d+)-minute", problem.prompt)
            assert span
            start, end = (datetime.fromisoformat(span.group(k)) for k in (1, 2))
            width = int(span.group(3)) * 60
            asked = re.search(r"Count the (.*?) in each window", problem.prompt)
            assert asked
            seconds = []
            for stamp, level_name, service in re.findall(r"^(\S+)Z (\w+)\s+\[(\w+)\]", problem.prompt, re.M):
                wanted = asked.group(1)
                hit = (level_name in ("WARN", "ERROR") if "WARN or ERROR" in wanted else
                       level_name == "ERROR" and f"of the {service} service" in wanted if "service" in wanted else
                       wanted == f"lines of level {level_name}")
                if hit:
                    seconds.append(int((datetime.fromisoformat(stamp) - start).total_seconds()))
            windows = int((end - start).total_seconds()) // width
            assert window_counts(seconds, width, windows) == problem.data["counts"]
            assert window_counts(seconds, width, windows, end_inclusive=True) != problem.data["counts"]


def test_cfg_generation_grammar_matters_and_example_is_fixed() -> None:
    """Regression: at level 0 a random string meeting the stated conditions, grammar ignored, was accepted
    0.27 of the time; and the example changed ("baab") exactly when the witness was "abba"."""
    import itertools

    from palaestra.envs.languages._grammar import Grammar
    from palaestra.envs.languages.cfg_generation import _meets

    task = make_source("languages/cfg_generation")
    shares = []
    for seed in range(40):
        problem = task.sample(0, seed)
        assert problem.prompt.split("for example: ")[1].startswith("abba")
        grammar = Grammar(problem.data["rules"])
        meeting = [s for s in ("".join(t) for t in itertools.product("ab", repeat=problem.data["length"]))
                   if all(_meets(s, c) for c in problem.data["constraints"])]
        shares.append(sum(grammar.accepts(s) for s in meeting) / len(meeting))
    assert max(shares) <= 0.25
    assert sum(shares) / len(shares) <= 0.15


def test_regex_synthesis_example_is_fixed_and_never_an_answer() -> None:
    """Regression: the example "(ab|c)*a" was swapped for "b(a|c)+" exactly when it fitted the lists (2 of
    300 level-0 problems), which told the policy the answer."""
    task = make_source("languages/regex_synthesis")
    for seed in range(300):
        problem = task.sample(0, seed)
        assert problem.prompt.split("for example: ")[1].startswith("(ab|c)*a\n")
        assert not task.verify(problem, "(ab|c)*a").correct


def test_minimal_rotation_longest_run_is_tied() -> None:
    """Regression: "start at the longest run of the smallest letter" answered 0.73 of level 0 and 0.59 of
    level 4; that run is tied now, so the runs' continuations must be compared."""
    import re

    task = make_source("strings/minimal_rotation")
    for level, ties in ((0, 2), (2, 3), (4, 3)):
        hits = 0
        for seed in range(60):
            text = task.sample(level, seed).data["text"]
            smallest = min(text)
            rotated = text[text.index(next(ch for ch in text if ch != smallest)):] if set(text) != {smallest} else text
            rotated = rotated + text[: len(text) - len(rotated)]  # a rotation that starts outside a run
            runs = [m.group() for m in re.finditer(re.escape(smallest) + "+", rotated)]
            assert runs.count(max(runs)) >= ties
            start = text.index(max(runs)) if max(runs) in text else 0
            hits += (text[start:] + text[:start]) == task.sample(level, seed).answer
        assert hits / 60 < 0.5


def test_mirror_paths_flips_matter() -> None:
    """Regression: from level 3 mirrors flip, but tracing the beam with fixed mirrors gave the exit for 0.69
    of level 3 and 0.47 of level 4."""
    from palaestra.envs.spatial.mirror_paths import trace

    task = make_source("spatial/mirror_paths")
    for level in (3, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            data = problem.data
            fixed = trace(data["grid"], data["side"], data["index"], False, 10_000)
            assert fixed is not None and list(fixed[:2]) != data["exit"]
            assert not task.verify(problem, f"{fixed[0]} {fixed[1]}").correct


def test_elementary_ca_wrap_matters() -> None:
    """Regression: on wrapped rows, simulating with fixed 0 ends gave the final row for 0.24 of level 2."""
    from palaestra.envs.symbolic.elementary_ca import step

    task = make_source("symbolic/elementary_ca")
    for level in (2, 3):
        for seed in range(60):
            problem = task.sample(level, seed)
            data = problem.data
            assert data["wrap"]
            row = data["row"]
            for _ in range(data["steps"]):
                row = step(row, data["rule"], False)
            assert row != problem.answer


def test_sort_rows_every_rule_decides() -> None:
    """Regression: sorting by the first key alone answered 0.39 of level 0 (0.32 with ties in table order);
    comparing categories with their case 0.72 of level 0; now each stated rule changes the order."""
    from palaestra.envs.data.sort_rows import sort_rows

    task = make_source("data/sort_rows")
    for level in (0, 2, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            lines = problem.prompt.split("\n\n")[1].split("\n")[1:]
            rows = []
            for line in lines:
                sku, category, price, rating, stock = line.split(",")
                rows.append({"sku": sku, "category": category, "price": round(float(price) * 100),
                             "rating": int(rating) if rating else None, "stock": int(stock)})
            spec_text = problem.prompt.split("Sort the rows by ")[1].split(", then by sku ascending")[0]
            spec = [[key, "asc" if way == "ascending" else "desc"]
                    for key, way in (part.split() for part in spec_text.split(", then "))]
            blanks = "first" if "blank rating goes first" in problem.prompt else "last"
            order = sort_rows(rows, spec, blanks)
            assert ", ".join(order) == problem.answer
            assert sort_rows(rows, spec[:1], blanks) != order
            if "category" in spec_text:
                assert sort_rows(rows, spec, blanks, fold_case=False) != order
            if "rating" in spec_text:
                assert sort_rows(rows, spec, "last" if blanks == "first" else "first") != order


def test_json_diff_type_change_matters() -> None:
    """Regression: comparing values as text (8080 the same as "8080", the prompt says it is not) answered
    0.75 of level 0 and 0.66 of level 4; every problem now has a change of type alone."""
    import json
    import re

    from palaestra.envs.data.json_diff import differences

    task = make_source("data/json_diff")
    for level in (0, 2, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            old, new = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", problem.prompt, re.S))
            assert differences(old, new) == set(problem.data["differences"])
            assert differences(old, new, by_text=True) != set(problem.data["differences"])


def test_validate_first_rule_matters() -> None:
    """Regression: half of level 0 (0.32 of level 2) had no row breaking two rules, so reporting any broken
    rule (the last, say) instead of the first was right; every problem has such a row now."""
    from palaestra.envs.data.validate import broken_rules, first_broken

    task = make_source("data/validate")
    for level in (0, 2, 4):
        for seed in range(30):
            problem = task.sample(level, seed)
            lines = problem.prompt.split("\n\n")[1].split("\n")[1:]
            rows = [dict(zip(("label", "id", "email", "age", "department", "start", "manager"), line.split(","),
                             strict=True)) for line in lines]
            assert first_broken(rows) == problem.data["result"]
            assert any(len(rules) >= 2 for rules in broken_rules(rows).values())


def test_schema_infer_every_value_matters() -> None:
    """Regression: typing each column by its first value answered 0.34 of level 0 (by the type most of its
    values have, 0.28); tables are redrawn until both lazy readings go wrong somewhere."""
    from palaestra.envs.data.schema_infer import column_type, first_value_types, majority_types

    task = make_source("data/schema_infer")
    for level in (0, 1, 2):
        for seed in range(40):
            problem = task.sample(level, seed)
            lines = problem.prompt.split("\n\n")[1].split("\n")
            columns = [list(column) for column in zip(*(line.split(",") for line in lines[1:]), strict=True)]
            truth = [column_type(values) for values in columns]
            assert truth == [problem.data["result"][name] for name in lines[0].split(",")]
            assert first_value_types(columns) != truth and majority_types(columns) != truth


def test_apply_edit_script_positions_shift() -> None:
    """Regression: reading every position in the original string (the prompt says positions refer to the
    string as it is when each operation runs) answered 0.60 of level 0, 0.51 of level 1 and 0.22 of level 2."""
    from palaestra.envs.strings.apply_edit_script import original_positions

    assert original_positions("abcd", [["delete", 0, ""], ["replace", 1, "x"]]) == "xcd"
    assert original_positions("ab", [["insert", 2, "c"], ["insert", 0, "z"]]) == "zabc"
    task = make_source("strings/apply_edit_script")
    for level in (0, 1, 2):
        for seed in range(60):
            problem = task.sample(level, seed)
            assert original_positions(problem.data["text"], problem.data["script"]) != problem.answer


def test_lz77_tie_rule_and_overlap_matter() -> None:
    """Regression: the farthest start among equally long copies answered 0.59 of level 0, copies that stop at
    the current position 0.47 of level 0 and 0.40 of level 4; both misreadings go wrong now."""
    from palaestra.envs.strings.lz77 import lz77

    assert lz77("aaaa", 4)[0] == [(0, 0, "a"), (1, 2, "a")]
    assert lz77("aaaa", 4, overlap=False)[0] == [(0, 0, "a"), (1, 1, "a"), (0, 0, "a")]
    task = make_source("strings/lz77")
    for level in (0, 2, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            text, window = problem.data["text"], problem.data["window"]
            truth = [tuple(t) for t in problem.data["triples"]]
            assert lz77(text, window)[0] == truth
            assert lz77(text, window, farthest=True)[0] != truth
            assert lz77(text, window, overlap=False)[0] != truth


def test_line_of_sight_corner_rule_matters() -> None:
    """Regression: reading a touched wall corner as blocking (the prompt says it does not block) answered 0.57
    of level 0 and 0.49 of level 4; some seen target's line now touches a corner in every problem."""
    from palaestra.envs.spatial.line_of_sight import crosses

    assert not crosses((0, 0), (2, 2), (1, 0)) and crosses((0, 0), (2, 2), (1, 0), closed=True)
    task = make_source("spatial/line_of_sight")
    for level in (0, 2, 4):
        for seed in range(30):
            data = task.sample(level, seed).data
            walls = [tuple(w) for w in data["walls"]]
            strict = sorted(name for name, cell in data["targets"].items()
                            if not any(crosses(tuple(data["viewer"]), tuple(cell), w, closed=True) for w in walls))
            assert strict != data["seen"]


def test_period_is_not_where_the_first_letters_recur() -> None:
    """Regression: the shift where the string's first three letters recur was the smallest period for 0.92 of
    level 0 and 0.78 of level 4 (the first four letters: 0.99, 0.97); the planted word now carries a decoy."""
    task = make_source("strings/period")
    for level in (0, 2, 4):
        four = 0
        for seed in range(60):
            problem = task.sample(level, seed)
            text, period = problem.data["text"], problem.data["period"]
            recurrence = [next((i for i in range(1, len(text)) if text[i:i + k] == text[:k]), len(text)) for k in (3, 4)]
            assert recurrence[0] != period, (level, seed)
            four += recurrence[1] == period
        assert four / 60 < 0.35, (level, four)


def test_recurring_events_inclusive_start_matters() -> None:
    """Regression: the start was a meeting day in 3% of problems, so counting from the day after it (which the
    prompt rules out) answered 0.97 of every level; now half the problems start on a meeting day."""
    from palaestra.envs.temporal.recurring_events import occurrences

    task = make_source("temporal/recurring_events")
    for level in (0, 2, 4):
        exclusive = 0
        for seed in range(80):
            data = task.sample(level, seed).data
            assert occurrences(data["rule"], data["start"], data["count"])[-1] == data["answer"]
            exclusive += occurrences(data["rule"], data["start"] + 1, data["count"])[-1] == data["answer"]
        assert exclusive / 80 < 0.7, (level, exclusive)


def test_turtle_pose_misreadings_go_wrong() -> None:
    """Regression: reading "back n" as a half turn and n steps answered 0.42 of level 0, swapping left and
    right 0.21; programs are redrawn until both misreadings give another pose."""
    from palaestra.envs.spatial.turtle_pose import HEADINGS, run

    task = make_source("spatial/turtle_pose")
    for level in (0, 2, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            program = problem.data["program"]
            for misread in ({"back_turns": True}, {"mirrored": True}):
                x, y, heading = run(program, **misread)[0]
                assert f"({x}, {y}) {HEADINGS[heading]}" != problem.answer
