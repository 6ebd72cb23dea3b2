"""The web family: navigation envs over generated offline sites, judged on the final answer and records.

Each env gets an honest policy that reads only the prompt and the pages the tools return (it must win),
and shortcuts that must not: answering from the start page, guessing URLs, careless navigation.
"""

from __future__ import annotations

import json
import re

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.service.common import call
from palaestra.envs.web.common import _path_of, judge_code, render

STAFF = make_source("web/staff_directory")


def play(source, problem, replies: list[str]):
    state = source.initial_state(problem)
    outcome = None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state = outcome.state
        if outcome.done:
            break
    return outcome


class Browser:
    """Drives an env's tools one call at a time, keeping only what a policy sees: the observations."""

    def __init__(self, source, problem) -> None:
        self.source, self.problem = source, problem
        self.state = source.initial_state(problem)
        self.page = ""

    def do(self, name: str, **arguments) -> str:
        outcome = self.source.advance(self.problem, self.state, call(name, **arguments))
        assert not outcome.done, outcome.observation
        self.state = outcome.state
        text = outcome.observation.split("<tool_response>\n", 1)[1].rsplit("\n</tool_response>", 1)[0]
        if not text.startswith("error"):
            self.page = text
        return text

    def links(self) -> list[tuple[int, str]]:
        return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^\[(\d+)\] (.*) -> /\S*$", self.page, re.M)]

    def follow_anchor(self, anchor: str) -> str:
        number = next(n for n, text in self.links() if text == anchor)
        return self.do("follow", link=number)

    def answer(self, text: str):
        return self.source.advance(self.problem, self.state, self.source.format_answer(text)).verdict


# --- the common browser tools -----------------------------------------------------------------------------


def test_paths_are_read_as_typed_and_pages_render_with_numbered_links() -> None:
    assert _path_of("https://example.com/u/abc/?q=1#top") == "/u/abc"
    assert _path_of("u/abc") == "/u/abc" and _path_of("") == "/"
    text = render("/x", {"title": "T", "text": ["body"], "links": [["A", "/a"], ["B", "/b"]],
                         "table": [["name", "price"], ["kite", "$3.00"]], "forms": {"buy": ["quantity"]}})
    assert text.splitlines() == ["T (/x)", "body", "| name | price |", "| kite | $3.00 |",
                                 "form 'buy': fields quantity", "Links:", "[1] A -> /a", "[2] B -> /b"]


def test_codes_are_read_after_a_label_and_a_second_code_is_refused() -> None:
    assert judge_code("Extension 4821.", "4821", "extension").correct
    assert judge_code("The SKU is k7q2x", "K7Q2X", "SKU").correct
    assert not judge_code("4821 or 4822", "4821", "extension").correct
    wrong = judge_code("4822", "4821", "extension")
    assert not wrong.correct and "4821" not in wrong.feedback


def test_the_browser_refuses_what_a_site_would() -> None:
    problem = STAFF.sample(1, 3)
    browser = Browser(STAFF, problem)
    assert browser.do("follow", link=1).startswith("error: no page is open")
    assert browser.do("open", url="/u/aaaaaa").startswith("error: 404")
    browser.do("open", url="/")
    count = len(browser.links())
    assert browser.do("follow", link=count + 1) == f"error: the open page has links 1 to {count}"


# --- web/staff_directory ----------------------------------------------------------------------------------


def _staff_goal(prompt: str) -> tuple[str, list[str]]:
    match = re.search(r"extension of (.+?), who works in (.+?)\. Use the tools", prompt)
    assert match
    return match.group(1), [part.removeprefix("the ") for part in match.group(2).split(", ")][::-1]


def _honest_staff(problem) -> object:
    """Open the start page and follow the links the prompt's units name, top down; read the extension."""
    person, units = _staff_goal(problem.prompt)
    browser = Browser(STAFF, problem)
    browser.do("open", url="/")
    for name in [*units, person]:
        browser.follow_anchor(name)
    extension = re.search(r"Phone extension: (\d+)", browser.page)
    return browser.answer(extension.group(1) if extension else "none")


def _careless_staff(problem) -> object:
    """The first page titled with the person's name that a breadth-first walk of the site's links reaches
    (whatever units it lies under), read as the answer."""
    person, _ = _staff_goal(problem.prompt)
    pages = problem.data["records"]["site"]["pages"]
    queue, seen = ["/"], {"/"}
    while queue:
        record = pages[queue.pop(0)]
        if record["title"] == person:
            return STAFF.judge(problem, next(line for line in record["text"] if line.startswith("Phone")).split()[-1])
        for _, target in record["links"]:
            if target not in seen:
                seen.add(target)
                queue.append(target)
    raise AssertionError("the person's page is unreachable")


