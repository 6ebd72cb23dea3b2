"""Red-team regressions for the repo and terminal families (round 3, session 22).

Each test measures a domain shortcut (a textbook command with a known slip, a careless filter) that paid
without solving before its fix, by applying the shortcut to the generated tree and judging its answer.
"""

from __future__ import annotations

import ast
import re

import palaestra
from palaestra.core.registry import make_source


def _problems(env_id: str, level: int, count: int, base: int = 22_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _mean_reward(env_id: str, pairs: list[tuple[palaestra.Problem, str]]) -> float:
    source = make_source(env_id)
    return sum(source.judge(problem, answer).reward for problem, answer in pairs) / len(pairs)


def _newermt_listing(problem: palaestra.Problem) -> str:
    """What ``find data -type f -newermt LOW ! -newermt HIGH`` (plus the size and extension tests) lists:
    strict at the lower bound, inclusive at the upper one."""
    data, question = problem.data, problem.data["question"]
    return "\n".join(
        sorted(
            path
            for path, body in data["files"].items()
            if question["low"] < data["mtimes"][path] <= question["high"]
            and (question["size"] is None or len(body.encode()) > question["size"])
            and (question["extension"] is None or path.endswith("." + question["extension"]))
        )
    )


def test_find_by_mtime_newermt_slip_at_both_bounds_fails() -> None:
    # v1: the files at the time bounds often failed the size or extension test, so the textbook -newermt
    # command (wrong at both bounds) listed the right files in ~27% of level 2 and ~48% of level 4.
    for level in (2, 4):
        pairs = [(p, _newermt_listing(p)) for p in _problems("terminal/find_by_mtime", level, 40)]
        assert _mean_reward("terminal/find_by_mtime", pairs) < 0.05, level


def _count(problem: palaestra.Problem, keep) -> str:
    data, target = problem.data, problem.data["target"]
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(target)}(?![A-Za-z0-9_])")
    chosen = [body for path, body in data["files"].items() if keep(path)]
    per_line = [len(pattern.findall(line)) for body in chosen for line in body.split("\n")]
    value = {
        "lines": sum(1 for n in per_line if n),
        "uses": sum(per_line),
        "files": sum(1 for body in chosen if pattern.search(body)),
    }[data["measure"]]
    return str(value)


def _outside_excluded(path: str) -> bool:
    return path.split("/")[0] != "vendor" and not any(part.startswith(".") for part in path.split("/")[:-1])


def test_count_matches_each_filter_matters() -> None:
    # v2: counting every extension was right in ~55% of level 0 (25% of level 2); keeping vendor/ and the
    # hidden folders in ~21% of level 2.
    for level in (0, 2, 4):
        problems = _problems("terminal/count_matches", level, 40)
        every_extension = [(p, _count(p, _outside_excluded)) for p in problems]
        assert _mean_reward("terminal/count_matches", every_extension) < 0.05, level
        if level:
            excluded_kept = [
                (p, _count(p, lambda path, p=p: path.endswith("." + p.data["extension"]))) for p in problems
            ]
            assert _mean_reward("terminal/count_matches", excluded_kept) < 0.05, level


def test_bulk_rename_prompt_says_scratch_files_fail() -> None:
    # The judge compares the whole tree, so a right renaming with a helper script left behind paid 0; v1's
    # prompt never said that (other end-state envs say "change nothing else").
    for problem in _problems("terminal/bulk_rename", 2, 3):
        assert "no other file" in problem.prompt


