"""Helpers shared by the env tests (imported as a sibling module: pytest puts this folder on sys.path)."""

from __future__ import annotations

import re
from typing import Any


def solves(task: Any, problem: Any, replies: list[str]) -> bool:
    """Whether a multi-turn task's episode, played with ``replies`` (each put in the task's answer format) within
    its turn limit, ends with a correct final verdict."""
    episode = task.replay(problem, [task.format_answer(reply) for reply in replies])
    return episode.done and bool(episode.verdicts[-1].correct)


def blind_shares(task: Any, policy: Any, blinds: dict[str, int], levels: range,
                 seeds: int) -> dict[tuple[int, str], float]:
    """The share of ``seeds`` problems a level that each blind policy solves: ``policy(problem, blind)`` gives the
    replies of the env's policy with the part ``blind`` left out (None: all of it, which must solve every problem);
    ``blinds`` maps each part to the first level where it is in play."""
    shares = {}
    for level in levels:
        wins = dict.fromkeys(blinds, 0)
        for seed in range(seeds):
            problem = task.sample(level, seed)
            assert solves(task, problem, policy(problem, None)), (level, seed)
            for blind, first_level in blinds.items():
                if level >= first_level and solves(task, problem, policy(problem, blind)):
                    wins[blind] += 1
        shares |= {(level, blind): wins[blind] / seeds for blind, first in blinds.items() if level >= first}
    return shares


def cents(amount: str) -> int:
    """The cents of a dollar amount as a page writes it (``$1,234.50`` -> 123450)."""
    whole, part = amount.lstrip("$").replace(",", "").split(".")
    return int(whole) * 100 + int(part)


def compare_sites_offers(problem: Any) -> list[tuple[int, dict[str, Any], tuple[int, int] | None]]:
    """Each shop's price of the asked model (new), shipping rule and deal, as a ``web/compare_sites`` problem's pages
    state them (read from the pages, not from the generator, so a test of the env does not trust its internals)."""
    pages = problem.data["records"]["site"]["pages"]
    model = re.search(r"model ([A-Z]{2}-\d{3})", problem.prompt).group(1)  # type: ignore[union-attr]
    offers = []
    for shop in problem.data["shops"]:
        price = next(cents(row[3]) for path in shop["catalogue"] for row in pages[path]["table"][1:]
                     if row[1] == model and row[2] == "new")
        rule: dict[str, Any] = {}
        deal = None
        for path in shop["info"]:
            text = " ".join(pages[path]["text"])
            amounts = [cents(a) for a in re.findall(r"\$\d+\.\d\d", text)]
            if "per order" in text:
                rule = {"kind": "flat", "fee": amounts[0], "free_from": amounts[1]}
            elif "first item" in text:
                rule = {"kind": "per item", "first": amounts[0], "further": amounts[1]}
            elif "% off" in text:
                deal = (int(text.split("%")[0]), amounts[0])
        offers.append((price, rule, deal))
    return offers
