"""What the web envs share: a generated offline website browsed through tools over the episode's records.

A :class:`WebTask` is a :class:`~palaestra.envs.service.common.ServiceTask` whose records hold a site
(``records["site"]``: pages keyed by URL path, each with a title, text lines, an optional table, forms and
numbered links), the browser (``records["browser"]``: the page open now) and whatever the site's forms
change (orders placed, rooms booked). The tools are the browser's:

- ``open(url)``: open a page by its path and read it, rendered as compact text (an accessibility tree
  of sorts): title, text, table rows, forms with their fields, links numbered ``[1]``, ``[2]``...;
- ``follow(link)``: follow a numbered link of the open page;
- ``search(query)`` (in the envs that list it): the site search over page titles;
- ``fill_and_submit(form_id, fields)`` (in the envs with forms): submit a form of the open page; the
  env's :meth:`WebTask.submit` validates it like a site does (an error message names the field) and
  changes the records.

Paths are opaque tokens drawn at random (``/u/k3x9qd``), so a URL says nothing about its page and
guessing one fails; the start page is the only path a prompt gives. The episode is judged on the final
answer and on the final records (the browser aside) against :meth:`ServiceTask.expected_records`.

Example::

    >>> home = page("Home", text=["Welcome."], links=[["About us", "/a/x1"]])
    >>> render("/", home).splitlines()[0]
    'Home (/)'
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from palaestra.core import Problem, Verdict, retry
from palaestra.envs.service.common import Function, Records, ServiceTask, call, records_difference
from palaestra.envs.tools.common import CLOSE_CALL, OPEN_CALL, TOOL_OUTPUT_CHARS
from palaestra.verifiers.normalize import read_answer

TOKEN_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
SEARCH_RESULTS = 8


def new_path(rng: random.Random, section: str, taken: Mapping[str, Any] | set[str]) -> str:
    """A fresh opaque path ``/<section>/<token>`` (the token says nothing about the page)."""
    def draw() -> str | None:
        path = f"/{section}/{''.join(rng.choice(TOKEN_LETTERS) for _ in range(6))}"
        return None if path in taken else path

    return retry(draw, what="a fresh page path", attempts=100)  # 31^6 tokens, a few hundred pages


def page(title: str, text: list[str] | None = None, links: list[list[str]] | None = None,
         table: list[list[str]] | None = None, forms: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A page record (JSON-native): the table's first row is its header; a form is its id -> field names."""
    return {"title": title, "text": text or [], "links": links or [], "table": table or [], "forms": forms or {}}


def render(path: str, record: Mapping[str, Any]) -> str:
    """A page as the browser shows it: title and path, text, table, forms, numbered links with their targets."""
    lines = [f"{record['title']} ({path})", *record["text"]]
    if record["table"]:
        lines += ["| " + " | ".join(row) + " |" for row in record["table"]]
    for form_id, fields in record["forms"].items():
        lines.append(f"form {form_id!r}: fields {', '.join(fields)}")
    if record["links"]:
        lines.append("Links:")
        lines += [f"[{number}] {anchor} -> {target}" for number, (anchor, target) in enumerate(record["links"], 1)]
    text = "\n".join(lines)
    return text if len(text) <= TOOL_OUTPUT_CHARS else text[:TOOL_OUTPUT_CHARS] + "\n[page truncated]"


def _path_of(url: str) -> str:
    """The path of a URL as typed: a scheme and host, a query or fragment and a trailing slash are dropped."""
    url = url.strip()[:300]
    if "://" in url:
        url = "/" + url.split("://", 1)[1].partition("/")[2]
    url = url.split("#", 1)[0].split("?", 1)[0]
    if not url.startswith("/"):
        url = "/" + url
    return url.rstrip("/") or "/"


def _show(records: Records, path: str) -> tuple[str, Records]:
    records["browser"] = {"at": path}
    return render(path, records["site"]["pages"][path]), records