def test_staff_directory_oracle_and_replay() -> None:
    for level in range(5):
        problem = STAFF.sample(level, 11)
        assert play(STAFF, problem, STAFF.plan(problem)).verdict.correct
        assert palaestra.score(problem, [STAFF.format_answer(r) for r in STAFF.plan(problem)]).correct


def test_staff_directory_honest_navigation_wins_and_careless_navigation_often_loses() -> None:
    honest = careless = 0
    for seed in range(20):
        problem = STAFF.sample(3, seed)
        honest += _honest_staff(problem).correct
        careless += _careless_staff(problem).correct
    assert honest == 20
    assert careless <= 14, careless  # the decoy branch ends at a namesake about as often as the real one


def test_staff_directory_shortcuts_fail() -> None:
    for seed in range(10):
        problem = STAFF.sample(2, seed)
        browser = Browser(STAFF, problem)
        start = browser.do("open", url="/")
        assert problem.answer not in start and problem.answer not in problem.prompt
        assert not any(problem.answer in path for path in problem.data["records"]["site"]["pages"])
        assert browser.do("open", url="/p/" + problem.answer).startswith("error: 404")
        assert not browser.answer("1234").correct


def test_staff_directory_hand_checked_instance() -> None:
    problem = STAFF.sample(0, 5)
    pages = problem.data["records"]["site"]["pages"]
    person_page = pages[problem.data["route"][-1]]
    assert f"Phone extension: {problem.answer}" in person_page["text"]
    namesakes = [record for record in pages.values() if record["title"] == person_page["title"]]
    assert len(namesakes) == 2  # the decoy branch's namesake, with another extension
    assert STAFF.judge(problem, f"ext. {problem.answer}").correct
    other = next(line for record in namesakes if record is not person_page for line in record["text"]
                 if line.startswith("Phone"))
    verdict = STAFF.judge(problem, other.rsplit(" ", 1)[1])
    assert not verdict.correct and verdict.feedback == "that is not the right extension"
    assert json.dumps(problem.data)  # JSON-native


# --- web/cheapest_product ---------------------------------------------------------------------------------

SHOP = make_source("web/cheapest_product")


def _shop_goal(prompt: str) -> tuple[str, str, float]:
    match = re.search(r"in the (\w+) category that is (\w+), in stock, and rated at least ([\d.]+) stars", prompt)
    assert match
    return match.group(1), match.group(2), float(match.group(3))


def _read_listing(problem) -> tuple[Browser, list[tuple[int, str, str, int]], str]:
    """Open the category from the start page and read every listing page: (price, name, page path, link)."""
    category, colour, _ = _shop_goal(problem.prompt)
    browser = Browser(SHOP, problem)
    browser.do("open", url="/")
    browser.follow_anchor(category)
    rows = []
    while True:
        path = re.search(r"\((/[^)]*)\)$", browser.page.splitlines()[0]).group(1)
        links = dict((text, number) for number, text in browser.links())
        for name, price, shade in re.findall(r"^\| (.+?) \| \$([\d.]+) \| (\w+) \|$", browser.page, re.M):
            if shade == colour:
                rows.append((round(float(price) * 100), name, path, links[name]))
        if "Next page" not in links:
            return browser, sorted(rows), colour
        browser.follow_anchor("Next page")


def _honest_shop(problem):
    """Every listing page read; the candidates of the colour opened in price order until one qualifies."""
    _, _, threshold = _shop_goal(problem.prompt)
    browser, rows, _ = _read_listing(problem)
    for _, _, path, link in rows:
        browser.do("open", url=path)
        text = browser.do("follow", link=link)
        rating = float(re.search(r"Rating: ([\d.]+)", text).group(1))
        if "in stock" in text.split("Availability: ")[1] and rating >= threshold:
            return browser.answer(re.search(r"SKU: (\w+)", text).group(1))
    return browser.answer("none")


def _cheapest_listed_of_the_colour(problem):
    """Careless: the cheapest listed product of the colour, its stock and rating unchecked."""
    browser, rows, _ = _read_listing(problem)
    _, _, path, link = rows[0]
    browser.do("open", url=path)
    return browser.answer(re.search(r"SKU: (\w+)", browser.do("follow", link=link)).group(1))