def _leaf_guesses(problem: palaestra.Problem) -> tuple[float, float]:
    """Two guesses that read only the repository's structure, as the chance each is right: a leaf (a function
    calling no other) under the longest chain of callers, and a leaf whose code appears only once."""
    bodies: dict[str, tuple[str, set[str]]] = {}
    for path, text in problem.data["files"].items():
        if path.startswith("tests/") or not path.endswith(".py"):
            continue
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef):
                called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                source = ast.get_source_segment(text, node) or ""
                bodies[node.name] = (source.partition("\n")[2], called)
    callers: dict[str, set[str]] = {name: set() for name in bodies}
    for name, (_, called) in bodies.items():
        for callee in called & set(bodies):
            callers[callee].add(name)

    def height(name: str) -> int:
        return max((1 + height(caller) for caller in callers[name]), default=0)

    leaves = [name for name, (_, called) in bodies.items() if not called & set(bodies)]
    tallest = max(height(name) for name in leaves)
    deepest = [name for name in leaves if height(name) == tallest]
    texts = [bodies[name][0] for name in leaves]
    unique = [name for name in leaves if texts.count(bodies[name][0]) == 1]
    return (problem.answer in deepest) / len(deepest), (problem.answer in unique) / max(len(unique), 1)


def test_bug_localization_structure_does_not_point_at_the_bug() -> None:
    # v1: every distractor chain drew its depth from 0 to the bugged chain's, so the leaf under the longest
    # chain was the bug in ~41% of level 4 (a random leaf: 8%); and the distractors' kinds were drawn
    # independently, so the leaf written only once was the bug in ~23% of problems.
    problems = _problems("repo/bug_localization", 4, 40)
    deepest, unique = zip(*(_leaf_guesses(p) for p in problems), strict=True)
    assert sum(deepest) / len(deepest) < 0.2
    assert sum(unique) / len(unique) < 0.2


def _window_answer(problem: palaestra.Problem, inside) -> str:
    """The question's measure over the requests whose time (to the second) ``inside`` keeps."""
    data = problem.data
    kept = []
    for body in data["files"].values():
        for line in body.splitlines():
            fields = line.split()
            if len(fields) < 6 or line.startswith("#") or not inside(fields[0][:19]):
                continue
            if data["status"] is None or int(fields[4]) // 100 == data["status"]:
                kept.append(fields)
    measure = data["measure"]
    if measure == "count":
        return str(len(kept))
    if measure == "bytes":
        return str(sum(int(fields[5]) for fields in kept))
    return str(len({fields[1] for fields in kept}))


def test_log_window_slips_at_the_bounds_fail() -> None:
    # v2: the requests at the bounds had any status and any address, so `> START` and `<= END` (each alone,
    # or both together, which cancel out on a count) were right in ~41% of level 0 and ~25% of level 4.
    for level in (0, 4):
        problems = _problems("terminal/log_window", level, 40)
        for slip in (
            lambda p: lambda t: p.data["bounds"][0][:19] < t < p.data["bounds"][1][:19],
            lambda p: lambda t: p.data["bounds"][0][:19] <= t <= p.data["bounds"][1][:19],
            lambda p: lambda t: p.data["bounds"][0][:19] < t <= p.data["bounds"][1][:19],
        ):
            pairs = [(p, _window_answer(p, slip(p))) for p in problems]
            assert _mean_reward("terminal/log_window", pairs) < 0.05, level


def _careless_find(problem: palaestra.Problem, slip: str) -> str:
    """The files a search with one slip lists: ``skip`` ignores the skipped folders, ``icase`` greps the marker in
    any case, ``at_least`` keeps files of exactly the size bound."""
    conditions = problem.data["conditions"]
    listed = []
    for path, body in problem.data["files"].items():
        top, name = path.split("/")[0], path.split("/")[-1]
        marker, bound = conditions["marker"], conditions["min_bytes"]
        size = len(body.encode())
        if (
            name.endswith("." + conditions["extension"])
            and (slip == "skip" or top not in conditions["skip"])
            and (conditions["under"] is None or top == conditions["under"])
            and (marker is None or (marker.lower() in body.lower() if slip == "icase" else marker in body))
            and (bound is None or (size >= bound if slip == "at_least" else size > bound))
            and (not conditions["empty"] or body == "")
        ):
            listed.append(path)
    return "\n".join(sorted(listed))


