"""What the terminal envs share: a shell task, judging a file tree, and generated names and files.

A :class:`ShellTask` is a :class:`~palaestra.envs.tools.common.ToolTask` carrying only the ``shell`` tool
(bash and the allow-listed tools in the sandbox, in the episode's private file tree, which persists between
calls; see :mod:`palaestra.tools.shell`). Its problem holds the initial tree (``data["files"]``: path ->
text). Two kinds of task:

- *answer* tasks judge the final answer (a count, a name, a list of paths) like any tool task;
- *end-state* tasks (``end_state = True``) ask for a change to the tree and a final ``<answer>done</answer>``;
  the judge compares the final tree with the expected one (:meth:`ShellTask.expected_tree`), path by path
  and byte by byte, so a task is solved however the commands did it, and only then.

Example::

    >>> tree_difference({"a.txt": b"1"}, {"a.txt": b"1", "b.txt": b"2"})
    'missing: b.txt'
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from palaestra.core import Problem, Verdict
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.generators.knowledge import NameForge
from palaestra.tools.shell import MAX_COMMAND_CHARS
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.sets import read_set

DONE = "done"
SHOWN_PATHS = 4  # paths named in a wrong tree's feedback, per kind of difference
_LEAD_IN = re.compile(r"[A-Za-z][A-Za-z ]{0,60}: ")  # "Matching files: " (generated paths hold no colon)


class ShellTask(ToolTask):
    """A task solved with the shell tool in a generated tree (see the module docstring)."""

    tool_names: ClassVar[tuple[str, ...]] = ("shell",)
    toolchains: ClassVar[tuple[str, ...]] = ("bash",)  # the sandbox language the shell tool runs
    end_state: ClassVar[bool] = False
    new_files_allowed: ClassVar[bool] = False  # end-state tasks: files not in the expected tree (scratch files) pass

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        """End-state tasks: the tree as it must be at the end (regular files: path -> contents)."""
        raise NotImplementedError

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        if not self.end_state:
            return self.judge(problem, answer)
        if not read_answer(answer, lambda s: True if s.strip().lower() == DONE else None):
            return Verdict.unparsed(f"the final answer of this task is the word {DONE!r}, once the tree is as asked")
        difference = tree_difference(self.final_files(problem, state), self.expected_tree(problem),
                                     allow_new=self.new_files_allowed)
        return Verdict.judge(difference is None, difference or "")

    def judge(self, problem: Problem, answer: str) -> Verdict:
        """End-state tasks judge the tree (:meth:`judge_episode`); a bare ``done`` without an episode is the initial
        tree's verdict."""
        return self.judge_episode(problem, self.initial_state(problem), answer)

    def shell_command_limit(self) -> str:
        return "Each shell call may run for at most 5 seconds."

    def done_instruction(self) -> str:
        return (f"Change the files with the shell tool; when the tree is as asked, reply without a tool call: "
                f"<answer>{DONE}</answer>. Only the files at the end are judged.")


def tree_difference(got: Mapping[str, bytes], expected: Mapping[str, bytes], allow_new: bool = False) -> str | None:
    """Why tree ``got`` is not ``expected`` (missing, unexpected and changed paths, a few of each), or None;
    with ``allow_new``, files that ``expected`` does not name are not differences."""
    missing = sorted(set(expected) - set(got))
    extra = [] if allow_new else sorted(set(got) - set(expected))
    changed = sorted(path for path in set(got) & set(expected) if got[path] != expected[path])
    parts = [f"{label}: {', '.join(paths[:SHOWN_PATHS])}{' and more' if len(paths) > SHOWN_PATHS else ''}"
             for label, paths in (("missing", missing), ("unexpected", extra), ("different contents", changed))
             if paths]
    return "; ".join(parts) or None


def shell_plan(commands: list[str], answer: str) -> list[str]:
    """An oracle's replies: one shell call per command, then the final answer."""
    return [tool_call("shell", command=command) for command in commands] + [answer]


