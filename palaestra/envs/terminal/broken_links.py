"""Find the symbolic links of a generated web tree that are broken, or that lead into a stated folder, with a shell.

The tree holds ``www/`` (pages, ``shared/``, ``releases/``, nested folders) with files and symbolic links
(relative targets): links to files in the same folder or elsewhere (``../shared/logo.svg``), links to
folders, chains of links, and broken links: a misspelt target, a target that was deleted, a target written
relative to the wrong folder (``shared/x`` from a subfolder), a chain whose last link is broken. From level 3
names with spaces appear, and half the questions ask instead for the links that, followed to the end, lead
to a file under ``www/<folder>/`` (links to other links count; a link to the folder itself does not).
``find -xtype l`` and ``readlink -f`` do it. Hidden links and regular files named like links (``old.lnk``)
are near misses; since version 2 every problem plants the near misses its question needs (a hidden link that
counts; for broken links, a link to a folder; for links into a folder, a chain of two links into it and a
link to the folder itself).

The answer is the set of the links' paths relative to the working directory (``www/a/b.html``), one per
line or separated by commas, in any order; judged as a set: every such link and no other. Every problem has
at least two and not all the links. The difficulty is the number of entries plus the links plus the
question's weight.

Generation speed: about 740 problems/s at level 4 on this 2-core machine. Each draw invents about 120
distinct names by the shared name generator, which redraws any name already taken and builds a tree of
files, folders and chains of symbolic links, and about 1 draw in 3 is redrawn because too few or too many
links match; a varied answer is what stops listing every link from earning reward.
"""

from __future__ import annotations

import posixpath
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import PreparedTreeTask, tree_archive
from palaestra.envs.terminal.common import judge_paths, path_list_spellings, shell_plan, words

EXAMPLE = "<answer>\nwww/blog/latest.html\nwww/img/logo.png\n</answer>"  # fixed: a made-up tree's paths
EXTENSIONS = ("html", "css", "svg", "js", "txt")
MAX_HOPS = 40


