"""A Codenames-style clue game: give one-word attribute clues to a scripted guesser before the other team finishes.

The board is a numbered list of words from a shipped vocabulary (``codenames_words.txt``, written
for this env), each listed with its attributes; every word is the model's, the other team's, neutral
or the assassin, and the model sees which. Each turn the model gives a clue: one attribute word and a
count. The scripted guesser, stated in the prompt, goes through the unrevealed words having that
attribute in board order and reveals them one by one, stopping after ``count`` words or at the first
word that is not the model's; the assassin loses the game at once. Then, unless the model's words
are all revealed (a win), the other team reveals its own first unrevealed word in board order; when
the other team's words are all revealed the model loses. So the other team's word count is the clock.

The score is by turns: a win after ``t`` clues scores ``clock + 1 - t`` (``clock``: the other team's
word count), a loss 0, normalised to regret (:func:`palaestra.core.multiturn.regret_reward`): ``best``
is the fewest clues found by a breadth-first search over clues that each reveal the longest run of
the model's words the attribute gives (a clue that also reveals a neutral or the other team's word
is not searched, so the model may beat ``best``, which scores 1 like matching it). The zero (since version 2) is the
higher of two: the score the best of the simple clue rules of :data:`RULES` reaches on this board (each played out
exactly at generation: the greedy clue, the longest run now; the attribute most of the model's unrevealed words share,
with that count; the greedy clue with the count 1; the longest run starting at the model's first unrevealed word),
and the zero set from 16 seeded games of uniformly random legal clues (an attribute of some unrevealed word, a count
up to its number of such words; :func:`palaestra.envs.games._social.random_zero`). So every simple rule scores 0 on
every board. The generator draws the board, finds the fewest clues with the other team's words as fixed blockers,
then gives the other team that many words plus the level's slack (one at levels 0 and 1, none from level 2, where
only the fewest clues win), keeps boards where ``best`` beats the zero (so no simple rule matches the search) and,
from level 2, where the greedy clue does not win or, with the level's chance, does. Before version 2 the zero was
random play's only: the greedy clue scored 1.00, 0.68, 0.21 at levels 0, 2, 4 and the most-shared attribute 0.64,
0.23, 0.14 (40 boards a level).

Nothing is hidden (the model is the spymaster). An unreadable clue, an attribute not in the list or
a count outside 1-9 is refused and the turn is spent without the clock moving (the budget allows two
such slips). Levels grow the board and the model's words (bounded: the exact search grows
exponentially with the board). The difficulty measure is the model's words plus the fewest clues plus a quarter of the board, plus
one where the greedy clue loses.

Generation speed: about 30-45 ms of CPU a problem at levels 0 and 4 on this 2-core machine (version 1: 4 and 23 ms).
Each drawn board is solved twice by an exact search for the fewest clues that clear it (once to set the clock, once
with the opponent's words placed), the simple rules' games and 16 random games are played for the reward's zero, and
most boards are redrawn (too many clues needed, or a simple rule matches the search). The searches are kept because the oracle's clue count is the reward's top.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.envs.games._social import random_zero, read_command

ROLES = ("yours", "theirs", "neutral", "assassin")
YOURS, THEIRS, NEUTRAL, ASSASSIN = range(4)
RANDOM_GAMES = 16
SLIPS = 2
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_CLUE = re.compile(r"^(?:(?:my |the )?clue(?: is)?:? )?\"?([a-z]+)\"?,? (?:for )?(\d|"
                   + "|".join(NUMBER_WORDS) + r")(?: words?)?$")

# roles; per attribute, the board words having it; the mask of the model's words; the other team's words in order
Board = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, tuple[int, ...]]


@functools.lru_cache(maxsize=1)
def vocabulary() -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The attribute words (in the order the file's header lists them) and every word's attributes."""
    text = resources.files(__package__).joinpath("codenames_words.txt").read_text(encoding="ascii")
    words: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            word, listed = line.split(":")
            words[word.strip()] = tuple(listed.split())
    return tuple(sorted({a for values in words.values() for a in values})), words


