"""Red-team round 40 (algos group): a second look at envs whose last red-team test was old.

Fixed:
- symbolic/cipher v2: a message whose first word is ANSWER lost that word to the shared lead-in reader, so the right
  plaintext scored 0: 5 of 1,000 level 0-4 references (200 seeds a level) were refused before, none now.
"""

from palaestra.core.registry import make_source


def _first_word_answer_problems(task, wanted: int = 3):
    found = []
    for level in range(task.levels()):
        for seed in range(200):
            problem = task.sample(level, seed)
            if problem.answer.split()[0] == "ANSWER":
                found.append(problem)
                if len(found) == wanted:
                    return found
    return found


def test_cipher_accepts_a_message_beginning_with_answer():
    task = make_source("symbolic/cipher")
    problems = _first_word_answer_problems(task)
    assert problems
    for problem in problems:
        gold = problem.answer
        for spelling in (gold, gold.lower(), f"Answer: {gold}", f"\\boxed{{{gold}}}.", f"**{gold}**",
                         f"The answer is {gold}.", f"Plaintext: {gold}"):
            assert task.verify(problem, spelling).reward == 1.0, spelling


def test_cipher_still_refuses_the_message_without_its_first_word_and_hedges():
    task = make_source("symbolic/cipher")
    for problem in _first_word_answer_problems(task):
        gold = problem.answer
        rest = gold.split(" ", 1)[1]
        for wrong in (rest, f"Answer: {rest}", f"{gold} OR {rest}", f"{gold} (or {problem.data['text']})"):
            assert task.verify(problem, wrong).reward == 0.0, wrong