def test_cheapest_product_honest_shopper_wins_and_careless_ones_lose() -> None:
    for level in (0, 2, 4):
        for seed in range(8):
            problem = SHOP.sample(level, seed)
            assert _honest_shop(problem).correct, (level, seed)
            assert not _cheapest_listed_of_the_colour(problem).correct, (level, seed)
            assert play(SHOP, problem, SHOP.plan(problem)).verdict.correct


def test_cheapest_product_decoy_in_another_category_and_no_leaks() -> None:
    problem = SHOP.sample(3, 2)
    _, colour, threshold = _shop_goal(problem.prompt)
    pages = problem.data["records"]["site"]["pages"]
    listed = {row[0] for path in problem.data["listing"] for row in pages[path]["table"][1:]}
    answer_page = next(r for r in pages.values() if r["text"][:1] == [f"SKU: {problem.answer}"])
    price = float(answer_page["text"][1].split("$")[1])
    cheaper_elsewhere = [r for r in pages.values() if r["text"][:1] and r["text"][0].startswith("SKU:")
                         and r["title"] not in listed and f"Colour: {colour}" in r["text"]
                         and "Availability: in stock" in r["text"] and float(r["text"][1].split("$")[1]) < price
                         and float(r["text"][3].split()[1]) >= threshold]
    assert cheaper_elsewhere  # the decoy: it qualifies but is not of the asked category
    assert problem.answer not in problem.prompt and not any(problem.answer.lower() in p for p in pages)
    assert not SHOP.judge(problem, cheaper_elsewhere[0]["text"][0].split()[1]).correct
    assert SHOP.judge(problem, f"SKU {problem.answer.lower()}.").correct


# --- web/checkout -----------------------------------------------------------------------------------------

CHECKOUT = make_source("web/checkout")


def _checkout_goals(prompt: str):
    """Each order the prompt asks for (v6: two): its items, recipient and days."""
    goals = []
    for items, name, street, place, phone, within in re.findall(
            r"order: buy exactly these items: (.+?); ship them to ([^,]+), ([^,]+), ([^;]+); phone (.+?); choose the "
            r"cheapest shipping option that delivers within (\d+) days", prompt):
        wanted = [(int(q), name) for q, name in re.findall(r"(\d+) x ([^,]+)", items)]
        postcode, city = place.split(" ", 1)
        customer = {"name": name, "street": street, "city": city, "postcode": postcode, "phone": phone}
        goals.append((wanted, customer, int(within)))
    return goals


def _honest_checkout(problem, *, shipping_rule: str = "cheapest within", twice: bool = False):
    """Find each item by browsing the categories, set its quantity, check out; fix what the site rejects."""
    goals = _checkout_goals(problem.prompt)
    assert len(goals) == 2
    browser = Browser(CHECKOUT, problem)
    home = browser.do("open", url="/")
    where = {}  # product name -> (category page path, link number), each category read once
    for category in [text for _, text in browser.links() if text not in ("Cart", "Home")]:
        if browser.page != home:
            browser.do("open", url="/")
        listing = browser.follow_anchor(category)
        path = re.search(r"\((/[^)]*)\)$", listing.splitlines()[0]).group(1)
        where.update({text: (path, number) for number, text in browser.links()})
    for wanted, customer, within in goals:
        for quantity, name in wanted:
            path, number = where[name]
            browser.do("open", url=path)
            browser.do("follow", link=number)
            assert browser.do("fill_and_submit", form_id="add_to_cart", fields={"quantity": str(quantity)}
                              ).startswith("cart updated")
        browser.do("open", url="/")
        browser.follow_anchor("Cart")
        page = browser.follow_anchor("Checkout")
        options = [(int(days), float(price), code) for code, price, days
                   in re.findall(r"^\| (\w+) \| \$([\d.]+) \| (\d+) \|$", page, re.M)]
        if shipping_rule == "cheapest within":
            code = min((price, code) for days, price, code in options if days <= within)[1]
        else:
            code = min((price, code) for _, price, code in options)[1]
        fields = {**customer, "shipping": code}
        reply = browser.do("fill_and_submit", form_id="checkout", fields=fields)
        if reply.startswith("error"):  # the site names the field at fault: the phone as written
            assert "phone: 10 digits" in reply and problem.answer not in reply
            fields["phone"] = "".join(c for c in fields["phone"] if c.isdigit())
            reply = browser.do("fill_and_submit", form_id="checkout", fields=fields)
    if twice:  # a careless third order: one item again
        path, number = where[goals[-1][0][0][1]]
        browser.do("open", url=path)
        browser.do("follow", link=number)
        browser.do("fill_and_submit", form_id="add_to_cart", fields={"quantity": "1"})
        browser.do("open", url=problem.data["checkout"])
        browser.do("fill_and_submit", form_id="checkout", fields=fields)
    number = re.search(r"order number is (\d+)", reply)
    return browser.answer(number.group(1) if number else "none")