def test_find_files_each_careless_test_fails() -> None:
    # v1 left the near misses to chance: at level 4 ignoring vendor/ and build/ was right in ~26% of the
    # problems where they matter, grep -i in ~37% of those with a marker, ">= size" in ~46% of those with a size.
    problems = _problems("terminal/find_files", 4, 40)
    conditions = [p.data["conditions"] for p in problems]
    cases = {
        "skip": [p for p, c in zip(problems, conditions, strict=True) if c["skip"] and c["under"] is None],
        "icase": [p for p, c in zip(problems, conditions, strict=True) if c["marker"] is not None],
        "at_least": [p for p, c in zip(problems, conditions, strict=True) if c["min_bytes"] is not None],
    }
    for slip, chosen in cases.items():
        assert len(chosen) >= 8, slip
        pairs = [(p, _careless_find(p, slip)) for p in chosen]
        assert _mean_reward("terminal/find_files", pairs) < 0.05, slip


def test_checksum_verify_skipping_missing_hidden_or_md5_fails() -> None:
    # v1 left these near misses to chance: a check skipping missing files was right in ~19% of levels 0-2, one
    # skipping hidden files in 47-77%, one reading only SHA256SUMS in 18-28% of levels 3-4.
    for level in (0, 4):
        problems = _problems("terminal/checksum_verify", level, 30)
        slips = {
            "missing": lambda p: [x for x in p.data["failing"] if x in p.data["files"]],
            "hidden": lambda p: [x for x in p.data["failing"] if not x.split("/")[-1].startswith(".")],
        }
        if level >= 3:
            slips["md5"] = lambda p: [
                x
                for x in p.data["failing"]
                if x.split("/", 2)[0] + "/" + x.split("/", 2)[1] + "/SHA256SUMS" in p.data["files"]
            ]
        for slip, listing in slips.items():
            pairs = [(p, "\n".join(listing(p))) for p in problems]
            assert _mean_reward("terminal/checksum_verify", pairs) < 0.05, (level, slip)


def _careless_links(problem: palaestra.Problem, slip: str) -> str:
    """Links a careless search lists: ``hidden`` drops hidden links from the right list; ``not_file`` calls a link
    broken when it does not end at a file; ``one_hop`` checks only a link's own target; ``folders`` also counts
    links ending at a folder under www/<folder>/ (or the folder itself)."""
    import posixpath

    from palaestra.envs.terminal.broken_links import _resolve

    data = problem.data
    files, links, prefix = data["files"], data["links"], f"www/{data['folder']}/"
    if slip == "hidden":
        listed = [path for path in data["matching"] if not path.split("/")[-1].startswith(".")]
    elif slip == "not_file":
        listed = [path for path in links if _resolve(path, files, links) not in files]
    elif slip == "one_hop":
        hops = {path: posixpath.normpath(posixpath.join(posixpath.dirname(path), links[path])) for path in links}
        listed = [path for path, end in hops.items() if end in files and end.startswith(prefix)]
    else:
        ends = {path: _resolve(path, files, links) for path in links}
        listed = [path for path, end in ends.items() if end is not None and (end + "/").startswith(prefix)]
    return "\n".join(sorted(listed))


def test_broken_links_careless_searches_fail() -> None:
    # v1 left the near misses to chance: skipping hidden links was right in ~82% of level 0, "does not end at a
    # file" in ~60% of level 0; at level 4 one hop paid ~56% of the "into" questions, counting folders ~76%.
    problems = _problems("terminal/broken_links", 0, 30) + _problems("terminal/broken_links", 4, 40)
    for slip in ("hidden", "not_file", "one_hop", "folders"):
        question = "broken" if slip == "not_file" else "into" if slip in ("one_hop", "folders") else None
        chosen = [p for p in problems if question in (None, p.data["question"])]
        assert len(chosen) >= 10, slip
        pairs = [(p, _careless_links(p, slip)) for p in chosen]
        assert _mean_reward("terminal/broken_links", pairs) < 0.05, slip