def batched(command: str, arguments: list[str], joiner: str = " ") -> list[str]:
    """``command`` followed by ``arguments`` (each after ``joiner``), split into as few commands as keep each
    within the shell tool's ``MAX_COMMAND_CHARS``, each starting with ``command`` (an oracle's ``rm`` of hundreds
    of paths at far levels was refused whole).

    >>> batched("rm --", ["'a'", "'b'"]), batched("mkdir -p x", ["mv a x/a", "mv b x/b"], " && ")
    (["rm -- 'a' 'b'"], ['mkdir -p x && mv a x/a && mv b x/b'])
    """
    commands: list[str] = []
    for argument in arguments:
        if commands and len(commands[-1]) + len(joiner) + len(argument) <= MAX_COMMAND_CHARS:
            commands[-1] += joiner + argument
        else:
            commands.append(command + joiner + argument)
    return commands


def quote(path: str) -> str:
    """``path`` quoted for bash (single quotes; generated names hold no quote, but be safe)."""
    return "'" + path.replace("'", "'\\''") + "'"


def words(rng: random.Random, count: int, syllables: int = 2) -> list[str]:
    """``count`` distinct invented lower-case words (file and directory names)."""
    forge = NameForge(rng)
    return [forge.word(syllables).lower() for _ in range(count)]


def relative_path(text: str) -> str | None:
    """A path inside the episode's tree as written in an answer (``./`` and quotes dropped), else None (absolute,
    empty, ``.``/``..`` parts, over 200 characters)."""
    path = text.strip().strip("`'\"").removeprefix("./")
    ok = path and len(path) <= 200 and not path.startswith("/") and all(part not in ("", ".", "..")
                                                                          for part in path.split("/"))
    return path if ok else None


def judge_paths(answer: str, expected: Iterable[str], wanted: str, unwanted: str, tree: Iterable[str] = ()) -> Verdict:
    """Right when the answer lists exactly the expected paths (in any order and list spelling, after a lead-in line
    ending in a colon or a lead-in ending in a colon on the first line, with a closing full stop or not; none may be
    right); paths may be separated by spaces alone when no path of the expected list or of ``tree`` (the task's
    file names) holds a space, so the reading is unambiguous;
    else how many are missing (``wanted``: "matching file(s)") and how many listed ones ``unwanted`` ("do not
    match")."""
    expected = set(expected)
    lines = answer.strip().split("\n", 1)
    if len(lines) == 2 and lines[0].rstrip().endswith(":") and lines[1].strip():
        answer = lines[1]  # a lead-in line ("The matching files are:") names no path
    else:
        lead_in = _LEAD_IN.match(answer.strip())  # "The matching files are: a, b" on one line
        if lead_in and lead_in.end() < len(answer.strip()):
            answer = answer.strip()[lead_in.end():]
    answer = answer.rstrip()
    if answer.endswith(".") and not answer.endswith(".."):
        answer = answer[:-1]  # a closing full stop ends the sentence, not the last path (no name ends in ".")
    paths = read_set(answer, relative_path, allow_empty=True)
    if not any(" " in path or "\t" in path for path in (*expected, *tree)):
        spaced = read_set(answer, relative_path, allow_empty=True, space_separated=True)
        paths = spaced if spaced is not None else paths  # `echo $(find ...)`: "a.txt b/c.txt"
    if paths is None:
        return Verdict.unparsed("not a list of paths")
    missing, extra = expected - paths, paths - expected
    if not missing and not extra:
        return Verdict.right()
    return Verdict.wrong(f"{len(missing)} {wanted} missing, {len(extra)} listed that {unwanted}")


def path_list_spellings(paths: Sequence[str], tree: Iterable[str] = ()) -> list[str]:
    """A path list in other orders and list spellings: comma-separated and reversed, ``./`` prefixes, a bullet list,
    a one-line lead-in with a closing full stop, and (when no path holds a space) separated by spaces."""
    spellings = [", ".join(reversed(paths)), "\n".join(f"./{p}" for p in paths), "\n".join(f"- {p}" for p in paths)]
    if paths:
        spellings.append(f"The matching files are: {', '.join(paths)}.")
    if len(paths) > 1 and not any(" " in p for p in (*paths, *tree)):
        spellings.append(" ".join(reversed(paths)))
    return spellings