def test_checkout_honest_buyer_wins_through_a_validation_error() -> None:
    for level in (0, 2, 4):
        for seed in range(6):
            problem = CHECKOUT.sample(level, seed)
            assert _honest_checkout(problem).correct, (level, seed)
            assert play(CHECKOUT, problem, CHECKOUT.plan(problem)).verdict.correct


def test_checkout_wrong_shipping_a_second_order_or_no_order_fail() -> None:
    for seed in range(6):
        problem = CHECKOUT.sample(3, seed)
        assert not _honest_checkout(problem, shipping_rule="cheapest").correct  # too slow
        assert not _honest_checkout(problem, twice=True).correct  # a second order is wrong
        assert not play(CHECKOUT, problem, [problem.answer]).verdict.correct  # the number, no order: records differ
        assert problem.answer not in problem.prompt


def test_checkout_a_wrong_quantity_fails_on_the_records() -> None:
    problem = CHECKOUT.sample(1, 3)
    plan = CHECKOUT.plan(problem)
    first_add = next(i for i, move in enumerate(plan) if "add_to_cart" in move)
    quantity = problem.data["orders"][0]["wanted"][0][1]
    plan[first_add] = plan[first_add].replace(f'"quantity": "{quantity}"', f'"quantity": "{quantity + 1}"')
    verdict = play(CHECKOUT, problem, plan).verdict
    assert not verdict.correct and "records" in verdict.feedback
    over = Browser(CHECKOUT, problem)
    over.do("open", url=problem.data["orders"][0]["wanted"][0][0])
    assert over.do("fill_and_submit", form_id="add_to_cart", fields={"quantity": "99"}).startswith(
        "error: quantity: only")
    assert over.do("fill_and_submit", form_id="checkout", fields={}).startswith("error: the open page has no form")


# --- web/room_booking -------------------------------------------------------------------------------------

ROOMS = make_source("web/room_booking")


def _booking_goal(prompt: str):
    match = re.search(r"for (.+?) on a website.*?cheapest room in (\w+) in a hotel with at least (\d) stars that is "
                      r"free every night from ([\d-]+) for (\d+) nights?, .*?at most \$(\d+);", prompt, re.S)
    assert match
    guest, city, stars, check_in, nights, budget = match.groups()
    return guest, city, int(stars), check_in, int(nights), int(budget) * 100


def _honest_booking(problem, *, mind_budget: bool = True, mind_policy: bool = True):
    """Read the city's hotels and their room tables; open candidates in price order; book the first allowed."""
    guest, city, min_stars, check_in, nights, budget = _booking_goal(problem.prompt)
    stay = set(_stay_nights(check_in, nights))
    browser = Browser(ROOMS, problem)
    browser.do("open", url="/")
    browser.follow_anchor(city)
    city_page = browser.page
    city_path = re.search(r"\((/[^)]*)\)$", city_page.splitlines()[0]).group(1)
    candidates = []
    for _, anchor in [link for link in browser.links()]:
        stars = int(re.search(r"\((\d) stars\)", anchor).group(1))
        if mind_policy and stars < min_stars:
            continue
        browser.do("open", url=city_path)
        hotel = browser.follow_anchor(anchor)
        hotel_path = re.search(r"\((/[^)]*)\)$", hotel.splitlines()[0]).group(1)
        numbers = dict((text, number) for number, text in browser.links())
        for kind, price in re.findall(r"^\| ([\w ]+) \| \$([\d.]+) \|$", hotel, re.M):
            candidates.append((round(float(price) * 100), hotel_path, numbers[kind]))
    for price, hotel_path, number in sorted(candidates):
        browser.do("open", url=hotel_path)
        room = browser.do("follow", link=number)
        free = set(re.search(r"Free nights: (.*)", room).group(1).split(", "))
        if mind_policy and not stay <= free:
            continue
        if mind_budget and price * nights > budget:  # v2: "none" names the room that proves it
            return browser.answer("none: " + re.search(r"\((/[^)]*)\)$", room.splitlines()[0]).group(1))
        reply = browser.do("fill_and_submit", form_id="book",
                           fields={"guest": guest, "check_in": check_in, "nights": str(nights)})
        code = re.search(r"confirmation code (\w+)", reply)
        return browser.answer(code.group(1) if code else "none")
    return browser.answer("none")


