"""Red team r29 (puzzles, planning, data, spatial): regression tests for what was found."""

import palaestra


def test_mirror_paths_superscript_or_circled_number_is_read_not_raised():
    """'³' and '①' pass str.isdigit() but int() raises on them: the verifier raised (a 'not judged' verdict, left
    out of rewards) instead of reading the answer as unreadable."""
    task = palaestra.make("spatial/mirror_paths").unwrapped.task
    problem = task.sample(0, 0)
    side, number = problem.answer.split()
    for odd in ("³", "①", "²²"):
        verdict = task.check(problem, task.format_answer(f"{side} {odd}"))
        assert verdict.error is None and "raised" not in verdict.feedback, verdict
        assert verdict.reward == 0.0 and not verdict.parsed
    # a decimal digit of another script that int() reads is still read as that number
    wide = "".join(chr(0xFF10 + int(d)) for d in number)
    assert task.check(problem, task.format_answer(f"{side} {wide}")).reward == 1.0
    assert task.check(problem, task.format_answer(problem.answer)).reward == 1.0
