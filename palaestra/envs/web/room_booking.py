"""Book the cheapest hotel room that a travel policy allows on a generated booking site, or book nothing.

The site (:mod:`palaestra.envs.web.common`) lists cities on its start page, hotels on a city's page (with
their star rating), room types on a hotel's page (a table of nightly prices), and on a room's page its
free nights and a ``book`` form (guest, check_in, nights). The site books any free nights it is asked to
(it refuses only nights already taken) and answers with a confirmation code; the travel policy in the
prompt is the agent's to follow: the hotel must have at least some stars, the room must be free every
night of the stay, the cheapest such room in the city is the one to book, and only if the stay's total
is within the budget; otherwise the agent books nothing and answers ``none`` with its proof: the page path of
the cheapest room the policy allows (stars, free nights), whose stay costs more than the budget
(``none: /r/k3x9qd``; the hotel and room type, ``none: Hotel Vaso double``, name it too). A bare ``none`` is
wrong (v1 took it, and it scored the fifth of problems on the ``none`` side without a page read).

Judged on the answer (the confirmation code the site gave, or ``none`` and its room) and the final records (the one
booking the policy requires, or none at all). Near misses in every draw: cheaper rooms of the city taken
on one night of the stay, or in hotels with too few stars; rooms of other cities besides. Every city has
five hotels or more. The answer's rank by price in its city is drawn uniformly from the fourth-cheapest to the
fourth-priciest, so that no rank pays (v3 drew ranks 2-4 among 2-4 rooms at level 0: the priciest room of the city was
right in 87%, the third-cheapest in 61%; v4 drew from the third-cheapest, and no rank was right in more than ~16%; v5:
the fourth- or fifth-cheapest in at most ~0.25, at levels 0-1, as three cheaper rooms at least hold the near misses
below). The rooms cheaper than the answer hold 1 to 4 free every night in hotels of too few stars (one just short),
as many as the cheaper rooms allow and mostly more than one, and the others of enough stars taken one night (one at
least): booking
the cheapest free room, stars unread, or the cheapest of enough stars, nights unread, is never right (v3: 22-27% at
level 0; v2 left the traps to chance: 72-79%), and the second, third or fourth free room, stars unread, is right in
at most ~0.36 (v4 left one free room of too few stars in about half the problems: the second free room was right in
0.40-0.55), the second or third of enough stars, nights unread, in at most ~0.36.

The policy asks 2, 3 or 4 stars (a hotel just short of 2 has 1 star), at odds 4:2:3; the answer's hotel has just the
stars asked or one more, at even odds whatever is asked (v4: just the stars asked at odds 0.85 below 4 asked, always at
4, and reading "at least" as "exactly" was right in 0.90-0.95 of 300 seeds a level). Reading "at least" as "exactly"
and as "more than" are right in complementary problems, so one half is the least the better of the two can score:
each is right in 0.45-0.55 of 300 seeds a level (levels 0-4, two seed ranges), and the better of the two chosen for
each threshold asked in 0.52-0.56. A fixed star threshold t, the stated one unread (the cheapest free room of t stars
and up), is right when t is asked or above it up to the answer's stars: 2 stars and up in 0.42-0.49, 3 in 0.42-0.48,
4 in 0.38-0.47, 5 in 0.13-0.20 (v4: 0.28-0.46; even odds of the asked stars would leave 3 and 4 at one half). Where the
answer's hotel has one star more than asked, a decoy hotel of just the stars asked has a pricier room free for the
stay, so the lowest rating of enough stars with a free room is right in 0.45-0.55 (v4: 0.92-0.97). Above the answer's
hotel the city's other hotels hold rooms free for the stay at 0 to 3 higher ratings (ABOVE_COUNTS), so the answer's
hotel is the best-rated one with a free room in 0.21-0.28 of the problems, the second-rated in 0.22-0.31, the third
in 0.21-0.28, the fourth in 0.20-0.27 (v4: 0.25-0.28, 0.20-0.32, 0.27-0.34, 0.14-0.21). Left: the answer's hotel
never has more than one star above the asked, so reading "at least X" as "X or X+1 stars" is always right (v4:
0.93-0.96); that reading saves no work, as it reads every rating and the free nights like the policy. The budget
is short of the cheapest allowed stay in 40% of the problems (v3: a fifth, and the right room booked, the budget
unread, was right in 80%; now 0.57-0.63). The difficulty is the city's rooms, the stay's nights and the cheaper near
misses.

Generation speed (v4; v5 about the same, 3-4 ms of CPU a problem at level 4): about 700 problems/s at level 4 on
this 2-core machine (1,250 with three hotels a city), under the 1,000 mark. Each problem builds a whole booking site:
cities, five or more hotels a city and their rooms, each room with its own page and a month of free nights drawn night
by night, and cheaper rooms adjusted to fail the policy so the answer is unique;
building those pages is nearly all the time, and they are what the model navigates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import Records, call
from palaestra.envs.web.common import WebTask, judge_code, new_path, page, route_moves, site_records
from palaestra.generators.knowledge import NameForge
from palaestra.verifiers.normalize import read_answer

MONTH_START = date(2024, 7, 1)
DAYS = 31
NIGHTS = tuple((MONTH_START + timedelta(days=d)).isoformat() for d in range(DAYS))  # the month, in order
NONE_SHARE = 0.4  # v4: 0.4 (v3: 0.2, and booking the right room, the budget unread, was right in 80%)
NONE_WORDS = frozenset({"none", "no room", "no booking", "nothing", "no room booked", "nothing booked"})
NONE_EXAMPLE = "none: /r/k3x9qd"  # fixed placeholder: the page path of a room
PROOF_MARKS = ":;,-\u2013\u2014(" + "\u00a0 "  # what may stand between "none" and its room
ROOMS = ("single", "double", "twin", "suite", "studio", "family room")
EXAMPLE = "BK00000"
LEAST_CHEAPER = 3  # rooms of the city priced below the answer, at least (v4: 2 in a city of 7 rooms or more, and a
# city has 10 or more: with 2, one room free of too few stars and one of enough stars taken a night were the only ones
# below the answer, and the second-cheapest free room, stars unread, was right)
STAR_THRESHOLDS = (2, 3, 4)  # the policy's least stars (v4 before this session's second change: 3-5; a threshold of 5
# made the best-rated hotel's cheapest free room the answer)
THRESHOLD_WEIGHTS = (4, 2, 3)  # v5: the odds of 2, 3 and 4 stars asked (v4: even), so that no fixed threshold, the
# asked one unread, is right in more than 4/9 (t = 2: when 2 is asked; t = 3: 3 asked, or 2 asked and the answer's hotel
# has 3; t = 4: 4 asked, or 3 asked and the answer's hotel has 4); even odds would leave t = 3 and t = 4 at 1/2
EXACT_STARS_SHARE = 0.5  # v5: the answer's hotel has just the stars asked at these odds, else one more, whatever is
# asked (v4: 0.85 below 4 stars asked and always at 4, so reading "at least" as "exactly" was right in ~0.9); "exactly"
# and "more than" are right in complementary problems, so one half is the least the better of the two can score
# How many higher ratings than the answer's hotel's (2-5 stars) a hotel with a room free for the stay holds: the
# weights of 0, 1, 2, 3, so that the answer's hotel is the best-, second-, third- or fourth-rated with a free room in
# about 0.25, 0.28, 0.25 and 0.22 of the problems (v4: 0.27, 0.27, 0.28, 0.18), and at 4 stars always has a free
# room of 5 above it (at 4 stars asked, "the best-rated hotel" is right when the answer's hotel has 5, half the time)
ABOVE_COUNTS = {2: (0, 0, 0, 1), 3: (0.25, 0, 0.75), 4: (0, 1), 5: (1,)}
FREE_SHORT = (2, 3, 6, 8)  # v5: the weights of 1, 2, 3 or 4 rooms cheaper than the answer, of too few stars, free for
# the stay, among as many as the cheaper rooms allow (the larger counts weigh more, as the cheaper rooms are often few)
PRICIER = 3  # rooms of the city priced above the answer, at least (they hold the better-rated hotels' free rooms
# and the decoy's; v4: 2)


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _stay(check_in: str, nights: int) -> list[str]:
    start = date.fromisoformat(check_in)
    return [(start + timedelta(days=n)).isoformat() for n in range(nights)]


@register
class RoomBooking(WebTask):
    id = "web/room_booking"
    family = "web"
    description = "Book the cheapest room a travel policy allows (stars, free nights, budget) on a booking site, or none."
    tags = ("web", "navigation", "forms", "policy", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "fill_and_submit")
    version = 5  # v5: the answer's hotel at the stars asked or one more, even odds at every threshold (2, 3, 4 stars
    # asked at odds 4:2:3), a decoy of enough stars below it, 1-4 cheaper free rooms of too few stars, 3+ rooms cheaper
    # v4: the answer's rank by price drawn from 1-2 to the third-priciest; 5+ hotels a city; the answer's
    # hotel mostly at the stars asked (2-4, v3: 3-4), others at 0-3 higher ratings with free rooms; none within budget
    # in 40%
    # v3: a cheaper free room of too few stars and a cheaper one of enough stars in most draws
    # v2: "none" names the cheapest allowed room (its proof); v1 took a bare "none"
    bare_verdicts = ("none",)

    @dataclass(frozen=True)
    class Config:
        cities: int
        hotels: tuple[int, int]  # per city
        rooms: tuple[int, int]  # per hotel
        nights: tuple[int, int]
        slack: int

    presets = (
        # v4: five hotels a city from level 0 (v3: two at levels 0-2, where the answer's hotel and the near misses'
        # left the cheapest free room of the best-rated hotel right in 84-92%; three still left it 0.70-0.79), so the
        # answer's hotel can have up to three better-rated ones with free rooms, and ten rooms or more
        Config(2, (5, 6), (2, 2), (1, 2), 4),
        Config(2, (5, 6), (2, 2), (2, 4), 5),  # v5: stays of 2-4 nights (v4: 2-3)
        Config(3, (5, 6), (2, 3), (2, 4), 6),
        Config(3, (5, 6), (2, 3), (3, 5), 7),
        Config(4, (5, 7), (3, 4), (3, 6), 8),
    )
    growth = Growth(limits={"cities": 8, "rooms": len(ROOMS), "nights": 14, "slack": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        pages: dict[str, dict[str, Any]] = {"/": page("Hotel booking", ["Find a hotel: choose a city."])}
        nights = rng.randint(*config.nights)
        check_in = (MONTH_START + timedelta(days=rng.randrange(DAYS - nights))).isoformat()
        stay = _stay(check_in, nights)
        min_stars = rng.choices(STAR_THRESHOLDS, THRESHOLD_WEIGHTS)[0]
        rooms: dict[str, dict[str, Any]] = {}  # room page path -> room record
        routes: dict[str, list[str]] = {}
        city_rooms: list[str] = []
        asked_city = ""
        for index in range(config.cities):
            city = forge.word(3)
            city_path = new_path(rng, "c", pages)
            pages[city_path] = page(f"Hotels in {city}")
            pages["/"]["links"].append([city, city_path])
            for _ in range(rng.randint(*config.hotels)):
                hotel, stars = f"Hotel {forge.word(2)}", rng.randint(2, 5)
                hotel_path = new_path(rng, "h", pages)
                pages[city_path]["links"].append([f"{hotel} ({stars} stars)", hotel_path])
                table = [["room", "per night"]]
                links = []
                for kind in rng.sample(ROOMS, rng.randint(*config.rooms)):
                    path = new_path(rng, "r", pages)
                    free = [night for night in NIGHTS if rng.random() < 0.85]  # in date order
                    rooms[path] = {"hotel": hotel, "stars": stars, "kind": kind, "price": rng.randint(40, 400) * 100
                                   + rng.choice((0, 50, 99)), "free": free, "hotel_path": hotel_path}
                    routes[path] = ["/", city_path, hotel_path, path]
                    links.append([kind, path])
                    if index == 0:
                        city_rooms.append(path)
                pages[hotel_path] = page(f"{hotel} ({stars} stars)", [f"{hotel} in {city}."], links, table)
            if index == 0:
                asked_city = city
        # The answer: a room of the asked city at a rank by price drawn uniformly from LEAST_CHEAPER to the
        # PRICIER+1-th priciest; every cheaper one fails the policy. v3 drew ranks 2-4, and
        # the third-cheapest room (the priciest where fewer) was right in 61-88% at level 0 and 36-44% above. The
        # rooms priced below it are chosen so that the near misses fit (_cheaper_rooms).
        prices = sorted(rng.sample(range(4000, 40_000, 50), len(city_rooms)))
        rank = rng.randint(LEAST_CHEAPER, len(city_rooms) - 1 - PRICIER)
        best = rng.choice(city_rooms)
        cheaper = _cheaper_rooms(rng, rooms, city_rooms, best, rank)
        rest = [path for path in city_rooms if path != best and path not in cheaper]
        rng.shuffle(rest)
        for path, price in zip([*cheaper, best, *rest], prices):
            rooms[path]["price"] = price
        ranked = sorted(city_rooms, key=lambda p: rooms[p]["price"])
        stars = min_stars if rng.random() < EXACT_STARS_SHARE else min_stars + 1
        for room in rooms.values():
            if room["hotel_path"] == rooms[best]["hotel_path"]:
                room["stars"] = stars
        rooms[best]["free"] = sorted(set(rooms[best]["free"]) | set(stay))
        self._near_misses(rng, rooms, ranked[:ranked.index(best)], rooms[best]["hotel_path"], min_stars, stay)
        hosts = self._spread_stars(rng, rooms, city_rooms, best, min_stars, stay)
        self._free_short(rng, rooms, city_rooms, best, min_stars, stay, hosts)
        for path, room in rooms.items():  # the pages, now the rooms are final
            hotel_page = pages[room["hotel_path"]]
            hotel_page["title"] = f"{room['hotel']} ({room['stars']} stars)"
            hotel_page["table"].append([room["kind"], _money(room["price"])])
            pages[path] = page(f"{room['hotel']}: {room['kind']}", [
                f"Price per night: {_money(room['price'])}", f"Free nights: {', '.join(room['free'])}"],
                [[f"Back to {room['hotel']}", room["hotel_path"]], ["Home", "/"]], forms={"book": ["guest", "check_in",
                                                                                                 "nights"]})
        for city_page in pages.values():
            for link in city_page["links"]:
                if link[1] in pages and pages[link[1]]["title"].startswith("Hotel ") and link[0].startswith("Hotel "):
                    link[0] = pages[link[1]]["title"]
        rng.shuffle(pages["/"]["links"])
        for hotel_page in {room["hotel_path"] for room in rooms.values()}:
            pages[hotel_page]["links"] += [["Home", "/"]]
        total = rooms[best]["price"] * nights
        affordable = rng.random() >= NONE_SHARE
        budget_cents = (total + rng.randint(0, 80) * 100 if affordable else total - rng.randint(1, 60) * 100)
        budget_dollars = -(-budget_cents // 100) if affordable else budget_cents // 100
        guest = f"{forge.word(2)} {forge.word(2)}"
        code = f"BK{rng.randint(10_000, 99_999)}"
        records = site_records(pages, rooms=rooms, bookings=[], next_code=code)
        hotels_here = len(pages[routes[best][1]]["links"])
        calls = 3 + 2 * hotels_here + 2 * len(ranked) + config.slack  # room to read every hotel and room once
        prompt = (
            f"You book hotels for {guest} on a website whose start page is /. Travel policy: book the cheapest room "
            f"in {asked_city} in a hotel with at least {min_stars} stars that is free every night from {check_in} "
            f"for {nights} night{'s' if nights > 1 else ''}, but only if the stay's total (nights times the price "
            f"per night) is at most ${budget_dollars}; otherwise book nothing. Book with the site's forms "
            "(fill_and_submit fills a form of the page open now; check_in as YYYY-MM-DD), then answer with the "
            f"confirmation code the site gives, e.g. <answer>{EXAMPLE}</answer>. If the policy allows no booking "
            "(even the cheapest room the stars and free nights allow costs more than the budget), book nothing and "
            f"answer none with that room's page path as proof, e.g. <answer>{NONE_EXAMPLE}</answer>; a bare "
            f"'none' is wrong.\n\n{self.tools_prompt(calls)}"
        )
        data = {"records": records, "room": best if affordable else None, "route": routes[best], "guest": guest,
                "check_in": check_in, "nights": nights, "city_rooms": city_rooms, "budget": calls}
        return Problem(prompt=prompt, answer=code if affordable else f"none: {best}", data=data)

    def submit(self, records: Records, form_id: str, fields: dict[str, str]) -> tuple[str, Records | None]:
        path = records["browser"]["at"]
        room = records["rooms"][path]
        missing = [f for f in ("guest", "check_in", "nights") if not fields.get(f, "").strip()]
        if missing:
            return f"error: required: {', '.join(missing)}", None
        nights = fields["nights"].strip()
        if not nights.isdigit() or not 1 <= int(nights) <= DAYS:
            return f"error: nights must be a whole number from 1 to {DAYS}", None
        try:
            stay = _stay(fields["check_in"].strip(), int(nights))
        except (ValueError, OverflowError):
            return "error: check_in must be a date YYYY-MM-DD", None
        taken = [night for night in stay if night not in room["free"]]
        if taken:
            return f"error: not free on {', '.join(taken[:5])}", None
        room["free"] = [night for night in room["free"] if night not in stay]
        records["site"]["pages"][path]["text"][1] = f"Free nights: {', '.join(room['free'])}"
        code = records["next_code"]
        records["bookings"].append({"code": code, "room": path, "guest": " ".join(fields["guest"].split()).casefold(),
                                    "nights": stay})
        records["next_code"] = f"BK{int(code[2:]) + 1}"
        return f"Booked {room['hotel']} {room['kind']} for {len(stay)} nights: confirmation code {code}.", records

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
        if problem.data["room"] is None:
            return records
        records["browser"] = {"at": problem.data["room"]}
        booked = self.submit(records, "book", {"guest": problem.data["guest"], "check_in": problem.data["check_in"],
                                               "nights": str(problem.data["nights"])})[1]
        return booked if booked is not None else records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        rooms = data["records"]["rooms"]
        best = data["route"][-1]
        cheaper = sum(rooms[p]["price"] < rooms[best]["price"] for p in data["city_rooms"])
        # v5: a night weighs 1 (v4: 1/2): every candidate room's free nights are checked night by night, and levels 0-1
        # and 2-3 differ by their nights alone (their means crossed on the kit's seeds)
        return len(data["city_rooms"]) / 2 + data["nights"] + cheaper

    def judge(self, problem: Problem, answer: str) -> Verdict:
        said_none = read_answer(answer, _read_none)
        if problem.data["room"] is not None:
            if said_none is not None:
                return Verdict.wrong("a booking the policy allows was not made")
            return judge_code(answer, problem.answer or "", "confirmation code")
        if said_none is None:
            return Verdict.wrong("the policy allows no booking")
        if not said_none:
            return Verdict.wrong("'none' needs its proof: the page path of the cheapest room the policy allows, "
                                 "whose stay costs more than the budget")
        rooms = problem.data["records"]["rooms"]
        named = [path for path, room in rooms.items() if said_none in (path, _room_key(f"{room['hotel']} {room['kind']}"))]
        if named != [problem.data["route"][-1]]:
            return Verdict.wrong("that is not the cheapest room the policy allows")
        return Verdict.right()

    @staticmethod
    def _set_stars(rooms: dict[str, dict[str, Any]], hotel_path: str, stars: int) -> None:
        for room in rooms.values():
            if room["hotel_path"] == hotel_path:
                room["stars"] = stars

    def _near_misses(self, rng: random.Random, rooms: dict[str, dict[str, Any]], cheaper: list[str], best_hotel: str,
                     min_stars: int, stay: list[str]) -> None:
        """Among the rooms cheaper than the answer: one free every night of the stay in a hotel of too few stars, and
        one in a hotel of enough stars (taken one night later), where two are (one of them, at random, where one is),
        so that booking the cheapest free room, stars unread, or the cheapest of enough stars, nights unread, fails
        (v2: in v1 the stars trap was left to chance, and the cheapest free room was right in 72-79%)."""
        others = [path for path in cheaper if rooms[path]["hotel_path"] != best_hotel]
        # a trap whose hotel leaves another cheaper room for the nights (else one of the two, at random)
        both = [path for path in others if any(rooms[p]["hotel_path"] != rooms[path]["hotel_path"] for p in cheaper)]
        roles = ["stars", "nights"] if both else [rng.choice(("stars", "nights"))]
        others = both or others
        if "stars" in roles and others:
            trap = rng.choice(others)
            self._set_stars(rooms, rooms[trap]["hotel_path"], min_stars - 1)  # v4: just short (v3: 2 to that)
            rooms[trap]["free"] = sorted(set(rooms[trap]["free"]) | set(stay))
            cheaper = [path for path in cheaper if rooms[path]["hotel_path"] != rooms[trap]["hotel_path"]]
        if "nights" in roles and cheaper and not any(rooms[path]["stars"] >= min_stars for path in cheaper):
            raised = rng.choice(cheaper)  # the loop after this takes one night of its stay
            self._set_stars(rooms, rooms[raised]["hotel_path"], rng.randint(min_stars, 5))

    def _spread_stars(self, rng: random.Random, rooms: dict[str, dict[str, Any]], city_rooms: list[str], best: str,
                      min_stars: int, stay: list[str]) -> set[str]:
        """Rate the city's other hotels so that no rank among the ratings with a room free for the stay finds the
        answer's hotel, nor the lowest rating of enough stars: above the answer's hotel, one hotel at each of as many
        higher ratings as ABOVE_COUNTS draws, and below it (where it has more stars than asked) a decoy of enough stars,
        each with a pricier room made free for the stay. Those hotels are drawn first among the hotels holding no
        cheaper room of too few stars, then among those whose cheaper rooms of too few stars are taken on a night of
        the stay (no near miss changes), then among the other near misses of too few stars (one just short is kept).
        The other hotels get a rating of enough stars that adds none above the answer's. v4 (three hotels a city, others
        raised at odds 0.6) left the cheapest free room of the best-rated hotel right in 0.73 of level 0, of the
        second-rated in 0.26; v5 adds the decoy (without it, "the lowest rating of enough stars with a free room" was
        right in 0.92-0.97) and no longer drops a drawn rating when the hotels free to rate hold too few pricier rooms
        (3-5% of problems in v4). Returns the hotels rated above the answer's and the decoy's."""
        hotel = rooms[best]["hotel_path"]
        price, stars = rooms[best]["price"], rooms[best]["stars"]
        weights = ABOVE_COUNTS[stars]
        levels = sorted(rng.sample(range(stars + 1, 6), rng.choices(range(len(weights)), weights)[0]))
        levels += [rng.randint(min_stars, stars - 1)] if stars > min_stars else []  # the decoy
        hotels = sorted({rooms[p]["hotel_path"] for p in city_rooms})
        low = [p for p in city_rooms if rooms[p]["price"] < price and rooms[p]["stars"] < min_stars]
        free_low = [p for p in low if set(stay) <= set(rooms[p]["free"])]
        traps = {rooms[p]["hotel_path"] for p in free_low}  # near misses of too few stars
        short_by_one = sorted({rooms[p]["hotel_path"] for p in free_low if rooms[p]["stars"] == min_stars - 1})
        kept = {rng.choice(short_by_one)} if short_by_one else traps  # the near miss just short, never rated anew
        settable = [h for h in hotels if h != hotel and h not in {rooms[p]["hotel_path"] for p in low}]
        spare = [h for h in hotels if h != hotel and h not in settable and h not in traps]
        drafted = sorted(traps - kept)
        for group in (settable, spare, drafted):
            rng.shuffle(group)
        cheap_hotels = {rooms[p]["hotel_path"] for p in city_rooms if rooms[p]["price"] < price}
        settable.sort(key=lambda h: h in cheap_hotels)  # hotels with no cheaper room first: the others may go below
        candidates = settable + spare + drafted
        pricier = {h: [p for p in city_rooms if rooms[p]["hotel_path"] == h and rooms[p]["price"] > price]
                   for h in hotels}
        hosts = [h for h in candidates if pricier[h]][:len(levels)]
        for short in [h for h in candidates if not pricier[h]][:len(levels) - len(hosts)]:
            # too few candidates have a room above the answer's price: one swaps a cheaper room's price with a spare
            # pricier room (of a hotel that is no host or has two); the room now cheaper is a near miss of whatever
            # stars its hotel ends with (of enough stars, the caller takes one night of its stay)
            donors = [p for h in hotels if h not in hosts or len(pricier[h]) > 1 for p in pricier[h]]
            if not donors:
                break
            donor, lent = rng.choice(donors), rng.choice([p for p in city_rooms if rooms[p]["hotel_path"] == short])
            rooms[donor]["price"], rooms[lent]["price"] = rooms[lent]["price"], rooms[donor]["price"]
            pricier[rooms[donor]["hotel_path"]].remove(donor)
            pricier[short] = [lent]
            hosts.append(short)
        for level, host in zip(levels, hosts):
            self._set_stars(rooms, host, level)
            room = rooms[rng.choice(pricier[host])]
            room["free"] = sorted(set(room["free"]) | set(stay))
        shown = sorted(set(levels[:len(hosts)]))
        for other in settable:
            if other not in hosts:
                self._set_stars(rooms, other, rng.choice(list(range(min_stars, stars + 1)) + shown))
        return set(hosts[:len(levels)])

    def _free_short(self, rng: random.Random, rooms: dict[str, dict[str, Any]], city_rooms: list[str], best: str,
                    min_stars: int, stay: list[str], hosts: set[str]) -> None:
        """Leave free for the stay, among the rooms cheaper than the answer, as many of too few stars as FREE_SHORT
        draws (one of them just short of the stars asked), rating other hotels below the stars asked where too few rooms
        are, and take one night of the stay from every other cheaper room: the cheapest free room, stars unread, is
        never the answer, and neither is the second or the third as a rule (v4 left one such room free in about half
        the problems, and the second-cheapest free room, stars unread, was right in 0.40-0.55). A cheaper room of
        enough stars stays (one night taken), so that the cheapest room of enough stars, nights unread, is never
        right."""
        hotel = rooms[best]["hotel_path"]
        cheaper = [p for p in city_rooms if rooms[p]["price"] < rooms[best]["price"]]
        held = {rooms[p]["hotel_path"]: [q for q in cheaper if rooms[q]["hotel_path"] == rooms[p]["hotel_path"]]
                for p in cheaper}
        lowerable = sorted(h for h in held if h not in hosts and h != hotel and rooms[held[h][0]]["stars"] >= min_stars)
        rng.shuffle(lowerable)
        count = sum(rooms[p]["stars"] < min_stars for p in cheaper)
        enough = len(cheaper) - count  # cheaper rooms of enough stars: one stays
        lowered = []
        for other in lowerable:
            if count >= len(FREE_SHORT):
                break
            if enough > len(held[other]):
                lowered.append(other)
                count += len(held[other])
                enough -= len(held[other])
        most = max(1, min(count, len(FREE_SHORT)))
        wanted = rng.choices(range(1, most + 1), FREE_SHORT[:most])[0]
        count = sum(rooms[p]["stars"] < min_stars for p in cheaper)
        for other in lowered:
            if count >= wanted:
                break
            self._set_stars(rooms, other, rng.randint(max(1, min_stars - 2), min_stars - 1))
            count += len(held[other])
        short = [p for p in cheaper if rooms[p]["stars"] < min_stars]
        just = [p for p in short if rooms[p]["stars"] == min_stars - 1 and set(stay) <= set(rooms[p]["free"])]
        free: set[str] = set()
        if short:
            kept = rng.choice(just or short)
            self._set_stars(rooms, rooms[kept]["hotel_path"], min_stars - 1)
            left = [p for p in short if p != kept]
            free = {kept, *rng.sample(left, min(len(left), wanted - 1))}
        for path in cheaper:
            if path in free:
                rooms[path]["free"] = sorted(set(rooms[path]["free"]) | set(stay))
            elif set(stay) <= set(rooms[path]["free"]):
                taken = rng.choice(stay)
                rooms[path]["free"] = [night for night in rooms[path]["free"] if night != taken]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        if data["room"] is None:
            return [problem.answer or ""]
        moves = route_moves(data["records"]["site"]["pages"], data["route"])
        fields = {"guest": data["guest"], "check_in": data["check_in"], "nights": str(data["nights"])}
        return [*moves, call("fill_and_submit", form_id="book", fields=fields), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        if problem.data["room"] is None:
            room = problem.data["records"]["rooms"][problem.data["route"][-1]]
            path = answer.removeprefix("none: ")
            return [f"None: {path}.", f"none ({path}).", f"No room - {room['hotel']} {room['kind']}",
                    f"Answer: none; {room['hotel']}, {room['kind']}", f"none: https://example.com{path}/"]
        return [answer.lower(), f"Confirmation code {answer}", f"{answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        if problem.data["room"] is None:
            best = problem.data["route"][-1]
            cheaper = [p for p in problem.data["city_rooms"] if p != best]
            return ["none", "No room.", f"{answer} or none: {cheaper[0]}", f"none: {cheaper[0]}",
                    problem.data["records"]["next_code"], f"{answer} or BK10000"]
        return ["none", f"BK{int(answer[2:]) + 1}", f"{answer} or none"]


def _cheaper_rooms(rng: random.Random, rooms: dict[str, dict[str, Any]], city_rooms: list[str], best: str,
                   rank: int) -> list[str]:
    """``rank`` rooms of the city to price below ``best``, in a random order, among them one in another hotel than
    ``best``'s (the near miss whose stars :meth:`RoomBooking._near_misses` lowers) and, from rank 2, one outside that
    hotel (the one it takes a night of): the cheaper rooms of the answer's hotel share its stars, and where they were
    all the cheaper rooms, booking the cheapest free room, stars unread, was right."""
    others = [path for path in city_rooms if path != best]
    away = [path for path in others if rooms[path]["hotel_path"] != rooms[best]["hotel_path"]]
    picked = [rng.choice(away)] if away else []
    if rank >= 2 and picked:
        apart = [path for path in others if rooms[path]["hotel_path"] != rooms[picked[0]]["hotel_path"]]
        picked += [rng.choice(apart)] if apart else []
    picked += rng.sample([path for path in others if path not in picked], rank - len(picked))
    rng.shuffle(picked)
    return picked


def _room_key(text: str) -> str:
    """A room named in a "none" proof, for comparison: its page path (a URL's path, no trailing slash) or its hotel and
    room type, casefolded, with commas, colons and a closing "room" dropped."""
    text = " ".join(text.casefold().split()).strip(".")
    if "/r/" in text and " " not in text:
        return "/r/" + text.split("/r/", 1)[1].split("?", 1)[0].split("#", 1)[0].strip("/")
    words = text.replace(",", " ").replace(":", " ").split()
    if words and words[0] == "the":
        words = words[1:]
    if len(words) > 3 and words[-1] == "room" and words[-2] != "family":
        words = words[:-1]
    return " ".join(words)


def _read_none(text: str) -> str | None:
    """The proof after "none" (a room's key, :func:`_room_key`; "" for a bare "none"), or None if ``text`` is no "none"."""
    folded = " ".join(text.casefold().split())
    if folded in NONE_WORDS:
        return ""
    for word in sorted(NONE_WORDS, key=len, reverse=True):
        rest = folded.removeprefix(word)
        if rest != folded and rest[:1] in PROOF_MARKS and rest.strip(PROOF_MARKS):
            rest = rest.strip(PROOF_MARKS + ").")  # "none (/r/k3x9qd)." names the room
            return _room_key(rest) or None
    return None