def test_tree_diff_keeping_tmp_files_fails() -> None:
    # v1's .tmp files were only edited or deleted: listing them with the rest was right in every "added"
    # question of level 3 and in ~51% of the "deleted" ones.
    for level in (3, 4):
        pairs = []
        for problem in _problems("terminal/tree_diff", level, 30):
            files, question = problem.data["files"], problem.data["question"]
            before = {path[7:]: body for path, body in files.items() if path.startswith("before/")}
            after = {path[6:]: body for path, body in files.items() if path.startswith("after/")}
            kinds = {
                path: "added" if path not in before else "deleted" if path not in after else "edited"
                for path in set(before) | set(after)
                if before.get(path) != after.get(path)
            }
            listed = sorted(path for path, kind in kinds.items() if question in ("any", kind))
            pairs.append((problem, "\n".join(listed)))
        assert _mean_reward("terminal/tree_diff", pairs) < 0.05, level


def _slipped_mode(path: str, body: str, mode: int, rules: int, slip: str) -> int:
    """The mode the rules give with one slip: ``sh`` (a name containing .sh), ``glob`` (deploy/secrets/*: no
    hidden or nested files), ``shebang`` (#! on any line)."""
    parts, name = path.split("/"), path.split("/")[-1]
    tests = (
        ".sh" in name if slip == "sh" else name.endswith(".sh"),
        parts[1] == "secrets" and (slip != "glob" or (len(parts) == 3 and not name.startswith("."))),
        parts[1] == "conf",
        parts[1] == "bin" and ("\n#!" in "\n" + body if slip == "shebang" else body.startswith("#!")),
        name.endswith(".key"),
    )
    for rule, target in enumerate((0o755, 0o600, 0o644, 0o750, 0o400)[:rules]):
        mode = target if tests[rule] else mode
    return mode


def test_permissions_careless_commands_miss_a_file() -> None:
    # v1 left the near misses to chance: chmod 600 deploy/secrets/* set every mode right in ~78% of level 0 and
    # ~41% of level 4, a #! on any line in ~54% of level 4, a name containing .sh in 16-27%.
    for level in (0, 4):
        for problem in _problems("terminal/permissions", level, 20):
            data = problem.data
            for slip in ("sh", "glob") + (("shebang",) if data["rules"] >= 4 else ()):
                modes = {
                    path: _slipped_mode(path, body, data["modes"][path], data["rules"], slip)
                    for path, body in data["files"].items()
                }
                assert modes != data["targets"], (level, slip)


def test_config_repair_top_down_slip_fails() -> None:
    # v1: the fixes that shift lines sometimes came last or not at all, so applying the messages one at a time
    # from the top, with the log's numbers, was right in ~16% of level 3.
    for problem in _problems("terminal/config_repair", 3, 40):
        data = problem.data
        config = next(path for path in data["files"] if path.endswith(".yaml"))
        lines = data["files"][config].rstrip("\n").split("\n")
        for number in sorted(data["edits"], key=int):
            kind, text = data["edits"][number]
            index = int(number) - 1
            if index >= len(lines):
                continue
            if kind == "change":
                lines[index] = text
            elif kind == "delete":
                del lines[index]
            else:
                lines.insert(index + 1, text)
        assert "\n".join(lines) + "\n" != data["fixed"]


def test_find_by_mtime_listing_without_hidden_files_fails() -> None:
    # v1 left hidden files to chance: the right list without its hidden files was right in 67-83% of problems.
    for level in (0, 4):
        pairs = [
            (p, "\n".join(path for path in p.data["matching"] if not path.split("/")[-1].startswith(".")))
            for p in _problems("terminal/find_by_mtime", level, 30)
        ]
        assert _mean_reward("terminal/find_by_mtime", pairs) < 0.05, level