@register
class Codenames(MultiTurnTask):
    id = "games/codenames"
    family = "games"
    description = "Codenames-style clues: attribute words for a scripted in-order guesser, against the other team's clock."
    tags = ("games", "multi-turn", "cooperative", "words", "planning")
    version = 2
    one_move_per_turn = True
    score_based = True

    @dataclass(frozen=True)
    class Config:
        yours: int
        others: int  # neutral and the other team's words together (besides the assassin)
        slack: int  # the other team's words beyond the fewest clues
        greedy_keep: float  # the chance a board the greedy clue wins is kept

    presets = (Config(3, 5, 1, 1.0), Config(4, 6, 1, 1.0), Config(5, 7, 0, 0.5), Config(6, 8, 0, 0.3),
               Config(7, 9, 0, 0.15))
    bounded = "the exact clue search grows exponentially with the board (a board of 22 words takes 0.1 s)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        attributes, vocab = vocabulary()
        names = sorted(vocab)

        def draw() -> dict[str, Any] | None:
            size = config.yours + config.others + 1
            words = rng.sample(names, min(size, len(names)))
            if len(words) < size:
                return None
            roles = [YOURS] * config.yours + [NEUTRAL] * config.others + [ASSASSIN]
            rng.shuffle(roles)
            # no clock yet: the other words all stay in the way; boards needing many clues are redrawn
            fewest = _fewest(_board(words, roles), 0, (config.yours + 1) // 2 + 1)
            if fewest is None or fewest + config.slack > config.others:
                return None
            others = [i for i, role in enumerate(roles) if role == NEUTRAL]
            for i in rng.sample(others, fewest + config.slack):
                roles[i] = THEIRS
            data: dict[str, Any] = {"words": words, "roles": roles}
            board = _board(words, roles)
            clock = fewest + config.slack
            greedy = _final_score(board, clock, lambda mask: _greedy(board, mask))
            if greedy > 0 and rng.random() >= config.greedy_keep:
                return None
            best_turns = _fewest(board, 0, clock)
            if best_turns is None:
                return None
            best = clock + 1 - best_turns
            rules = max([greedy] + [_final_score(board, clock, lambda mask, rule=rule: rule(board, mask))
                                    for name, rule in RULES.items() if name != GREEDY])
            if rules >= best:
                return None
            scores = [_final_score(board, clock, lambda mask, r=random.Random(rng.random()): r.choice(
                _legal(board, mask))) for _ in range(RANDOM_GAMES)]
            zero = max(random_zero(scores, best), rules)
            if zero >= best:
                return None
            return {**data, "clock": clock, "best": best, "best_turns": best_turns, "zero": zero,
                    "random": round(sum(scores) / len(scores), 4), "greedy": greedy, "rules": rules}

        data = retry(draw, what="a board where the clues need planning")
        prompt = (
            "Let's play a Codenames-style clue game. You are the spymaster; a scripted guesser plays with you. "
            "The board below lists each word with its attributes and whose it is: yours, theirs (the other "
            "team's), neutral, or the assassin. Each turn give one clue: an attribute word from the list and a "
            "count from 1 to 9. The guesser goes through the unrevealed words having that attribute in board "
            "order and reveals them one by one; it stops after revealing count words, or right after revealing a word that is "
            "not yours. Revealing the assassin loses the game at once. If all your words are revealed you win; "
            "otherwise the other team then reveals its own first unrevealed word in board order, and you lose "
            "when all of theirs are revealed. A win after t clues scores (their word count + 1 - t), a loss 0; "
            "your reward is 0 up to a zero, the higher of the best score of a few simple clue rules (such as the "
            "clue revealing the most of your words now) on this board and a score set so that uniformly random clues "
            "average at most 0.05, rising "
            "evenly to 1 at the fewest clues a search finds.\n\n"
            f"Attribute words: {', '.join(attributes)}\n\nBoard:\n{_board_text(data, 0)}\n\n"
            "Each turn write one clue as the attribute and the count, for example: wood 2"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["clock"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["roles"].count(YOURS) + data["best_turns"] + len(data["words"]) / 4 + (data["greedy"] == 0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"revealed": 0, "clues": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        clue = read_clue(move)
        if clue is None:
            return Outcome.invalid(state, "write one clue: an attribute word and a count, such as wood 2")
        attribute, count = clue
        attributes, _ = vocabulary()
        if attribute not in attributes:
            return Outcome.invalid(state, f"{attribute} is not one of the attribute words")
        data = problem.data
        board = _board(data["words"], data["roles"])
        mask, revealed, pick, end = _after(board, state["revealed"], attributes.index(attribute), count)
        clues = state["clues"] + 1
        words = data["words"]
        said = (f"Clue {attribute} {count}: the guesser reveals "
                + (", ".join(f"{words[i]} ({ROLES[data['roles'][i]]})" for i in revealed) if revealed else
                   "nothing (no unrevealed word has it)") + ".")
        if pick is not None:
            said += f" The other team reveals {words[pick]}."
        after = {"revealed": mask, "clues": clues}
        if end is None:
            return Outcome.goes_on(after, f"{said}\n{_board_text(data, mask)}")
        achieved = data["clock"] + 1 - clues if end == "won" else 0
        reward = regret_reward(achieved, data["zero"], data["best"])
        ending = {"won": f"All your words are revealed after {clues} clues: you win (the search's fewest is "
                         f"{data['best_turns']}).",
                  "assassin": "That is the assassin: you lose.",
                  "clock": "All the other team's words are revealed: you lose."}[end]
        return Outcome(after, Verdict(reward, achieved >= data["best"], True, ending), f"{said} {ending}", True)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        board = _board(data["words"], data["roles"])
        mask = state["revealed"]
        step = _first_step(board, mask, _clock(board, mask))
        attribute, count = step if step is not None else _greedy(board, mask)
        return f"{vocabulary()[0][attribute]} {count}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        data = problem.data
        attributes = vocabulary()[0]
        return [f"{attributes[a]} {count}" for a, count in _legal(_board(data["words"], data["roles"]),
                                                                  state["revealed"])]

    def heuristics(self) -> dict[str, Policy]:
        def policy(rule: Any) -> Policy:
            def choose(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                attribute, count = rule(_board(problem.data["words"], problem.data["roles"]), state["revealed"])
                return f"{vocabulary()[0][attribute]} {count}"
            return choose

        return {name: policy(rule) for name, rule in RULES.items()}


def read_clue(move: str) -> tuple[str, int] | None:
    """``(attribute, count)`` from ``wood 2``, ``Clue: wood, 2``, ``"wood" for two``, or None.

    >>> read_clue("Clue: metal, 3."), read_clue("\\\\boxed{sky two}"), read_clue("metal 3 then sky 2")
    (('metal', 3), ('sky', 2), None)
    """
    groups = read_command(move, _CLUE)
    if groups is None:
        return None
    word, number = groups
    count = int(number) if number.isdigit() else NUMBER_WORDS.index(number) + 1
    return (word, count) if 1 <= count <= 9 else None


def _board(words: list[str], roles: list[int]) -> Board:
    return _board_cached(tuple(words), tuple(roles))


@functools.lru_cache(maxsize=256)
def _board_cached(words: tuple[str, ...], roles: tuple[int, ...]) -> Board:
    attributes, vocab = vocabulary()
    having = tuple(tuple(i for i, word in enumerate(words) if attribute in vocab[word]) for attribute in attributes)
    yours = sum(1 << i for i, role in enumerate(roles) if role == YOURS)
    return roles, having, yours, tuple(i for i, role in enumerate(roles) if role == THEIRS)


def _clock(board: Board, mask: int) -> int:
    """The other team's unrevealed words: the most clues left before it finishes."""
    return sum(1 for i in board[3] if not mask >> i & 1)


def _resolve(board: Board, mask: int, attribute: int, count: int) -> tuple[int, list[int], str | None]:
    """The guesser's reveals for one clue: the new mask, the words revealed in order, and "won", "assassin" or None."""
    roles, having, yours, _ = board
    revealed: list[int] = []
    for i in having[attribute]:
        if mask >> i & 1:
            continue
        if len(revealed) == count:
            break
        mask |= 1 << i
        revealed.append(i)
        if roles[i] == ASSASSIN:
            return mask, revealed, "assassin"
        if roles[i] != YOURS:
            break
    if mask & yours == yours:
        return mask, revealed, "won"
    return mask, revealed, None


def _runs(board: Board, mask: int) -> dict[int, tuple[int, int]]:
    """The clues the search tries, by the words they reveal: per attribute, the longest run of your words it
    reveals before any other word, and that run plus the neutral word ending it (revealing a neutral clears it
    from later clues' way); of clues revealing the same words, the first attribute's."""
    return _runs_of(_clue_words(board), mask)


ClueWords = tuple[tuple[int, tuple[tuple[int, int], ...], dict[int, tuple[tuple[int, int], ...]]], ...]


@functools.lru_cache(maxsize=256)
def _clue_words(board: Board) -> ClueWords:
    """Per attribute, the bit mask of the board's words having it, those words in order as (bit, role), and a memo
    of the attribute's clues by which of its words are revealed: :func:`_runs` laid out once per board for the
    searches' inner loop (an attribute's clues depend only on its own words)."""
    roles, having, _, _ = board
    return tuple((sum(1 << i for i in words), tuple((1 << i, roles[i]) for i in words), {}) for words in having)


def _runs_of(clue_words: ClueWords, mask: int) -> dict[int, tuple[int, int]]:
    """:func:`_runs` on the board's :func:`_clue_words`."""
    runs: dict[int, tuple[int, int]] = {}
    for attribute, (having, words, memo) in enumerate(clue_words):
        revealed = mask & having
        if revealed == having:
            continue  # every word of the attribute is revealed: no clue
        clues = memo.get(revealed)
        if clues is None:
            clues = memo[revealed] = _attribute_clues(words, revealed)
        for reveal, count in clues:
            runs.setdefault(reveal, (attribute, count))
    return runs


def _attribute_clues(words: tuple[tuple[int, int], ...], mask: int) -> tuple[tuple[int, int], ...]:
    """One attribute's clues for :func:`_runs` as (words revealed, count), in the order it offers them."""
    clues = []
    run, reveal = 0, 0
    for bit, role in words:
        if mask & bit:
            continue
        if role == NEUTRAL:
            clues.append((reveal | bit, run + 1))
        if role != YOURS:
            break
        run, reveal = run + 1, reveal | bit
    if run:
        clues.append((reveal, run))
    return tuple(clues)


def _after(board: Board, mask: int, attribute: int, count: int) -> tuple[int, list[int], int | None, str | None]:
    """One whole turn: the mask after the clue and the other team's reveal, the guesser's reveals, the other
    team's pick (None when it did not move), and how the game ended ("won", "assassin", "clock") or None.

    A board without the other team's words (the generator's first, clock-free search) has no clock."""
    mask, revealed, end = _resolve(board, mask, attribute, count)
    if end is not None or not board[3]:
        return mask, revealed, None, end
    if _clock(board, mask) == 0:  # the guesser revealed their last word
        return mask, revealed, None, "clock"
    pick = next(i for i in board[3] if not mask >> i & 1)
    mask |= 1 << pick
    return mask, revealed, pick, "clock" if _clock(board, mask) == 0 else None


def _first_step(board: Board, mask: int, limit: int) -> tuple[int, int] | None:
    """The first clue of a fewest-clues win from ``mask`` within ``limit`` clues (longest-run clues only)."""
    return _search(board, mask, limit)[1]


def _fewest(board: Board, mask: int, limit: int) -> int | None:
    """The fewest longest-run clues that win from ``mask`` within ``limit`` clues, or None."""
    return _search(board, mask, limit)[0]


@functools.lru_cache(maxsize=4096)
def _search(board: Board, mask: int, limit: int) -> tuple[int | None, tuple[int, int] | None]:
    """Breadth-first search over the clues :func:`_runs` gives: (fewest clues to win, the first clue), or (None, None).

    Those clues reveal only your words and neutral ones, so a turn is the reveal, then the other team's pick."""
    yours, clue_words = board[2], _clue_words(board)
    theirs = sum(1 << i for i in board[3])
    frontier: dict[int, tuple[int, int]] = {mask: (-1, 0)}
    for depth in range(1, limit + 1):
        following: dict[int, tuple[int, int]] = {}
        for state, first in frontier.items():
            for reveal, clue in _runs_of(clue_words, state).items():
                after = state | reveal
                step = first if depth > 1 else clue
                if after & yours == yours:
                    return depth, step
                left = theirs & ~after
                if left:
                    after |= left & -left  # the other team picks its first unrevealed word
                    if not theirs & ~after:
                        continue  # the other team has finished
                following.setdefault(after, step)
        frontier = _undominated(following, yours)
        if not frontier:
            break
    return None, None


def _undominated(states: dict[int, tuple[int, int]], yours: int) -> dict[int, tuple[int, int]]:
    """``states`` without those another state dominates: the same other words revealed and a superset of yours
    (any clues from the smaller state, their counts lowered by the words already revealed, do as well from the
    larger one)."""
    groups: dict[int, list[int]] = {}
    for state in states:
        groups.setdefault(state & ~yours, []).append(state)
    kept = {}
    for members in groups.values():
        members.sort(key=lambda state: -state.bit_count())
        maximal: list[int] = []
        for state in members:
            if not any(state | bigger == bigger for bigger in maximal):
                maximal.append(state)
                kept[state] = states[state]
    return kept


def _legal(board: Board, mask: int) -> list[tuple[int, int]]:
    having = board[1]
    moves = []
    for attribute, words in enumerate(having):
        left = sum(1 for i in words if not mask >> i & 1)
        moves += [(attribute, count) for count in range(1, left + 1)]
    return moves


def _greedy(board: Board, mask: int) -> tuple[int, int]:
    """The clue with the longest run of your words now (the first attribute on a tie), else the first legal clue."""
    runs = [clue for reveal, clue in _runs(board, mask).items() if reveal & board[2] == reveal]
    if runs:
        return max(runs, key=lambda pair: pair[1])
    return _legal(board, mask)[0]


def _most_shared(board: Board, mask: int) -> tuple[int, int]:
    """The attribute most of your unrevealed words share (the first on a tie), with that count."""
    roles, having, _, _ = board
    counts = [sum(1 for i in words if roles[i] == YOURS and not mask >> i & 1) for words in having]
    best = max(range(len(counts)), key=lambda a: counts[a])
    return best, max(1, counts[best])


def _one_at_a_time(board: Board, mask: int) -> tuple[int, int]:
    """The greedy clue's attribute with the count 1: one of your words a clue."""
    return _greedy(board, mask)[0], 1


def _first_word(board: Board, mask: int) -> tuple[int, int]:
    """For your first unrevealed word (board order), the attribute whose clue reveals the most of your words in a
    row from it (the first attribute on a tie), with that count."""
    roles, having, yours, _ = board
    word = next(i for i in range(len(roles)) if yours >> i & 1 and not mask >> i & 1)
    options = []
    for attribute, words in enumerate(having):
        left = [i for i in words if not mask >> i & 1]
        if left and left[0] == word:
            run = next((n for n, i in enumerate(left) if roles[i] != YOURS), len(left))
            options.append((run, -attribute))
    if not options:
        return _greedy(board, mask)
    run, attribute = max(options)
    return -attribute, max(1, run)


# The simple clue rules: since version 2 the reward's zero is at least the best score any of them reaches on the board.
GREEDY = "the clue revealing the most of your words now"
RULES: dict[str, Any] = {
    GREEDY: lambda board, mask: _greedy(board, mask),
    "the attribute most of your unrevealed words share, its count": _most_shared,
    "the greedy clue's attribute with the count 1": _one_at_a_time,
    "the longest run of your words starting at your first unrevealed word": _first_word,
}


def _final_score(board: Board, clock: int, choose: Any) -> int:
    """``clock + 1 - clues`` for a win by the clues ``choose(mask)`` gives, else 0."""
    mask = 0
    for clues in range(1, clock + 1):
        attribute, count = choose(mask)
        mask, _, _, end = _after(board, mask, attribute, count)
        if end == "won":
            return clock + 1 - clues
        if end is not None:
            return 0
    return 0


def _board_text(data: dict[str, Any], mask: int) -> str:
    _, vocab = vocabulary()
    lines = []
    for i, (word, role) in enumerate(zip(data["words"], data["roles"])):
        status = "revealed" if mask >> i & 1 else "unrevealed"
        lines.append(f"{i + 1}. {word} ({', '.join(vocab[word])}): {ROLES[role]}, {status}")
    return "\n".join(lines)
