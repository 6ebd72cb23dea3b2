"""Red team r34 (web/checkout): a second deadline makes every misreading of "within N days" fail.

web/checkout v5 asked for one order and "the cheapest shipping option that delivers within N days". One deadline
cannot make both misreadings err: "under N days" is wrong only where the answer takes N days, "exactly N days" only
where it does not, and v5 put the answer at the deadline in half the problems, so each won 0.44-0.60 of levels 0-5
(100 seeds; "exactly N days, else the cheapest under" 0.55-0.69, "N - 1 or N days" 0.65-0.87). v6 asks for two
orders, each with its own deadline over one shipping table: one answer sits at its deadline and the other strictly
under it, so each reading fails one order, and the episode. Here each reading is the env's own plan with the
shipping code of every checkout replaced (the deadlines read from the prompt); all score 0 in v6.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from palaestra.core.registry import make_source
from palaestra.kit.play import policy_scores

SHOPS = make_source("web/checkout")
LEVELS = [0, 1, 2, 3, 4]


def _cheapest(options: dict[str, Any], keep: Any) -> str:
    allowed = [(option["price"], code) for code, option in options.items() if keep(option["days"])]
    return min(allowed)[1] if allowed else "none"


READINGS = {
    "within": lambda options, n: _cheapest(options, lambda days: days <= n),
    "under N days": lambda options, n: _cheapest(options, lambda days: days < n),
    "exactly N days": lambda options, n: _cheapest(options, lambda days: days == n),
    "N + 1 days or under": lambda options, n: _cheapest(options, lambda days: days <= n + 1),
    "exactly N days, else the cheapest under": lambda options, n: _cheapest(
        options, (lambda days: days == n) if any(o["days"] == n for o in options.values()) else (lambda days: days < n)),
    "N - 1 or N days": lambda options, n: _cheapest(options, lambda days: n - 1 <= days <= n),
    "the slowest in time": lambda options, n: max(
        (code for code, o in options.items() if o["days"] <= n), key=lambda code: options[code]["days"]),
}


def _reading(choose: Any) -> Any:
    """The oracle's plan, each checkout's shipping replaced by ``choose(options, days asked for that order)``."""

    def policy(problem: Any, state: Any, history: Any, rng: random.Random) -> str:
        plan = SHOPS.plan(problem)
        move = plan[min(len(history), len(plan) - 1)]
        if '"form_id": "checkout"' not in move:
            return move
        deadlines = [int(days) for days in re.findall(r"delivers within (\d+) days", problem.prompt)]
        order = sum('"form_id": "checkout"' in earlier for earlier in plan[:len(history)])
        call = json.loads(move.removeprefix("<tool_call>").removesuffix("</tool_call>"))
        call["arguments"]["fields"]["shipping"] = choose(problem.data["records"]["shipping"], deadlines[order])
        return f"<tool_call>{json.dumps(call)}</tool_call>"

    return policy


def test_checkout_r34_the_stated_reading_and_the_oracle_win_everything() -> None:
    assert policy_scores("web/checkout", _reading(READINGS["within"]), 8, LEVELS) == [1.0] * len(LEVELS)
    for level in LEVELS:
        for seed in range(8):
            problem = SHOPS.sample(level, seed)
            state = SHOPS.initial_state(problem)
            for move in SHOPS.plan(problem):
                outcome = SHOPS.advance(problem, state, SHOPS.format_answer(move))
                state = outcome.state
            assert outcome.done and outcome.verdict.correct, (level, seed)


def test_checkout_r34_every_misreading_of_within_fails() -> None:
    for name, choose in READINGS.items():
        if name != "within":
            scores = policy_scores("web/checkout", _reading(choose), 10, LEVELS)
            assert max(scores) <= 0.15, (name, scores)  # v5: up to 0.60 (0.87 for "N - 1 or N days"); v6: 0


def test_checkout_r34_one_order_at_its_deadline_one_under_it() -> None:
    for level in LEVELS:
        for seed in range(20):
            problem = SHOPS.sample(level, seed)
            options = problem.data["records"]["shipping"]
            deadlines = [int(days) for days in re.findall(r"delivers within (\d+) days", problem.prompt)]
            answers = [order["shipping"] for order in problem.data.get("orders", [])]
            assert len(deadlines) == len(answers) == 2, (level, seed)
            gaps = sorted(n - options[code]["days"] for code, n in zip(answers, deadlines))
            assert gaps[0] == 0 < gaps[1], (level, seed)


def test_checkout_r34_the_answer_is_the_second_orders_number_alone() -> None:
    problem = SHOPS.sample(2, 0)
    second = int(problem.answer or "0")
    assert SHOPS.judge(problem, f"Order #{second}.").correct
    for wrong in (str(second - 1), f"{second - 1}, {second}", f"{second} and {second - 1}"):
        assert not SHOPS.judge(problem, wrong).correct, wrong
