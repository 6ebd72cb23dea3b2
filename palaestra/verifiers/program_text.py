"""A program's text without its comments and blank lines, where that provably keeps its meaning.

GRPO samples of one problem often differ only in comments (``# sort first``, ``// helper``) or blank
lines. :func:`comment_free` gives the form of a candidate the verdict cache folds such samples on
(:mod:`palaestra.verifiers.verdict_cache`): two programs with the same comment-free form compile and
run alike, except for what depends on the text itself (line numbers in messages, a program reading its
own source file). So the cache hands a folded report only to a candidate whose own text it came from,
or when the report says every test passed (a passing report carries no line numbers or messages).

The rules are conservative: a language is folded only where a line that looks like a comment cannot
be inside a string, and anything the rules do not account for keeps the exact text (``None``):

- Python: its own tokenizer (the running interpreter's: the local sandbox runs Python jobs with it by
  default); ``COMMENT`` and blank-line tokens are dropped, but a comment on the first two lines that
  names an encoding or an interpreter is kept (an encoding declaration changes how the file is read),
  and a text it cannot tokenize cleanly (an error token anywhere) stays exact.
- C, C++, Go, JavaScript: whole lines whose first characters are ``//`` and blank lines, and trailing
  spaces; not when the text has a construct that lets a string or comment span lines (``/*``, a
  backtick, a C++ raw string ``R"``, a backslash at a line's end).
- Lua: whole ``--`` lines (not with long brackets ``[[``/``[=``, the escape ``\\z`` or a backslash at a
  line's end: each lets a string span lines).
- SQL: whole ``--`` lines (not with ``/*``, a bracketed name ``[...]`` or a line with an odd number of
  quotes: a string or a name may span lines).

Example::

    >>> comment_free("python", "x = 1  # one\\n\\nprint(x)\\n") == comment_free("python", "x = 1\\nprint(x)\\n")
    True
    >>> comment_free("verilog", "module m; endmodule") is None
    True
"""

from __future__ import annotations

import io
import tokenize

MAX_FOLDED_CHARS = 50_000  # longer texts are keyed exactly (tokenizing them costs more than it saves)
_SLASH_LANGUAGES = ("c", "cpp", "go", "javascript")
_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}


def comment_free(language: str, code: str) -> str | None:
    """``code`` without comments and blank lines, or ``None`` when ``language``'s rules cannot show
    that removing them keeps the program's meaning (then only the exact text is a key)."""
    if len(code) > MAX_FOLDED_CHARS:
        return None
    if language == "python":
        return _python(code)
    if language in _SLASH_LANGUAGES:
        if "/*" in code or "`" in code or (language == "cpp" and 'R"' in code) or _spliced(code):
            return None
        return _without_lines(code, "//")
    if language == "lua":
        if "[[" in code or "[=" in code or "\\z" in code or _spliced(code):
            return None
        return _without_lines(code, "--")
    if language == "sql":
        if "/*" in code or "[" in code or any(line.count("'") % 2 or line.count('"') % 2 for line in code.splitlines()):
            return None
        return _without_lines(code, "--")
    return None


def _spliced(code: str) -> bool:
    """Whether a line ends in a backslash (a continued string or comment in the C family and Lua)."""
    return any(line.rstrip(" \t").endswith("\\") for line in code.splitlines())


def _without_lines(code: str, marker: str) -> str:
    """The lines that are neither blank nor a whole-line comment starting with ``marker``, right-stripped."""
    kept = []
    for line in code.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(marker):
            kept.append(line.rstrip())
    return "\n".join(kept)


def _python(code: str) -> str | None:
    """The token stream without comments (after line 2) and blank lines, one token per line."""
    parts: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.ERRORTOKEN:  # text the tokenizer could not place: keep it exact
                return None
            if token.type in _SKIPPED and not _declaration(token):
                continue
            parts.append(f"{token.type} {token.string!r}")
    except (tokenize.TokenError, SyntaxError, ValueError):  # unterminated strings, bad dedents, NUL bytes
        return None
    return "\n".join(parts)


def _declaration(token: tokenize.TokenInfo) -> bool:
    """A comment on the first two lines that may mean something to the interpreter (``#!``, ``coding:``)."""
    return token.type == tokenize.COMMENT and token.start[0] <= 2 and ("coding" in token.string or token.string.startswith("#!"))
