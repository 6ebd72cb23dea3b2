"""Mastermind: crack a hidden code of coloured pegs from black/white peg counts.

The code has ``length`` pegs, each one of the first ``colours`` letters of the
alphabet (colours may repeat). A random opening guess is played for the model
and shown in the prompt with its feedback, then each turn the model writes one
guess as the code's letters (case, spaces, commas, dashes and brackets are ignored,
and so is a short trailing remark; ``ABCD or ABCE`` is unreadable). The reply is
the number of black pegs (right colour, right position) and white pegs (right
colour, wrong position). A missing or illegal guess costs a turn. Reward 1 on
the turn the code is found, 0 otherwise; the episode is truncated after
``turns`` guesses.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, derive_seed, register, retry
from palaestra.core.task import Growth
from palaestra.generators.mastermind import score
from palaestra.verifiers.moves import read_move_answer, read_tokens


@register
class Mastermind(MultiTurnTask):
    id = "games/mastermind"
    family = "games"
    description = "Crack a hidden Mastermind code from black and white peg counts."
    tags = ("games", "multi-turn", "deduction")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    public_keys = ("alphabet", "opening")  # both stated in the prompt

    @dataclass(frozen=True)
    class Config:
        length: int  # pegs in the code
        colours: int  # letters A.. usable in the code
        turns: int  # guesses allowed after the opening

    presets = (
        Config(length=4, colours=6, turns=10),
        Config(length=4, colours=7, turns=10),
        Config(length=5, colours=7, turns=11),
        Config(length=5, colours=8, turns=12),
        Config(length=6, colours=8, turns=12),
    )
    growth = Growth(steps={"colours": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        alphabet = string.ascii_uppercase[: config.colours]
        secret = _random_code(rng, alphabet, config.length)
        # The free opening must not win the game.
        opening = retry(lambda: _random_code(rng, alphabet, config.length), lambda code: code != secret,
                        what="an opening guess other than the secret")
        black, white = score(opening, secret)
        prompt = (
            f"Let's play Mastermind. I have chosen a secret code of {config.length} pegs; each peg is one of the "
            f"{config.colours} colours {', '.join(alphabet)}, and colours may repeat.\n"
            "After each guess I reply with the number of black pegs (right colour in the right position) and "
            "white pegs (right colour in the wrong position; each peg of the code and of the guess counts at most "
            "once).\n\n"
            f"The first guess has been played for you:\n{opening}: {black} black, {white} white\n\n"
            f"You have {config.turns} more guesses to find the code. Make one guess per turn, written as "
            f"{config.length} letters like the first guess above."
        )
        return Problem(
            prompt=prompt,
            answer=secret,
            data={"secret": secret, "alphabet": alphabet, "opening": opening, "turns": config.turns},
        )

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The number of possible codes (what the deduction has to narrow down), plus the secret's distinct
        letters."""
        secret = problem.data["secret"]
        return float(len(problem.data["alphabet"]) ** len(secret) + len(set(secret)))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        opening = problem.data["opening"]
        return {"history": [[opening, *score(opening, problem.data["secret"])]]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        secret, alphabet = problem.data["secret"], problem.data["alphabet"]
        guess = _read_code(move, alphabet, len(secret))
        if guess is None:
            rule = f"write exactly {len(secret)} letters from {alphabet[0]} to {alphabet[-1]}"
            return Outcome(state, Verdict.unparsed(f"invalid guess: {rule}"), f"Invalid guess: {rule}.")
        black, white = score(guess, secret)
        state = {"history": [*state["history"], [guess, black, white]]}
        if black == len(secret):
            return Outcome(state, Verdict.right(), f"{guess}: {black} black, 0 white. You cracked the code!", True)
        return Outcome(state, Verdict.wrong(), f"{guess}: {black} black, {white} white.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        # A random code consistent with every answer so far (a different draw each turn),
        # which solves the game in far fewer guesses than the turn limit.
        history = state["history"]
        rng = random.Random(derive_seed(self.id, problem.level, problem.seed, *(g for g, _, _ in history)))
        code = consistent_code(history, problem.data["alphabet"], len(problem.data["secret"]), rng)
        return code or problem.data["opening"]  # unreachable: the secret is always consistent


    def honest_move(self, view: View) -> str:
        """A random code consistent with the answers read from the prompt and the observations."""
        history = [[g, int(b), int(w)] for g, b, w in _ANSWER.findall("\n".join([view.prompt, *view.observations]))]
        rng = random.Random(derive_seed(self.id, "honest", *(g for g, _, _ in history)))
        alphabet, length = view.public["alphabet"], len(view.public["opening"])
        return consistent_code(history, alphabet, length, rng) or view.public["opening"]


_ANSWER = re.compile(r"^([A-Z]+): (\d+) black, (\d+) white", re.MULTILINE)


def consistent_code(history: list[list[Any]], alphabet: str, length: int, rng: random.Random) -> str | None:
    """A code giving the recorded pegs for every ``[guess, black, white]`` in ``history``, or None.

    Depth-first search over positions with colours in a random order per position,
    pruning a prefix as soon as some guess's black or total count can no longer be met.
    """
    guesses = [g for g, _, _ in history]
    blacks = [b for _, b, _ in history]
    totals = [b + w for _, b, w in history]
    guess_counts = [Counter(g) for g in guesses]
    orders = [rng.sample(alphabet, len(alphabet)) for _ in range(length)]
    code: list[str] = []
    used: Counter[str] = Counter()
    matches = [0] * len(guesses)
    common = [0] * len(guesses)

    def extend(pos: int) -> bool:
        if pos == length:
            return True
        remaining = length - pos - 1
        for colour in orders[pos]:
            hits = [g[pos] == colour for g in guesses]
            gains = [used[colour] < gc[colour] for gc in guess_counts]
            ok = True
            for k in range(len(guesses)):
                m, c = matches[k] + hits[k], common[k] + gains[k]
                if not (m <= blacks[k] <= m + remaining and c <= totals[k] <= c + remaining):
                    ok = False
                    break
            if not ok:
                continue
            for k in range(len(guesses)):
                matches[k] += hits[k]
                common[k] += gains[k]
            used[colour] += 1
            code.append(colour)
            if extend(pos + 1):
                return True
            code.pop()
            used[colour] -= 1
            for k in range(len(guesses)):
                matches[k] -= hits[k]
                common[k] -= gains[k]
        return False

    return "".join(code) if extend(0) else None


def _random_code(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def _read_code(move: str, alphabet: str, length: int) -> str | None:
    letters: list[str] | None = read_move_answer(move, lambda text: read_tokens(text, alphabet, max_count=length))
    return "".join(letters) if letters is not None and len(letters) == length else None

