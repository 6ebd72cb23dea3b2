"""The play checks are only a gate if they fail broken games: each toy game here must fail its check."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from palaestra import kit
from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, registry, regret_reward


@dataclass(frozen=True)
class Cfg:
    top: int


class Guess(MultiTurnTask):
    """Guess a secret from 1 to ``top``; each wrong guess is answered higher or lower. Honest: bisection."""

    id = "kitplay/guess"
    family = "kitplay"
    description = "Guess a number with higher/lower hints."
    Config = Cfg
    hidden_information = True
    public_keys = ("top",)

    def config(self, level: int) -> Cfg:
        return Cfg(16 * (level + 1))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        top = config.top
        return Problem(prompt=f"Guess my number from 1 to {top}.", answer=None,
                       data={"top": top, "secret": rng.randint(1, top)})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["top"].bit_length() + 1

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        if not move.strip().isdigit():
            return Outcome(state, Verdict.unparsed("a number"), "Invalid move.")
        guess, secret = int(move), problem.data["secret"]
        if guess == secret:
            return Outcome(state, Verdict.right(), "Right!", True)
        return Outcome(state, Verdict.wrong("no"), f"{guess} is too {'low' if guess < secret else 'high'}.")

    def oracle(self, problem: Problem, state: Any) -> str:
        return str(problem.data["secret"])

    def honest_move(self, view: View) -> str:
        low, high = 1, view.public["top"]
        for observation in view.observations:
            match = re.match(r"(\d+) is too (low|high)", observation)
            if match:
                guess = int(match.group(1))
                low, high = (max(low, guess + 1), high) if match.group(2) == "low" else (low, min(high, guess - 1))
        return str((low + high) // 2)


class GuessTightBudget(Guess):
    id = "kitplay/guess_tight_budget"

    def max_turns(self, problem: Problem) -> int:
        return 2  # bisection needs log2(top) + 1 guesses: an honest player cannot win in time


class GuessHonestPeeks(GuessTightBudget):
    """With the budget too small, an 'honest' player that reads the secret would hide it: the view has no secret."""

    id = "kitplay/guess_honest_peeks"
    public_keys = ("top", "secret")  # declared public, so the kit can only trust the declaration

    def honest_move(self, view: View) -> str:
        return str(view.public.get("secret", 1))


class Steps(MultiTurnTask):
    """Walk ``top`` steps, one ``step`` per turn (a game that claims one move per turn)."""

    id = "kitplay/steps"
    family = "kitplay"
    description = "Step forward one step at a time."
    Config = Cfg
    one_move_per_turn = True

    def config(self, level: int) -> Cfg:
        return Cfg(3 + level)

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        return Problem(prompt=f"Take {config.top} steps, one per turn.", answer=None, data={"top": config.top})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["top"] + 2

    def initial_state(self, problem: Problem) -> Any:
        return {"at": 0}

    def _count(self, move: str) -> int | None:
        return 1 if move.strip() == "step" else None

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        count = self._count(move)
        if count is None:
            return Outcome(state, Verdict.unparsed("one step"), "Invalid move: write step.")
        at = state["at"] + count
        done = at >= problem.data["top"]
        return Outcome({"at": at}, Verdict.right() if done else Verdict.wrong("walking"), f"At {at}.", done)

    def oracle(self, problem: Problem, state: Any) -> str:
        return "step"


class StepsAcceptsPlans(Steps):
    id = "kitplay/steps_accepts_plans"

    def _count(self, move: str) -> int | None:
        words = re.split(r"[\s,;]+|then", move.strip())
        words = [w for w in words if w]
        return len(words) if words and all(w == "step" for w in words) else None


class Dial(MultiTurnTask):
    """Set a dial from 0 to 9 each turn; the score is the expected payout, normalised to regret."""

    id = "kitplay/dial"
    family = "kitplay"
    description = "Pick a number each turn."
    Config = Cfg
    score_based = True

    def config(self, level: int) -> Cfg:
        return Cfg(8 + 4 * level)

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        return Problem(prompt=f"Set the dial {config.top} times.", answer=None,
                       data={"turns": config.top, "best": rng.randrange(10)})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def initial_state(self, problem: Problem) -> Any:
        return {"turn": 0, "sum": 0.0}

    def _payout(self, problem: Problem, dial: int) -> float:
        return 9.0 - abs(dial - problem.data["best"])

    def _reward(self, problem: Problem, total: float) -> float:
        payouts = [self._payout(problem, d) for d in range(10)]
        turns = problem.data["turns"]
        return regret_reward(total, turns * sum(payouts) / 10, turns * max(payouts))

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        if move.strip() not in list("0123456789"):
            return Outcome(state, Verdict.unparsed("a digit"), "Invalid move.")
        turn, total = state["turn"] + 1, state["sum"] + self._payout(problem, int(move))
        done = turn >= problem.data["turns"]
        reward = self._reward(problem, total) if done else 0.0
        return Outcome({"turn": turn, "sum": total}, Verdict(reward, reward >= 1.0, True, "set"), "Set.", done)

    def oracle(self, problem: Problem, state: Any) -> str:
        return str(problem.data["best"])

    def legal_moves(self, problem: Problem, state: Any) -> list[str]:
        return list("0123456789")

    def heuristics(self) -> dict[str, Policy]:
        return {"always 0": lambda problem, state, history, rng: "0"}


class DialNotNormalised(Dial):
    id = "kitplay/dial_not_normalised"

    def _reward(self, problem: Problem, total: float) -> float:
        return total / (9.0 * problem.data["turns"])  # random play earns about two thirds of this


class DialRuleWins(Dial):
    id = "kitplay/dial_rule_wins"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        problem = super().generate(rng, config)
        return Problem(prompt=problem.prompt, answer=None, data={**problem.data, "best": 0})  # the rule is optimal


class DialMostlySeven(Dial):
    """The best dial is 7 in most games: the oracle opens with 7, and 7 sent every turn scores about 0.85."""

    id = "kitplay/dial_mostly_seven"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        problem = super().generate(rng, config)
        best = 7 if rng.random() < 0.85 else problem.data["best"]
        return Problem(prompt=problem.prompt, answer=None, data={**problem.data, "best": best})


class StepsListsMoves(Steps):
    """A win/loss game that lists its legal moves: nine of ten lose a turn, so random play rarely arrives, and the
    right one is listed neither first nor last."""

    id = "kitplay/steps_lists_moves"

    def legal_moves(self, problem: Problem, state: Any) -> list[str]:
        return [f"jump {k}" for k in range(1, 5)] + ["step"] + [f"jump {k}" for k in range(5, 10)]


class StepsFirstListedWins(Steps):
    """The right move is always listed first: "always the first legal move" wins every game (random play does not)."""

    id = "kitplay/steps_first_listed_wins"

    def legal_moves(self, problem: Problem, state: Any) -> list[str]:
        return ["step"] + [f"jump {k}" for k in range(1, 10)]


class StepsRandomWins(Steps):
    """A win/loss game whose only legal move is the winning one: random legal play always wins."""

    id = "kitplay/steps_random_wins"

    def legal_moves(self, problem: Problem, state: Any) -> list[str]:
        return ["step"]


GOOD = [Guess, Steps, Dial, StepsListsMoves]
BROKEN = [(GuessTightBudget, "honest_player"), (StepsAcceptsPlans, "protocol"),
          (DialNotNormalised, "heuristic_baselines_multi"), (DialRuleWins, "heuristic_baselines_multi"),
          (StepsRandomWins, "heuristic_baselines_multi"), (StepsFirstListedWins, "heuristic_baselines_multi"),
          (DialMostlySeven, "repeated_replies"),
          (DialRuleWins, "repeated_replies")]
CHECKS = ["honest_player", "protocol", "heuristic_baselines_multi", "reference_accepted"]


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    classes = GOOD + [cls for cls, _ in BROKEN] + [GuessHonestPeeks]
    for cls in classes:
        register(cls)
    yield
    for cls in classes:
        registry.remove(cls.id)


@pytest.mark.parametrize("cls", GOOD, ids=lambda cls: cls.id)
def test_a_correct_game_passes_the_play_checks(cls: type[MultiTurnTask]) -> None:
    results = kit.run_checks(cls.id, kit.Settings.ci(), checks=CHECKS)
    assert all(r.ok for r in results), [r for r in results if not r.ok]


@pytest.mark.parametrize("cls", [Guess, Dial], ids=lambda cls: cls.id)
def test_a_game_whose_moves_must_change_passes_repeated_replies(cls: type[MultiTurnTask]) -> None:
    """Steps is the kit's toy for the protocol check: sending ``step`` every turn is its whole game, which is
    exactly what ``repeated_replies`` fails."""
    result = kit.run_check(cls.id, "repeated_replies", kit.Settings.ci())
    assert result.ok, result
    assert not kit.run_check(Steps.id, "repeated_replies", kit.Settings.ci()).ok


@pytest.mark.parametrize("cls, check", BROKEN, ids=lambda x: getattr(x, "id", x))
def test_a_broken_game_fails_its_check(cls: type[MultiTurnTask], check: str) -> None:
    result = kit.run_check(cls.id, check, kit.Settings.ci())
    assert not result.ok, result


def test_the_honest_view_holds_only_public_keys() -> None:
    """The view the kit hands an honest player has the prompt and the declared public keys, not the rest."""
    source = Guess()
    problem = source.sample(0, 0)
    view = source.view(problem)
    assert view.public == {"top": problem.data["top"]} and "secret" not in view.public
    # A game whose declaration leaks the secret passes the honest check however tight the budget: the
    # declaration is the contract, which is why public_keys must name only what the prompt states.
    assert kit.run_check(GuessHonestPeeks.id, "honest_player", kit.Settings.ci()).ok
