"""The trainer-facing commands: ``palaestra export``, ``palaestra serve`` and ``palaestra serve-reward``.

Only argument parsing lives here (building the parser imports nothing heavy); each command
imports its module when it runs.

Example::

    palaestra export verl --envs arithmetic/expression games/wordle --levels 0 1 2 --seeds 1000 --out train.parquet
    palaestra serve --port 8000 --max-sessions 512 --workers 4
    palaestra serve-reward --port 5000
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from palaestra.core.optional import require
from palaestra.core.registry import SERVED_LEVEL_MAX


def bounded_int(low: int, high: int | None, refusal: str) -> Callable[[str], int]:
    """An argparse type: an integer in ``[low, high]`` (no upper end when ``high`` is None), else ``refusal``
    followed by the value given."""

    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{refusal}, not {value}")
        return value

    parse.__name__ = "int"  # argparse names the type in "invalid int value: 'x'"
    return parse


# env.reset refuses negative seeds, so a problem made from one could never be played again
seed_number = bounded_int(0, None, "a seed is an integer >= 0")
how_many = bounded_int(1, None, "must be at least 1")  # a count of problems, samples, sessions, bytes
port_number = bounded_int(0, 65535, "a port is 0-65535")  # 0 picks a free one
level_number = bounded_int(0, None, "a level is an integer >= 0")


def seconds(text: str) -> float:
    """An argparse type: a time limit, a number of seconds > 0."""
    value = float(text)
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"a time limit is a number of seconds > 0, not {text}")
    return value


def add_commands(sub: Any) -> None:
    """Add ``export``, ``serve`` and ``serve-reward`` to the ``palaestra`` command's subparsers."""
    p = sub.add_parser("export", help="write env problems as a trainer's dataset (hf, verl, openrlhf)")
    p.add_argument("kind", choices=["hf", "verl", "openrlhf"], help="hf: Hugging Face rows (parquet/jsonl); verl: "
                                                                   "verl's RL parquet; openrlhf: OpenRLHF's JSONL")
    p.add_argument("--envs", "--env", dest="envs", nargs="+", required=True, help="env ids")
    p.add_argument("--levels", "--level", dest="levels", type=int, nargs="+", default=[0],
                   help="difficulty levels (default: 0)")
    p.add_argument("--seeds", type=how_many, default=100, help="problems 0..N-1 per env and level")
    p.add_argument("--first-seed", type=seed_number, default=0, help="start the seeds here (e.g. held-out problems)")
    p.add_argument("--out", required=True, help="output file: .parquet, .jsonl or .json")
    p.add_argument("--answer-format", choices=["tag", "boxed", "last_line", "raw"], help="default: each env's own")
    p.add_argument("--system-prompt", help="a system message before every prompt")
    p.add_argument("--plain", action="store_true", help="plain-text prompts instead of chat messages (hf, openrlhf)")
    p.add_argument("--split", default="train", help="verl's extra_info split name")
    p.add_argument("--workers", type=int, default=1, help="processes making rows (the file is the same for any count)")
    p.add_argument("--ray", metavar="ADDRESS", help="make the rows as Ray tasks over a cluster's nodes: 'auto' (the "
                                                    "cluster this machine is part of), ray://HOST:PORT, or 'local'; "
                                                    "the file is the same, and a lost node's rows are made again")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("serve", help="serve every env over HTTP in the OpenEnv protocol (needs openenv-core)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="TCP port (default 8000)")
    p.add_argument("--envs", nargs="*", default=[], help="offer only these env ids (default: all)")
    p.add_argument("--default-env", help="the env a reset without env_id gets")
    p.add_argument("--tools", nargs="*", help="tools a client may ask for (default: all palaestra tools)")
    p.add_argument("--max-sessions", type=how_many, default=256, help="open sessions (WebSocket clients) per process")
    p.add_argument("--session-timeout", type=seconds, default=600.0, help="seconds before an idle session is closed")
    p.add_argument("--step-timeout", type=seconds, default=60.0, help="seconds a reset or step may take")
    p.add_argument("--max-message-bytes", type=how_many, default=1_000_000, help="largest request or WebSocket message")
    p.add_argument("--workers", type=how_many, default=1, help="server processes sharing the port")
    p.add_argument("--header-timeout", type=seconds, default=10.0, help="seconds a connection may take to send headers")
    p.add_argument("--body-timeout", type=seconds, default=30.0, help="seconds a request body may take to arrive")
    p.add_argument("--max-connections", type=how_many, default=512, help="connections at once; more get 503")
    p.add_argument("--write-timeout", type=seconds, default=60.0,
                   help="seconds a WebSocket client may leave what the server sends unread before it is dropped")
    p.add_argument("--max-level", type=level_number, default=SERVED_LEVEL_MAX,
                   help=f"the highest level a reset may ask (default {SERVED_LEVEL_MAX}: far levels of unbounded envs "
                        "take minutes to generate)")
    p.add_argument("--allow-origin", nargs="*", default=[], metavar="ORIGIN",
                   help="web pages (e.g. http://localhost:3000) whose requests are served; any other request "
                        "carrying an Origin header, as browsers send, is refused")
    p.add_argument("--token", default=os.environ.get("PALAESTRA_SERVER_TOKEN"),
                   help="required for a --host other than 127.0.0.1: clients send 'Authorization: Bearer TOKEN' "
                        "(default: $PALAESTRA_SERVER_TOKEN)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("serve-reward", help="an HTTP reward server in OpenRLHF's /get_reward protocol")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=5000, help="TCP port (default 5000)")
    p.add_argument("--max-batch", type=how_many, default=4096, help="samples per request at most")
    p.add_argument("--max-body-bytes", type=how_many, default=64_000_000, help="largest request body in bytes")
    p.add_argument("--max-concurrent", type=how_many, default=64,
                   help="requests judged at once; more wait for a slot (up to --queue-seconds, then 503)")
    p.add_argument("--queue-seconds", type=seconds, default=300.0,
                   help="how long a request waits for a judging slot before it gets 503 (default 300)")
    p.add_argument("--timeout", type=seconds, default=120.0, help="seconds an idle connection is kept")
    p.add_argument("--body-timeout", type=seconds, default=30.0, help="seconds a request's body may take to arrive")
    p.add_argument("--header-timeout", type=seconds, default=10.0,
                   help="seconds a request's line and headers may take in all once they start (default 10)")
    p.add_argument("--max-level", type=level_number, default=9,
                   help="the highest level a label may carry (default 9; unbounded envs' far levels take long)")
    p.add_argument("--max-connections", type=how_many, default=512,
                   help="connections served at once; more wait in the listen queue (--backlog) until one closes")
    p.add_argument("--backlog", type=how_many, default=4096,
                   help="connections waiting to be accepted (the kernel caps it at net.core.somaxconn)")
    p.add_argument("--max-memory-bytes", type=how_many, default=1 << 30,
                   help="memory the requests in flight may hold, their bodies and parsed labels (default 1 GiB); a "
                        "request that cannot get its share in time gets 503")
    p.add_argument("--job-seconds", type=seconds, default=10.0,
                   help="wall and CPU seconds of any sandbox job judged here (a request cannot raise it)")
    p.add_argument("--token", default=os.environ.get("PALAESTRA_SERVER_TOKEN"),
                   help="required for a --host other than 127.0.0.1: clients send 'Authorization: Bearer TOKEN' "
                        "(default: $PALAESTRA_SERVER_TOKEN)")
    p.set_defaults(func=cmd_serve_reward)


def add_eval_arguments(p: argparse.ArgumentParser) -> None:
    """``--suite`` and ``--reverify`` for ``palaestra eval``."""
    p.add_argument("--suite", help="a named, versioned suite (core, multi-turn, coding) or a suite .json file; "
                                   "it sets envs, levels, seeds, samples and k, and writes report.md with --out")
    p.add_argument("--reverify", metavar="TRANSCRIPTS", help="re-score a transcripts.jsonl with today's verifiers")
    p.add_argument("--ray", metavar="ADDRESS", help="without --model: play each env's episodes as a Ray task over a "
                                                    "cluster's nodes ('auto', ray://HOST:PORT or 'local'); a lost "
                                                    "node's episodes are played again")


def cmd_export(args: argparse.Namespace) -> int:
    from palaestra.integrations.export import export

    # options another kind's rows would use: refused rather than dropped without a word
    if args.split != "train" and args.kind != "verl":
        raise SystemExit(f"palaestra export: --split names verl's split (extra_info); {args.kind} rows have none")
    if args.plain and args.kind == "verl":
        raise SystemExit("palaestra export: --plain applies to hf and openrlhf rows; verl's prompts are chat messages")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    count = export(args.kind, args.envs, args.out, levels=args.levels, seeds=seeds, answer_format=args.answer_format,
                   conversational=not args.plain, system_prompt=args.system_prompt, split=args.split,
                   workers=args.workers, ray_address=args.ray)
    print(f"{count} rows written to {args.out}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    require("openenv", "openenv", "palaestra serve")
    from palaestra.integrations.openenv_server import ServeConfig, serve

    tools = ServeConfig.tools if args.tools is None else tuple(args.tools)
    config = ServeConfig(env_ids=tuple(args.envs), default_env_id=args.default_env, tools=tools,
                         max_sessions=args.max_sessions, session_timeout=args.session_timeout,
                         step_timeout=args.step_timeout, max_message_bytes=args.max_message_bytes,
                         header_timeout=args.header_timeout, body_timeout=args.body_timeout,
                         max_connections=args.max_connections, token=args.token, max_level=args.max_level,
                         allowed_origins=tuple(args.allow_origin), write_timeout=args.write_timeout)
    ready = (f"palaestra OpenEnv server ready on ws://{args.host}:{args.port}/ws ({args.workers} worker(s), "
             f"{args.max_sessions} sessions each)")
    serve(args.host, args.port, config, workers=args.workers, ready=ready)
    return 0


def cmd_serve_reward(args: argparse.Namespace) -> int:
    from palaestra.integrations.openrlhf import serve_reward

    serve_reward(args.host, args.port, max_batch=args.max_batch, max_body_bytes=args.max_body_bytes,
                 max_concurrent=args.max_concurrent, timeout=args.timeout, body_timeout=args.body_timeout,
                 max_connections=args.max_connections, token=args.token, job_seconds=args.job_seconds,
                 backlog=args.backlog, queue_seconds=args.queue_seconds, header_timeout=args.header_timeout,
                 max_level=args.max_level, max_memory_bytes=args.max_memory_bytes)
    return 0
