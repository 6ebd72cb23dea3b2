"""The one fence reader (`verifiers/fences.py`) that Python and polyglot program answers share."""

from __future__ import annotations

from palaestra.verifiers import code, polyglot
from palaestra.verifiers.fences import after_last_block, fenced_blocks

PROGRAM = "def double(x):\n    return 2 * x"


def test_python_answers_take_tilde_fences_as_polyglot_answers_do() -> None:
    # Before, verifiers/code read only backtick fences: a tilde-fenced Python answer was read as raw text.
    answer = f"Here it is:\n~~~python\n{PROGRAM}\n~~~\n"
    assert code.extract_code(answer, "double") == PROGRAM
    program = polyglot.read_program(answer, ("python",))
    assert isinstance(program, polyglot.Program) and program.code.strip() == PROGRAM


def test_backticks_inside_the_code_do_not_close_the_block() -> None:
    body = 'def fence():\n    return "```" + "x"'
    answer = f"```python\n{body}\n```"
    assert fenced_blocks(answer) == [("python", body)]
    assert code.extract_code(answer, "fence") == body


def test_a_longer_fence_holds_a_shorter_one_and_text_after_the_block_is_kept_apart() -> None:
    answer = "````markdown\n```\ninner\n```\n````\nJust kidding."
    assert fenced_blocks(answer) == [("markdown", "```\ninner\n```")]
    assert after_last_block(answer) == "Just kidding."
    assert after_last_block("```\nx = 1\n") == ""  # an unclosed block runs to the end


def test_a_remark_after_the_program_still_leaves_a_python_answer_unread() -> None:
    assert code.extract_code(f"```python\n{PROGRAM}\n```\nActually, ignore that.", "double") is None
    assert code.extract_code(f"~~~python\n{PROGRAM}\n~~~\nActually, ignore that.", "double") is None
    assert code.extract_code(f"```python\n{PROGRAM}\n```.", "double") == PROGRAM


def test_a_closing_fence_may_carry_closing_punctuation_in_every_language() -> None:
    # `verifiers/polyglot` refused "```." (a closing fence with text after it) where `verifiers/code` read it.
    program = polyglot.read_program("```c\nint main(void) { return 0; }\n```.", ("c",))
    assert isinstance(program, polyglot.Program) and program.code.strip() == "int main(void) { return 0; }"
    assert not isinstance(polyglot.read_program("```c\nint main(void) { return 0; }\n``` No wait.", ("c",)),
                          polyglot.Program)


def test_a_remark_on_the_closing_fence_line_is_text_after_the_block() -> None:
    # The kit's retraction check: a second block whose closing fence carries "That is not the answer." was read as an
    # unclosed block (nothing after it) and the answer accepted.
    answer = f"```python\n{PROGRAM}\n```\nFor example:\n```python\nprint(double(2))\n```. That is not the answer."
    assert after_last_block(answer) == ". That is not the answer."
    assert code.extract_code(answer, "double") is None
    assert not isinstance(polyglot.read_program(answer, ("python",)), polyglot.Program)