def _open(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    path = _path_of(str(args["url"]))
    if path not in records["site"]["pages"]:
        return f"error: 404 not found: {path[:100]}", None
    return _show(records, path)


def _follow(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    at = records["browser"]["at"]
    if at is None:
        return "error: no page is open; open a URL first", None
    links = records["site"]["pages"][at]["links"]
    number = args["link"]
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(links):
        return f"error: the open page has links 1 to {len(links)}", None
    return _show(records, links[number - 1][1])


def _search(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    words = str(args["query"]).casefold().split()[:10]
    if not words:
        return "error: empty query", None
    hits = [f"{record['title']} ({path})" for path, record in records["site"]["pages"].items()
            if all(word in record["title"].casefold() for word in words)]
    if not hits:
        return "no results", None
    more = f"\n({len(hits) - SEARCH_RESULTS} more results not shown)" if len(hits) > SEARCH_RESULTS else ""
    return "\n".join(hits[:SEARCH_RESULTS]) + more, None


class WebTask(ServiceTask):
    """An agent browsing a generated site (see the module docstring).

    Subclasses set ``tool_names`` (a subset of open, follow, search, fill_and_submit), and define generate,
    :meth:`expected_records`, judge, plan, and :meth:`submit` when the site has forms.
    """

    tool_names: ClassVar[tuple[str, ...]] = ("open", "follow")

    def functions(self) -> dict[str, Function]:
        every = {
            "open": Function("Open a page of the site by its URL path and read it (links are numbered).",
                             {"url": "string"}, _open),
            "follow": Function("Follow a numbered link of the page open now and read the page it leads to.",
                               {"link": "integer"}, _follow),
            "search": Function("Search the site's page titles for all the words of a query.",
                               {"query": "string"}, _search),
            "fill_and_submit": Function("Fill in a form of the page open now (field name -> value) and submit it.",
                                        {"form_id": "string", "fields": "object"}, self._submit_form),
        }
        return {name: every[name] for name in self.tool_names}

    def tools_prompt(self, budget: int, note: str = "") -> str:
        lines = "\n".join(json.dumps(schema) for schema in self.tool_schemas())
        return (
            f"You have these tools (JSON schemas):\n<tools>\n{lines}\n</tools>\n{note}"
            f"To call a tool, write {OPEN_CALL}{{\"name\": \"<tool name>\", \"arguments\": {{...}}}}{CLOSE_CALL} "
            "(several calls per reply are allowed); each result comes back inside <tool_response></tool_response>. "
            f"You may make at most {budget} tool calls in all. When you are done, reply without a tool call and "
            "give your final answer."
        )

    def submit(self, records: Records, form_id: str, fields: dict[str, str]) -> tuple[str, Records | None]:
        """The site's handling of a submitted form of the open page: a reply, and the changed records or None."""
        raise NotImplementedError

    def _submit_form(self, records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
        at = records["browser"]["at"]
        form_id = str(args["form_id"])[:60]
        if at is None or form_id not in records["site"]["pages"][at]["forms"]:
            return f"error: the open page has no form {form_id!r}", None
        fields = {str(key)[:60]: str(value)[:200] for key, value in list(args["fields"].items())[:20]}
        return self.submit(records, form_id, fields)

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        verdict = self.judge(problem, answer)
        if not verdict.correct:
            return verdict
        final = {key: value for key, value in state.get("records", problem.data["records"]).items() if key != "browser"}
        expected = {key: value for key, value in self.expected_records(problem).items() if key != "browser"}
        difference = records_difference(expected, final)
        if difference is not None:
            return Verdict.wrong(f"the final answer is right, but the site's records are not as the task requires: "
                                 f"{difference}")
        return verdict

    def expected_records(self, problem: Problem) -> Records:
        """Browsing tasks change nothing: the records at the end are the initial ones."""
        records: Records = problem.data["records"]
        return records


def site_records(pages: dict[str, dict[str, Any]], **more: Any) -> Records:
    """The records of a site: its pages (the start page is ``/``), the browser (nothing open), and ``more``."""
    return {"site": {"pages": pages}, "browser": {"at": None}, **more}


def route_moves(pages: Mapping[str, Mapping[str, Any]], route: list[str]) -> list[str]:
    """The oracle's calls walking ``route`` (paths from the start page ``/``): open it, then follow each link."""
    moves = [call("open", url=route[0])]
    for here, there in zip(route, route[1:]):
        number = next(n for n, (_, target) in enumerate(pages[here]["links"], 1) if target == there)
        moves.append(call("follow", link=number))
    return moves


def judge_code(answer: str, expected: str, what: str) -> Verdict:
    """A code (an id, an extension) named in the answer, in any case, after an optional label word."""
    key = expected.casefold()

    def read(text: str) -> bool | None:
        words = text.casefold().split()
        # The code may close the sentence ("The order number is 75707."): a full stop after it is punctuation.
        # "#72700" and "Order #72700." name the code too: codes never start with "#".
        if words and words[-1].removesuffix(".").removeprefix("#") == key and all(
                w.rstrip(":.") in LABELS for w in words[:-1]):
            return True
        return False if len(words) == 1 else None

    said = read_answer(answer, read)
    if said is None:
        return Verdict.unparsed(f"could not read {what} in the answer")
    return Verdict.right() if said else Verdict.wrong(f"that is not the right {what}")


# Words a careful grader lets stand before a code: "SKU K7Q2X", "extension 4821", "order no. 88213",
# "confirmation code K7Q2X", "Phone extension: 4821" (the page's own label), "Her extension is 4821", "Your
# confirmation number is 8QK2M", "Product SKU K7Q2X", "Booked: BK12345".
LABELS = frozenset({"sku", "code", "extension", "ext", "x", "order", "number", "no", "#", "id", "booking", "booked",
                    "room", "is", "it's", "the", "page", "confirmation", "phone", "telephone", "tel", "his", "her",
                    "their", "your", "product", "application"})
