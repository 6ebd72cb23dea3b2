"""Red team, round 3 session 27 (spatial/cube_net_folding, biology/codon_mutations, graphs/max_clique,
spatial/map_colouring_ascii).

- spatial/cube_net_folding v2: the straight-line rule (squares two apart in a row or column of the net are
  opposite; the rest paired so that no squares drawn side by side are paired) solved 81% of the top level (all
  three opposite pairs); the top level now draws only nets with at most one straight pair.
- biology/codon_mutations v3: silent and missense substitutions were drawn so that a first-base change was silent
  about 70% of the time and a second-base one always missense: "first base silent, second missense, third silent"
  beat a coin flip per mutation at every level. They now lie at a first or third base by a coin, with the same
  kinds of change on both sides.

Each policy is written here from scratch (not imported from the env), so the tests fail on the old generators.
"""

from __future__ import annotations

import palaestra
from palaestra.kit.base import sample


def _net(problem) -> dict[tuple[int, int], str]:
    picture = problem.prompt.split("\n\n")[1].splitlines()
    return {(r, c): ch for r, line in enumerate(picture) for c, ch in enumerate(line) if ch != "."}


def _straight(net: dict[tuple[int, int], str]) -> list[frozenset[str]]:
    return [frozenset((ch, net[(r + 2 * dr, c + 2 * dc)])) for (r, c), ch in net.items() for dr, dc in ((0, 1), (1, 0))
            if (r + dr, c + dc) in net and (r + 2 * dr, c + 2 * dc) in net]


def _straight_line_rule(problem) -> str:
    net = _net(problem)
    pairs = _straight(net)
    beside = {frozenset((ch, net[(r + dr, c + dc)])) for (r, c), ch in net.items()
              for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)) if (r + dr, c + dc) in net}
    rest = sorted(set(net.values()) - {face for pair in pairs for face in pair})
    while rest:
        first = rest.pop(0)
        mate = next((face for face in rest if frozenset((first, face)) not in beside), rest[0])
        rest.remove(mate)
        pairs.append(frozenset((first, mate)))
    return ", ".join("-".join(sorted(pair)) for pair in pairs)


def test_cube_net_top_level_needs_more_than_straight_lines():
    problems = [sample("spatial/cube_net_folding", 4, seed) for seed in range(40)]
    assert all(len(_straight(_net(p))) <= 1 for p in problems)
    solved = sum(palaestra.score(p, f"<answer>{_straight_line_rule(p)}</answer>").correct for p in problems)
    assert solved < 0.5 * len(problems), solved


def _silent_or_missense(problem):
    """(codon position 1-3, label) of each silent or missense substitution."""
    for mutation in problem.data["mutations"]:
        if mutation["label"] in ("silent", "missense"):
            position = int(str(mutation["text"]).split("position ")[1].split(":")[0])
            yield (position - 1) % 3 + 1, mutation["label"]


def test_codon_mutation_position_does_not_tell_silent_from_missense():
    items = [item for level in (1, 2, 3, 4) for seed in range(40)
             for item in _silent_or_missense(sample("biology/codon_mutations", level, seed))]
    assert not [item for item in items if item[0] == 2]  # a second-base change is never silent: not drawn
    for place in (1, 3):
        labels = [label for position, label in items if position == place]
        share = labels.count("silent") / len(labels)
        assert 0.35 <= share <= 0.65, (place, share, len(labels))
