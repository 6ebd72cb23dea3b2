"""Multi-turn coding: submit a function, see which tests fail, try again (up to N attempts).

The task is a generated list or string pipeline (as in ``code/array_pipeline`` and
``code/string_pipeline``) with a few *visible* tests shown in the prompt; the other tests are
*hidden*. Each turn the model submits a complete function; it runs on every test in the
sandbox. If all pass the episode ends with reward 1; otherwise the observation reports up to
``shown`` failing visible tests (input, expected value, what the function returned or raised)
and, for the hidden tests, only how many passed: a hidden test's input or expected value is
never shown, so a function that returns the values the feedback echoed cannot pass them.
After ``attempts`` failed submissions the episode is truncated with reward 0. With
``partial_credit=True`` a submission that passes a larger fraction of the *hidden* tests than every
earlier one earns the improvement, so an episode's rewards add up to the best fraction reached
(1 once every test passes; version 4: the visible tests, which a function can return by rote, counted too). An infrastructure failure of the sandbox ends the episode with
``info["error"]`` (not judged), never as a failed test. Levels lengthen the pipelines (every step
changes some result) and reduce the attempts and the failing tests shown.

Generation speed: about 270 problems/s at level 4 on this 2-core machine: each draw runs the random
pipeline in-process on all test inputs, then proves the tests pin it down: leaving out any one step, or
moving any constant by one, must change some test's result, and about 7 draws in 8 are redrawn because a
step or constant is not pinned or the results are too uniform. The proof is what makes the hidden tests
reject off-by-one solutions, so it stays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code import _pipelines as pl
from palaestra.envs.code.common import (
    CodeTask,
    examples_text,
    function_footer,
    int_list_inputs,
    pick_examples,
    varied,
)
from palaestra.verifiers import code as code_verifier


@register
class TestFeedback(CodeTask, MultiTurnTask):
    id = "code/test_feedback"
    description = "Write a function against hidden tests, seeing the failing tests after each submission."
    tags = ("code", "programming", "multi-turn")
    version = 4  # v4: partial credit counts the hidden tests only

    @dataclass(frozen=True)
    class Config:
        steps: int
        reduce_chance: float
        max_len: int
        attempts: int
        shown: int  # failing visible tests shown in detail after a failed submission
        tests: int
        visible: int = 3  # tests shown in the prompt (the rest are hidden)

    presets = (
        Config(steps=2, reduce_chance=0.4, max_len=8, attempts=5, shown=3, tests=10),
        Config(steps=3, reduce_chance=0.5, max_len=10, attempts=4, shown=3, tests=12),
        Config(steps=4, reduce_chance=0.5, max_len=14, attempts=4, shown=2, tests=12),
        Config(steps=5, reduce_chance=0.6, max_len=20, attempts=3, shown=2, tests=14, visible=2),
        Config(steps=6, reduce_chance=0.7, max_len=24, attempts=3, shown=1, tests=16, visible=2),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"steps": 12, "max_len": 48, "tests": 28})

    def format_instruction(self) -> str:
        if self.answer_format == "tag":
            return "Put each submission (the complete function) inside <answer></answer> tags."
        return super().format_instruction()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        groups = ("filter", "map", "order", "window")

        def draw() -> tuple[pl.Kind, list[pl.Step], list[dict[str, Any]]] | None:
            def useful(tests: list[dict[str, Any]]) -> bool:
                return varied(tests, at_least=4)

            if rng.random() < 0.5:
                drawn = pl.pinned_pipeline(rng, pl.ARRAYS, config.steps, groups, config.reduce_chance,
                                           lambda: int_list_inputs(rng, config.tests, config.max_len, -20, 20), useful)
                return (pl.ARRAYS, *drawn) if drawn else None
            drawn = pl.pinned_pipeline(rng, pl.STRINGS, config.steps, ("filter", "map", "order", "words"),
                                       config.reduce_chance,
                                       lambda: pl.string_inputs(rng, config.tests, config.max_len, words=True), useful)
            return (pl.STRINGS, *drawn) if drawn else None

        pipeline_kind, pipeline, tests = retry(draw, what="a pipeline pinned down by its tests, with varied outputs")
        var = pipeline_kind.var
        kind = "a list of integers `xs`" if var == "xs" else "a string `s` of lowercase words separated by single spaces"
        steps = pl.describe_pipeline(pipeline, pipeline_kind)
        chosen = pick_examples(tests, config.visible)
        tests = [tests[i] for i in chosen] + [t for i, t in enumerate(tests) if i not in chosen]  # visible first
        visible = len(chosen)
        prompt = (
            f"Write a Python function `solve({var})` that takes {kind} and applies these steps in order:\n"
            f"{steps}\n\nVisible tests:\n{examples_text('solve', tests[:visible], visible)}\n\n"
            f"{function_footer('solve', var)}\n\n"
            f"You have {config.attempts} attempts. Your function also runs on {len(tests) - visible} hidden tests. "
            f"After each submission that fails a test you will see up to {config.shown} failing visible "
            f"test{'s' if config.shown != 1 else ''} and how many hidden tests passed (never their inputs or "
            "expected values)."
        )
        source = pl.render_pipeline(pipeline, pipeline_kind)
        data = {
            "kind": "function", "function": "solve", "params": var, "tests": tests, "test_seconds": 1.0,
            "attempts": config.attempts, "shown": config.shown, "visible": visible, "spec": pipeline,
        }
        return Problem(prompt=prompt, answer=source, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["attempts"]

    def difficulty(self, problem: Problem) -> float:
        """Pipeline steps (each doing real work) per attempt allowed: longer programs with fewer tries are harder."""
        return len(problem.data["spec"]) / problem.data["attempts"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"submitted": 0, "best": 0.0}  # best: the largest fraction of tests passed so far

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        report = code_verifier.report_for_answer(move, problem.data)
        if report.error is not None:
            return Outcome(state, Verdict.failed(report.error),
                           f"The submission could not be run (infrastructure error: {report.error}).", True)
        submitted = state["submitted"] + 1
        if report.all_passed:
            # the rest of the episode's reward: 1 in all, whatever partial credit came before
            verdict = Verdict(1.0 - state["best"], True, True, f"all {report.total} tests passed")
            return Outcome({"submitted": submitted, "best": 1.0}, verdict,
                           f"All {report.total} tests passed. Solved!", True)
        best = max(state["best"], _hidden_fraction(report, problem.data)) if self.partial_credit else 0.0
        return Outcome({"submitted": submitted, "best": best}, Verdict.wrong(reward=best - state["best"]),
                       f"Attempt {submitted} failed: {_feedback(report, problem.data)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""


def _hidden_fraction(report: code_verifier.CodeReport, data: dict[str, Any]) -> float:
    """The share of the hidden tests passed: the visible ones count for nothing, as a function that returns their
    printed values (and the commonest of them otherwise) passes them without solving (0.15-0.31 of the partial
    credit at levels 0-4 when every test counted, version 3)."""
    if report.error is not None or report.failure is not None:
        return 0.0
    hidden = len(data["tests"]) - data["visible"]
    return sum(r.passed for r in report.results if r.index >= data["visible"]) / hidden


def _feedback(report: code_verifier.CodeReport, data: dict[str, Any]) -> str:
    """Failing visible tests in detail (at most ``shown``), hidden tests as a count only."""
    if report.failure is not None:  # the submission did not load (a syntax error, no `solve`): no test ran
        return report.failure
    visible, total = data["visible"], len(data["tests"])
    failing = report.failing()
    wrong_visible = [r for r in failing if r.index < visible]
    wrong_hidden = sum(r.index >= visible for r in failing)
    lines = [f"visible tests: {visible - len(wrong_visible)}/{visible} passed"]
    lines += [report.describe(r) for r in wrong_visible[: data["shown"]]]
    lines.append(f"hidden tests: {total - visible - wrong_hidden}/{total - visible} passed")
    return "\n".join(lines)
