"""Rename the files of a generated media folder by a stated rule, with a sandboxed shell.

The tree holds ``media/`` (with event subfolders from level 1) whose files are mostly named
``<prefix>_<number>.<ext>`` (``IMG_7.JPG``, ``scan_0031.png``). The rule: every file whose whole name has
that form (the prefix letters only, the number digits only, the extension letters only) is renamed, in its
own folder, to ``<prefix in lower case>_<the number as four digits>.<extension in lower case>``: the number
written without leading zeros and then padded with zeros to four digits (``7`` -> ``0007``,
``00012`` -> ``0012``, ``12345`` stays ``12345``). Every other file keeps its name. The traps grow by
level: upper-case prefixes and extensions; names that only look like the form (``IMG_7_edit.jpg``,
``IMG-7.jpg``, ``IMG_7``, ``IMG_7.tar.gz``, ``img2_7.png``, ``_7.jpg``); numbers with leading zeros,
among them ``08`` and ``09`` (which bash arithmetic and ``printf %d`` read as octal and reject); numbers
of five digits or more. Targets never collide.

The episode is judged by the final tree, path by path and byte by byte (the rule fixes every name, so
the expected tree is unique); the final answer is ``done``. The difficulty is the number of files plus
the renamed ones plus twice the traps in play plus the folders.

Version 3 (session-30 red team): every trap in play is planted, on top of the drawn files: one name of each
look-alike kind and a ``.mp4`` name (an extension with a digit: it stays) (with a number of one or two digits,
which a sloppy rename would pad), ``08``/``09`` with leading zeros, a zero-padded number of five digits or more
(``00123``), and one of five digits or more; in version 2 they were drawn per file, and a rename that skipped
one look-alike rule (a prefix of letters and digits, an optional prefix or extension, ``-`` taken for ``_``) was
right in 38-75% of levels 1-4, one that took ``mp4`` for an extension of letters in 47-49% of levels 0-1 (10-27%
of levels 2-4), one that kept leading zeros in 35-47% of levels 2-4, one that cut long numbers to four digits in
26-31% of levels 3-4.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, quote, shell_plan, words

PREFIXES = ("IMG", "DSC", "scan", "Photo", "clip", "VID", "shot", "Pic")
EXTENSIONS = ("jpg", "JPG", "png", "PNG", "Jpeg", "mov", "MP4", "heic")
TRAPS = ("case", "lookalikes", "zeros", "long")
FORM = re.compile(r"([A-Za-z]+)_([0-9]+)\.([A-Za-z]+)")  # only ever applied to generated names


@register
class BulkRename(ShellTask):
    id = "terminal/bulk_rename"
    family = "terminal"
    description = "Rename the files of a generated media folder by a stated padding and case rule, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "rename", "agentic")
    version = 3  # v2: the prompt says that a scratch file left behind fails (the judge always said so); v3: planted traps
    end_state = True

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        folders: int  # event subfolders of media/
        traps: int  # how many of TRAPS are in play
        budget: int

    presets = (
        Config((5, 8), 0, 1, 5),
        Config((8, 12), 1, 2, 6),
        Config((10, 16), 2, 3, 7),
        Config((14, 22), 3, 4, 8),
        Config((20, 30), 4, 4, 9),
    )
    growth = Growth(limits={"files": 200, "folders": 12, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        traps = TRAPS[: config.traps]
        files, targets = retry(lambda: _draw(rng, config, traps), what="names whose targets do not collide",
                               attempts=60)
        prompt = (
            "Your working directory holds a folder media/ (with subfolders) of photos and clips. Rename every "
            "file (at any depth under media/) whose whole name has the form <prefix>_<number>.<ext> (the prefix "
            "made of letters only, the number of digits only, the extension of letters only) to "
            "<prefix>_<number>.<ext> with the prefix and the extension in lower case and the number written with "
            "four digits: leading zeros removed, then zeros added in front up to four digits (a number of more "
            "than four digits keeps all its digits, without leading zeros). For example, a file DSC_8.PNG would "
            "become dsc_0008.png. Each file stays in its folder; files whose names do not have that form keep "
            "their names; contents do not change; leave no other file behind (no scratch files).\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "targets": targets, "traps": list(traps), "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        targets = problem.data["targets"]
        return {targets.get(path, path): body.encode() for path, body in problem.data["files"].items()}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        renamed = sum(1 for path, target in data["targets"].items() if path != target)
        folders = len({path.rsplit("/", 1)[0] for path in data["files"]})
        return len(data["files"]) + renamed + 2 * len(data["traps"]) + folders

    def plan(self, problem: Problem) -> list[str]:
        moves = [f"mv -- {quote(path)} {quote(target)}" for path, target in sorted(problem.data["targets"].items())
                 if path != target]
        return shell_plan([" && ".join(moves) or "true"], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "renamed", "done and done"]


def target_name(name: str) -> str:
    """The name the rule gives ``name`` (itself when the name does not have the form)."""
    match = FORM.fullmatch(name)
    if match is None:
        return name
    prefix, number, extension = match.groups()
    return f"{prefix.lower()}_{int(number):04d}.{extension.lower()}"


LOOKALIKES = 7  # kinds of names that only look like the form (see _name)


def _name(rng: random.Random, traps: tuple[str, ...], planted: str | int | None = None) -> str:
    """A generated name; ``planted`` forces a trap: "long", "octal" (``08``, ``009``), "padded" (``00123``: more
    than four digits with the zeros), or the index of a look-alike kind (with a short number, which the rule pads)."""
    prefix = rng.choice(PREFIXES) if "case" in traps else rng.choice(PREFIXES).lower()
    extension = rng.choice(EXTENSIONS) if "case" in traps else rng.choice(EXTENSIONS).lower()
    if planted == "digit":  # an extension with a digit: not of the form, the name stays
        extension = rng.choice(("MP4", "mp4") if "case" in traps else ("mp4",))
    elif planted is not None and not extension.isalpha():
        extension = "jpg"  # a planted trap is decided by its own rule alone
    draw = rng.random()
    if planted == "long" or ("long" in traps and draw < 0.1 and planted is None):
        number = str(rng.randint(10_000, 999_999))
    elif planted == "octal":
        number = rng.choice(("0", "00")) + rng.choice(("8", "9"))
    elif planted == "padded":
        number = rng.choice(("00", "000")) + str(rng.randint(100, 999))
    elif isinstance(planted, int) or planted == "digit":
        number = str(rng.randint(1, 99))
    elif "zeros" in traps and draw < 0.45 and planted is None:
        number = rng.choice(("0", "00", "000")) + str(rng.choice((8, 9, rng.randint(1, 999))))
    else:
        number = str(rng.randint(1, 9_999) if rng.random() < 0.3 else rng.randint(1, 99))
    name = f"{prefix}_{number}.{extension}"
    lookalike = planted if isinstance(planted, int) else None
    if lookalike is None and planted is None and "lookalikes" in traps and rng.random() < 0.3:
        lookalike = rng.randrange(LOOKALIKES)
    if lookalike is not None:
        name = (f"{prefix}_{number}_edit.{extension}", f"{prefix}-{number}.{extension}",
                f"{prefix}_{number}", f"{prefix}_{number}.tar.gz", f"{prefix}2_{number}.{extension}",
                f"_{number}.{extension}", f"{prefix}_{number}a.{extension}")[lookalike]
    return name


def _draw(rng: random.Random, config: BulkRename.Config,
          traps: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]] | None:
    events = words(rng, config.folders, 2)
    folders = ["media"] + [f"media/{event}" for event in events]
    files: dict[str, str] = {}
    # Every trap in play is planted: an extension with a digit (.mp4), each look-alike kind, numbers with leading zeros (08 or 09, and one over
    # four digits with them), a number of five digits or more; then the drawn files.
    planted: list[str | int | None] = ["digit", *(range(LOOKALIKES) if "lookalikes" in traps else ()),
                                       *(("octal", "padded") if "zeros" in traps else ()),
                                       *(("long",) if "long" in traps else ())]
    for plant in [*planted, *[None] * rng.randint(*config.files)]:
        path = f"{rng.choice(folders)}/{_name(rng, traps, plant)}"
        files[path] = f"{path.rsplit('/', 1)[1]} {rng.randint(0, 10**9)}\n"
    targets = {path: f"{path.rsplit('/', 1)[0]}/{target_name(path.rsplit('/', 1)[1])}" for path in files}
    if len(set(targets.values())) < len(files):
        return None  # two files would take one name
    if sum(path != target for path, target in targets.items()) < 2:
        return None
    return files, targets
