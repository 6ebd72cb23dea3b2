"""The service family: policy-bound agents judged on the final answer and on the final records."""

from __future__ import annotations

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.service import retail_returns as rr
from palaestra.envs.service.common import call

RETURNS = make_source("service/retail_returns")


def play(problem, replies: list[str]):
    state = RETURNS.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = RETURNS.advance(problem, state, RETURNS.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


def _serve_everything(problem) -> list[str]:
    """Return every requested item and cancel the order asked for, whatever the policy says."""
    data = problem.data
    by_order: dict[str, list[str]] = {}
    for order_id, item_id in data["requested"]:
        by_order.setdefault(order_id, []).append(item_id)
    replies = [call("return_items", order_id=o, item_ids=items) for o, items in by_order.items()]
    replies += [call("cancel_order", order_id=order_id) for order_id in data["cancels"]]
    total = sum(rr._item(data["records"], o, i)["price_cents"] for o, i in data["requested"]
                if not rr._item(data["records"], o, i)["returned"])
    return [*replies, f"${total // 100}.{total % 100:02d}"]


def test_the_oracle_serves_by_the_policy_and_the_replay_scores_the_same() -> None:
    for level in range(5):
        problem = RETURNS.sample(level, 7)
        outcome = play(problem, RETURNS.plan(problem))
        assert outcome.verdict.correct, (level, outcome.observation)
        assert palaestra.score(problem, [RETURNS.format_answer(r) for r in RETURNS.plan(problem)]).correct


def test_serving_everything_or_nothing_rarely_pays() -> None:
    everything = nothing = 0
    for seed in range(40):
        problem = RETURNS.sample(3, seed)
        everything += play(problem, _serve_everything(problem)).verdict.correct
        nothing += play(problem, ["$0.00"]).verdict.correct
    assert everything <= 10 and nothing <= 10, (everything, nothing)


def test_the_right_amount_with_a_forbidden_refund_is_wrong() -> None:
    """The records are judged too: a refund the policy forbids fails even with the right total stated."""
    for seed in range(60):
        problem = RETURNS.sample(1, seed)
        data = problem.data
        refused = [(o, i) for o, i in data["requested"] if not rr._allowed(data["records"], o, i, False)
                   and not rr._item(data["records"], o, i)["returned"]]
        if refused:
            break
    order_id, item_id = refused[0]
    replies = [*RETURNS.plan(problem)[:-1], call("return_items", order_id=order_id, item_ids=[item_id]),
               problem.answer]
    outcome = play(problem, replies)
    assert not outcome.verdict.correct and "records" in outcome.verdict.feedback


def test_functions_do_what_they_are_asked_and_refuse_the_impossible() -> None:
    problem = RETURNS.sample(2, 1)
    order_id = next(iter(problem.data["records"]["orders"]))
    item_id = problem.data["records"]["orders"][order_id]["items"][0]["id"]
    outcome = play(problem, [call("return_items", order_id=order_id, item_ids=[item_id, "nope"])])
    assert "error: not items of order" in outcome.observation
    outcome = play(problem, [call("get_order", order_id="W0")])
    assert "error: no order" in outcome.observation
    outcome = play(problem, [call("find_customer", mail="x")])
    assert "error" in outcome.observation and "email" in outcome.observation


def test_amounts_are_read_in_the_spellings_a_customer_would_understand() -> None:
    problem = RETURNS.sample(2, 4)
    for spelled in RETURNS.spellings(problem):
        assert RETURNS.judge(problem, spelled).correct, spelled
    assert not RETURNS.judge(problem, f"{problem.answer} or $0.00").correct