def _stay_nights(check_in: str, nights: int) -> list[str]:
    from datetime import date, timedelta

    return [(date.fromisoformat(check_in) + timedelta(days=n)).isoformat() for n in range(nights)]


def test_room_booking_honest_agent_wins_on_both_sides() -> None:
    sides = set()
    for level in (0, 2, 4):
        for seed in range(10):
            problem = ROOMS.sample(level, seed)
            sides.add(problem.data["room"] is None)
            assert _honest_booking(problem).correct, (level, seed)
            assert play(ROOMS, problem, ROOMS.plan(problem)).verdict.correct
    assert sides == {True, False}


def test_room_booking_ignoring_the_policy_or_the_budget_fails() -> None:
    careless = over_budget = nothing = nones = 0
    for seed in range(30):
        problem = ROOMS.sample(3, seed)
        careless += _honest_booking(problem, mind_policy=False).correct  # the cheapest room, stars and nights unread
        over_budget += _honest_booking(problem, mind_budget=False).correct
        nothing += play(ROOMS, problem, ["none"]).verdict.correct  # v2: a bare "none" lacks its proof
        nones += problem.data["room"] is None
        assert problem.data["records"]["next_code"] not in problem.prompt
    assert careless == 0 and nothing == 0  # the site refuses a taken night; a "none" names the wrong room
    assert over_budget == 30 - nones and 0 < nones <= 18, (over_budget, nones)  # v4: 40% of problems allow no booking


def test_room_booking_a_booking_on_the_none_side_fails_on_the_records() -> None:
    problem = next(p for p in (ROOMS.sample(1, seed) for seed in range(40)) if p.data["room"] is None)
    replies = [*route_moves_to_answer_room(problem), problem.answer]
    verdict = play(ROOMS, problem, replies).verdict
    assert not verdict.correct and "records" in verdict.feedback
    assert ROOMS.judge(problem, f"No room: {problem.data['route'][-1]}.").correct
    assert not ROOMS.judge(problem, "No room.").correct and not ROOMS.judge(problem, "none or BK10000").correct


def route_moves_to_answer_room(problem) -> list[str]:
    from palaestra.envs.web.common import route_moves

    data = problem.data
    fields = {"guest": data["guest"], "check_in": data["check_in"], "nights": str(data["nights"])}
    return [*route_moves(data["records"]["site"]["pages"], data["route"]),
            call("fill_and_submit", form_id="book", fields=fields)]


# --- web/backlinks ----------------------------------------------------------------------------------------

WIKI = make_source("web/backlinks")


def _crawl_for_backlink(problem):
    """Breadth-first over the paths the pages show, one open per page, until a page links to the article."""
    article = re.search(r'links to the article titled "(.+?)"', problem.prompt).group(1)
    browser = Browser(WIKI, problem)
    queue, seen = ["/"], {"/"}
    while queue:
        text = browser.do("open", url=queue.pop(0))
        if any(anchor == article for _, anchor in browser.links()):
            return browser.answer(text.splitlines()[0].rsplit(" (", 1)[0])
        for target in re.findall(r"^\[\d+\] .* -> (/\S*)$", text, re.M):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return browser.answer("Main Page")


def test_backlinks_a_crawl_wins_and_the_near_misses_lose() -> None:
    for level in (0, 2, 4):
        for seed in range(8):
            problem = WIKI.sample(level, seed)
            assert _crawl_for_backlink(problem).correct, (level, seed)
            pages = problem.data["records"]["site"]["pages"]
            mention = next(r["title"] for r in pages.values() if len(r["text"]) > 1)
            assert not WIKI.judge(problem, mention).correct  # names the article without linking to it
            assert not WIKI.judge(problem, "Main Page").correct  # an answer from the start page
            article = pages[problem.data["target"]]["title"]
            sibling_linkers = [r["title"] for r in pages.values() for anchor, _ in r["links"]
                               if anchor != article and anchor.split()[0] == article.split()[0]
                               and r["title"] != problem.answer]  # the answer may link to both
            assert sibling_linkers and not any(WIKI.judge(problem, t).correct for t in sibling_linkers)


