"""The program text of the code envs, kept as data: ``<module>.txt`` holds one env module's programs.

A file is a run of sections, each a header line ``=== Key`` (``Key`` names the template and the
program, e.g. ``Components.c``) followed by the program text, which is a :meth:`str.format`
template (``{base}``, ``{p[class]}`` are filled in; ``{{`` and ``}}`` are literal braces).
The newline before the next header separates sections and is not part of the text. Keeping the
programs out of Python string literals means each reads as the program it is, and an env
module holds only what varies: the parameters, the statement and the trusted reference.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

_HEADER = re.compile(r"^=== (\S+)\n", re.MULTILINE)


@functools.cache
def _sections(module: str) -> dict[str, str]:
    text = (Path(__file__).parent / f"{module}.txt").read_text(encoding="utf-8")
    heads = list(_HEADER.finditer(text))
    if not heads or heads[0].start() != 0:
        raise ValueError(f"templates/{module}.txt does not start with a section header")
    ends = [h.start() - 1 for h in heads[1:]] + [len(text) - 1]
    sections = {h.group(1): text[h.end():end] for h, end in zip(heads, ends)}
    if len(sections) != len(heads):
        raise ValueError(f"templates/{module}.txt repeats a section name")
    return sections


class ProgramTexts:
    """The program templates of one env module, read on first use.

    ``CODE = ProgramTexts("graph_programs")`` then ``CODE("Components.c", base=1)`` is the
    section ``Components.c`` of ``templates/graph_programs.txt`` with its fields filled in.
    """

    def __init__(self, module: str) -> None:
        self.module = module

    def __call__(self, section: str, /, **fields: Any) -> str:
        return _sections(self.module)[section].format(**fields)

    def keys(self) -> list[str]:
        return list(_sections(self.module))