@register
class BrokenLinks(PreparedTreeTask):
    id = "terminal/broken_links"
    family = "terminal"
    description = "Find the broken symbolic links of a generated tree, or those leading into a folder, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "symlinks", "agentic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        links: tuple[int, int]
        depth: int
        hard: bool  # names with spaces, and the "leads into a folder" question
        budget: int

    presets = (
        Config((4, 6), (4, 6), 0, False, 5),
        Config((6, 9), (6, 9), 1, False, 6),
        Config((8, 12), (8, 12), 1, False, 7),
        Config((10, 15), (10, 14), 2, True, 8),
        Config((12, 18), (12, 18), 2, True, 9),
    )
    growth = Growth(limits={"files": 120, "links": 120, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question = "into" if config.hard and rng.random() < 0.5 else "broken"

        def draw() -> tuple[dict[str, str], dict[str, str], list[str], str] | None:
            files, links, folder = _tree(rng, config, question)
            matching = sorted(path for path in links if _answers(path, files, links, question, folder))
            return (files, links, matching, folder) if 2 <= len(matching) <= len(links) - 2 else None

        files, links, matching, folder = retry(draw, what="a tree with a few matching links", attempts=50)
        asked = ("whose target does not exist: following the link, and any links it leads to, ends at nothing"
                 if question == "broken" else
                 f"that, followed to the end (through any links it leads to), lead to a file under www/{folder}/ "
                 "(at any depth)")
        prompt = (
            "Your working directory holds a folder www/ with files, folders and symbolic links. List every "
            f"symbolic link under www/ (at any depth, hidden ones included) {asked}.\n\n"
            "Answer with the links' paths relative to the working directory, one per line, in any order; for "
            f"example, for a different tree:\n{EXAMPLE}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "links": links, "question": question, "folder": folder,
                                "matching": matching, "hard": config.hard, "budget": config.budget}
        return Problem(prompt=prompt, answer="\n".join(matching), data=data)

    def initial_archive(self, problem: Problem) -> bytes:
        return tree_archive(problem.data["files"], links=problem.data["links"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_paths(answer, problem.data["matching"], "matching link(s)", "do not match", tree=problem.data["files"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) + 2 * len(data["links"]) + 4 * (data["question"] == "into") + 2 * data["hard"]

    def plan(self, problem: Problem) -> list[str]:
        if problem.data["question"] == "broken":
            command = "find www -xtype l"
        else:
            folder = problem.data["folder"]
            command = ("find www -type l -print0 | while IFS= read -r -d '' l; do t=$(readlink -f -- \"$l\"); "
                       f"[ -f \"$t\" ] && case \"$t\" in \"$PWD/www/{folder}/\"*) printf '%s\\n' \"$l\";; esac; done")
        return shell_plan([command], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return path_list_spellings(problem.data["matching"], tree=problem.data["files"])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        matching = problem.data["matching"]
        others = sorted(set(problem.data["links"]) - set(matching))
        return ["\n".join(matching[1:]), "\n".join([*matching, rng.choice(others)]),
                "\n".join(sorted(problem.data["links"])), ""]


def _tree(rng: random.Random, config: BrokenLinks.Config,
          question: str) -> tuple[dict[str, str], dict[str, str], str]:
    names = words(rng, 3 * (config.files[1] + config.links[1]) + 2 * config.depth + 12, 2)
    into = rng.choice(("shared", "releases"))  # the folder of the "into" question
    folders = ["www", "www/shared", "www/releases", f"www/{names.pop()}"]
    for _ in range(2 * config.depth):
        folders.append(f"{rng.choice(folders)}/{names.pop()}")

    def name(extension: bool = True) -> str:
        stem = names.pop()
        if config.hard and rng.random() < 0.25:
            stem = f"{stem} {names.pop()}"
        if rng.random() < 0.08:
            stem = f".{stem}"
        return f"{stem}.{rng.choice(EXTENSIONS)}" if extension else stem

    files = {f"{rng.choice(folders)}/{name()}": f"{names[-1]} {rng.randint(0, 9999)}\n"
             for _ in range(rng.randint(*config.files))}
    for folder in ("www/shared", "www/releases"):
        files[f"{folder}/{name()}"] = "kept\n"
    files[f"{rng.choice(folders)}/old.lnk"] = "not a link\n"
    used = {posixpath.dirname(path) for path in files}
    links: dict[str, str] = {}
    for _ in range(rng.randint(*config.links)):
        here = rng.choice(folders)
        path = f"{here}/{name()}"
        kind = rng.random()
        pool = sorted(files) + sorted(links)
        if kind < 0.45:
            target = posixpath.relpath(rng.choice(pool), here)  # a file or a link, anywhere
        elif kind < 0.55:
            target = posixpath.relpath(rng.choice(sorted(used)), here)  # a folder
        elif kind < 0.7:
            chosen = rng.choice(sorted(files))
            target = posixpath.relpath(chosen, here)[:-1] + "x"  # misspelt
        elif kind < 0.85:
            target = posixpath.relpath(rng.choice(sorted(files)), "www")  # relative to the wrong folder
        else:
            target = posixpath.relpath(f"{rng.choice(folders)}/{names.pop()}.html", here)  # deleted
        if path not in files:
            links[path] = target
    # Planted near misses, one for each slip a careless search makes (in version 1 they were left to chance: a
    # search skipping hidden links was right in 82% of level 0; "not a file" for broken, in 60% of level 0; at
    # level 4 one hop instead of the whole chain in 56% of the "into" questions, and counting links to folders
    # under www/<folder>/ in 76%).
    kept = next(path for path in sorted(files) if path.startswith(f"www/{into}/") and files[path] == "kept\n")

    def plant(here: str, target_path: str | None, hidden: bool = False) -> str:
        path = f"{here}/{'.' if hidden else ''}{names.pop()}.{rng.choice(EXTENSIONS)}"
        target = posixpath.relpath(target_path or f"{here}/{names.pop()}.html", here)  # None: a deleted target
        links[path] = target
        return path

    if question == "broken":
        plant(rng.choice(folders), None, hidden=True)  # broken, hidden
        plant(rng.choice(folders), rng.choice(sorted(used)))  # a link to a folder: not broken
    else:
        plant(rng.choice(folders), kept, hidden=True)  # leads into the folder, hidden
        plant(rng.choice(folders), plant(rng.choice(folders), kept))  # a chain of two links into the folder
        plant(rng.choice(folders), f"www/{into}")  # a link to the folder itself: not a file under it
    return files, links, into


def _resolve(path: str, files: dict[str, str], links: dict[str, str]) -> str | None:
    """Where following ``path`` ends: a file's or a folder's path, or None (nothing, or a loop). Targets never
    pass through a link to a folder, so following the last component is enough."""
    folders = {posixpath.dirname(p) for p in [*files, *links]}
    folders |= {"/".join(f.split("/")[:depth]) for f in folders for depth in range(1, f.count("/") + 1)}
    for _ in range(MAX_HOPS):
        if path in files or path in folders:
            return path
        if path not in links:
            return None
        path = posixpath.normpath(posixpath.join(posixpath.dirname(path), links[path]))
    return None


def _answers(path: str, files: dict[str, str], links: dict[str, str], question: str, folder: str) -> bool:
    end = _resolve(path, files, links)
    if question == "broken":
        return end is None
    return end is not None and end in files and end.startswith(f"www/{folder}/")