def test_backlinks_answers_and_paths() -> None:
    problem = WIKI.sample(1, 3)
    assert WIKI.judge(problem, f"The page {problem.answer.lower()}.").correct
    assert not WIKI.judge(problem, f"{problem.answer} or Main Page").correct
    assert WIKI.judge(problem, "Somewhere Else").feedback.startswith("could not read a page title")
    linkers = [path for path, r in problem.data["records"]["site"]["pages"].items()
               if any(target == problem.data["target"] for _, target in r["links"])]
    assert linkers == [problem.data["linker"]] and problem.data["linker"] != "/"


def test_room_booking_form_refuses_hostile_nights_quickly() -> None:
    """Regression: a huge night count once walked the dates one by one before failing."""
    import time

    problem = ROOMS.sample(0, 1)
    browser = Browser(ROOMS, problem)
    browser.do("open", url=problem.data["route"][-1])
    started = time.process_time()
    for nights in ("999999999", "0", "-3", "1e9", "x" * 200):
        reply = browser.do("fill_and_submit", form_id="book", fields={"guest": "A B", "check_in": "2024-07-01",
                                                                       "nights": nights})
        assert reply == "error: nights must be a whole number from 1 to 31"
    assert time.process_time() - started < 0.05
    assert browser.do("fill_and_submit", form_id="book", fields={"guest": "A B", "check_in": "July 1",
                                                                  "nights": "2"}) == (
        "error: check_in must be a date YYYY-MM-DD")


# --- web/shortest_route -----------------------------------------------------------------------------------

ROUTE = make_source("web/shortest_route")


def _crawl_route(problem, *, breadth_first: bool = True):
    """Crawl from the start page (one open per page, via the paths the pages show), keeping each page's parent
    in the crawl; breadth-first gives a shortest route, depth-first just a route."""
    article = re.search(r'to the article titled "(.+?)"', problem.prompt).group(1)
    browser = Browser(ROUTE, problem)
    frontier, parent, titles = ["/"], {"/": None}, {}
    while frontier:
        path = frontier.pop(0) if breadth_first else frontier.pop()
        text = browser.do("open", url=path)
        titles[path] = text.splitlines()[0].rsplit(" (", 1)[0]
        if titles[path] == article:
            route = []
            while path is not None:
                route.append(titles[path])
                path = parent[path]
            return browser.answer(" > ".join(reversed(route)))
        for target in re.findall(r"^\[\d+\] .* -> (/\S*)$", text, re.M):
            if target not in parent:
                parent[target] = path
                frontier.append(target)
    return browser.answer("none")


def test_shortest_route_breadth_first_wins_and_depth_first_often_loses() -> None:
    depth_first = 0
    for level in (0, 2, 4):
        for seed in range(10):
            problem = ROUTE.sample(level, seed)
            assert _crawl_route(problem).correct, (level, seed)
            depth_first += _crawl_route(problem, breadth_first=False).correct
            assert play(ROUTE, problem, ROUTE.plan(problem)).verdict.correct
    assert depth_first <= 20, depth_first


def test_shortest_route_is_verified_not_compared() -> None:
    problem = ROUTE.sample(2, 5)
    titles = problem.answer.split(" > ")
    assert ROUTE.judge(problem, " -> ".join(t.upper() for t in titles)).correct
    skipped = ROUTE.judge(problem, " > ".join([titles[0], *titles[2:]]))
    assert not skipped.correct and "has no link" in skipped.feedback
    assert ROUTE.judge(problem, " > ".join(titles[:-1])).feedback == "the route must run from the start page to the article"
    # another shortest route, where one exists, is as good as the reference
    pages = problem.data["records"]["site"]["pages"]
    path_of = {r["title"]: p for p, r in pages.items()}
    routes = [["/"]]
    for _ in range(problem.data["distance"]):
        routes = [r + [t] for r in routes for _, t in pages[r[-1]]["links"]]
    shortest = [r for r in routes if r[-1] == problem.data["target"]]
    assert shortest and all(ROUTE.judge(problem, " > ".join(pages[p]["title"] for p in r)).correct for r in shortest)
    assert path_of[titles[-1]] == problem.data["target"]
