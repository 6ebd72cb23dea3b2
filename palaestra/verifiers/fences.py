r"""Markdown code fences in an answer: the one reader every program-reading verifier uses.

A fence is a line that starts (after any indentation) with three or more backticks or tildes; its info string's
first word, lowercased, is the block's label. The block closes at the next line that starts with a fence of the same
mark at least as long, so backticks inside a line of code (a Python string ``"```"``) or a shorter fence do not close
it; what follows the closing fence on its line (```` ```. ```` or ```` ``` That is not the answer. ````) is text after
the block, which the callers judge by the answer grammar (:func:`palaestra.verifiers.normalize.is_closing`). An
unclosed last block runs to the end of the text. Both readers take linear time.

    >>> fenced_blocks("Here:\n```python\nx = 1\n```\n~~~c\nint x;\n~~~"), after_last_block("```\nx\n```\nDone.")
    ([('python', 'x = 1'), ('c', 'int x;')], 'Done.')
"""

from __future__ import annotations

FENCE_MARKS = ("```", "~~~")


def _opening(stripped: str) -> str | None:
    """The fence a line opens (its whole run of backticks or tildes), or None."""
    if not stripped.startswith(FENCE_MARKS):
        return None
    mark = stripped[0]
    return mark * (len(stripped) - len(stripped.lstrip(mark)))


def _closing_tail(stripped: str, opener: str) -> str | None:
    """The text after the fence when the line closes the block ``opener`` opened, else None."""
    return stripped.lstrip(opener[0]).strip() if stripped.startswith(opener) else None


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(label, code)`` of every fenced block, in order (the label is ``""`` when the info string is empty)."""
    blocks: list[tuple[str, str]] = []
    opener: str | None = None
    label, body = "", []  # type: tuple[str, list[str]]
    for line in text.split("\n"):
        stripped = line.strip()
        if opener is None:
            opener = _opening(stripped)
            if opener is not None:
                info = stripped[len(opener):].strip()
                label, body = (info.split()[0].lower() if info else ""), []
        elif _closing_tail(stripped, opener) is not None:
            blocks.append((label, "\n".join(body)))
            opener = None
        else:
            body.append(line)
    if opener is not None:
        blocks.append((label, "\n".join(body)))
    return blocks


def after_last_block(text: str) -> str:
    """The text after the last closed block (from its closing fence's own line on): empty when the last block is
    unclosed, the whole text when there is no block."""
    opener: str | None = None
    after: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if opener is None:
            opener = _opening(stripped)
            if opener is not None:
                after = []
            else:
                after.append(line)
        else:
            tail = _closing_tail(stripped, opener)
            if tail is not None:
                opener, after = None, [tail] if tail else []
    return "" if opener is not None else "\n".join(after)
