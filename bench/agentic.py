"""The agentic families' table: oracle success, a random-tool policy's score and episode cost per env.

    python bench/agentic.py [--seeds 10] [--levels 0 2 4] [--family terminal service web repo] [ENV_ID ...]

For every tool-carrying env (a task with ``tool_schemas``) of the given families:

- **oracle**: the share of episodes the env's own oracle (the same tools, a plan of tool calls then
  the final answer) finishes with full reward, at each level;
- **random tools**: the mean reward of a policy that makes a few tool calls with arguments drawn from
  the words of what it has seen (the prompt and the tool responses), then gives the final reply the
  oracle gives on *another* problem of the same level (a well-formed answer, or ``done``); it should
  score about 0: reward comes from solving, not from calling tools or from the answer's shape;
- **episode cost**: wall milliseconds of an oracle episode and this process's CPU milliseconds in it
  (the sandbox's jobs run in the sandbox server's processes: their CPU is in the wall time only),
  and the mean tool calls the oracle makes.

Episodes are played through ``MultiTurnTask.advance`` exactly as ``palaestra.score`` replays them.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from typing import Any

from palaestra.core import make_source, registry
from palaestra.core.multiturn import MultiTurnTask

FAMILIES = ("terminal", "service", "web", "repo")
_WORD = re.compile(r"[A-Za-z0-9_./@:-]{1,40}")


def tool_envs(families: list[str]) -> list[str]:
    ids = []
    for env_id in registry.ids():
        if env_id.split("/")[0] in families:
            source = make_source(env_id)
            if isinstance(source, MultiTurnTask) and source.tool_schemas():
                ids.append(env_id)
    return ids


def play(source: MultiTurnTask, problem: Any, reply: Any) -> tuple[float, int]:
    """(total reward, turns) of ``reply(state, seen) -> response`` played until the episode ends."""
    state, total, seen = source.initial_state(problem), 0.0, [problem.prompt]
    for turn in range(1, source.max_turns(problem) + 1):
        outcome = source.advance(problem, state, reply(state, seen))
        total += outcome.verdict.reward
        state = outcome.state
        seen.append(outcome.observation)
        if outcome.done or outcome.verdict.error is not None:
            return total, turn
    return total, source.max_turns(problem)


def random_call(schema: dict[str, Any], words: list[str], rng: random.Random) -> str:
    """One tool call with arguments of the schema's types drawn from ``words``."""
    function = schema.get("function", schema)
    properties = function.get("parameters", {}).get("properties", {})
    arguments: dict[str, Any] = {}
    for name, spec in properties.items():
        kind = spec.get("type", "string")
        if kind == "integer":
            arguments[name] = rng.randint(0, 20)
        elif kind == "number":
            arguments[name] = round(rng.uniform(0, 100), 2)
        elif kind == "boolean":
            arguments[name] = rng.random() < 0.5
        elif kind == "array":
            arguments[name] = rng.sample(words, min(len(words), rng.randint(1, 3)))
        elif kind == "object":
            arguments[name] = {rng.choice(words): rng.choice(words)}
        elif "enum" in spec:
            arguments[name] = rng.choice(spec["enum"])
        else:
            arguments[name] = " ".join(rng.sample(words, min(len(words), rng.randint(1, 3))))
    payload = json.dumps({"name": function["name"], "arguments": arguments})
    return f"<tool_call>{payload}</tool_call>"


def random_tools_score(source: MultiTurnTask, level: int, seed: int) -> float:
    rng = random.Random(seed)
    problem = source.sample(level, seed)
    other = source.sample(level, 10_000 + seed)
    other_plan = source.plan(other)  # type: ignore[attr-defined]
    final = source.format_answer(other_plan[-1])
    schemas = source.tool_schemas()
    calls = rng.randint(1, max(1, min(4, int(problem.data.get("budget", 4)))))

    def reply(state: Any, seen: list[str]) -> str:
        if state.get("turn", 0) >= calls:
            return final
        words = _WORD.findall(" ".join(seen)[-20_000:]) or ["x"]
        return random_call(rng.choice(schemas), words, rng)

    return play(source, problem, reply)[0]


def oracle_episode(source: MultiTurnTask, level: int, seed: int) -> tuple[float, float, float, int]:
    """(reward, wall ms, CPU ms, tool-call turns) of the oracle's episode."""
    problem = source.sample(level, seed)
    wall, cpu = time.perf_counter(), time.process_time()
    total, turns = play(source, problem, lambda state, seen: source.format_answer(source.oracle(problem, state)))
    return total, (time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3, turns - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("envs", nargs="*")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 2, 4])
    parser.add_argument("--family", nargs="+", default=list(FAMILIES))
    args = parser.parse_args()
    ids = args.envs or tool_envs(args.family)
    levels = args.levels
    head = " ".join(f"oracle L{level}" for level in levels)
    print(f"| env | {head.replace(' oracle', ' | oracle')} | random tools | episode wall ms | "
          "episode CPU ms | oracle calls |")
    print("|---" * (len(levels) + 5) + "|")
    for env_id in ids:
        source = make_source(env_id)
        assert isinstance(source, MultiTurnTask)
        wins, walls, cpus, calls, randoms = {level: 0 for level in levels}, [], [], [], []
        for level in levels:
            for seed in range(args.seeds):
                reward, wall, cpu, turns = oracle_episode(source, level, seed)
                wins[level] += reward >= 1.0 - 1e-9
                walls.append(wall)
                cpus.append(cpu)
                calls.append(turns)
                randoms.append(random_tools_score(source, level, seed))
        shares = " | ".join(f"{wins[level] / args.seeds:.2f}" for level in levels)
        print(f"| {env_id} | {shares} | {statistics.mean(randoms):.2f} | {statistics.median(walls):.0f} | "
              f"{statistics.median(cpus):.0f} | {statistics.mean(calls):.1f} |", flush=True)


if __name__ == "__main__":
    main()
