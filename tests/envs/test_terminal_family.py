"""The terminal family: shell episodes in generated trees, judged by the final tree or the final answer."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.terminal.common import shell_plan, tree_difference
from palaestra.tools.calls import tool_call

TERMINAL = ["terminal/sort_files", "terminal/log_forensics", "terminal/csv_report", "terminal/find_files",
            "terminal/dedupe_files"]


@pytest.fixture(scope="module", autouse=True)
def _needs_bash() -> None:
    from palaestra.sandbox import probe

    if "bash" not in probe().languages:
        pytest.skip("the sandbox cannot run bash here")


def play(env_id: str, level: int, seed: int, replies: list[str]) -> tuple[list[str], object]:
    """Step ``replies`` through the env (each formatted as a reply); the observations and the last verdict."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state = source.initial_state(problem)
    observations, verdict = [], None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state, verdict = outcome.state, outcome.verdict
        observations.append(outcome.observation)
        if outcome.done:
            break
    return observations, verdict


def test_tree_difference_names_what_differs() -> None:
    assert tree_difference({"a": b"1"}, {"a": b"1"}) is None
    assert tree_difference({"a": b"2", "c": b""}, {"a": b"1", "b": b""}) == \
        "missing: b; unexpected: c; different contents: a"
    assert tree_difference({"a": b"1", "tmp": b""}, {"a": b"1"}, allow_new=True) is None


def test_sort_files_judges_the_tree_however_it_was_made() -> None:
    """A general script (not the oracle's per-file moves) earns the reward; doing nothing or a near miss does not."""
    source = make_source("terminal/sort_files")
    seed = next(s for s in range(50) if source.sample(3, s).data["rule"] == "status")
    general = ("for f in $(find inbox -type f); do s=$(head -1 \"$f\" | sed -n 's/^status: \\(.*\\)$/\\1/p'); "
               "d=${s:-unsorted}; mkdir -p \"$d\"; mv \"$f\" \"$d/\"; done")
    _, verdict = play("terminal/sort_files", 3, seed, shell_plan([general], "done"))
    assert verdict.correct, verdict
    careless = "for f in $(find inbox -type f); do s=$(grep -m1 -o 'status: [a-z]*' \"$f\" | cut -c9-); " \
               "d=${s:-unsorted}; mkdir -p \"$d\"; mv \"$f\" \"$d/\"; done"  # reads a status line anywhere
    _, verdict = play("terminal/sort_files", 3, seed, shell_plan([careless], "done"))
    assert not verdict.correct and "missing" in verdict.feedback, verdict
    _, verdict = play("terminal/sort_files", 3, seed, ["done"])
    assert not verdict.correct


def test_sort_files_wants_the_word_done() -> None:
    _, verdict = play("terminal/sort_files", 0, 1, ["finished"])
    assert not verdict.parsed and "done" in verdict.feedback


def test_log_forensics_answers_come_from_the_logs() -> None:
    source = make_source("terminal/log_forensics")
    problem = source.sample(0, 2)
    command = problem.data["question"]["command"]
    observations, verdict = play("terminal/log_forensics", 0, 2, shell_plan([command], problem.answer))
    assert verdict.correct and problem.answer in observations[0]
    wrong = str(int(problem.answer) + 1)
    assert not source.judge(problem, wrong).correct
    assert source.judge(problem, f"{problem.answer} requests.").correct


def test_log_forensics_comment_lines_are_not_requests() -> None:
    """From level 3, '# ... status 200 ...' comment lines trap a grep that does not skip them."""
    source = make_source("terminal/log_forensics")
    problem = source.sample(3, 0)
    comments = [line for body in problem.data["files"].values() for line in body.splitlines() if line.startswith("#")]
    assert comments and problem.data["requests"] == sum(
        1 for body in problem.data["files"].values() for line in body.splitlines() if line and line[0] != "#")


def test_csv_report_accepts_crlf_and_a_missing_final_newline_but_not_a_wrong_order() -> None:
    source = make_source("terminal/csv_report")
    problem = source.sample(1, 4)
    report = problem.data["report"]
    lines = report.strip("\n").split("\n")
    writes = {
        "crlf": "\r\n".join(lines),
        "unsorted": "\n".join([lines[0], *sorted(lines[1:])]) + "\n",
        "no header": "\n".join(lines[1:]) + "\n",
    }
    for name, body in writes.items():
        escaped = body.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")
        command = f"printf '{escaped}' > report.csv"  # printf turns the escapes back into line endings
        _, verdict = play("terminal/csv_report", 1, 4, shell_plan([command], "done"))
        expected = name == "crlf" or (name == "unsorted" and lines[1:] == sorted(lines[1:]))
        assert verdict.correct == expected, (name, verdict)


