"""Answer extraction: pull the final answer out of a model's full response.

Each extractor is a pure function ``str -> str | None`` (``None``: no answer
found) that runs in time linear in the text. Environments pick one by name
(``"tag"`` by default) and users can override it per env.

Example::

    >>> extract("I think... <answer> 42 </answer>", "tag")
    '42'
    >>> extract(r"so \\boxed{\\frac{1}{2}}.", "boxed")
    '\\\\frac{1}{2}'
    >>> extract("work\\nAnswer: 7\\n", "last_line")
    '7'
"""

from __future__ import annotations

import re
from collections.abc import Callable

OPEN_TAG, CLOSE_TAG = "<answer>", "</answer>"
_ANSWER_PREFIX = re.compile(r"^\s*(?:final answer|answer)\s*[:=]\s*", re.IGNORECASE)


def from_tag(text: str) -> str | None:
    """The content of the last complete ``<answer>...</answer>`` pair."""
    end = text.rfind(CLOSE_TAG)
    if end < 0:
        return None
    start = text.rfind(OPEN_TAG, 0, end)
    if start < 0:
        return None
    return text[start + len(OPEN_TAG) : end].strip()


def from_boxed(text: str) -> str | None:
    r"""The content of the last ``\boxed{...}``, with nested braces matched."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 0, start + len("\\boxed")
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j].strip()
    return None


def from_last_line(text: str) -> str | None:
    """The last non-empty line, without an ``Answer:`` prefix."""
    for line in reversed(text.strip().splitlines()):
        if line.strip():
            return _ANSWER_PREFIX.sub("", line).strip()
    return None


def raw(text: str) -> str | None:
    """The whole response, stripped."""
    return text.strip()


EXTRACTORS: dict[str, Callable[[str], str | None]] = {
    "tag": from_tag,
    "boxed": from_boxed,
    "last_line": from_last_line,
    "raw": raw,
}

INSTRUCTIONS: dict[str, str] = {
    "tag": "Put your final answer inside <answer></answer> tags, e.g. <answer>...</answer>.",
    "boxed": "Put your final answer inside \\boxed{}.",
    "last_line": "Write your final answer alone on the last line.",
    "raw": "Reply with the answer only.",
}


# Multi-turn envs: every move is read with the same extractor.
MOVE_INSTRUCTIONS: dict[str, str] = {
    "tag": "Put each move inside <answer></answer> tags, e.g. <answer>...</answer>.",
    "boxed": "Put each move inside \\boxed{}.",
    "last_line": "Write each move alone on the last line of your reply.",
    "raw": "Reply with the move only.",
}


def extract(text: str, answer_format: str = "tag") -> str | None:
    """Extract an answer with the named extractor (see ``EXTRACTORS``)."""
    return EXTRACTORS[answer_format](text)


def wrap(answer: str, answer_format: str = "tag") -> str:
    """Write ``answer`` the way a response in ``answer_format`` would (inverse of ``extract``)."""
    if answer_format == "tag":
        return f"{OPEN_TAG}{answer}{CLOSE_TAG}"
    if answer_format == "boxed":
        return f"\\boxed{{{answer}}}"
    return answer


# What a reply lacked when nothing could be extracted: the feedback a model sees.
MISSING: dict[str, str] = {
    "tag": "no <answer></answer> tags found",
    "boxed": "no \\boxed{} found",
    "last_line": "no answer line found",
    "raw": "empty reply",
}

# Formats that can carry an answer spanning several lines (a grid, a program's output, a plan).
MULTILINE_FORMATS = ("tag", "boxed", "raw")


def check_format(answer_format: str, multiline: bool = False, env_id: str = "") -> str:
    """``answer_format`` if it names an extractor that can carry this env's answers; else ValueError."""
    if answer_format not in EXTRACTORS:
        raise ValueError(f"unknown answer_format {answer_format!r}; choose one of {sorted(EXTRACTORS)}")
    if multiline and answer_format not in MULTILINE_FORMATS:
        raise ValueError(
            f"answer_format {answer_format!r} cannot carry {env_id or 'this env'}'s answers, which span several "
            f"lines; choose one of {list(MULTILINE_FORMATS)}"
        )
    return answer_format
