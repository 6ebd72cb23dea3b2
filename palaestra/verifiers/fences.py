r"""Markdown code fences in an answer: the one reader every program-reading verifier uses.

A fence is a line that starts (after any indentation) with three or more backticks or tildes; its info string's
first word, lowercased, is the block's label. The block closes at a line holding only a fence of the same mark at
least as long (and at most closing punctuation, :func:`palaestra.verifiers.normalize.is_closing`), so a backtick inside the code (a Python string ``"```"`` mid-line, a shorter fence) does not close
it; an unclosed last block runs to the end of the text. Both readers take linear time.

    >>> fenced_blocks("Here:\n```python\nx = 1\n```\n~~~c\nint x;\n~~~"), after_last_block("```\nx\n```\nDone.")
    ([('python', 'x = 1'), ('c', 'int x;')], 'Done.')
"""

from __future__ import annotations

from palaestra.verifiers.normalize import is_closing

FENCE_MARKS = ("```", "~~~")


def _opening(stripped: str) -> str | None:
    """The fence a line opens (its whole run of backticks or tildes), or None."""
    if not stripped.startswith(FENCE_MARKS):
        return None
    mark = stripped[0]
    return mark * (len(stripped) - len(stripped.lstrip(mark)))


def _closes(stripped: str, opener: str) -> bool:
    """Whether a line closes the block ``opener`` opened: the fence, then at most closing punctuation (```` ```. ````)."""
    return stripped.startswith(opener) and is_closing(stripped.lstrip(opener[0]))


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
        elif _closes(stripped, opener):
            blocks.append((label, "\n".join(body)))
            opener = None
        else:
            body.append(line)
    if opener is not None:
        blocks.append((label, "\n".join(body)))
    return blocks


def after_last_block(text: str) -> str:
    """The lines after the last closed block: empty when the last block is unclosed, the whole text without one."""
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
        elif _closes(stripped, opener):
            opener = None
    return "" if opener is not None else "\n".join(after)
