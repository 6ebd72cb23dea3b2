"""The ``palaestra`` command: list, show, check, play, ui, eval, train, index and golden.

Example::

    palaestra list --family games --turns multi
    palaestra show graphs/shortest_path --level 2 --seed 7
    palaestra check arithmetic/expression
    palaestra play games/mastermind
    palaestra ui                         # a web playground and catalogue at http://127.0.0.1:8765/
    palaestra eval --levels 0 2 4 --seeds 10
    palaestra eval --model openai:http://127.0.0.1:8000/v1#my-model --samples 5 --k 1 5 --out runs/eval
    palaestra train --env strings/copy --model tiny --steps 300 --out runs/copy
    palaestra index                      # regenerate the registry index and docs/envs.md
    palaestra golden --update puzzles/sudoku  # regenerate one env's golden snapshot
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from palaestra.core.extract import CLOSE_TAG, wrap
from palaestra.core.optional import MissingExtra, require
from palaestra.integrations.commands import (
    add_commands,
    add_eval_arguments,
    how_many,
    level_number,
    port_number,
    seed_number,
)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table with columns sized to their widest cell."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_list(args: argparse.Namespace) -> int:
    from palaestra.core.registry import DEMO_TAG, registry

    specs = registry.specs(family=args.family, tag=args.tag, turns=args.turns)
    if not specs:
        families = sorted({s.family for s in registry.specs()})
        hint = f"; the families are: {', '.join(families)}" if args.family and args.family not in families else ""
        print(f"no environment matches{hint}", file=sys.stderr)
        return 1
    rows = [(s.id, f"v{s.version}", s.family, s.turns, s.shown_levels, ",".join(s.tags)) for s in specs]
    print(table(["id", "version", "family", "turns", "levels", "tags"], rows))
    counted = [s for s in specs if DEMO_TAG not in s.tags]
    demos = len(specs) - len(counted)
    print(f"\n{len(counted)} environments in {len({s.family for s in counted})} families"
          + (f" (and {demos} demonstration task{'s' if demos > 1 else ''})" if demos else ""))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from palaestra.core.registry import make_source

    problem = make_source(args.env).sample(args.level, args.seed)
    if args.json:
        print(problem.to_json())
        return 0
    print(f"# {problem.versioned_id}  level {problem.level}  seed {problem.seed}\n")
    print(problem.prompt)
    print(f"\n# reference answer\n{problem.answer}")
    return 0


# The checkout this package was loaded from: golden snapshots and the catalogue page live there, whatever the
# current directory (an installed wheel has neither: then --dir / --page must say where).
CHECKOUT = Path(__file__).resolve().parents[1]


def _in_checkout(given: str | None, default: Path, flag: str) -> Path:
    if given is not None:
        return Path(given)
    if not (CHECKOUT / "pyproject.toml").is_file():
        raise ValueError(f"palaestra is not running from a checkout ({CHECKOUT}): pass {flag}")
    return CHECKOUT / default


def cmd_index(args: argparse.Namespace) -> int:
    from palaestra.catalog import DEFAULT_PAGE, write_index
    from palaestra.core.registry import INDEX_PATH

    page = _in_checkout(args.page, DEFAULT_PAGE, "--page")
    specs = write_index(page)
    print(f"{len(specs)} environments written to {INDEX_PATH} and {page}")
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    from palaestra.catalog import DEFAULT_GOLDEN_DIR, changed_at_same_version, golden_problem, write_golden
    from palaestra.core.registry import registry

    root = _in_checkout(args.dir, DEFAULT_GOLDEN_DIR, "--dir")
    failures = 0
    for env_id in args.envs or registry.ids():
        if args.update:
            changed = None if args.same_version else changed_at_same_version(env_id, root)
            if changed:  # a version's problems are fixed once pinned: a change needs a bump first
                failures += 1
                print(f"FAIL {env_id}: not rewritten: {changed} (bump `version` first; --same-version rewrites a "
                      "version that was never released)")
                continue
            print(f"wrote {write_golden(env_id, root)}")
            continue
        problem = golden_problem(env_id, root)
        failures += problem is not None
        print(f"{'FAIL' if problem else 'ok  '} {env_id}" + (f": {problem}" if problem else ""))
    return 1 if failures else 0


def cmd_stats(args: argparse.Namespace) -> int:
    from palaestra.core.registry import registry
    from palaestra.kit import stats

    unknown = [env_id for env_id in args.envs if env_id not in registry]
    if unknown:
        raise ValueError(f"unknown env id(s) {', '.join(unknown)}: `palaestra list` shows every env id")
    env_ids = [registry[e].id for e in args.envs] or [s.id for s in registry.counted()]
    path = _in_checkout(args.out, stats.STATS_PATH, "--out")
    stats.update(env_ids, seeds=args.seeds, path=path, progress=lambda env_id: print(env_id, flush=True))
    print(f"expected scores of {len(env_ids)} environments written to {path}; `palaestra index` shows them")
    return 0


def cmd_ui(args: argparse.Namespace) -> int:
    from palaestra.ui import serve_ui

    serve_ui(args.host, args.port, max_level=args.max_level, token=args.token)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from palaestra import kit

    settings = kit.Settings.full() if args.full else kit.Settings.ci() if args.quick else None
    unknown = [name for name in args.only or () if name not in kit.CHECKS]
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks are: {', '.join(kit.CHECKS)}")
    return kit.main(args.envs, settings, args.only)


def cmd_play(args: argparse.Namespace) -> int:
    from palaestra.factory import make

    env = make(args.env, level=args.level)
    obs, info = env.reset(seed=args.seed)
    fmt = env.answer_format  # type: ignore[attr-defined]
    print(obs)
    print(f"\n(type your answer; it is sent as {wrap('...', fmt)!r} unless it already is. A line ending in a "
          "backslash continues on the next line; Ctrl-D or Ctrl-C quits)")
    total, reward, terminated, truncated = 0.0, 0.0, False, False
    try:
        while not (terminated or truncated):
            text = _read_answer()
            if text is None:
                break
            action = text if CLOSE_TAG in text or fmt not in ("tag", "boxed") else wrap(text, fmt)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            print(f"{obs}\n[reward {reward:g}, total {total:g}{', correct' if info.get('correct') else ''}]")
    except KeyboardInterrupt:
        print()
    ending = "solved" if terminated and info.get("correct") else "truncated" if truncated else "ended" if terminated else "quit"
    print(f"episode {ending}; reference answer: {env.unwrapped.problem.answer}")
    return 0


def _read_answer() -> str | None:
    """One answer from the terminal; lines ending in a backslash continue it (multi-line answers). None on EOF."""
    lines: list[str] = []
    prompt = "> "
    for _ in range(10_000):
        try:
            line = input(prompt)
        except EOFError:
            print()
            return "\n".join(lines) if lines else None
        if line.endswith("\\"):
            lines.append(line[:-1])
            prompt = ". "
            continue
        lines.append(line)
        break
    return "\n".join(lines)


def cmd_eval(args: argparse.Namespace) -> int:
    if args.ray and (args.suite or args.reverify or args.model is not None):
        raise SystemExit("palaestra eval: --ray shards the oracle and random policies' episodes (no --model, --suite "
                         "or --reverify); to spread a model's episodes, serve it and use --model openai:URL")
    if args.suite or args.reverify:  # named suites and re-verification: palaestra.integrations.suites
        from palaestra.integrations.suites import eval_command

        return eval_command(args, _load_model)
    if args.model is not None:
        return _eval_model(args)
    if unused := _model_only_options(args):
        raise SystemExit(f"palaestra eval: {', '.join(unused)} apply to a model's episodes: add --model (--model oracle "
                         "plays the oracle with them); without --model eval compares the oracle and random policies "
                         "and writes nothing")
    from palaestra.baselines.evaluate import evaluate
    from palaestra.baselines.policies import OraclePolicy, RandomPolicy
    from palaestra.core.registry import registry

    env_ids = args.envs or registry.ids()
    policies = [OraclePolicy(), RandomPolicy(seed=0)]
    _print_example(env_ids[0], max(args.levels))
    t0 = time.perf_counter()
    rows = evaluate(env_ids, policies, levels=args.levels, seeds=range(args.seeds), ray_address=args.ray)
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


# Options of ``palaestra eval`` that only a model's episodes use, with the value each has when not given.
_MODEL_ONLY = {"out": None, "samples": 1, "k": [1], "answer_format": None, "temperature": 1.0, "max_new_tokens": None,
               "device": None, "catalogue": False, "engine": "palaestra"}


def _model_only_options(args: argparse.Namespace) -> list[str]:
    """The model-only options given a value of their own (they would be ignored without ``--model``)."""
    return ["--" + name.replace("_", "-") for name, unset in _MODEL_ONLY.items() if getattr(args, name) != unset]


def _load_model(args: argparse.Namespace) -> tuple[Any, str | None]:
    """The model named by ``--model`` and the answer format to ask of it (``--answer-format``, else its own)."""
    spec: str = args.model
    if spec in ("oracle", "random"):
        from palaestra.baselines.policies import OraclePolicy, RandomPolicy

        return (OraclePolicy() if spec == "oracle" else RandomPolicy(seed=0)), args.answer_format
    if spec.startswith("openai:"):
        from palaestra.integrations.openai_client import OpenAIChatClient

        client = OpenAIChatClient.from_spec(spec[len("openai:"):], concurrency=args.concurrency,
                                            max_retries=args.retries, timeout=args.timeout,
                                            temperature=args.temperature, max_tokens=args.max_new_tokens or 1024)
        return client, args.answer_format
    from palaestra.baselines.evaluate import PolicyChat
    from palaestra.baselines.models import MODEL_CHOICES, load_policy

    if args.engine == "vllm":
        import json

        from palaestra.baselines.hf import METADATA_FILE
        from palaestra.baselines.vllm_chat import VLLMChat

        path = Path(spec[3:] if spec.startswith("hf:") else spec)
        model = VLLMChat(path, max_new_tokens=args.max_new_tokens or 1024, temperature=args.temperature,
                         max_context=args.max_context)
        metadata = path / METADATA_FILE  # a checkpoint written by the trainer knows its answer format
        trained = json.loads(metadata.read_text()).get("answer_format") if metadata.is_file() else None
        return model, args.answer_format or trained
    try:
        policy = load_policy(spec, device=args.device)
    except ValueError as exc:
        if str(exc).startswith("unknown model"):
            raise ValueError(f"unknown model {spec!r}: use oracle, random, openai:URL#MODEL, {MODEL_CHOICES}") from None
        raise
    chat = PolicyChat(policy, max_new_tokens=args.max_new_tokens or policy.reply_tokens,
                      temperature=args.temperature, batch_size=args.batch_size, max_context=args.max_context)
    return chat, args.answer_format or policy.answer_format


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def _eval_model(args: argparse.Namespace) -> int:
    from palaestra.baselines.evaluate import Suite, pass_cell, run_suite
    from palaestra.core.registry import registry

    model, answer_format = _load_model(args)
    if args.catalogue:
        return _eval_catalogue(args, model, answer_format)
    suite = Suite(tuple(args.envs or registry.ids()), tuple(args.levels), tuple(range(args.seeds)))
    result = run_suite(model, suite, samples=args.samples, ks=args.k, answer_format=answer_format,
                       batch_size=args.batch_size, out_dir=args.out)
    passes = [f"pass@{k} (problems)" for k in args.k]
    for columns, rows in ((["env_id", "level"], result.level_rows()), (["env_id"], result.env_rows()),
                          (["family"], result.family_rows())):
        body = [(*(r[c] for c in columns), r["episodes"], r["errors"], _number(r["reward"]),
                 *(pass_cell(r, k) for k in args.k)) for r in rows]
        print(table([*columns, "episodes", "errors", "reward", *passes], body) + "\n")
    reasons = result.error_reasons()
    errors = sum(reasons.values())
    print(f"{result.model}: {len(result.records)} episodes ({len(suite.problems())} problems x {args.samples} samples, "
          f"answer format {answer_format or 'each env default'}) in {result.seconds:.1f} s, "
          f"{result.episodes_per_second:.1f} episodes/s; {errors} infrastructure errors (not scored)")
    for reason, count in reasons.items():
        example = next((r["error"] for r in result.records if r["error"] and reason in r["error"]), "")
        print(f"  {count} x {reason}  (e.g. {example[:160]!r})")
    if args.out:
        print(f"transcripts, summary.json and pass_at_k.png in {args.out}")
    if result.records and errors == len(result.records):
        print("palaestra: every episode failed with an infrastructure error: nothing was scored", file=sys.stderr)
        return 1
    return 0


def _eval_catalogue(args: argparse.Namespace, model: Any, answer_format: str | None) -> int:
    """A model's mean reward per env and level on the catalogue's own problems, added to its expected scores."""
    from palaestra.baselines.evaluate import Suite, run_suite
    from palaestra.core.registry import registry
    from palaestra.kit import stats

    env_ids = [registry[e].id for e in args.envs] if args.envs else [s.id for s in registry.counted()]
    records: list[dict[str, Any]] = []
    name = ""
    for env_id in env_ids:  # each env on the seeds its figures were measured on, every level
        suite = Suite((env_id,), tuple(range(registry[env_id].levels)), tuple(stats.stats_seeds(env_id)))
        result = run_suite(model, suite, answer_format=answer_format, batch_size=args.batch_size, plot=False)
        records += result.records
        name = result.model
    sums: dict[tuple[str, int], list[float]] = {}
    for record in records:
        if record["error"] is None:
            sums.setdefault((record["env_id"], record["level"]), []).append(float(record["reward"]))
    rewards = {key: sum(values) / len(values) for key, values in sums.items()}
    missing = stats.record_model(name, rewards)
    print(f"{name}: mean reward per level of {len(env_ids) - len(missing)} envs added to {stats.STATS_PATH}; "
          "`palaestra index` shows them in docs/envs.md")
    if missing:
        print(f"no expected scores yet for {', '.join(missing)}: run `palaestra stats` for them first", file=sys.stderr)
    return 0


def _run_dir(out: str | None, force: bool) -> Path:
    """Where a training run writes: a fresh ``runs/train/<time>`` folder by default; an explicit folder that already
    holds files only with ``--force`` (so a second run never silently overwrites the first one's results)."""
    if out is None:
        base = Path("runs/train") / time.strftime("%Y%m%d-%H%M%S")
        for suffix in range(1000):  # two runs started in the same second get separate folders
            folder = base if suffix == 0 else base.with_name(f"{base.name}-{suffix}")
            if not folder.exists():
                return folder
        raise ValueError(f"{base}: too many runs started in the same second; pass --out")
    folder = Path(out)
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise ValueError(f"--out {folder} already holds files (a previous run?): choose another folder or pass --force")
    return folder


def cmd_train(args: argparse.Namespace) -> int:
    require("torch", "torch", "palaestra train")
    import palaestra
    from palaestra.baselines.models import load_policy
    from palaestra.baselines.reinforce import TrainConfig, make_group, train

    if len(args.level) != 1:
        raise ValueError(f"train runs one level at a time, got --levels {' '.join(map(str, args.level))}")
    args.level = args.level[0]
    if args.group_size < 1:  # checked before the run's folder is made
        raise ValueError(f"--group-size must be at least 1, got {args.group_size}")
    if args.advantage == "group" and args.group_size < 2:  # one sample per group: every advantage would be 0
        raise ValueError("--advantage group compares each problem's samples: give --group-size 2 or more")
    if args.eval_levels and not args.eval_seeds:
        raise ValueError("--eval-levels are evaluated with --eval-seeds problems each: --eval-seeds is 0")
    if args.batch_size % args.group_size:
        raise ValueError(f"--batch-size {args.batch_size} must be a multiple of --group-size {args.group_size}")
    args.out = str(_run_dir(args.out, args.force))

    if args.model == "tiny":
        from palaestra.baselines.tiny import TinyPolicy

        policy = TinyPolicy.for_envs(args.env, level=args.level, seed=args.seed, device=args.device)
    else:
        policy = load_policy(args.model, device=args.device)
    tiny = args.model == "tiny" or args.model.endswith(".pt")
    if tiny and policy.device.type == "cpu" and args.threads:
        import torch

        torch.set_num_threads(args.threads)  # the tiny model's small matrices run faster on one thread
    policy.answer_format = args.answer_format or policy.answer_format or ("raw" if tiny else None)
    config = TrainConfig(
        steps=args.steps, lr=args.lr or (TINY_LR if tiny else 1e-6),
        advantage=args.advantage or ("group" if args.group_size > 1 else "batch"),
        max_new_tokens=args.max_new_tokens or (policy.reply_tokens if tiny else 512), max_turns=args.max_turns,
        temperature=args.temperature, kl_coef=args.kl_coef,
        entropy_coef=args.entropy_coef if args.entropy_coef is not None else (TINY_ENTROPY if tiny else 0.0),
        micro_batch_size=args.micro_batch_size or (256 if tiny else 64), max_context=args.max_context,
        seed=args.seed, time_limit=args.time_limit, checkpoint_every=args.checkpoint_every,
    )
    evaluation = _BeforeAfter(policy, args, config.max_new_tokens) if args.eval_seeds else None
    kwargs: dict[str, Any] = {"level": args.level, "answer_format": policy.answer_format, "mode": args.mode}
    problems = args.batch_size // args.group_size
    envs = make_group(args.env, problems, args.group_size, **kwargs) if args.group_size > 1 \
        else palaestra.make_vec(args.env, args.batch_size, **kwargs)
    try:
        result = train(policy, envs, config, out_dir=args.out, progress=not args.quiet and sys.stderr.isatty())
    finally:
        for e in envs if isinstance(envs, list) else [envs]:
            e.close()
    history = result.history
    window = min(20, len(history))
    first = sum(h["accuracy"] for h in history[:window]) / window
    last = sum(h["accuracy"] for h in history[-window:]) / window
    errors = sum(h["errors"] for h in history)
    print(f"{policy.name} on {', '.join(args.env)} (level {args.level}, device {policy.device}): sampled accuracy "
          f"{first:.3f} -> {last:.3f} (first and last {window} steps of {args.batch_size} episodes); "
          f"{len(history)} steps in {result.seconds:.0f} s"
          + (f"; {errors} episodes not judged (errors)" if errors else ""))
    print(_curve(history))
    print(f"metrics: {Path(args.out) / 'metrics.jsonl'}")
    print(f"checkpoint: {result.checkpoint}\nlearning curve: {result.plot}")
    if evaluation:
        evaluation.finish()
    return 0


TINY_LR, TINY_ENTROPY = 6e-4, 0.02  # the tiny model's defaults (the CPU demonstration)


def _curve(history: Sequence[dict[str, Any]], points: int = 10) -> str:
    """The learning curve as text: sampled accuracy averaged over equal stretches of the run."""
    size = max(1, len(history) // points)
    cells = []
    for start in range(0, len(history) - size + 1, size):
        chunk = history[start: start + size]
        cells.append(f"{chunk[-1]['step'] + 1}: {sum(h['accuracy'] for h in chunk) / len(chunk):.2f}")
    return "learning curve (step: mean sampled accuracy over the stretch ending there): " + ", ".join(cells)


class _BeforeAfter:
    """Evaluates the policy on held-out seeds of the training envs before and after training."""

    def __init__(self, policy: Any, args: argparse.Namespace, max_new_tokens: int) -> None:
        from palaestra.baselines.evaluate import PolicyChat, Suite, run_suite

        levels = tuple(args.eval_levels or [args.level])
        self.temperature = args.eval_temperature
        # seeds far from the trainer's, so the table measures generalisation to unseen problems
        self.suite = Suite(tuple(args.env), levels, tuple(range(10**6, 10**6 + args.eval_seeds)))
        chat = PolicyChat(policy, max_new_tokens=max_new_tokens, temperature=args.eval_temperature,
                          max_context=args.max_context)
        self.run = lambda: run_suite(chat, self.suite, answer_format=policy.answer_format, plot=False)
        self.before = self.run()

    def finish(self) -> None:
        after = {(r["env_id"], r["level"]): r for r in self.run().level_rows()}
        rows = [(r["env_id"], r["level"], r["episodes"], _number(r["reward"]), _number(after[key]["reward"]),
                 _number(r["pass@1"]), _number(after[key]["pass@1"]))
                for r in self.before.level_rows() for key in [(r["env_id"], r["level"])]]
        how = "greedy" if self.temperature == 0 else f"temperature {self.temperature:g}"
        print(f"\nheld-out problems (seeds the trainer never used, {how} decoding), before and after training:")
        headers = ["env", "level", "episodes", "reward before", "reward after", "solved before", "solved after"]
        print(table(headers, rows))


def _print_example(env_id: str, level: int) -> None:
    """One episode in full view, so the table below is visibly made of real problems."""
    from palaestra.baselines.policies import OraclePolicy
    from palaestra.core.registry import registry
    from palaestra.factory import make

    spec = registry[env_id]
    env = make(env_id, level=level if spec.accepts_level(level) else spec.levels - 1)
    obs, info = env.reset(seed=0)
    response = OraclePolicy()(env, obs, info)
    feedback, reward, *_ = env.step(response)
    print(f"example: {env_id} level {env.level} seed 0\n--- prompt ---\n{obs}\n--- oracle response ---\n{response}")
    print(f"--- verdict ---\nreward {reward:g}: {feedback}\n")


DEMO_STEPS = 600  # the tiny model's CPU demonstration: arithmetic/addition level 0


def build_parser() -> argparse.ArgumentParser:
    from palaestra import __version__

    parser = argparse.ArgumentParser(prog="palaestra", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"palaestra {__version__}")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("list", help="list registered environments")
    p.add_argument("--family", help="only this family")
    p.add_argument("--tag", help="only envs carrying this tag")
    p.add_argument("--turns", choices=["single", "multi"], help="only single- or multi-turn envs")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("index", help="regenerate the registry index and the catalogue page (after adding an env)")
    p.add_argument("--page", help="where to write the catalogue page (default: docs/envs.md of the checkout)")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("golden", help="check (or --update) the golden snapshots of what each (id, level, seed) produces")
    p.add_argument("envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--update", action="store_true", help="write the snapshots (after bumping an env's version)")
    p.add_argument("--same-version", action="store_true",
                   help="with --update, rewrite a snapshot whose version now produces other problems (only for a "
                        "version never released)")
    p.add_argument("--dir", help="snapshot directory (default: tests/golden of the checkout, from any folder)")
    p.set_defaults(func=cmd_golden)

    p = sub.add_parser("stats", help="measure expected scores per env and level (reference, best cheap policy, "
                                     "difficulty, generation time) for the catalogue")
    p.add_argument("envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--seeds", type=how_many, default=10, help="problems per level (default 10)")
    p.add_argument("--out", help="the stats file (default: palaestra/envs/stats.json of the checkout)")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("show", help="show one problem and its reference answer")
    p.add_argument("env", help="env id (family/name, optionally -vN)")
    p.add_argument("--level", "--levels", type=int, default=0, help="difficulty level (0 = easiest)")
    p.add_argument("--seed", type=seed_number, default=0, help="which problem of the level")
    p.add_argument("--json", action="store_true", help="print the Problem as JSON")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("check", help="run the contract test kit")
    p.add_argument("envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--full", action="store_true", help="the full sample sizes (default unless CI is set)")
    p.add_argument("--quick", action="store_true", help="CI's smaller sample sizes")
    p.add_argument("--only", nargs="+", help="run only these checks")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("ui", help="a local web playground and catalogue of every env (no external assets)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8765, help="TCP port (default 8765; 0 picks a free one)")
    p.add_argument("--max-level", type=level_number, default=9,
                   help="the highest level a page may ask for (default 9; unbounded envs' far levels take long)")
    p.add_argument("--token", default=None,
                   help="required of every request (or $PALAESTRA_SERVER_TOKEN); needed to bind beyond loopback: open "
                        "/?token=TOKEN once in the browser")
    p.set_defaults(func=cmd_ui)

    p = sub.add_parser("play", help="play an environment in the terminal")
    p.add_argument("env", help="env id (family/name, optionally -vN)")
    p.add_argument("--level", "--levels", type=int, default=0, help="difficulty level (0 = easiest)")
    p.add_argument("--seed", type=seed_number, default=0, help="which problem of the level")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("eval", help="evaluate a model (default: the oracle and random policies) on a suite")
    p.add_argument("--envs", "--env", dest="envs", nargs="*", help="env ids (default: all)")
    p.add_argument("--levels", "--level", dest="levels", type=int, nargs="+", default=[0, 2, 4],
                   help="difficulty levels (default: 0 2 4)")
    p.add_argument("--seeds", type=how_many, default=10, help="seeds per level")
    p.add_argument("--model", help="oracle | random | tiny | PATH.pt (a tiny checkpoint) | hf:PATH | openai:URL#MODEL; "
                                   "without it: the oracle and random policies side by side")
    p.add_argument("--samples", type=how_many, default=1, help="episodes per problem")
    p.add_argument("--k", type=int, nargs="+", default=[1], help="pass@k for these k (each <= --samples)")
    p.add_argument("--out", help="directory for transcripts.jsonl, summary.json and pass_at_k.png")
    p.add_argument("--answer-format", choices=["tag", "boxed", "last_line", "raw"],
                   help="answer format asked of the model (default: the checkpoint's, else each env's)")
    p.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of the model (default 1)")
    p.add_argument("--max-new-tokens", type=int, help="tokens per reply (default: the checkpoint's, 1024 over HTTP)")
    p.add_argument("--batch-size", type=int, default=64, help="episodes played at once")
    p.add_argument("--concurrency", type=int, default=16, help="HTTP requests at once (openai:)")
    p.add_argument("--retries", type=int, default=3, help="retries of a failed HTTP request (openai:)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per HTTP request (openai:)")
    p.add_argument("--device", help="torch device for local models (default: cuda if available)")
    p.add_argument("--max-context", type=int, default=4096,
                   help="tokens per episode at most for local models (prompt, replies, observations)")
    p.add_argument("--catalogue", action="store_true",
                   help="with --model: play every level of the envs on the catalogue's problems and add the model's "
                        "mean reward per level to the expected scores (palaestra/envs/stats.json)")
    p.add_argument("--engine", choices=["palaestra", "vllm"], default="palaestra",
                   help="how a local model (hf:PATH) samples: the built-in rollout engine, or vLLM if installed")
    add_eval_arguments(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("train", help="train a policy with REINFORCE (default: the tiny model's CPU demonstration)")
    p.add_argument("--envs", "--env", dest="env", nargs="+", default=["arithmetic/addition"],
                   help="env ids, mixed in one batch")
    p.add_argument("--model", default="tiny", help="tiny | PATH.pt (continue a tiny checkpoint) | hf:PATH")
    p.add_argument("--levels", "--level", dest="level", type=int, nargs="+", default=[0],
                   help="the difficulty level trained on (one level; default 0)")
    p.add_argument("--steps", type=int, default=DEMO_STEPS, help=f"optimiser steps (default {DEMO_STEPS})")
    p.add_argument("--out", help="directory for metrics.jsonl, checkpoints, learning_curve.png (default: a new "
                                 "runs/train/<time> folder per run; an existing non-empty one needs --force)")
    p.add_argument("--force", action="store_true", help="write into an --out folder that already holds files")
    p.add_argument("--batch-size", type=int, default=256, help="episodes per step")
    p.add_argument("--group-size", type=int, default=8, help="samples per problem (> 1: group-relative advantages)")
    p.add_argument("--advantage", choices=["batch", "group"], help="default: group if --group-size > 1, else batch")
    p.add_argument("--lr", type=float, help=f"default: {TINY_LR:g} for tiny, 1e-6 for hf")
    p.add_argument("--entropy-coef", type=float, help=f"entropy bonus (default: {TINY_ENTROPY:g} for tiny, 0 for hf)")
    p.add_argument("--max-new-tokens", type=int, help="tokens per reply (default for tiny: the longest reference "
                                                      "answer + 1, or the checkpoint's; 512 for hf)")
    p.add_argument("--max-context", type=int, default=4096,
                   help="tokens per episode at most (prompt, replies, observations): the rollout engine's slot size")
    p.add_argument("--max-turns", type=int, default=16, help="responses per multi-turn episode at most")
    p.add_argument("--temperature", type=float, default=1.0, help="sampling temperature during training (default 1)")
    p.add_argument("--kl-coef", type=float, default=0.0, help="> 0: KL penalty to the initial policy")
    p.add_argument("--micro-batch-size", type=int, help="episodes per forward/backward at most (default: 128 tiny, "
                                                        "64 hf; long episodes are also split by token count)")
    p.add_argument("--answer-format", choices=["tag", "boxed", "last_line", "raw"],
                   help="default: raw for tiny, each env's own for hf")
    p.add_argument("--mode", choices=["sync", "async"], default="sync", help="vector env mode")
    p.add_argument("--seed", type=seed_number, default=0, help="seed of the model's initialisation and the problem stream")
    p.add_argument("--time-limit", type=float, help="stop after this many seconds")
    p.add_argument("--checkpoint-every", type=int, default=100, help="steps between checkpoints (default 100)")
    p.add_argument("--device", help="torch device (default: cuda if available)")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for the tiny model (0: torch's default)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none either when stderr is not a "
                                                        "terminal)")
    p.add_argument("--eval-seeds", type=int, default=200,
                   help="held-out problems per env and level evaluated before and after training (0: none)")
    p.add_argument("--eval-levels", type=int, nargs="+", help="levels of that evaluation (default: --level)")
    p.add_argument("--eval-temperature", type=float, default=0.0, help="sampling temperature of that evaluation "
                                                                       "(default 0: greedy)")
    p.set_defaults(func=cmd_train)
    add_commands(sub)  # export, serve, serve-reward: palaestra.integrations.commands
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except (KeyError, ValueError, MissingExtra) as exc:
        print(f"palaestra: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
