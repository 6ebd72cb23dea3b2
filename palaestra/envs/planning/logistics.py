"""Logistics in PDDL: deliver packages with trucks inside cities and airplanes between airports.

The classic typed Logistics domain (load and unload trucks and airplanes, drive a truck between
two places of one city, fly an airplane between airports). Each city has one airport, some
other locations and one truck; airplanes wait at random airports; packages start and must end
at random places, most of them in another city. The prompt shows the domain and the problem as
PDDL; any valid plan scores: the STRIPS simulator of :mod:`palaestra.envs.planning._strips`
replays it and checks every goal. The reference plan delivers one package after another (truck
to the airport, airplane to the other city, truck to the destination); its length is the
difficulty measure.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.planning._strips import Action, Domain, Instance, PlanTask, Schema


@cache
def logistics_domain() -> Domain:
    pkg, place, city = ("?pkg", "package"), ("?loc", "place"), ("?city", "city")

    def load(kind: str) -> Schema:
        vehicle = (f"?{kind}", kind)
        return Schema(f"load-{kind}", (pkg, vehicle, place), (("at", f"?{kind}", "?loc"), ("at", "?pkg", "?loc")),
                      (("in", "?pkg", f"?{kind}"),), (("at", "?pkg", "?loc"),))

    def unload(kind: str) -> Schema:
        vehicle = (f"?{kind}", kind)
        return Schema(f"unload-{kind}", (pkg, vehicle, place), (("at", f"?{kind}", "?loc"), ("in", "?pkg", f"?{kind}")),
                      (("at", "?pkg", "?loc"),), (("in", "?pkg", f"?{kind}"),))

    return Domain(
        "logistics",
        (("truck", "vehicle"), ("airplane", "vehicle"), ("package", "physobj"), ("vehicle", "physobj"),
         ("airport", "place"), ("location", "place"), ("city", "object"), ("place", "object"), ("physobj", "object")),
        (("in-city", (place, city)), ("at", (("?obj", "physobj"), place)), ("in", (pkg, ("?veh", "vehicle")))),
        (
            load("truck"), load("airplane"), unload("truck"), unload("airplane"),
            Schema("drive-truck", (("?truck", "truck"), ("?from", "place"), ("?to", "place"), city),
                   (("at", "?truck", "?from"), ("in-city", "?from", "?city"), ("in-city", "?to", "?city")),
                   (("at", "?truck", "?to"),), (("at", "?truck", "?from"),)),
            Schema("fly-airplane", (("?airplane", "airplane"), ("?from", "airport"), ("?to", "airport")),
                   (("at", "?airplane", "?from"),), (("at", "?airplane", "?to"),), (("at", "?airplane", "?from"),)),
        ),
    )


@register
class Logistics(PlanTask):
    id = "planning/logistics"
    version = 2
    family = "planning"
    description = "Find a plan for a Logistics problem (trucks, airplanes, packages) given in PDDL."
    tags = ("planning", "pddl", "strips")
    domain = logistics_domain()
    example = (("load-truck", ("pkg9", "truck9", "loc9-1")), ("drive-truck", ("truck9", "loc9-1", "apt9", "city9")))

    @dataclass(frozen=True)
    class Config:
        cities: int
        locations: int  # places per city besides its airport
        airplanes: int
        packages: int

    presets = (
        Config(cities=2, locations=2, airplanes=1, packages=2),
        Config(cities=2, locations=3, airplanes=1, packages=3),
        Config(cities=3, locations=2, airplanes=1, packages=4),
        Config(cities=3, locations=2, airplanes=2, packages=5),
        Config(cities=4, locations=3, airplanes=2, packages=6),
    )
    # Capped at level 28's values: past them the reference outgrows what the answer reader takes (difficulty saturates).
    growth = Growth(limits={"cities": 28, "locations": 27, "airplanes": 26, "packages": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cities = [f"city{c + 1}" for c in range(config.cities)]
        airports = [f"apt{c + 1}" for c in range(config.cities)]
        places = [[airports[c]] + [f"loc{c + 1}-{i + 1}" for i in range(config.locations)]
                  for c in range(config.cities)]
        every_place = [p for city in places for p in city]
        city_of = {p: c for c, city in enumerate(places) for p in city}
        trucks = [f"truck{c + 1}" for c in range(config.cities)]
        planes = [f"plane{i + 1}" for i in range(config.airplanes)]
        packages = [f"pkg{i + 1}" for i in range(config.packages)]

        def draw() -> tuple[list[str], list[str]] | None:
            start = [rng.choice(every_place) for _ in packages]
            goal = [rng.choice(every_place) for _ in packages]
            moved = [s != g for s, g in zip(start, goal)]
            crossing = [city_of[s] != city_of[g] for s, g in zip(start, goal)]
            return (start, goal) if all(moved) and sum(crossing) * 2 >= len(packages) else None

        start, goal = retry(draw, what="packages that all move, most of them to another city")
        truck_at = [rng.choice(city) for city in places]
        plane_at = [rng.choice(airports) for _ in planes]
        init = {("in-city", p, cities[city_of[p]]) for p in every_place}
        init |= {("at", t, truck_at[c]) for c, t in enumerate(trucks)}
        init |= {("at", plane, at) for plane, at in zip(planes, plane_at)}
        init |= {("at", pkg, at) for pkg, at in zip(packages, start)}
        objects = ([(c, "city") for c in cities] + [(a, "airport") for a in airports]
                   + [(p, "location") for city in places for p in city[1:]] + [(t, "truck") for t in trucks]
                   + [(a, "airplane") for a in planes] + [(p, "package") for p in packages])
        instance = Instance(f"logistics-{config.cities}-{config.packages}", self.domain, tuple(objects),
                            frozenset(init), tuple(("at", pkg, at) for pkg, at in zip(packages, goal)))
        plan = _deliveries(start, goal, places, city_of, cities, trucks, truck_at, planes, plane_at, packages)
        preamble = (f"Deliver {config.packages} packages between {config.cities} cities: trucks drive between places "
                    "of their own city, airplanes fly between airports. Here is the planning task in PDDL.")
        return self.problem_for(instance, plan, False, preamble)


def _deliveries(start: list[str], goal: list[str], places: list[list[str]], city_of: dict[str, int],
                cities: list[str], trucks: list[str], truck_at: list[str], planes: list[str], plane_at: list[str],
                packages: list[str]) -> list[Action]:
    """A valid plan delivering the packages one after another (the first airplane does all the flying)."""
    trucks_at, plane = list(truck_at), plane_at[0]
    plan: list[Action] = []

    def truck_trip(pkg: str, source: str, target: str) -> None:
        c = city_of[source]
        if trucks_at[c] != source:
            plan.append(("drive-truck", (trucks[c], trucks_at[c], source, cities[c])))
        plan.append(("load-truck", (pkg, trucks[c], source)))
        plan.append(("drive-truck", (trucks[c], source, target, cities[c])))
        plan.append(("unload-truck", (pkg, trucks[c], target)))
        trucks_at[c] = target

    for pkg, source, target in zip(packages, start, goal):
        here, there = city_of[source], city_of[target]
        if here == there:
            truck_trip(pkg, source, target)
            continue
        if source != places[here][0]:
            truck_trip(pkg, source, places[here][0])
        if plane != places[here][0]:
            plan.append(("fly-airplane", (planes[0], plane, places[here][0])))
        plan.append(("load-airplane", (pkg, planes[0], places[here][0])))
        plan.append(("fly-airplane", (planes[0], places[here][0], places[there][0])))
        plan.append(("unload-airplane", (pkg, planes[0], places[there][0])))
        plane = places[there][0]
        if target != places[there][0]:
            truck_trip(pkg, places[there][0], target)
    return plan
