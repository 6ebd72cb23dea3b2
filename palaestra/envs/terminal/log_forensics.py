"""Answer a question about generated web-service logs by searching them with a sandboxed shell.

The tree holds ``logs/<service>/<YYYY-MM-DD>.log`` for two to five services over several days; from level
2 older days are rotated (``<date>.log.1``) and from level 3 files carry ``#`` comment lines (headers,
restarts) that are not requests. A request line reads ``<time> <ip> <user> <method> <path> <status>
<ms>``, e.g. ``2024-05-03T12:01:55Z 10.0.3.7 alice GET /api/orders 503 123``. The prompt shows the line
format and one made-up line, never the files: the answer needs ``grep``/``awk``/``sort``/``uniq`` over
them. Questions, harder by level: requests with a given status in one service; server errors (5xx) on a
path prefix across services; distinct client addresses that got a client error (4xx) from a service; the
user with the most failed (status >= 400) requests; the busiest hour for a path prefix in a service. The
user and hour questions are drawn so the maximum is unique, and mostly not the busiest user (each user's
failed requests stay failed at a rate of their own) or the service's busiest hour: with a condition of the
question left unread, those were right on 4 in 5 and 1 in 3 of the questions. Client addresses come from a pool of varying size
used with skewed frequencies, so a service's addresses with a 4xx are not the whole pool (an evenly used pool of
fixed size made that count the pool's size less a few). Answers are an integer, a user name or a
two-digit hour, judged exactly. The difficulty is log2 of the request lines plus twice the question's
rank.

Version 4: levels 0 and 1 write 80-140 and 90-150 request lines a file (were 40-80 and 50-90): their
counts were small and bunched, so the best constant answer ("6", "4") was right on 0.165 and 0.135 of the
questions (200 seeds); now 0.075 and 0.065.

Generation speed: about 120 problems/s at level 4 on this 2-core machine. Each problem writes its own log
files, 5 services over 5 days of 90-150 request lines each with rotated files and comments, and answers
its question from every request record; drawing and formatting those few thousand lines is nearly all the
time (a draw whose question leans on the busiest user or hour is redrawn), and they are the data the model
must search with shell tools.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, shell_plan, words
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import grade_number

QUESTIONS = ("status_count", "errors_on_prefix", "client_error_ips", "top_failing_user", "busiest_hour")
METHODS = ("GET", "GET", "GET", "POST", "PUT", "DELETE")
STATUSES = (200,) * 12 + (201, 204, 301, 304, 400, 401, 403, 404, 404, 409, 429, 500, 502, 503, 503, 504)
EXAMPLE_LINE = "2021-01-01T00:00:00Z 192.0.2.1 someone GET /api/example 200 15"
FORMAT = "<time> <ip> <user> <method> <path> <status> <ms>"
START = date(2024, 3, 1)
MIN_COUNT = 4  # a status asked about has at least this many requests: no small constant is a good guess
SPREAD = 12  # counts below it are kept with probability count / SPREAD
COUNT_UNITS = ("requests", "addresses", "ips", "ip addresses", "clients")
ANSWER_FORMS = {"count": "an integer, e.g. <answer>42</answer>", "user": "the user name, e.g. <answer>someone</answer>",
                "hour": "the two-digit hour, e.g. <answer>07</answer>"}


@register
class LogForensics(ShellTask):
    id = "terminal/log_forensics"
    family = "terminal"
    description = "Answer a question about generated web-service logs by searching them with a sandboxed shell."
    version = 4  # v4: more lines at levels 0-1, whose small counts made a constant answer pay
    tags = ("terminal", "multi-turn", "shell", "logs", "agentic")

    @dataclass(frozen=True)
    class Config:
        services: int
        days: int
        lines: tuple[int, int]  # request lines per file
        questions: tuple[str, ...]
        rotated: bool
        comments: bool
        budget: int

    presets = (
        Config(2, 2, (80, 140), ("status_count",), False, False, 5),
        Config(3, 3, (90, 150), ("status_count", "errors_on_prefix"), False, False, 6),
        Config(3, 4, (60, 110), ("errors_on_prefix", "client_error_ips"), True, False, 7),
        Config(4, 5, (70, 120), ("client_error_ips", "top_failing_user"), True, True, 8),
        Config(5, 5, (90, 150), ("top_failing_user", "busiest_hour"), True, True, 9),
    )
    growth = Growth(limits={"services": 8, "days": 10, "lines": 600, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = words(rng, config.services + 2 * config.services + 12 + config.services * 2, 2)
        services = [names.pop() for _ in range(config.services)]
        users = [names.pop() for _ in range(6 + 2 * config.services)]
        prefixes = {s: [f"/{names.pop()}" for _ in range(2)] for s in services}
        kind = rng.choice(config.questions)

        def draw() -> tuple[dict[str, str], dict[str, Any], str] | None:
            files, requests = _logs(rng, config, services, users, prefixes)
            for _ in range(3):  # another service or path prefix before new logs
                found = _question(rng, kind, requests, services, prefixes)
                if found is not None:
                    return files, *found
            return None

        files, question, answer = retry(draw, what=f"logs with a {kind} question", attempts=30)
        rotated = " Older days are rotated: their files end in .log.1." if config.rotated else ""
        comments = " Lines starting with # are comments, not requests." if config.comments else ""
        prompt = (
            f"Your working directory holds web-service logs: logs/<service>/<date>.log, one directory per "
            f"service.{rotated} Each request is one line: {FORMAT}, for example:\n{EXAMPLE_LINE}\n"
            f"(times are UTC; the example is made up).{comments}\n\nQuestion: {question['text']}\n\n"
            f"Search the logs with the shell tool. Answer with {ANSWER_FORMS[question['form']]}.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "question": question, "kind": kind, "requests": _request_count(files),
                "budget": config.budget}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        return math.log2(problem.data["requests"]) + 2 * QUESTIONS.index(problem.data["kind"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        form, expected = problem.data["question"]["form"], problem.answer or ""
        if form == "count":
            verdict = grade_number(answer, int(expected), units=COUNT_UNITS)
            return Verdict.unparsed("not an integer") if verdict is None else Verdict.judge(verdict)
        if form == "hour":
            hour = read_answer(answer, _hour)
            return Verdict.unparsed("not an hour 00-23") if hour is None else Verdict.judge(hour == int(expected))
        name = read_answer(answer, _user)
        return Verdict.unparsed("not a user name") if name is None else Verdict.judge(name == expected)

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([problem.data["question"]["command"]], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        form, answer = problem.data["question"]["form"], problem.answer or ""
        if form == "count":
            return [f"{answer}.", f"**{answer}**", f"{answer} requests"]
        if form == "hour":
            return [str(int(answer)), f"{answer}:00", f"{answer}h", f"{answer}:00-{(int(answer) + 1) % 24:02d}:00 UTC"]
        return [answer.capitalize(), f"The user is {answer}.", f"`{answer}`"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        form, answer = problem.data["question"]["form"], problem.answer or ""
        if form == "count":
            value = int(answer)
            return [str(value + 1), str(max(0, value - 1)), f"{value} or {value + 1}"]
        if form == "hour":
            return [f"{(int(answer) + 1) % 24:02d}", f"{answer} or {(int(answer) + 1) % 24:02d}"]
        return [answer[:-1], f"{answer} or someone"]


HOUR_RANGES = ("-", "\u2013", "\u2014", " to ")  # "17:00-18:00", "from 17:00 to 18:00"; " and " after "between" only


def _hour(text: str) -> int | None:
    """An hour of the day as written: ``17``, ``17h``, ``17:00``, ``17:00 UTC``, ``hour 17``, or the hour as a range
    ``17:00-18:00``, ``17-18``, ``17:00-17:59``, ``between 17:00 and 18:00`` (one hour long, else None)."""
    text = " ".join(text.strip().lower().split())
    between = text.startswith("between ")  # "between 17:00 and 18:00" (a bare "17 and 18" is two hours)
    text = text.removeprefix("hour ").removeprefix("between ").removeprefix("from ").strip()
    text = text.removesuffix("utc").strip()
    for mark in (*HOUR_RANGES, " and ") if between else HOUR_RANGES:
        if mark in text:
            start, _, end = text.partition(mark)
            first, last = _clock(start), _clock(end)
            if first is None or last is None or first[1] != 0:
                return None
            one_hour = last == ((first[0] + 1) % 24, 0) or last == (first[0], 59)
            return first[0] if one_hour else None
    point = _clock(text)
    return point[0] if point is not None and point[1] == 0 else None


def _clock(text: str) -> tuple[int, int] | None:
    """``17``, ``17h``, ``17:00``, ``17:59``, ``17:00z`` as (hour, minute), else None."""
    text = text.strip().removesuffix("utc").strip().removesuffix("z").removesuffix("h").strip()
    hour, colon, minute = text.partition(":")
    if not (hour.isdigit() and len(hour) <= 2 and int(hour) < 24):
        return None
    if not colon:
        return int(hour), 0
    return (int(hour), int(minute)) if minute in ("00", "59") else None


def _logs(rng: random.Random, config: LogForensics.Config, services: list[str], users: list[str],
          prefixes: dict[str, list[str]]) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The log files and every request in them (as records)."""
    files: dict[str, str] = {}
    requests: list[dict[str, Any]] = []
    # A pool of varying size used with skewed frequencies: a fixed pool, evenly used, was all seen in every
    # service, so "how many addresses got a 4xx" was the pool's size less a few (36 +- 2 at level 2).
    ips = [f"10.{rng.randint(0, 3)}.{rng.randint(0, 9)}.{rng.randint(1, 254)}"
           for _ in range(rng.randint(12, 4 + 3 * len(users)))]
    ip_weights = [rng.random() ** 3 + 0.005 for _ in ips]
    user_weights = [rng.random() ** 2 + 0.05 for _ in users]
    # How often a user's failed requests stay failed (the others succeed): without it the busiest user, statuses
    # unread, was the user with the most failed requests 4 times in 5.
    keep = {user: rng.random() ** 2 for user in users}
    for service in services:
        paths = [f"{prefix}/{leaf}" for prefix in prefixes[service] for leaf in ("list", "item", "search")]
        for day in range(config.days):
            when = START + timedelta(days=day)
            rotated = config.rotated and day < config.days - 1
            name = f"logs/{service}/{when.isoformat()}.log" + (".1" if rotated else "")
            lines = [f"# {service} log {when.isoformat()}"] if config.comments else []
            count = rng.randint(*config.lines)
            seconds = sorted(rng.randrange(86_400) for _ in range(count))
            # Drawn column by column (one call each): a line at a time costs several times more.
            who = rng.choices(users, user_weights, k=count)
            statuses = [status if status < 400 or rng.random() < keep[user] else 200
                        for status, user in zip(rng.choices(STATUSES, k=count), who, strict=True)]
            columns = zip(seconds, rng.choices(ips, ip_weights, k=count), who, rng.choices(METHODS, k=count),
                          rng.choices(paths, k=count), statuses, rng.choices(range(2, 901), k=count))
            stamp = when.isoformat()
            for second, ip, user, method, path, status, millis in columns:
                requests.append({"service": service, "hour": second // 3600, "ip": ip, "user": user, "path": path,
                                 "status": status})
                lines.append(f"{stamp}T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}Z "
                             f"{ip} {user} {method} {path} {status} {millis}")
            if config.comments:  # restarts, between requests
                for _ in range(rng.randint(0, 3)):
                    lines.insert(rng.randint(1, len(lines)), f"# {service} restarted, status 200 expected")
            files[name] = "\n".join(lines) + "\n"
    return files, requests


