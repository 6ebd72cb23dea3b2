"""Restore one folder of a generated site from the right dated backup archive, with a sandboxed shell (tar).

The tree holds ``site/`` (a few folders of pages, assets and config) and ``backups/site-<YYYY-MM-DD>.tar.gz``:
gzipped tars of ``site/`` taken on several dates, the site changing between them (files edited, added,
deleted). The task: make ``site/<folder>/`` exactly as it is in the chosen backup (the newest one at level
0; from level 1 the newest one dated on or before a stated day, so newer backups are distractors; the day is
never a backup's own date, so the backup named by it is not the answer (v1: it was half the time, and picking it
passed 42-60% at levels 1-4; v2: 0%)): the
backup's files there with their contents, and no file there that the backup lacks; everything else stays as
it is now, although other folders differ from the backup too (a full extraction reverts them), and a
sibling ``site/<folder>-old/`` differs as well (a wildcard ``<folder>*`` catches it). From level 2 some
archives name their members ``./site/...``, so extracting a member named ``site/...`` finds nothing; from
level 3 the folder is nested (``site/<a>/<b>/``) and names have spaces.

The episode is judged by the final tree, path by path and byte by byte (the backup fixes the folder, the rest
stays, so the expected tree is unique); the final answer is ``done``. The difficulty is the number of files
plus the backups plus the folder's changes plus twice the traps in play.

Generation speed: about 250 problems/s at level 4 on this 2-core machine. Each problem builds its own
file tree and 5-7 backup archives of it as real tar files (Python's tarfile, one header per member; about
6 archives are built per problem including redraws) and invents about 140 distinct file names by the
shared name generator, which redraws any name already taken; the archives are what the model restores
from, so their bytes must be real.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import PreparedTreeTask, gzipped, tree_archive
from palaestra.envs.terminal.common import DONE, shell_plan, words

EXTENSIONS = ("html", "css", "json", "txt", "svg")


@register
class ArchiveRestore(PreparedTreeTask):
    id = "terminal/archive_restore"
    family = "terminal"
    description = "Restore one folder of a generated site from the right dated backup tar.gz, leaving the rest."
    tags = ("terminal", "multi-turn", "shell", "files", "archive", "agentic")
    end_state = True
    version = 2  # v2: the stated day lies strictly between the chosen backup's date and the next one's

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        backups: tuple[int, int]
        traps: int  # 0..3 (see the module docstring)
        budget: int

    presets = (
        Config((6, 9), (2, 3), 0, 5),
        Config((8, 12), (3, 4), 1, 6),
        Config((10, 15), (3, 5), 2, 7),
        Config((12, 18), (4, 6), 3, 8),
        Config((15, 22), (5, 7), 3, 9),
    )
    growth = Growth(limits={"files": 120, "backups": 20, "traps": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        traps = config.traps
        names = words(rng, 6 * config.files[1] + 12, 2)
        target = [names.pop()] + ([names.pop()] if traps >= 3 else [])
        folder = "site/" + "/".join(target)
        folders = [folder, f"{folder}-old", f"site/{names.pop()}", f"site/{names.pop()}"]

        def new_file() -> str:
            stem = names.pop()
            if traps >= 3 and rng.random() < 0.25:
                stem = f"{stem} {names.pop()}"
            return f"{rng.choice(folders)}/{stem}.{rng.choice(EXTENSIONS)}"

        def body() -> str:
            return "".join(f"<p>{rng.choice(('home', 'news', 'shop', 'team'))} {rng.randint(0, 99_999)}</p>\n"
                           for _ in range(rng.randint(1, 4)))

        def evolve(site: dict[str, str], changes: int) -> dict[str, str]:
            site = dict(site)
            for _ in range(changes):
                kind = rng.random()
                paths = sorted(site)
                if kind < 0.45 and paths:
                    site[rng.choice(paths)] = body()
                elif kind < 0.7 and len(paths) > 3:
                    del site[rng.choice(paths)]
                else:
                    site[new_file()] = body()
            for place in (folder, f"{folder}-old"):  # every version has files in both folders
                if not any(path.startswith(place + "/") for path in site):
                    site[f"{place}/{names.pop()}.html"] = body()
            return site

        site = evolve({new_file(): body() for _ in range(rng.randint(*config.files))}, 0)
        day = date(2024, rng.randint(1, 12), rng.randint(1, 28))
        versions: list[tuple[str, dict[str, str]]] = []
        for _ in range(rng.randint(*config.backups)):
            versions.append((day.isoformat(), site))
            day += timedelta(days=rng.randint(2, 9))
            site = evolve(site, rng.randint(3, 6))
        chosen = len(versions) - 1 if traps == 0 else rng.randrange(len(versions) - 1)
        when, backup = versions[chosen]
        # The stated day falls strictly between the chosen backup and the next one (at least 2 days apart), so the
        # backup named by that day does not exist: the model compares dates (v1 named the chosen one's day half the time).
        gap = (date.fromisoformat(versions[min(chosen + 1, len(versions) - 1)][0]) - date.fromisoformat(when)).days
        cutoff = date.fromisoformat(when) + timedelta(days=rng.randint(1, max(1, gap - 1)))
        # The damage after the last backup: the folder loses, gains and changes files; other folders change too.
        current = evolve(site, rng.randint(2, 4))
        inside = sorted(p for p in current if p.startswith(folder + "/"))
        for path in rng.sample(inside, min(len(inside), 2)):
            current[path] = "corrupted\n" if rng.random() < 0.5 else current[path] + "x\n"
        current[f"{folder}/{names.pop()}.html"] = body()
        current[f"{folder}-old/{names.pop()}.html"] = body()  # the sibling changed too: a full extraction reverts it
        expected = {p: b for p, b in current.items() if not p.startswith(folder + "/")}
        expected.update((p, b) for p, b in backup.items() if p.startswith(folder + "/"))
        archives = {}
        for stamp, version in versions:
            dotted = traps >= 2 and rng.random() < 0.5
            archives[f"backups/site-{stamp}.tar.gz"] = base64.b64encode(
                gzipped(tree_archive(version, prefix="./" if dotted else ""))).decode()
        which = ("the newest backup" if traps == 0 else
                 f"the newest backup made on or before {cutoff.isoformat()} (the date in its name)")
        prompt = (
            "Your working directory holds a website in site/ and backups of it in backups/: site-<YYYY-MM-DD>.tar.gz "
            f"files, gzipped tar archives of site/ taken on the date in their names. The folder {folder}/ was "
            f"damaged. Restore it from {which}: afterwards {folder}/ must hold exactly the files it holds in that "
            "backup (at any depth), with the same contents, and no other files. Everything else, in site/ and in "
            "backups/, stays exactly as it is now.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": current, "archives": archives, "expected": expected, "folder": folder,
                                "backup": f"backups/site-{when}.tar.gz", "traps": traps, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def initial_archive(self, problem: Problem) -> bytes:
        data = problem.data
        return tree_archive({**data["files"], **{p: base64.b64decode(b) for p, b in data["archives"].items()}})

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        data = problem.data
        tree = {path: body.encode() for path, body in data["expected"].items()}
        tree.update((path, base64.b64decode(body)) for path, body in data["archives"].items())
        return tree

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        prefix = data["folder"] + "/"
        changed = len({p for p in [*data["files"], *data["expected"]] if p.startswith(prefix)
                       and data["files"].get(p) != data["expected"].get(p)})
        return len(data["files"]) + len(data["archives"]) + changed + 2 * data["traps"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        folder = data["folder"]
        command = (f"rm -rf '{folder}' && tar -xzf '{data['backup']}' --wildcards '{folder}/*' './{folder}/*' "
                   "2>/dev/null; test -d '" + folder + "'")
        return shell_plan([command], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "restored"]