def test_csv_report_refuses_changed_sales_files() -> None:
    source = make_source("terminal/csv_report")
    problem = source.sample(0, 0)
    oracle = source.plan(problem)[0]
    tamper = tool_call("shell", command="rm \"$(ls sales/*/*.csv | head -1)\"")
    _, verdict = play("terminal/csv_report", 0, 0, [oracle, tamper, "done"])
    assert not verdict.correct and "missing: sales/" in verdict.feedback


def test_find_files_is_judged_as_a_set_of_paths() -> None:
    source = make_source("terminal/find_files")
    problem = source.sample(2, 3)
    matching = problem.data["matching"]
    assert source.judge(problem, "\n".join(reversed(matching))).correct
    assert source.judge(problem, ", ".join(f"./{p}" for p in matching)).correct
    assert not source.judge(problem, "\n".join(matching[:-1])).correct
    assert not source.judge(problem, "\n".join(problem.data["files"])).correct
    assert not source.judge(problem, "\n".join([*matching, "/etc/passwd"])).correct


@pytest.mark.parametrize("env_id", TERMINAL)
def test_a_replay_scores_like_the_episode(env_id: str) -> None:
    """The state carries the tree, so ``score`` of the replies replays the same episode."""
    source = make_source(env_id)
    problem = source.sample(1, 5)
    replies = [source.format_answer(r) for r in source.plan(problem)]
    verdict = palaestra.score(problem, replies)
    assert verdict.correct, verdict


def test_dedupe_files_far_levels_have_names_for_every_file() -> None:
    # Version 1 drew 400 names at every level; from level ~16 the files outgrew them (20 seeds in 50 failed at 20).
    source = make_source("terminal/dedupe_files")
    sizes = []
    for level in (20, 40):
        for seed in range(300_000, 300_020):
            problem = source.sample(level, seed)
            assert set(problem.data["kept"]) <= set(problem.data["files"])
            sizes.append(len(problem.data["files"]))
    assert max(sizes) > 400  # more files than version 1's names could give
    # The oracle's rm of hundreds of paths is split to fit the shell tool's command limit (it was refused whole).
    source = make_source("terminal/dedupe_files")
    replies = source.plan(source.sample(40, 300_001))
    assert len(replies) > 2
    _, verdict = play("terminal/dedupe_files", 40, 300_001, replies)
    assert verdict.correct, verdict


def test_dedupe_files_keeps_the_first_path_of_each_content() -> None:
    general = "md5sum $(find . -type f | sed 's#^./##' | LC_ALL=C sort) | awk 'seen[$1]++ {print $2}' | xargs -r rm --"
    _, verdict = play("terminal/dedupe_files", 3, 2, shell_plan([general], "done"))
    assert verdict.correct, verdict
    by_name = "ls -R >/dev/null; find . -type f | awk -F/ 'seen[$NF]++' | xargs -r rm --"  # same name != same content
    _, verdict = play("terminal/dedupe_files", 3, 2, shell_plan([by_name], "done"))
    assert not verdict.correct
    last_copy = "md5sum $(find . -type f | sed 's#^./##' | LC_ALL=C sort -r) | awk 'seen[$1]++ {print $2}' | xargs -r rm --"
    _, verdict = play("terminal/dedupe_files", 3, 2, shell_plan([last_copy], "done"))
    assert not verdict.correct and "missing" in verdict.feedback


@pytest.mark.parametrize("env_id, level, seed", [("terminal/sort_files", 12, 1), ("terminal/sort_files", 40, 0),
                                                 ("terminal/template_fill", 40, 1)])
def test_the_oracle_wins_where_its_calls_outgrew_the_shell_limits(env_id: str, level: int, seed: int) -> None:
    # sort_files' one long mv chain passed the command limit, and both tasks create more files and folders than a
    # call's old allowance of 64 (the jail answered "No space left on device").
    source = make_source(env_id)
    _, verdict = play(env_id, level, seed, source.plan(source.sample(level, seed)))
    assert verdict.correct, verdict
