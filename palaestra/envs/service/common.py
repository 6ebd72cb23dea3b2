"""What the service envs share: an agent task whose tools are domain functions over the episode's records.

A :class:`ServiceTask` is a :class:`~palaestra.envs.tools.common.ToolTask` whose tools are the env's own
:class:`Function` s (look up a customer, read an order, issue a refund...) over records generated for the
problem (``data["records"]``, JSON). The records live in the episode's state and the functions that change
them do so there, so a replay gives the same episode. The functions carry out what they are asked within
what is physically possible (an item is returned once), never the business policy: following the policy
the prompt states is the agent's job, and the judge checks it at the end by comparing the final records
with the ones the policy determines (:meth:`ServiceTask.expected_records`), as well as the final answer
to the customer. So neither a call that breaks the policy nor a missing one goes unnoticed, and trying
everything earns nothing.

Example::

    >>> lookup = Function("Look up a number.", {"n": "integer"}, lambda records, args: (str(args["n"] * 2), None))
    >>> lookup.schema("double")["function"]["parameters"]["required"]
    ['n']
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from palaestra.core import Outcome, Problem, Verdict
from palaestra.core.problem import copy_data
from palaestra.envs.tools.common import CLOSE_CALL, OPEN_CALL, ToolResult, ToolTask, tool_call
from palaestra.tools.base import validate_arguments
from palaestra.verifiers.numeric import grade_number
from palaestra.verifiers.sets import read_set

Records = dict[str, Any]
# A function's work: the records and the call's arguments in; the reply and the changed records (or None) out.
Run = Callable[[Records, dict[str, Any]], tuple[str, "Records | None"]]


@dataclass(frozen=True)
class Function:
    """One domain function the agent may call: what it does, its arguments (name -> JSON type), and its work."""

    description: str
    arguments: Mapping[str, str]
    run: Run
    item_type: str = ""  # for an "array" argument: the type of its items

    def schema(self, name: str) -> dict[str, Any]:
        properties = {key: ({"type": kind, "items": {"type": self.item_type}} if kind == "array" else {"type": kind})
                      for key, kind in self.arguments.items()}
        return {"type": "function", "function": {"name": name, "description": self.description, "parameters": {
            "type": "object", "properties": properties, "required": list(self.arguments),
            "additionalProperties": False}}}


class ServiceTask(ToolTask):
    """An agent serving one request with the env's functions (see the module docstring).

    Subclasses define :meth:`functions` (and ``tool_names`` listing them), :meth:`expected_records`,
    :meth:`judge` (the final answer to the customer) and :meth:`plan`.
    """

    policy_name: ClassVar[str] = "policy"

    def functions(self) -> dict[str, Function]:
        raise NotImplementedError

    def expected_records(self, problem: Problem) -> Records:
        """The records as they must be at the end, when the request is served by the policy."""
        raise NotImplementedError

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {**super().initial_state(problem), "records": copy_data(problem.data["records"])}

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [function.schema(name) for name, function in self.functions().items()]

    def tools_prompt(self, budget: int, note: str = "") -> str:
        lines = "\n".join(json.dumps(schema) for schema in self.tool_schemas())
        return (
            f"You have these tools (JSON schemas):\n<tools>\n{lines}\n</tools>\n{note}"
            f"To call a tool, write {OPEN_CALL}{{\"name\": \"<tool name>\", \"arguments\": {{...}}}}{CLOSE_CALL} "
            "(several calls per reply are allowed); each result comes back inside <tool_response></tool_response>. "
            f"You may make at most {budget} tool calls in all. When you are done, reply to the customer without a "
            "tool call and give your final answer."
        )

    def run_tool(self, problem: Problem, name: str, arguments: Any, cells: list[str],
                 world: Mapping[str, Any] | None = None) -> ToolResult:
        function = self.functions()[name]
        records = (world or {}).get("records", problem.data["records"])
        schema = function.schema(name)["function"]["parameters"]
        problem_text = validate_arguments(arguments, schema)
        if problem_text is not None:
            return ToolResult(f"error: {problem_text}", None, cells)
        reply, changed = function.run(copy_data(records), arguments)
        return ToolResult(reply, None, cells, None if changed is None else {**(world or {}), "records": changed})

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        verdict = self.judge(problem, answer)
        if not verdict.correct:
            return verdict
        if state.get("records", problem.data["records"]) != self.expected_records(problem):
            return Verdict.wrong("the final answer is right, but the records are not as the policy requires")
        return verdict


# "None" in the words of a reply to the customer (read_set knows "none", "nothing", "{}").
NONE_SERVED = ("none of them", "none of the requests", "no requests", "no request", "no requests were carried out",
               "none were carried out", "no requests carried out", "no request was carried out", "none carried out")
# Labels a careful grader lets stand before the numbers: "Requests carried out: 1, 3", "Carried out: 1, 3".
SERVED_LABELS = ("requests carried out", "carried out", "requests")


class RequestsServed(ServiceTask):
    """A service task whose final answer lists the numbers of the customer's requests that were carried out
    (``1, 3``; ``none`` when the policy refused them all), judged as a set."""

    def judge(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip()
        for label in SERVED_LABELS:  # "Requests 1 and 3.", "Requests carried out: 1, 3"
            if text.lower().startswith((f"{label} ", f"{label}:")):
                text = text[len(label):].lstrip(":").strip()
                break
        if text.rstrip(".").replace(" ", "").isdigit():  # "1 3": numbers apart by spaces alone
            text = ", ".join(text.rstrip(".").split())
        got = read_set(text, read_request_number, allow_empty=True, empty_words=NONE_SERVED)
        if got is None:
            return Verdict.unparsed("not a list of request numbers (or none)")
        expected = set() if problem.answer in (None, "none") else {int(n) for n in (problem.answer or "").split(", ")}
        if got == expected:
            return Verdict.right()
        return Verdict.wrong(f"{len(expected - got)} carried-out request(s) missing, {len(got - expected)} listed "
                             "that the policy refuses")

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "none"
        if answer == "none":
            return ["None.", "NONE", "{}"]
        numbers = answer.split(", ")
        return [" and ".join(reversed(numbers)), "{" + answer + "}", f"{answer}.", answer.replace(", ", ","),
                ", ".join(f"#{n}" for n in numbers)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        everything = ", ".join(str(n) for n in range(1, len(problem.data["requests"]) + 1))
        answer = problem.answer or "none"
        return [wrong for wrong in (everything, "none", f"{answer} or none") if wrong != answer]


def served_answer(sides: list[bool]) -> str:
    """The reference answer of a :class:`RequestsServed` problem: the numbers of the allowed requests.

    >>> served_answer([True, False, True]), served_answer([False, False])
    ('1, 3', 'none')
    """
    return ", ".join(str(n) for n, allowed in enumerate(sides, 1) if allowed) or "none"


class ScriptedUser(ServiceTask):
    """A service task whose customer states the goal over several turns, as a deterministic scripted user.

    The script is drawn with the problem (``data["user"]``: the customer's messages in order; the first opens
    the conversation in the prompt), so an episode is replayable through ``palaestra.score``. Each reply of the
    agent without a tool call is a message to the customer while the customer has more to say (an ``<answer>``
    given early is read as a message too: the customer goes on, "one more thing..."); the customer answers it
    with the next message of the script (a further request, or the detail asked for: which order, which date).
    Once the customer has said everything, a reply without a tool call is the final answer, judged as in
    :class:`ServiceTask` (the answer and the final records), and then on what the customer was told: every
    required fact (:meth:`required_facts`: a booking code, a claim number) must appear in a message or the
    final reply. The customer reads the first :data:`MESSAGE_CHARS` characters of a message.

    A records check that fails names the first difference (:func:`records_difference`), so a policy violation
    scores 0 with its reason.
    """

    def user_turns(self, problem: Problem) -> list[str]:
        """The customer's messages in order; the first is the one the prompt shows."""
        return list(problem.data["user"])

    def required_facts(self, problem: Problem) -> dict[str, str]:
        """What the customer must be told: a description (``"the claim number"``) -> the text itself."""
        return {}

    def max_turns(self, problem: Problem) -> int:
        return int(problem.data["budget"]) + 2 + 2 * len(self.user_turns(problem))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {**super().initial_state(problem), "heard": 1, "messages": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        if OPEN_CALL in move:
            return super().play(problem, state, move)
        script = self.user_turns(problem)
        message = move.strip()[:MESSAGE_CHARS]
        if state["heard"] < len(script):
            after = {**state, "turn": state["turn"] + 1, "heard": state["heard"] + 1,
                     "messages": [*state["messages"], message]}
            return Outcome.goes_on(after, f"Customer: {script[state['heard']]}", "the customer replied")
        return super().play(problem, {**state, "messages": [*state["messages"], message]}, move)

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        verdict = self.judge(problem, answer)
        if not verdict.correct:
            return verdict
        difference = records_difference(self.expected_records(problem), state.get("records", problem.data["records"]))
        if difference is not None:
            return Verdict.wrong(f"the final answer is right, but the records break the policy or the request: "
                                 f"{difference}")
        heard = [message.casefold() for message in state.get("messages", [])]
        for what, fact in self.required_facts(problem).items():
            if not any(mentions(message, fact.casefold()) for message in heard):
                return Verdict.wrong(f"the records are right, but the customer was not told {what}")
        return verdict


MESSAGE_CHARS = 2_000


def mentions(text: str, fact: str) -> bool:
    """Whether ``fact`` occurs in ``text`` as a whole token run (not inside a longer word or number)."""
    start = text.find(fact)
    while start >= 0:
        end = start + len(fact)
        if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return True
        start = text.find(fact, start + 1)
    return False


def records_difference(expected: Any, got: Any, where: str = "records") -> str | None:
    """The first place where ``got`` differs from ``expected`` (``records.orders.W1.status is "cancelled", it
    should be "pending"``), or None when they are equal."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got), key=str):
            if key not in got:
                return f"{where}.{key} is missing"
            if key not in expected:
                return f"{where}.{key} should not exist"
            difference = records_difference(expected[key], got[key], f"{where}.{key}")
            if difference is not None:
                return difference
        return None
    if isinstance(expected, list) and isinstance(got, list) and len(expected) != len(got):
        return f"{where} has {len(got)} entries, it should have {len(expected)}"
    if isinstance(expected, list) and isinstance(got, list):
        for index, (want, have) in enumerate(zip(expected, got)):
            difference = records_difference(want, have, f"{where}[{index}]")
            if difference is not None:
                return difference
        return None
    if expected == got:
        return None
    return f"{where} is {_short(got)}, it should be {_short(expected)}"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


ALL_ALLOWED = 0.10  # the share of problems whose requests the policy all allows
ALL_REFUSED = 0.04  # and all refuses (the rest mix both sides)
"""Every request refused is answered with no action at all ("none", "$0.00"), so a policy that answers that without a
look at the records earns this share: version 1's tenth paid such a constant 0.07-0.10 in five envs. Serving every
request still takes every action, so that side keeps its tenth."""


def draw_side(rng: random.Random) -> str:
    """Which side of the policy a problem's requests fall on: ``all allowed`` (:data:`ALL_ALLOWED` of the problems),
    ``all refused`` (:data:`ALL_REFUSED`) or ``mixed``, drawn first so that redraws do not skew the shares."""
    draw = rng.random()
    return "all allowed" if draw < ALL_ALLOWED else "all refused" if draw < ALL_ALLOWED + ALL_REFUSED else "mixed"


def draw_sides(rng: random.Random, count: int, side: str) -> list[bool] | None:
    """Which of ``count`` requests the policy allows, for a problem on ``side`` (from :func:`draw_side`): all of them
    or none, or a mix with at least one of each; None when a mixed draw came out one-sided (draw the problem again).
    """
    if side != "mixed":
        return [side == "all allowed"] * count
    sides = [rng.random() < 0.5 for _ in range(count)]
    sides[rng.randrange(count)], sides[rng.randrange(count)] = True, False
    return None if all(sides) or not any(sides) else sides


def served_records(data: Mapping[str, Any], allowed: Callable[[Records, Any, Any], bool],
                   serve: Callable[[Records, Any, Any], object]) -> Records:
    """The records as the policy leaves them: a copy of ``data["records"]`` with ``data["requests"]`` served in order,
    each one that ``allowed(records, request, data["rules"])`` grants on the records as the earlier ones left them
    (``serve`` takes the same arguments and changes the records)."""
    records: Records = copy_data(data["records"])
    for request in data["requests"]:
        if allowed(records, request, data["rules"]):
            serve(records, request, data["rules"])
    return records


def ledger_net(ledger: list[dict[str, Any]]) -> int:
    """A ledger's net amount in cents: its charges minus its refunds (entries ``{"kind": "charge", "amount_cents": 5}``,
    ``{"kind": "refund", ...}``)."""
    return sum(e["amount_cents"] if e["kind"] == "charge" else -e["amount_cents"] for e in ledger)


def draw_person(forge: Any, rng: random.Random, prefix: str, domain: str = "example.com",
                numbers: tuple[int, int] = (1000, 9999)) -> dict[str, Any]:
    """A customer record: an invented name, an id (``prefix`` and a number) and an e-mail address."""
    first, last = forge.word(2), forge.word(2)
    return {"id": f"{prefix}{rng.randint(*numbers)}", "name": f"{first} {last}",
            "email": f"{first.lower()}.{last.lower()}@{domain}"}


def read_request_number(text: str) -> int | None:
    """A request's number as a customer or agent writes it: ``2``, ``#2``, ``request 2``, ``no. 2``."""
    text = text.strip()
    for lead in ("request ", "Request ", "no. "):
        text = text.removeprefix(lead)
    text = text.removeprefix("#")  # "#2", "Request #2"
    return int(text) if text.isdigit() and len(text) <= 3 else None


