"""Aggregate generated access logs over a time window (count, bytes, distinct clients), with a sandboxed shell.

The tree holds ``logs/<host>/access.log`` for a few hosts, and from level 1 rotated files (``access.log.1``,
``access.log.2``: older lines) that belong to the same log. A request line reads ``<time> <ip> <method>
<path> <status> <bytes>`` with ``<time>`` in ISO 8601 UTC, e.g. ``2024-05-03T10:15:02Z``; from level 2 lines
starting with ``#`` are notes, not requests (commented-out request lines inside the window, with a status
the question selects and an address never seen inside it, so that counting them changes every measure; before
version 4 they read ``# <host> reloaded <ip> 200 0``, held no time and could never be counted by mistake);
from level 3 some hosts write milliseconds
(``2024-05-03T10:15:02.250Z``), so that comparing the whole field as text misorders them against the
window's bounds (``.`` sorts before ``Z``). The question: over all hosts, the number of requests, the total
bytes sent, or the number of distinct client addresses, for requests from START (inclusive) to END
(exclusive), optionally only with a 2xx or a 5xx status. Near misses sit at the bounds: requests exactly at
START (counted; two at the first host, one at each other, each from an address used nowhere else), exactly at
END (not counted; all from one address that never makes a request inside the window) and one second before
START (not counted), all with a status the question selects, so that a slip at either bound, or at both
(``$1 > START && $1 <= END``), changes every measure; in version 2 they had any status and any address, and
the slip at both bounds was right in about 41% of level 0 and 25% of level 4. The window spans a day
boundary from level 2. The clients are a pool of 6-30 addresses used with skewed frequencies (so the distinct
count in a window is not the pool's size), and 1-4 more addresses make requests only outside the window (so
counting the addresses of the whole log overshoots); with a fixed pool of 12 every address showed up in a large
window and the constant 12 answered a third of the problems from level 4 on.

The answer is an integer, judged exactly (a unit word such as "requests" or "bytes" is accepted). The
difficulty is the number of files plus a twenty-fifth of the lines plus twice the traps in play plus the
question's weight.

Generation speed: about 350 problems/s at level 4 on this 2-core machine. Each problem writes its own
logs, 3-5 hosts of 90-160 timestamped lines each over rotated files, with notes, a day boundary and
millisecond traps, and counts the requests in the asked window from every line; drawing and formatting
those lines is nearly all the time, and they are the data the model must filter.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, shell_plan, words
from palaestra.verifiers.numeric import grade_number

METHODS = ("GET", "GET", "GET", "POST", "PUT", "DELETE")
STATUSES = (200, 200, 200, 201, 204, 301, 304, 400, 403, 404, 500, 502, 503)
MEASURES = {"count": "the number of requests", "bytes": "the total number of bytes sent (the last field)",
            "clients": "the number of distinct client addresses"}
MEASURE_WEIGHT = {"count": 0, "bytes": 1, "clients": 2}
# The unit words each measure's answer may carry ("64101 B"); another measure's word is a wrong answer.
UNITS = {"count": ("requests", "matching requests"), "bytes": ("bytes", "B"),
         "clients": ("clients", "addresses", "client addresses", "distinct clients", "distinct client addresses")}
AWK_OUT = {"count": "n++ } END { print n + 0 }", "bytes": "n += $6 } END { print n + 0 }",
           "clients": "print $2 }"}


@register
class LogWindow(ShellTask):
    id = "terminal/log_window"
    family = "terminal"
    description = "Count, sum or tally distinct clients of generated access-log requests within a time window."
    tags = ("terminal", "multi-turn", "shell", "logs", "agentic")
    version = 4

    @dataclass(frozen=True)
    class Config:
        hosts: tuple[int, int]
        lines: tuple[int, int]  # per host
        rotated: int  # rotated files per host
        traps: int  # 0..3: notes, a day boundary, milliseconds (see the module docstring)
        budget: int

    presets = (
        Config((1, 2), (20, 40), 0, 0, 5),
        Config((2, 3), (30, 60), 1, 0, 6),
        Config((2, 3), (40, 80), 1, 2, 7),
        Config((3, 4), (60, 110), 2, 3, 8),
        Config((3, 5), (90, 160), 2, 3, 9),
    )
    growth = Growth(limits={"hosts": 20, "lines": 2_000, "rotated": 5, "traps": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        day = datetime(2024, rng.randint(1, 12), rng.randint(1, 27), tzinfo=timezone.utc)
        middle = day + timedelta(days=1 if config.traps >= 2 else 0, hours=0 if config.traps >= 2 else 12)
        start = middle - timedelta(minutes=rng.randint(20, 90), seconds=rng.randint(0, 59))
        end = middle + timedelta(minutes=rng.randint(20, 90), seconds=rng.randint(0, 59))
        measure = rng.choice(tuple(MEASURES))
        status = rng.choice((None, 2, 5))
        regulars, outsiders = _addresses(rng, rng.randint(6, 30), rng.randint(1, 4))
        hosts_drawn = rng.randint(*config.hosts)
        starters = _addresses(rng, hosts_drawn + 1, 0, taken=regulars + outsiders)[0]  # each on one START line only
        late = rng.choice(outsiders)  # every request exactly at END comes from this address
        matching = [code for code in STATUSES if status is None or code // 100 == status]
        weights = [1 / (rank + 1) for rank in range(len(regulars))]
        paths = [f"/{w}" for w in words(rng, 6, 2)]
        hosts = words(rng, config.hosts[1], 2)[:hosts_drawn]
        files: dict[str, str] = {}
        inside: list[tuple[str, int]] = []  # (ip, bytes) of the requests the question selects
        for number, host in enumerate(hosts):
            millis = config.traps >= 3 and rng.random() < 0.6
            count = rng.randint(*config.lines)
            span = (end - start).total_seconds()
            offsets = [rng.uniform(-1.5 * span, 2.5 * span) for _ in range(count)]
            offsets += [span - 0.5 if millis else span - 1.0]  # just before END: in
            if millis:  # within START's second: in, though their text sorts before START's
                offsets += [0.25, 0.5]
            # Requests exactly at the bounds always meet the status condition, so that each slip at a bound
            # changes every measure: at START (in; two at the first host, each from an address seen nowhere
            # else), one second before START and at END (out; from addresses never seen inside the window).
            edges = [(0.0, starters.pop())] + ([(0.0, starters.pop())] if number == 0 else [])
            edges += [(-1.0, rng.choice(outsiders)), (span, late)]
            drawn = [(start + timedelta(seconds=round(o, 3) if millis else round(o)), None) for o in offsets]
            stamps = sorted(drawn + [(start + timedelta(seconds=o), ip) for o, ip in edges], key=lambda pair: pair[0])
            lines = []
            for stamp, edge_ip in stamps:
                outside = not start <= stamp < end
                ip = rng.choice(outsiders) if outside and rng.random() < 0.2 else rng.choices(regulars, weights)[0]
                code, size = rng.choice(STATUSES if edge_ip is None else matching), rng.randint(0, 5000)
                ip = ip if edge_ip is None else edge_ip
                text = stamp.strftime("%Y-%m-%dT%H:%M:%S") + (f".{stamp.microsecond // 1000:03d}" if millis else "")
                lines.append(f"{text}Z {ip} {rng.choice(METHODS)} {rng.choice(paths)} {code} {size}")
                if start <= stamp < end and (status is None or code // 100 == status):
                    inside.append((ip, size))
            if config.traps >= 2:  # commented-out requests inside the window, from addresses never inside it
                for _ in range(rng.randint(1, 3)):
                    stamp = start + timedelta(seconds=rng.randrange(1, int(span)))
                    text = stamp.strftime("%Y-%m-%dT%H:%M:%S") + (".000" if millis else "")
                    lines.insert(rng.randrange(len(lines) + 1), f"# {text}Z {rng.choice(outsiders)} "
                                 f"{rng.choice(METHODS)} {rng.choice(paths)} {rng.choice(matching)} {rng.randint(1, 5000)}")
            parts = _rotate(rng, lines, config.rotated)
            for index, part in enumerate(parts):
                suffix = "" if index == 0 else f".{index}"
                files[f"logs/{host}/access.log{suffix}"] = "".join(line + "\n" for line in part)
        answer = (len(inside) if measure == "count" else sum(size for _, size in inside) if measure == "bytes"
                  else len({ip for ip, _ in inside}))
        selected = "" if status is None else f" with a status from {status}00 to {status}99"
        bounds = (start.strftime("%Y-%m-%dT%H:%M:%SZ"), end.strftime("%Y-%m-%dT%H:%M:%SZ"))
        prompt = (
            "Your working directory holds logs/<host>/ folders of web access logs; access.log is the current "
            "file and access.log.1, access.log.2 (where present) hold older lines of the same log. A request "
            "line reads <time> <ip> <method> <path> <status> <bytes>, for example\n"
            "2023-01-09T08:00:00Z 10.0.0.1 GET /index 200 512\n"
            "with the time in UTC; lines starting with # are notes, not requests.\n\n"
            f"Over all hosts, what is {MEASURES[measure]} for requests made from {bounds[0]} (inclusive) to "
            f"{bounds[1]} (exclusive){selected}? Answer with one integer.\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "measure": measure, "status": status, "bounds": list(bounds),
                                "traps": config.traps, "budget": config.budget}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or 0), units=UNITS[problem.data["measure"]])
        return Verdict.unparsed("not an integer") if verdict is None else Verdict.judge(verdict)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        lines = sum(body.count("\n") for body in data["files"].values())
        return (len(data["files"]) + lines / 25 + 2 * data["traps"] + MEASURE_WEIGHT[data["measure"]]
                + (data["status"] is not None))

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        low, high = (bound.rstrip("Z") for bound in data["bounds"])
        status = "" if data["status"] is None else f" && int($5 / 100) == {data['status']}"
        command = (f"cat logs/*/access.log* | awk '!/^#/ {{ t = substr($1, 1, 19) }} !/^#/ && t >= \"{low}\" && "
                   f"t < \"{high}\"{status} {{ {AWK_OUT[data['measure']]}'")
        if data["measure"] == "clients":
            command += " | sort -u | wc -l"
        return shell_plan([command], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return [f"{problem.answer} {UNITS[problem.data['measure']][0]}",
                f"\\boxed{{{problem.answer}}}", f"Answer: {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.answer or 0)
        return [str(value + 1), str(max(value - 1, 0) if value else 1), str(value * 2 + 3), f"{value} or {value + 1}"]


def _addresses(rng: random.Random, regular: int, outside: int,
               taken: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Distinct client addresses (none of ``taken``): the pool used everywhere and the ones used only outside the
    window."""
    ips: list[str] = []
    avoid = set(taken or ())
    while len(ips) < regular + outside:
        code = rng.randrange(10 * 10 * 250)
        ip = f"10.{code // 2500}.{code // 250 % 10}.{code % 250 + 1}"
        if ip not in avoid:
            avoid.add(ip)
            ips.append(ip)
    return ips[:regular], ips[regular:]


def _rotate(rng: random.Random, lines: list[str], rotated: int) -> list[list[str]]:
    """The log cut into the current file and ``rotated`` older ones (newest first, as logrotate numbers them)."""
    cuts = sorted(rng.sample(range(1, len(lines)), rotated)) if rotated else []
    chunks = [lines[a:b] for a, b in zip([0, *cuts], [*cuts, len(lines)])]
    return list(reversed(chunks))
