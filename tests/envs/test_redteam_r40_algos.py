"""Red-team round 40 (algos group): a second look at envs whose last red-team test was old.

Fixed:
- symbolic/cipher v2: a message whose first word is ANSWER lost that word to the shared lead-in reader, so the right
  plaintext scored 0: 5 of 1,000 level 0-4 references (200 seeds a level) were refused before, none now.
- verification/bitvector_input v3: the target as one input with the others 0 solved 0.08/0.087 of level 3 (as x / as
  y, 150 seeds) and 0.067 of level 4; with the others 1 or all ones up to 0.047; all 0 now.
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


def _echo(problem, slot: int, fill: int) -> str:
    names = problem.data["program"]["inputs"]
    return ", ".join(f"{n} = {problem.data['target'] if i == slot else fill}" for i, n in enumerate(names))


def test_bitvector_target_as_one_input_pays_nothing():
    task = make_source("verification/bitvector_input")
    for level in (3, 4):
        top = (1 << task.sample(level, 0).data["program"]["width"]) - 1
        hits = 0
        for seed in range(30):
            problem = task.sample(level, seed)
            hits += any(task.verify(problem, _echo(problem, slot, fill)).reward > 0
                        for slot in range(len(problem.data["program"]["inputs"])) for fill in (0, 1, top))
        assert hits == 0, (level, hits)


def test_bitvector_reference_still_solves():
    task = make_source("verification/bitvector_input")
    for level in range(5):
        for seed in range(10):
            problem = task.sample(level, seed)
            assert task.verify(problem, problem.answer).reward == 1.0