def dollars(cents: int) -> str:
    """``-$12.05`` for -1205 cents."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"


def cents_of(amount: str) -> int:
    """The cents of an amount :func:`dollars` wrote (``-$12.05`` -> -1205)."""
    sign = -1 if amount.startswith("-") else 1
    whole, part = amount.lstrip("-").lstrip("$").split(".")
    return sign * (int(whole) * 100 + int(part))


# A naming sentence about an amount ("The change fee is $75.00.", "Your refund total is $12.50"): the number
# reader knows "The total is" but not the service words; what follows must still be read whole.
_MONEY_LEAD_IN = re.compile(
    r"(?:the|your)\s+(?:[a-z-]+\s+){0,3}?(?:amount|fee|fees|refund|payout|charge|price|balance|difference|"
    r"adjustment|correction|credit|cost|total)(?:\s+(?:due|owed))?\s+(?:is|equals|comes\s+to)\s+(?=\S)",
    re.IGNORECASE)
# The currency's code before the amount ("USD 12.50", "US$12.50"), as a grader reads it: the dollars named first.
_CURRENCY_CODE = re.compile(r"^(-?\s*)(?:USD\s*|US(?=\$))", re.IGNORECASE)


def dollars_text(answer: str) -> str:
    r"""An answer's amount with its dollar sign taken out for the number reader, a sign before it kept.

    The sign is ``$`` or LaTeX's ``\$`` (``\boxed{\$17.00}``), taken once; a minus right before it (``-$ 5``), or alone
    before it (``- $5``), joins the number. A naming sentence before it (``The change fee is``) goes, and so does the
    currency's code before the amount (``USD 5``, ``US$5``).

    >>> dollars_text("-$ 117.48"), dollars_text(r"\boxed{\$17.00}"), dollars_text("The change fee is $5.")
    ('-117.48', '\\boxed{17.00}', '5.')
    >>> dollars_text("USD 459.45"), dollars_text("US$12.50"), dollars_text("-USD 3")
    ('459.45', '12.50', '-3')
    """
    text = answer.strip().replace("\\$", "$", 1)
    lead_in = _MONEY_LEAD_IN.match(text)
    if lead_in:
        text = text[lead_in.end():]
    text = _CURRENCY_CODE.sub(r"\1", text, count=1)
    at = text.find("$")
    if at < 0:
        return text
    after = text[at + 1:].lstrip()
    if text[:at].rstrip() == "-" or text[:at].endswith("-"):  # "- $5", "-$5", "x = -$5": the sign's minus
        return text[:at].rstrip() + after
    return text[:at] + after


def judge_dollars(problem: Problem, answer: str) -> Verdict:
    """A final answer that is an amount in dollars, against the problem's (written by :func:`dollars`): exact to the
    cent, read by the number reader after :func:`dollars_text`."""
    verdict = grade_number(dollars_text(answer), Fraction(cents_of(problem.answer or "$0.00"), 100),
                           units=("dollars", "USD"))
    return Verdict.unparsed("not an amount in dollars") if verdict is None else Verdict.judge(verdict)


def call(name: str, **arguments: Any) -> str:
    """An oracle's reply calling function ``name``."""
    return tool_call(name, **arguments)
