"""The ``palaestra`` command: list, show, check, play and eval environments.

Example::

    palaestra list
    palaestra show graphs/shortest_path --level 2 --seed 7
    palaestra check arithmetic/expression
    palaestra play games/mastermind
    palaestra eval --levels 0 2 4 --seeds 10
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from palaestra.verifiers.extract import CLOSE_TAG, wrap


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table with columns sized to their widest cell."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_list(args: argparse.Namespace) -> int:
    from palaestra.core.registry import registry

    specs = registry.specs(family=args.family, tag=args.tag)
    rows = [(s.id, s.family, s.turns, s.levels, ",".join(s.tags)) for s in specs]
    print(table(["id", "family", "turns", "levels", "tags"], rows))
    print(f"\n{len(specs)} environments in {len({s.family for s in specs})} families")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from palaestra.core.registry import make_source

    problem = make_source(args.env).sample(args.level, args.seed)
    if args.json:
        print(problem.to_json())
        return 0
    print(f"# {problem.env_id}  level {problem.level}  seed {problem.seed}\n")
    print(problem.prompt)
    print(f"\n# reference answer\n{problem.answer}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from palaestra import kit

    return kit.main(args.envs)


def cmd_play(args: argparse.Namespace) -> int:
    from palaestra.core.registry import make

    env = make(args.env, level=args.level)
    obs, info = env.reset(seed=args.seed)
    fmt = env.answer_format  # type: ignore[attr-defined]
    print(obs)
    print(f"\n(type your answer; it is sent as {wrap('...', fmt)!r} unless it already is; Ctrl-D quits)")
    total = 0.0
    while True:
        try:
            line = input("> ")
        except EOFError:
            print()
            return 0
        action = line if CLOSE_TAG in line or fmt not in ("tag", "boxed") else wrap(line, fmt)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        print(f"{obs}\n[reward {reward:g}, total {total:g}{', correct' if info.get('correct') else ''}]")
        if terminated or truncated:
            print("episode over" + (" (truncated)" if truncated else ""))
            return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from palaestra.baselines.evaluate import evaluate
    from palaestra.baselines.policies import OraclePolicy, RandomPolicy
    from palaestra.core.registry import registry

    env_ids = args.envs or registry.ids()
    policies = [OraclePolicy(), RandomPolicy(seed=0)]
    _print_example(env_ids[0], max(args.levels))
    t0 = time.perf_counter()
    rows = evaluate(env_ids, policies, levels=args.levels, seeds=range(args.seeds))
    by_env: dict[str, dict[str, object]] = {}
    for row in rows:
        entry = by_env.setdefault(row.env_id, {"episodes": row.episodes, "turns": registry[row.env_id].turns})
        entry[row.policy] = row
    table_rows = []
    for env_id, entry in by_env.items():
        oracle, rand = entry["oracle"], entry["random"]
        ms = 1000 * (oracle.seconds + rand.seconds) / max(oracle.episodes + rand.episodes, 1)  # type: ignore[union-attr]
        table_rows.append((env_id, entry["turns"], entry["episodes"], f"{oracle.accuracy:.2f}", f"{rand.accuracy:.2f}",  # type: ignore[union-attr]
                           f"{oracle.mean_turns:.1f}", f"{ms:.2f}"))  # type: ignore[union-attr]
    print(table(["env", "turns", "episodes", "oracle acc", "random acc", "oracle turns", "env ms/episode"], table_rows))
    solved = sum(r.solved for r in rows if r.policy == "oracle")
    total = sum(r.episodes for r in rows if r.policy == "oracle")
    print(f"\n{len(by_env)} environments, levels {args.levels}, {args.seeds} seeds each: "
          f"oracle solved {solved}/{total}; {time.perf_counter() - t0:.1f} s in all")
    return 0 if solved == total else 1


def _print_example(env_id: str, level: int) -> None:
    """One episode in full view, so the table below is visibly made of real problems."""
    from palaestra.baselines.policies import OraclePolicy
    from palaestra.core.registry import make, registry

    env = make(env_id, level=min(level, registry[env_id].levels - 1))
    obs, info = env.reset(seed=0)
    response = OraclePolicy()(env, obs, info)
    feedback, reward, *_ = env.step(response)
    print(f"example: {env_id} level {env.level} seed 0\n--- prompt ---\n{obs}\n--- oracle response ---\n{response}")
    print(f"--- verdict ---\nreward {reward:g}: {feedback}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="palaestra", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list registered environments")
    p.add_argument("--family")
    p.add_argument("--tag")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show one problem and its reference answer")
    p.add_argument("env")
    p.add_argument("--level", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the Problem as JSON")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("check", help="run the contract test kit")
    p.add_argument("envs", nargs="*", help="env ids (default: all)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("play", help="play an environment in the terminal")
    p.add_argument("env")
    p.add_argument("--level", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("eval", help="evaluate the oracle and random policies on a suite")
    p.add_argument("--envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--levels", type=int, nargs="+", default=[0, 2, 4])
    p.add_argument("--seeds", type=int, default=10, help="seeds per level")
    p.set_defaults(func=cmd_eval)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (KeyError, ValueError) as exc:
        print(f"palaestra: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
