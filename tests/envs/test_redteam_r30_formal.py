"""Round 3 session 30 red team of never-tested formal, tool, service and planning envs ("formal" helper).

1. ``tools/big_numbers`` drew the base of a "last k digits of a^(b^c)" question from 2-99, multiples of 10
   included: 10^E, 20^E, ... end in more than k zeros, so the constant answer ``0`` scored on 9% of those
   questions (7 of 64 at level 0, seeds 0-299) without any computation. The base is now never a multiple of 10.
"""

import palaestra


def test_big_numbers_last_digits_never_zero_for_free():
    task = palaestra.make("tools/big_numbers", level=0).unwrapped.task
    last_digit_questions = 0
    for seed in range(70):  # seeds 28 and 65 drew bases 10-90 before the fix
        problem = task.sample(0, seed)
        if problem.data["kind"] != "power_last_digits":
            continue
        last_digit_questions += 1
        assert problem.data["params"]["a"] % 10 != 0, seed
        assert not task.judge(problem, "0").correct, seed
    assert last_digit_questions >= 5
