"""Red-team regressions for the agentic families (web, repo, terminal; round 3, session 27).

Each test pins a right answer a careful grader accepts that was rejected before its fix (or a wrong one
accepted), judged through the env's own ``judge``.
"""

from __future__ import annotations

import palaestra
from palaestra.core.registry import make_source

PATH_ENVS = ("terminal/find_files", "terminal/tree_diff", "terminal/broken_links", "terminal/find_by_mtime",
             "terminal/checksum_verify")


def _problems(env_id: str, level: int, count: int, base: int = 27_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def test_path_lists_read_spaces_a_one_line_lead_in_and_a_closing_full_stop() -> None:
    # `echo $(find ...)` prints "a.txt b/c.txt"; that list was read as one path with a space. "Matching files: a, b"
    # read "Matching files: a" as a path, and "a, b." read "b." as a path: all three right answers scored 0.
    for env_id in PATH_ENVS:
        source = make_source(env_id)
        for problem in _problems(env_id, 1, 6):
            paths = sorted(problem.data.get("matching") or problem.data.get("failing") or [])
            if len(paths) < 2 or any(" " in path for path in problem.data["files"]):
                continue
            for right in (" ".join(paths), "Answer: " + " ".join(reversed(paths)),
                          "Matching files: " + ", ".join(paths), ", ".join(paths) + ".",
                          "The matching files are: " + ", ".join(paths) + "."):
                assert source.judge(problem, right).correct, (env_id, right)
            other = next(path for path in sorted(problem.data["files"]) if path not in paths)
            for wrong in (" ".join([*paths, other]), " ".join(paths[1:]), " ".join(paths) + " or " + other,
                          "Matching files: " + ", ".join(paths) + ". Or " + other + "."):
                assert not source.judge(problem, wrong).correct, (env_id, wrong)
    # Where the tree has names with spaces, "a b" may be one file: the space-separated reading is not used.
    source = make_source("terminal/find_by_mtime")
    checked = 0
    for problem in _problems("terminal/find_by_mtime", 4, 20):
        paths = sorted(problem.data["matching"])
        if len(paths) < 2 or not any(" " in path for path in problem.data["files"]):
            continue
        checked += 1
        assert source.judge(problem, "\n".join(paths)).correct
        if not any(" " in path for path in paths):
            assert not source.judge(problem, " ".join(paths)).correct
    assert checked >= 5


def test_bug_localization_reads_the_function_with_its_file_and_a_function_noun() -> None:
    # "parse in pkg/mod.py", "parse (pkg/mod.py)", "pkg/mod.py:parse", "The bug is in the `parse` function." and
    # "def parse" name the bugged function as a reviewer reads them; all were unparsed. A file that is not the
    # function's, or a second function, stays wrong.
    source = make_source("repo/bug_localization")
    for problem in _problems("repo/bug_localization", 2, 4):
        name, data = problem.answer or "", problem.data
        module, package = data["modules_of"][name], data["package"]
        other = next(n for n in data["names"] if n != name and n not in data["chain"])
        elsewhere = next(m for m in sorted(set(data["modules_of"].values())) if m != module)
        for right in (f"{name} in {package}/{module}.py", f"`{name}` (`{package}/{module}.py`)",
                      f"{package}/{module}.py:{name}", f"The bug is in the `{name}` function.", f"def {name}",
                      f"{name}() in module {package}.{module}", f"The function is {name} (in {module}.py)."):
            assert source.judge(problem, right).correct, right
        for wrong in (f"{name} in {package}/{elsewhere}.py", f"{package}/{elsewhere}.py::{name}", f"{name} ({other})",
                      f"{name} in {package}/{module}.py or {other}", f"the {name} or {other} function",
                      f"{other} function", f"{name} (or {other})"):
            assert not source.judge(problem, wrong).correct, wrong


def test_shortest_route_reads_other_arrows_lists_and_a_lead_in() -> None:
    # "A => B => C", one title per line (numbered or bulleted), "A, B, C" and "Route: A > B > C" spell the route a
    # grader reads; all were unparsed. A hedge, a retraction and a route with a click left out stay wrong.
    source = make_source("web/shortest_route")
    for problem in _problems("web/shortest_route", 2, 4):
        titles = (problem.answer or "").split(" > ")
        skipped = " > ".join([titles[0], *titles[2:]])
        for right in (" => ".join(titles), ", ".join(titles), "\n".join(titles),
                      "\n".join(f"{n}. {title}" for n, title in enumerate(titles, 1)),
                      "\n".join(f"- {title}" for title in titles), "Route: " + " > ".join(titles),
                      "The shortest route is " + " > ".join(titles) + ".", " » ".join(titles)):
            assert source.judge(problem, right).correct, right
        for wrong in (", ".join(titles) + " or " + skipped, "\n".join(titles) + "\nor\n" + skipped,
                      "\n".join(titles[:-1]), ", ".join(titles[1:]), "Route: " + skipped,
                      ", ".join([titles[0], *titles[2:]])):
            assert not source.judge(problem, wrong).correct, wrong


def test_backlinks_reads_a_title_with_its_page_path_as_the_browser_heads_it() -> None:
    # The browser heads a page "Title (/w/x1y2z3)"; the linking page named so (copied from the page) was unparsed.
    # The path must be that page's: another page's path, or another page's title with the right path, is not it.
    source = make_source("web/backlinks")
    for problem in _problems("web/backlinks", 2, 4):
        title, path = problem.answer or "", problem.data["linker"]
        pages = problem.data["records"]["site"]["pages"]
        other = next(p for p in sorted(pages) if p not in (path, "/"))
        for right in (f"{title} ({path})", f"The page is `{title}` (`{path}`).", f"{title.upper()} ({path})"):
            assert source.judge(problem, right).correct, right
        for wrong in (f"{title} ({other})", f"{pages[other]['title']} ({path})", f"{title} (or {pages[other]['title']})",
                      f"{title} ({pages[other]['title']})"):
            assert not source.judge(problem, wrong).correct, wrong


def test_log_forensics_reads_the_busiest_hour_as_a_one_hour_range() -> None:
    # "17:00-18:00", "17:00 UTC", "between 17:00 and 18:00" and "hour 17" name the hour asked (UTC); all were
    # unparsed. Two hours, a longer range or a time inside the hour stay unread.
    source = make_source("terminal/log_forensics")
    problems = [p for p in _problems("terminal/log_forensics", 4, 30) if p.data["question"]["form"] == "hour"]
    assert len(problems) >= 5
    for problem in problems:
        hour = int(problem.answer or "0")
        after, later = f"{(hour + 1) % 24:02d}", f"{(hour + 2) % 24:02d}"
        for right in (f"{hour:02d}:00-{after}:00", f"{hour:02d}:00 UTC", f"between {hour:02d}:00 and {after}:00",
                      f"hour {hour:02d}", f"{hour:02d}:00\u2013{after}:00 UTC", f"{hour:02d}:00-{hour:02d}:59"):
            assert source.judge(problem, right).correct, right
        for wrong in (f"{hour:02d} and {after}", f"{hour:02d}:00-{later}:00", f"{hour:02d}:30",
                      f"between {hour:02d}:00 and {later}:00", f"{after}:00-{later}:00", f"{hour:02d} or {after}"):
            assert not source.judge(problem, wrong).correct, wrong


def test_compare_sites_the_lowest_unit_price_wins_at_chance_rate_only(monkeypatch) -> None:
    # v1 kept a draw where the shop with the lowest unit price was also the cheapest delivered one time in five,
    # and between two shops the lower price wins 9 draws in 10: "work out the total of the shop with the lowest
    # price" (one shop's shipping read, the comparison skipped) was right in 63-71% of levels 0-1 (two shops).
    from palaestra.envs.service.common import dollars
    from palaestra.envs.web import compare_sites

    calls: list[tuple] = []
    total = compare_sites._total

    def recorded(price, units, rule, deal):  # the generator's per-shop totals, in shop order, as they are drawn
        calls.append((price, units, rule, deal))
        return total(price, units, rule, deal)

    monkeypatch.setattr(compare_sites, "_total", recorded)
    source = make_source("web/compare_sites")
    right = 0
    for level in (0, 1):  # two shops: chance is one in two
        for seed in range(150):
            calls.clear()
            problem = source.sample(level, 27_000 + seed)
            shops = calls[-len(problem.data["shops"]):]
            lowest = min(shops, key=lambda shop: shop[0])
            right += dollars(total(*lowest)) == problem.answer
    assert right / 300 < 0.56, right  # v1: 0.63 on these seeds; v2: 0.46


def _shop(problem: palaestra.Problem) -> tuple[list[dict[str, str]], str, float]:
    """The asked category's products (as their pages state them), the asked colour and the rating threshold."""
    words = problem.prompt.split("category that is ")[1].split(", in stock, and rated at least ")
    category = problem.prompt.split("Find the cheapest product in the ")[1].split(" category")[0]
    products = []
    for record in problem.data["records"]["site"]["pages"].values():
        if any(anchor == f"Back to {category}" for anchor, _ in record["links"]):
            fields = dict(line.split(": ", 1) for line in record["text"])
            products.append({**fields, "price": float(fields["Price"][1:]), "rating": float(fields["Rating"].split()[0])})
    return sorted(products, key=lambda p: p["price"]), words[0], float(words[1].split()[0])


def test_cheapest_product_skipping_a_condition_or_counting_near_misses_fails() -> None:
    # v1 drew one cheaper near miss of the colour (out of stock or rated too low) and one of another colour:
    # ignoring the stock paid 57-77%, the rating 29-41%, the colour 31-67%, and "the second cheapest product of the
    # colour" (no product page read but its own) 53-100% of levels 0-4.
    source = make_source("web/cheapest_product")
    for level in (0, 2, 4):
        problems = _problems("web/cheapest_product", level, 150)
        shortcuts = {"stock": 0, "rating": 0, "colour": 0, "second": 0, "third": 0}
        for problem in problems:
            products, colour, threshold = _shop(problem)
            def first(keep) -> str:
                return next((p["SKU"] for p in products if keep(p)), "")
            shortcuts["stock"] += first(lambda p: p["Colour"] == colour and p["rating"] >= threshold) == problem.answer
            shortcuts["rating"] += first(lambda p: p["Colour"] == colour and p["Availability"] == "in stock") \
                == problem.answer
            shortcuts["colour"] += first(lambda p: p["Availability"] == "in stock" and p["rating"] >= threshold) \
                == problem.answer
            same = [p["SKU"] for p in products if p["Colour"] == colour]
            shortcuts["second"] += same[1:2] == [problem.answer]
            shortcuts["third"] += same[2:3] == [problem.answer]
            assert source.judge(problem, first(lambda p: p["Colour"] == colour and p["rating"] >= threshold
                                               and p["Availability"] == "in stock")).correct
        assert shortcuts["stock"] == shortcuts["rating"] == shortcuts["colour"] == 0, (level, shortcuts)
        assert max(shortcuts["second"], shortcuts["third"]) / len(problems) < 0.36, (level, shortcuts)  # v2: ~0.25


def test_room_booking_skipping_the_stars_or_the_free_nights_fails() -> None:
    # v2 left the stars trap to chance: "the cheapest room of the city free every night of the stay" (stars unread)
    # was the room the policy picks in 72-79% of levels 0-4; "the cheapest of enough stars" (nights unread) 13-18%.
    from datetime import date, timedelta

    for level in (2, 4):
        problems = _problems("web/room_booking", level, 100)
        skipped = {"stars": 0, "nights": 0}
        for problem in problems:
            data = problem.data
            rooms = data["records"]["rooms"]
            least = int(problem.prompt.split("hotel with at least ")[1].split()[0])
            stay = {(date.fromisoformat(data["check_in"]) + timedelta(days=n)).isoformat()
                    for n in range(data["nights"])}
            city = sorted(data["city_rooms"], key=lambda path: rooms[path]["price"])
            free = next(path for path in city if stay <= set(rooms[path]["free"]))
            starred = next(path for path in city if rooms[path]["stars"] >= least)
            skipped["stars"] += free == data["route"][-1]
            skipped["nights"] += starred == data["route"][-1]
        assert skipped["stars"] / len(problems) < 0.15 and skipped["nights"] / len(problems) < 0.15, (level, skipped)
