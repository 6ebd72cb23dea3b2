"""Session-30 red team (helper terminal2): rules a solver could skip and still earn reward.

Each test writes the solver that skips one rule of the task (the env's own rule with that rule disabled, in Python
over the problem's data) and asserts the share of problems it solves; on the previous versions these shares were
0.2-0.9 (see each env's docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from palaestra.envs.service.common import cents_of, dollars
from palaestra.envs.terminal import archive_build as ab
from palaestra.envs.terminal.archive_build import ArchiveBuild
from palaestra.envs.terminal.bulk_rename import BulkRename
from palaestra.envs.terminal.find_by_mtime import FindByMtime
from palaestra.envs.terminal.normalize_text import TEXT, NormalizeText, _normalised
from palaestra.envs.web import form_filling as ff
from palaestra.envs.web.form_filling import FormFilling
from palaestra.envs.web.order_history import MONTHS, OrderHistory

SEEDS = range(12)


def _share(solved: Callable[[int], bool], seeds: range = SEEDS) -> float:
    return sum(solved(seed) for seed in seeds) / len(seeds)


# --- terminal/archive_build: each exclusion rule in play excludes a file ------------------------------------------

def _archive_skipping(skip: str, level: int) -> float:
    task = ArchiveBuild()

    def solved(seed: int) -> bool:
        problem = task.sample(level, seed)
        data = problem.data
        members = set()
        for path in data["files"]:
            parts = path.split("/")[1:]
            name, rules = parts[-1], data["rules"]
            excluded = {"build": parts[0] == "build", "pyc": rules >= 2 and name.endswith(".pyc"),
                        "hidden file": rules >= 3 and name.startswith("."),
                        "hidden folder": rules >= 3 and any(p.startswith(".") for p in parts[:-1]),
                        "tmp": rules >= 4 and (("tmp" in name) if skip == "name holds tmp" else name.endswith(".tmp"))}
            excluded.pop(skip, None)
            if not any(excluded.values()):
                members.add(ab._member(path, data["prefix"]))
        return members == set(task.expected_members(problem))

    return _share(solved)


def test_archive_build_every_exclusion_rule_decides_a_file() -> None:
    assert _archive_skipping("pyc", 2) == 0  # v1: 31%
    assert _archive_skipping("hidden folder", 3) == 0  # v1: 66% (`! -name '.*'` alone)
    assert _archive_skipping("hidden file", 4) == 0
    assert _archive_skipping("tmp", 4) == 0  # v1: 43%
    assert _archive_skipping("name holds tmp", 3) == 0  # v1: 100% (no look-alike of .tmp from level 1)
    assert _archive_skipping("build", 4) == 0
    assert _archive_skipping("none", 4) == 1


def test_archive_build_tmp_lookalike_stays() -> None:
    task = ArchiveBuild()
    for seed in SEEDS:  # tmp.md is always there (v1: only below level 1)
        assert "tmp.md" in {member.rsplit("/", 1)[-1] for member in task.expected_members(task.sample(4, seed))}


# --- terminal/find_by_mtime: the size bound's strictness and the extension decide a file ---------------------------

def _mtime_skipping(skip: str, level: int) -> float:
    task = FindByMtime()

    def solved(seed: int) -> bool:
        data = task.sample(level, seed).data
        question, found = data["question"], set()
        for path, body in data["files"].items():
            ok = question["low"] <= data["mtimes"][path] < question["high"]
            if question["size"] is not None:
                size = len(body.encode())
                ok = ok and (size >= question["size"] if skip == "size at least" else size > question["size"])
            if question["extension"] is not None and skip != "extension":
                ok = ok and path.endswith("." + question["extension"])
            found |= {path} if ok else set()
        return found == set(data["matching"])

    return _share(solved)


def test_find_by_mtime_size_bound_and_extension_decide() -> None:
    assert _mtime_skipping("size at least", 2) == 0  # v2: 33%
    assert _mtime_skipping("size at least", 4) == 0  # v2: 38%
    assert _mtime_skipping("extension", 3) == 0  # v2: 48%
    assert _mtime_skipping("none", 4) == 1


# --- terminal/normalize_text: hidden files and each extension hold a file to change --------------------------------

def _normalize_skipping(skip: Callable[[str], bool], level: int) -> float:
    task = NormalizeText()

    def solved(seed: int) -> bool:
        data = task.sample(level, seed).data
        got = {path: _normalised(body, data["steps"]) if path.endswith(TEXT) and not skip(path) else body
               for path, body in data["files"].items()}
        return got == data["targets"]

    return _share(solved)


def test_normalize_text_hidden_files_and_each_extension_change() -> None:
    assert _normalize_skipping(lambda path: "/." in path, 0) == 0  # v2: 77%
    for extension in TEXT:
        assert _normalize_skipping(lambda path, e=extension: path.endswith(e), 0) == 0  # v2: 31-38%
    assert _normalize_skipping(lambda path: False, 0) == 1


def test_normalize_text_bat_script_keeps_crlf() -> None:
    task = NormalizeText()
    for seed in SEEDS:
        files = task.sample(0, seed).data["files"]
        assert any(path.endswith(".bat") and "\r\n" in body for path, body in files.items())


# --- terminal/bulk_rename: every trap in play is planted -----------------------------------------------------------

LETTERS = r"([A-Za-z]+)_([0-9]+)\.([A-Za-z]+)"
SLOPPY = {"prefix of letters and digits": r"([A-Za-z0-9]+)_([0-9]+)\.([A-Za-z]+)",
          "optional prefix": r"([A-Za-z]*)_([0-9]+)\.([A-Za-z]+)",
          "optional extension": r"([A-Za-z]+)_([0-9]+)\.?([A-Za-z]*)",
          "dash or underscore": r"([A-Za-z]+)[_-]([0-9]+)\.([A-Za-z]+)",
          "extension with digits": r"([A-Za-z]+)_([0-9]+)\.([A-Za-z0-9]+)",
          "number with letters": r"([A-Za-z]+)_([0-9]+[a-z]?)\.([A-Za-z]+)"}


def _rename_skipping(pattern: str, number: Callable[[str], str], level: int) -> float:
    task = BulkRename()
    form = re.compile(pattern)

    def rename(name: str) -> str:
        match = form.fullmatch(name)
        if match is None:
            return name
        prefix, digits, extension = match.groups()
        return f"{prefix.lower()}_{number(digits)}" + (f".{extension.lower()}" if extension else "")

    def solved(seed: int) -> bool:
        data = task.sample(level, seed).data
        got = {path: f"{path.rsplit('/', 1)[0]}/{rename(path.rsplit('/', 1)[1])}" for path in data["files"]}
        return got == data["targets"]

    return _share(solved)


def _four(digits: str) -> str:
    head = re.match(r"[0-9]+", digits)
    return f"{int(head[0]) if head else 0:04d}{digits[head.end() if head else 0:]}"


def test_bulk_rename_every_lookalike_and_number_trap_decides() -> None:
    assert _rename_skipping(LETTERS, _four, 4) == 1
    assert _rename_skipping(SLOPPY["extension with digits"], _four, 0) == 0  # v2: 47%
    for name in ("prefix of letters and digits", "optional prefix", "optional extension", "dash or underscore",
                 "number with letters"):
        assert _rename_skipping(SLOPPY[name], _four, 1) == 0, name  # v2: 65-75%
    assert _rename_skipping(LETTERS, lambda digits: digits.zfill(4), 2) == 0  # zeros kept; v2: 47%
    assert _rename_skipping(LETTERS, lambda digits: _four(digits)[-4:], 3) == 0  # long cut; v2: 31%


# --- web/form_filling: the age on today's date and the years applied for decide ------------------------------------

def _form_values(level: int, seed: int, band: Callable[[date], str] | None = None) -> dict[str, str]:
    original = ff._band
    ff._band = band or original
    try:
        return FormFilling().sample(level, seed).data["values"]
    finally:
        ff._band = original


def _age_from_year(born: date) -> str:
    age = ff.TODAY.year - born.year
    return ff.BANDS[0] if age < 26 else ff.BANDS[1] if age < 65 else ff.BANDS[2]


def test_form_filling_age_from_the_birth_year_alone_mostly_fails() -> None:
    seeds = range(40)
    share = _share(lambda seed: _form_values(1, seed) == _form_values(1, seed, _age_from_year), seeds)
    assert share <= 0.65  # v1: 89% at level 1; v2 about 35%; v3 about half (the edge cases at even odds)


def test_form_filling_fee_needs_the_years() -> None:
    for seed in SEEDS:
        problem = FormFilling().sample(2, seed)
        assert "applying for 1 year," not in problem.prompt  # v1: a fee without the years paid 21% of level 2


# --- web/order_history: the near misses at the month's bounds, statuses and returned lines -------------------------

def _history_skipping(skip: str, level: int) -> float:
    task = OrderHistory()

    def solved(seed: int) -> bool:
        problem = task.sample(level, seed)
        month = re.search(r"placed in (\w+) (\d{4})", problem.prompt)
        assert month is not None
        first = date(int(month[2]), MONTHS.index(month[1]) + 1, 1)
        following = (first + timedelta(days=32)).replace(day=1)
        low = first - timedelta(days=1) if skip == "day before" else first
        high = following + timedelta(days=1) if skip == "day after" else following
        category = re.search(r"on (\w+) items", problem.prompt)
        total = 0
        for path, record in problem.data["records"]["site"]["pages"].items():
            placed = re.match(r"Placed (\S+), status (\w+)", record["text"][0]) if path.startswith("/o/") else None
            if placed is None or not low.isoformat() <= placed[1] < high.isoformat():
                continue
            if placed[2] == "cancelled" or (placed[2] == "returned" and skip != "returned orders"):
                continue
            for row in record["table"][1:]:
                if (row[4] != "returned" or skip == "returned lines") and (category is None or row[1] == category[1]):
                    total += cents_of(row[2]) * int(row[3])
        return dollars(total) == problem.answer

    return _share(solved)


def test_order_history_every_near_miss_counts_where_a_slip_counts_it() -> None:
    assert _history_skipping("none", 3) == 1
    assert _history_skipping("day before", 2) == 0  # v2: 87%
    assert _history_skipping("day after", 0) == 0  # v2: 37%
    assert _history_skipping("returned orders", 2) == 0  # v2: 53%
    assert _history_skipping("returned lines", 3) == 0  # v2: 69%


# --- web/checkout: the answer's place among the shipping options varies --------------------------------------------

def test_checkout_second_cheapest_shipping_is_not_always_the_answer() -> None:
    from palaestra.envs.web.checkout import Checkout

    def second_cheapest(seed: int) -> bool:
        data = Checkout().sample(0, seed).data
        options = data["records"]["shipping"]
        second = sorted(options, key=lambda code: options[code]["price"])[1]
        return all(second == order["shipping"] for order in data["orders"])  # v6: two orders

    assert _share(second_cheapest, range(24)) <= 0.6  # v1: 100% of levels 0-1
