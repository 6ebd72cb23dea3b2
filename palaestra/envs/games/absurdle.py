"""Absurdle: adversarial Wordle, where the host picks no word and answers each guess as unhelpfully as it can.

The host keeps the set of words from the shipped list (``words.txt``) that fit every answer so
far. For each guess it sorts them by the G/Y/X marks they would give (G right letter and place,
Y in the word elsewhere, X not in it or no more copies; the Wordle rules) and answers with the
marks shared by the most words, keeping those (ties go to the answer with the fewest greens and
yellows by a fixed order). The model wins when it guesses the last word left (GGGGG). Two random
opening guesses are played for the model and shown with their answers. Each turn the model
writes one word from the list (case, quotes and a short remark ignored); an unknown or malformed
word costs a turn, and so does, in hard mode, a guess that ignores a revealed hint (a G letter
must stay in place, every letter marked G or Y must appear). Reward 1 for the win.

The generator keeps openings after which a greedy player (each guess the one whose worst answer
leaves the fewest words, among the allowed guesses) wins within the budget; the oracle is that
player. The difficulty measure is the share of the budget the greedy player needs, plus one in
hard mode.

Generation speed: about 210 to 270 problems/s at level 4 on this 2-core machine (it varies with the seeds). The
greedy player's whole game is played after the two drawn openings, each guess scored against every word still
possible (the word-list's mark table), to check it wins within the turn budget; a few openings are redrawn. The game
is kept because the budget must be one that is known to be reachable.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.envs.games._words import (
    ALL_GREEN,
    GREEN,
    LENGTH,
    code,
    hard_mode_allowed,
    hard_mode_violation,
    mark_block,
    marks_from_code,
    public_list,
    read_word,
    word_index,
)
from palaestra.envs.games._words import words as word_list


@register
class Absurdle(MultiTurnTask):
    id = "games/absurdle"
    family = "games"
    description = "Adversarial Wordle: the host keeps the largest set of words consistent with its answers."
    tags = ("games", "multi-turn", "words", "adversarial", "deduction")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 2
    hidden_information = True  # no secret at all: the host's answers follow from the guesses alone
    public_keys = ("openings", "hard")  # both stated in the prompt

    @dataclass(frozen=True)
    class Config:
        turns: int
        hard: bool

    presets = (Config(7, False), Config(5, False), Config(4, False), Config(5, True), Config(4, True))
    bounded = "its levels are kinds of problem (the `hard` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        openers = _openers()

        def draw() -> tuple[list[str], int] | None:
            openings = rng.sample(openers, 2)
            guesses = _greedy_game(tuple(openings), config.hard, config.turns)
            return None if guesses is None else (openings, guesses)

        openings, needed = retry(draw, attempts=200, what="openings the greedy player solves within the budget")
        history = _history(tuple(openings))
        shown = "\n".join(f"{guess} -> {answer}" for guess, answer in history)
        hard = (" Hard mode: every guess must use the hints so far (a letter marked G stays in its place, and every "
                "letter marked G or Y appears in the guess, as many times as it was so marked in one guess); a guess "
                "that breaks this costs a turn.") if config.hard else ""
        prompt = (
            "Let's play Absurdle, an adversarial Wordle. I have not chosen a word: I keep every word of "
            f"{public_list()} that fits all my answers so far, and I answer each guess so that as many words "
            "as possible stay in play. The marks are Wordle's: G = right letter in the right place, Y = in the word "
            "but elsewhere, X = not in the word (or no more copies of it). You win when you guess the only word "
            f"left.{hard}\n\nTwo guesses have been played for you:\n{shown}\n\n"
            f"You have {config.turns} more guesses. Each turn, write one word from that list (another word costs a "
            f"turn), for example: {openings[0]}"
        )
        data = {"openings": openings, "turns": config.turns, "hard": config.hard, "greedy": needed}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["greedy"] / data["turns"] + (1.0 if data["hard"] else 0.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"guesses": list(problem.data["openings"])}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        guess = read_word(move)
        if guess is None:
            return Outcome(state, Verdict.unparsed("not a five-letter word"), "Invalid guess: write one five-letter word.")
        if guess not in word_index():
            return Outcome(state, Verdict.wrong("unknown word"), f"{guess} is not in the word list.")
        history = _history(tuple(state["guesses"]))
        if problem.data["hard"]:
            broken = hard_mode_violation(guess, history)
            if broken:
                return Outcome(state, Verdict.wrong("hard mode"), f"{guess} breaks hard mode: {broken}.")
        guesses = [*state["guesses"], guess]
        answer = _history(tuple(guesses))[-1][1]
        if answer == GREEN * LENGTH:
            return Outcome({"guesses": guesses}, Verdict.right(), f"{guess} -> {answer}. You cornered me: you win!", True)
        left = len(_candidates(tuple(guesses)))
        fit = "1 word still fits" if left == 1 else f"{left} words still fit"
        return Outcome({"guesses": guesses}, Verdict.wrong("not yet"), f"{guess} -> {answer} ({fit})")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _greedy_guess(tuple(state["guesses"]), problem.data["hard"])

    def honest_move(self, view: View) -> str:
        """The greedy guess after the openings and the guesses the observations answered."""
        answered = [m.group(1) for m in (_ANSWERED.match(o) for o in view.observations) if m]
        return _greedy_guess((*view.public["openings"], *answered), view.public["hard"])


_ANSWERED = re.compile(r"([a-z]{5}) -> [GYX]{5}")


@functools.cache
def _openers() -> list[str]:
    """The listed words with five different letters: the random openings are drawn from them."""
    return [w for w in word_list() if len(set(w)) == LENGTH]


@functools.lru_cache(maxsize=50_000)
def _candidates(guesses: tuple[str, ...]) -> np.ndarray:
    """The words still in play after ``guesses`` (indices into the list), the host answering each adversarially."""
    if not guesses:
        return np.arange(len(word_list()))
    before = _candidates(guesses[:-1])
    answers = mark_block(np.array([word_index()[guesses[-1]]]), before)[0]
    return before[answers == _host_answer(answers)]


def _host_answer(answers: np.ndarray) -> int:
    """The answer code shared by the most words still in play; ties to the smallest code (fewest G and Y)."""
    counts = np.bincount(answers, minlength=3**LENGTH)
    return int(np.flatnonzero(counts == counts.max())[0])


@functools.lru_cache(maxsize=50_000)
def _history(guesses: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    out = []
    for k, guess in enumerate(guesses):
        answers = mark_block(np.array([word_index()[guess]]), _candidates(guesses[:k]))[0]
        out.append((guess, marks_from_code(_host_answer(answers))))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)
def _greedy_guess(guesses: tuple[str, ...], hard: bool) -> str:
    """The allowed guess whose host answer leaves the fewest words (a word still in play on a tie)."""
    vocabulary = word_list()
    left = _candidates(guesses)
    if len(left) == 1:
        return vocabulary[int(left[0])]
    pool = np.flatnonzero(hard_mode_allowed(_history(guesses))) if hard else np.arange(len(vocabulary))
    answers = mark_block(pool, left).astype(np.int64)
    keys = answers + 3**LENGTH * np.arange(len(pool))[:, None]
    worst = np.bincount(keys.ravel(), minlength=3**LENGTH * len(pool)).reshape(len(pool), -1).max(axis=1)
    in_play = np.isin(pool, left)
    best = np.lexsort((~in_play, worst))[0]  # fewest left, then a word in play
    return vocabulary[int(pool[best])]


def _greedy_game(openings: tuple[str, ...], hard: bool, turns: int) -> int | None:
    """How many guesses the greedy player needs after the openings, or None if more than ``turns``."""
    guesses = openings
    for used in range(1, turns + 1):
        guesses = (*guesses, _greedy_guess(guesses, hard))
        if code(_history(guesses)[-1][1]) == ALL_GREEN:
            return used
    return None