def _user(text: str) -> str | None:
    """A user name, bare or after a label ("User: ann", "The user is ann")."""
    text = text.strip().lower()
    for lead in ("the user is ", "user: ", "user "):
        if text.startswith(lead):
            text = text[len(lead):].strip()
            break
    return text if text.isalpha() else None


def _is_top(value: Any, counts: Counter) -> bool:
    """Whether ``value`` is a most common value of ``counts`` (what a question's condition left unread gives)."""
    return counts[value] == max(counts.values())


def _request_count(files: dict[str, str]) -> int:
    return sum(1 for body in files.values() for line in body.splitlines() if line and not line.startswith("#"))


# Every command reads all logs of the question's scope; `grep -hv '^#'` drops comment lines.
_ALL = "cat logs/*/*.log* | grep -v '^#'"


def _question(rng: random.Random, kind: str, requests: list[dict[str, Any]], services: list[str],
              prefixes: dict[str, list[str]]) -> tuple[dict[str, Any], str] | None:
    service = rng.choice(services)
    mine = [r for r in requests if r["service"] == service]
    scope = f"cat logs/{service}/*.log* | grep -v '^#'"
    if kind == "status_count":
        counts = Counter(r["status"] for r in mine if r["status"] != 200)
        common = sorted(status for status, count in counts.items() if count >= MIN_COUNT)
        if not common:
            return None
        if rng.random() < 0.5:  # a status class: larger counts, spread wider
            low = rng.choice((400, 500))
            count = sum(low <= r["status"] <= low + 99 for r in mine)
            text = f"How many requests to the {service} service got a status from {low} to {low + 99}?"
            command = f"{scope} | awk '$6 >= {low} && $6 <= {low + 99}' | wc -l"
        else:
            status = rng.choice(common)
            count = counts[status]
            text = f"How many requests to the {service} service got status {status}?"
            command = f"{scope} | awk '$6 == {status}' | wc -l"
        if count < SPREAD and rng.random() >= count / SPREAD:  # small counts thinned: no small constant pays
            return None
        return {"text": text, "form": "count", "command": command}, str(count)
    if kind == "errors_on_prefix":
        prefix = rng.choice(prefixes[service])
        count = sum(r["path"].startswith(prefix + "/") and r["status"] >= 500 for r in requests)
        text = (f"How many requests, in all services, to paths under {prefix}/ got a server error "
                "(a status from 500 to 599)?")
        command = f"{_ALL} | awk 'index($5, \"{prefix}/\") == 1 && $6 >= 500 && $6 <= 599' | wc -l"
        return {"text": text, "form": "count", "command": command}, str(count)
    if kind == "client_error_ips":
        count = len({r["ip"] for r in mine if 400 <= r["status"] <= 499})
        text = (f"How many distinct client addresses (ips) got at least one client error (a status from 400 to "
                f"499) from the {service} service?")
        command = f"{scope} | awk '$6 >= 400 && $6 <= 499 {{print $2}}' | sort -u | wc -l"
        return {"text": text, "form": "count", "command": command}, str(count)
    if kind == "top_failing_user":
        failures = Counter(r["user"] for r in requests if r["status"] >= 400)
        ranked = failures.most_common(2)
        if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
            return None
        if _is_top(ranked[0][0], Counter(r["user"] for r in requests)) and rng.random() < 0.8:
            return None  # the busiest user, statuses unread, is not to be right often
        text = "Which user made the most failed requests (status 400 or higher) across all services?"
        command = f"{_ALL} | awk '$6 >= 400 {{print $3}}' | sort | uniq -c | sort -rn | head -3"
        return {"text": text, "form": "user", "command": command}, ranked[0][0]
    prefix = rng.choice(prefixes[service])
    hours = Counter(r["hour"] for r in mine if r["path"].startswith(prefix + "/"))
    ranked = hours.most_common(2)
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None
    if _is_top(ranked[0][0], Counter(r["hour"] for r in mine)) and rng.random() < 0.9:
        return None  # the service's busiest hour, the path unread, is not to be right often
    text = (f"In the {service} service, in which hour of the day (UTC, summed over all days) were the most "
            f"requests made to paths under {prefix}/?")
    command = f"{scope} | awk 'index($5, \"{prefix}/\") == 1 {{print substr($1, 12, 2)}}' | sort | uniq -c | sort -rn | head -3"
    return {"text": text, "form": "hour", "command": command}, f"{ranked[0][0]:02d}"
