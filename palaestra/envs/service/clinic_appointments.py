"""Book and cancel a patient's clinic appointments under a stated scheduling policy, with calendar functions.

The episode's records are a clinic's doctors (each of one specialty), their appointment slots over the next
days (free or taken), and one patient (their referrals, fees owed, and the slots they hold). The patient
asks, in order, for appointments ("a dermatology appointment on 2024-06-12 in the afternoon") and, from
level 2, to cancel some they hold. The functions read the patient, list a specialty's free slots on a
date, book a slot, cancel a slot and charge a fee; they refuse only the impossible (a slot already taken,
an unknown id), never what the policy forbids:

1. a booking takes the earliest free slot of any doctor of the asked specialty in the asked half-day
   (morning: before 12:00; afternoon: from 12:00); of equally early slots (two doctors free at the same
   time), the one with the smallest slot id, the first that ``free_slots`` lists (v1 did not say, and a
   quarter of the top level's problems had such a tie, where the other doctor's slot was judged wrong);
   when there is none, the request is refused;
2. a patient may hold at most one upcoming appointment per specialty (those booked in this conversation
   included, those cancelled in it not);
3. from level 1, specialties other than general practice need a referral on file;
4. from level 2, a cancellation frees the slot; from level 3, one less than 24 hours before the
   appointment starts is charged a $40.00 late-cancellation fee.

The answer is the set of request numbers carried out (``none`` if none). The episode is judged on the
answer and on the final records (slots, fees) against those the policy determines. Requests are built on
both sides of the policy (a tenth of problems all allowed, a twenty-fifth all refused), with near misses: a free
slot at exactly 12:00 (afternoon), a slot taken by someone else earlier in the half-day, an appointment
exactly 24 hours away (no fee). In every mixed problem each part of the policy in play decides a request on its
own (the earliest slot, 12:00 as afternoon, one appointment per specialty counting today's bookings and not today's
cancellations, the referrals, the late fee and its exact 24 hours; see ``_blinds``): requests are built for the
parts few requests decide first, and a draw the policy without some part would serve alike is drawn again. (v2 drew
requests as they fell: on 100 seeds a level, counting 12:00 as morning solved 0.60-0.90 of levels 0-5, charging the
fee at exactly 24 hours 0.93-0.97 and no fee 0.72-0.78 of levels 3-5, counting cancelled appointments 0.79-0.93 of
levels 2-5, ignoring the referrals 0.33-0.72, the limit per specialty 0.31-0.89, taking the latest slot 0.47-0.58 of
levels 0-2; now 0.03-0.15 on 60 seeds.) The difficulty is twice the requests plus the doctors and specialties plus
twice the clauses in play plus the late cancellations plus the refused requests.

Generation time: about 17 ms CPU a problem at level 4, 90 ms at the growth's limits (level 20). Each problem builds
the clinic's records (doctors, four days of slots each, existing appointments) and then replays the request list on
a copy of them, picking for each the first request that decides a part of the policy not yet decided (else one on the
asked side); the replay is what makes each request's verdict follow from the records as they stand when it is made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.problem import copy_data
from palaestra.core.task import Growth
from palaestra.envs.service.common import (
    Function,
    Records,
    RequestsServed,
    call,
    draw_person,
    draw_side,
    draw_sides,
    served_answer,
)
from palaestra.generators.knowledge import NameForge

NOW = datetime(2024, 6, 10, 9, 0)
GENERAL = "general practice"
SPECIALTIES = (GENERAL, "dermatology", "cardiology", "neurology", "orthopedics", "ophthalmology")
LATE_FEE = 4_000
NOON = 12
EXAMPLE = "<answer>2, 3</answer>"  # fixed placeholder
# the parts of the policy (see ``_blinds``) in the order a mixed problem's requests are built for them: those that few
# requests decide first
RAREST_FIRST = ("noon", "cancelled", "fee_at_24", "no_fee", "earlier", "referrals", "no_limit", "latest")


@register
class ClinicAppointments(RequestsServed):
    id = "service/clinic_appointments"
    family = "service"
    description = "Book and cancel a patient's clinic appointments under a stated scheduling policy."
    version = 3  # v3: every clause in play decides every mixed problem (v2: the policy breaks ties between equally
    # early slots, the smallest slot id; a twenty-fifth of the problems refuse every request; v1: a tenth)
    tags = ("service", "multi-turn", "tools", "policy", "scheduling", "agentic")
    tool_names = ("find_patient", "get_patient", "free_slots", "book_slot", "cancel_slot", "charge_fee")

    @dataclass(frozen=True)
    class Config:
        specialties: int
        doctors: int  # per specialty
        requests: tuple[int, int]
        referrals: bool
        cancels: bool
        late_fee: bool
        budget: int

    presets = (
        Config(2, 1, (2, 3), False, False, False, 10),
        Config(3, 1, (2, 3), True, False, False, 12),
        Config(3, 2, (3, 4), True, True, False, 16),
        Config(4, 2, (3, 5), True, True, True, 20),
        Config(5, 3, (4, 6), True, True, True, 24),
    )
    growth = Growth(limits={"specialties": 6, "doctors": 8, "requests": 6, "budget": 48})

    def functions(self) -> dict[str, Function]:
        return {
            "find_patient": Function("Find a patient by e-mail address: their id and name.", {"email": "string"},
                                     _find_patient),
            "get_patient": Function("Read a patient: referrals on file, fees owed, and the slots they hold.",
                                    {"patient_id": "string"}, _get_patient),
            "free_slots": Function("List the free slots of a specialty's doctors on a date (YYYY-MM-DD).",
                                   {"specialty": "string", "date": "string"}, _free_slots),
            "book_slot": Function("Book a free slot for a patient.", {"slot_id": "string", "patient_id": "string"},
                                  _book_slot),
            "cancel_slot": Function("Cancel the appointment in a slot (the slot becomes free).", {"slot_id": "string"},
                                    _cancel_slot),
            "charge_fee": Function("Add a fee in cents to what a patient owes.",
                                   {"patient_id": "string", "amount_cents": "integer"}, _charge_fee),
        }

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = draw_side(rng)
        return retry(lambda: self._draw(rng, config, kind), what="requests on the asked sides of the policy",
                     attempts=200)

    def _draw(self, rng: random.Random, config: Config, kind: str) -> Problem | None:
        forge = NameForge(rng)
        patient: dict[str, Any] = {**draw_person(forge, rng, "N", "example.org"),
                                   "fees_cents": rng.choice((0, 0, 2_500)), "referrals": []}
        specialties = [GENERAL, *rng.sample(SPECIALTIES[1:], config.specialties - 1)]
        rules = {"referrals": config.referrals, "cancels": config.cancels, "late_fee": config.late_fee}
        blinds = _blinds(rules) if kind == "mixed" else ()
        if config.referrals:  # all of them where every request is to be allowed, not all where the clause must decide
            patient["referrals"] = [s for s in specialties[1:] if kind == "all allowed" or rng.random() < 0.5]
            if blinds and len(patient["referrals"]) == len(specialties) - 1:
                patient["referrals"].remove(rng.choice(patient["referrals"]))
        doctors: dict[str, dict[str, str]] = {}
        for specialty in specialties:
            for _ in range(config.doctors):
                doctors[f"D{rng.randint(100, 999)}"] = {"name": f"Dr {forge.word(2)}", "specialty": specialty}
        if len(doctors) < len(specialties) * config.doctors:
            return None
        others = [f"N{rng.randint(1000, 9999)}" for _ in range(3)]
        slots: dict[str, dict[str, Any]] = {}
        for doctor_id in doctors:
            for day in range(4):
                date = NOW.date() + timedelta(days=day)
                for hour in rng.sample((8, 9, 10, 11, 12, 13, 14, 15, 16), rng.randint(2, 4)):
                    # noon on the hour, so that 12:00 (the afternoon's first slot) comes up often
                    minutes = 0 if hour == NOON else rng.choice((0, 30))
                    start = datetime.combine(date, datetime.min.time()) + timedelta(hours=hour, minutes=minutes)
                    if start <= NOW:
                        continue
                    holder = rng.choice(others) if rng.random() < 0.35 else None
                    slots[f"{doctor_id}-{start.strftime('%m%d%H%M')}"] = {
                        "doctor": doctor_id, "start": start.isoformat(timespec="minutes"), "patient": holder}
        records: Records = {"now": NOW.isoformat(timespec="minutes"), "patients": {patient["id"]: patient},
                            "doctors": doctors, "slots": slots}
        if config.cancels:  # appointments the patient holds already (some soon: a late cancellation)
            free = [s for s, slot in slots.items() if slot["patient"] is None]
            if "cancelled" in blinds:  # one held where a booking may follow its cancellation
                free = [s for s in free if not config.referrals or doctors[slots[s]["doctor"]]["specialty"] in
                        (GENERAL, *patient["referrals"])]
            # where the fee's clause must decide: one inside 24 hours and one exactly 24 hours away
            soon = [rng.choice((3, 20, 23)), 24] if "no_fee" in blinds else []
            for slot_id in rng.sample(free, min(len(free), max(len(soon), rng.randint(1, 2)))):
                slots[slot_id]["patient"] = patient["id"]
                hours = soon.pop() if soon else rng.choice((3, 20, 23, 24, 26)) if config.late_fee and \
                    rng.random() < 0.5 else None  # soon: inside 24 hours, or exactly 24 hours away
                if hours is not None:
                    start = NOW + timedelta(hours=hours)
                    moved = f"{slots[slot_id]['doctor']}-{start.strftime('%m%d%H%M')}"
                    if moved in slots:
                        return None
                    slots[moved] = {**slots.pop(slot_id), "start": start.isoformat(timespec="minutes")}
        count = max(rng.randint(*config.requests), len(blinds))
        sides = draw_sides(rng, count, kind)
        if sides is None:
            return None
        world: Records = copy_data(records)
        cancelled: set[str] = set()  # the specialties cancelled in the conversation (a blind policy reads them)
        undecided = set(blinds)
        requests: list[dict[str, str]] = []
        for allowed in sides:
            options: list[dict[str, str]] = [
                {"kind": "book", "specialty": s, "date": (NOW.date() + timedelta(days=d)).isoformat(), "half": h}
                for s in specialties for d in range(4) for h in ("morning", "afternoon")]
            if config.cancels:
                options += [{"kind": "cancel", "slot": s} for s, slot in world["slots"].items()
                            if slot["patient"] == patient["id"] and s in records["slots"]
                            and records["slots"][s]["patient"] == patient["id"]]
            options = [o for o in options if o not in requests]
            rng.shuffle(options)  # the first that fits (checking them all is slow)
            # in a mixed problem, a request that the rarest part not yet decided decides, on whichever side it falls
            target = next((b for b in RAREST_FIRST if b in undecided), None)
            request: dict[str, str] | None = None
            if target is not None:
                request = next((o for o in options if _decides(world, records, cancelled, patient["id"], o, rules,
                                                               {target})), None)
            if request is None and target == "cancelled":  # decided by a booking after a cancellation: cancel first
                request = next((o for o in options if o["kind"] == "cancel"), None)
            if request is None and undecided:
                request = next((o for o in options if _decides(world, records, cancelled, patient["id"], o, rules,
                                                               undecided)), None)
            if request is None:
                request = next((o for o in options if _allowed(world, patient["id"], o, rules) == allowed), None)
            if request is None:
                return None
            undecided -= _decides(world, records, cancelled, patient["id"], request, rules, undecided)
            if _allowed(world, patient["id"], request, rules):
                if request["kind"] == "cancel":
                    cancelled.add(_specialty(world, request["slot"]))
                _serve(world, patient["id"], request, rules)
            requests.append(request)
        served, final = _outcome(records, patient["id"], requests, rules)
        if kind == "mixed" and (all(served) or not any(served)):
            return None
        if any(_outcome(records, patient["id"], requests, rules, blind) == (served, final) for blind in blinds):
            return None
        texts = [f"{n}. {_describe(records, r)}" for n, r in enumerate(requests, 1)]
        prompt = (
            f"You are a clinic's scheduling assistant. It is now {NOW.isoformat(sep=' ', timespec='minutes')}. "
            f"Scheduling policy:\n{_policy(config)}\n\n"
            "Handle the patient's requests below in the order given, each as far as the policy allows (a refused "
            "request does not stop the next ones), using the tools; do nothing the policy forbids and nothing the "
            f"patient did not ask for. Then reply with the numbers of the requests you carried out, e.g. {EXAMPLE} "
            "(<answer>none</answer> if none).\n\n"
            f"Patient: Hello, this is {patient['name']} ({patient['email']}). Please:\n" + "\n".join(texts)
            + f"\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"records": records, "requests": requests, "rules": rules, "budget": config.budget}
        return Problem(prompt=prompt, answer=served_answer(served), data=data)

    def expected_records(self, problem: Problem) -> Records:
        records: Records = copy_data(problem.data["records"])
        patient_id = next(iter(records["patients"]))
        for request in problem.data["requests"]:
            if _allowed(records, patient_id, request, problem.data["rules"]):
                _serve(records, patient_id, request, problem.data["rules"])
        return records

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        records = data["records"]
        specialties = {d["specialty"] for d in records["doctors"].values()}
        late = sum(r["kind"] == "cancel" and _late(records, r["slot"]) for r in data["requests"])
        refused = len(data["requests"]) - (0 if problem.answer in (None, "none") else len(problem.answer.split(", ")))
        return (2 * len(data["requests"]) + len(records["doctors"]) + len(specialties)
                + 2 * (2 + sum(data["rules"].values())) + late + refused)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        records = copy_data(data["records"])
        patient = next(iter(records["patients"].values()))
        replies = [call("find_patient", email=patient["email"]), call("get_patient", patient_id=patient["id"])]
        replies += [call("free_slots", specialty=specialty, date=date) for specialty, date in dict.fromkeys(
            (r["specialty"], r["date"]) for r in data["requests"] if r["kind"] == "book")]
        for request in data["requests"]:
            if _allowed(records, patient["id"], request, data["rules"]):
                replies += [call(name, **arguments) for name, arguments in
                            _serve(records, patient["id"], request, data["rules"])]
        return [*replies, problem.answer or "none"]



def _policy(config: ClinicAppointments.Config) -> str:
    rules = ["A booking takes the earliest free slot of any doctor of the asked specialty in the asked half-day "
             f"(morning: before {NOON}:00; afternoon: from {NOON}:00 on); of equally early slots, the one with the "
             "smallest slot id; when there is none, refuse the request.",
             "A patient may hold at most one upcoming appointment per specialty (appointments booked today "
             "included, cancelled ones not)."]
    if config.referrals:
        rules.append(f"Specialties other than {GENERAL} need a referral on file for that specialty.")
    if config.cancels:
        rules.append("A patient may cancel an appointment they hold; the slot becomes free.")
    if config.late_fee:
        rules.append(f"A cancellation less than 24 hours before the appointment starts is charged a "
                     f"${LATE_FEE // 100}.00 late-cancellation fee.")
    return "\n".join(f"{n}. {rule}" for n, rule in enumerate(rules, 1))


def _describe(records: Records, request: dict[str, str]) -> str:
    if request["kind"] == "book":
        article = "an" if request["specialty"][0] in "aeiou" else "a"
        return f"Book {article} {request['specialty']} appointment on {request['date']} in the {request['half']}."
    slot = records["slots"][request["slot"]]
    specialty = records["doctors"][slot["doctor"]]["specialty"]
    return f"Cancel my {specialty} appointment of {slot['start'].replace('T', ' at ')}."


def _blinds(rules: dict[str, bool]) -> tuple[str, ...]:
    """The parts of the policy in play that a policy might leave out, as :func:`_allowed` and :func:`_calls` read
    ``blind``: the earliest slot (``latest``: the latest), 12:00 as afternoon (``noon``: as morning), one
    appointment per specialty (``no_limit``; ``earlier``: counting only those held before the conversation;
    ``cancelled``: counting those cancelled in it too), the referrals, the late fee (``no_fee``; ``fee_at_24``: also
    exactly 24 hours before)."""
    return (("latest", "noon", "no_limit", "earlier") + (("referrals",) if rules["referrals"] else ())
            + (("cancelled",) if rules["cancels"] else ()) + (("no_fee", "fee_at_24") if rules["late_fee"] else ()))


def _specialty(records: Records, slot_id: str) -> str:
    return records["doctors"][records["slots"][slot_id]["doctor"]]["specialty"]


def _candidates(records: Records, request: dict[str, str], blind: str | None = None) -> list[str]:
    """The free slots that fit a booking request, earliest first (ties by slot id; ``blind``, see :func:`_blinds`)."""
    # the generator scans every slot for every request it weighs: the request's fields are read once, and each test
    # skips the slot as soon as it fails (in the order of the tests, so that bad records fail as before)
    noon = f"{NOON}:00"
    date, wants_morning, specialty, now = request["date"], request["half"] == "morning", request["specialty"], \
        records["now"]
    doctors = records["doctors"]
    fits = []
    for slot_id, slot in records["slots"].items():
        if slot["patient"] is not None:
            continue
        start = slot["start"]  # ISO times, which compare as strings
        if start[:10] != date:
            continue
        time = start[11:16]
        if (time < noon or (blind == "noon" and time == noon)) == wants_morning \
                and doctors[slot["doctor"]]["specialty"] == specialty and start > now:
            fits.append((start, slot_id))
    return [slot_id for _, slot_id in sorted(fits)]


def _late(records: Records, slot_id: str, blind: str | None = None) -> bool:
    start = datetime.fromisoformat(records["slots"][slot_id]["start"])
    ahead = start - datetime.fromisoformat(records["now"])
    return ahead <= timedelta(hours=24) if blind == "fee_at_24" else ahead < timedelta(hours=24)


def _allowed(records: Records, patient_id: str, request: dict[str, str], rules: dict[str, bool],
             blind: str | None = None, start: Records | None = None, cancelled: frozenset[str] | set[str] = frozenset(),
             candidates: list[str] | None = None) -> bool:
    """Whether the policy allows ``request`` (``blind``: without that part, see :func:`_blinds`; ``start``: the
    records before the conversation and ``cancelled`` the specialties cancelled in it, which blind policies read;
    ``candidates``: :func:`_candidates` of the booking under ``blind``, when the caller has them already)."""
    if request["kind"] == "cancel":
        return records["slots"][request["slot"]]["patient"] == patient_id
    patient = records["patients"][patient_id]
    specialty = request["specialty"]
    if rules["referrals"] and specialty != GENERAL and specialty not in patient["referrals"] and blind != "referrals":
        return False
    counted = (start or records) if blind == "earlier" else records
    held = _holds(counted, patient_id, specialty) or (blind == "cancelled" and specialty in cancelled)
    return (not held or blind == "no_limit") and bool(_candidates(records, request, blind) if candidates is None
                                                      else candidates)


def _holds(records: Records, patient_id: str, specialty: str) -> bool:
    """Whether the patient holds a slot of ``specialty`` (a plain loop: the generator asks this thousands of times)."""
    doctors = records["doctors"]
    for slot in records["slots"].values():
        if slot["patient"] == patient_id and doctors[slot["doctor"]]["specialty"] == specialty:
            return True
    return False


def _calls(records: Records, patient_id: str, request: dict[str, str], rules: dict[str, bool],
           blind: str | None = None, candidates: list[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The function calls that carry out an allowed request on ``records`` (``blind``: as the policy without that
    part does; ``candidates``: as for :func:`_allowed`)."""
    if request["kind"] == "book":
        if candidates is None:
            candidates = _candidates(records, request, blind)
        slot_id = candidates[-1 if blind == "latest" else 0]
        return [("book_slot", {"slot_id": slot_id, "patient_id": patient_id})]
    calls: list[tuple[str, dict[str, Any]]] = [("cancel_slot", {"slot_id": request["slot"]})]
    if rules["late_fee"] and _late(records, request["slot"], blind) and blind != "no_fee":
        calls.append(("charge_fee", {"patient_id": patient_id, "amount_cents": LATE_FEE}))
    return calls


def _serve(records: Records, patient_id: str, request: dict[str, str], rules: dict[str, bool],
           blind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Carry out an allowed request on ``records``; the function calls that do it."""
    calls = _calls(records, patient_id, request, rules, blind)
    for name, arguments in calls:
        if name == "book_slot":
            records["slots"][arguments["slot_id"]]["patient"] = patient_id
        elif name == "cancel_slot":
            records["slots"][arguments["slot_id"]]["patient"] = None
        else:
            records["patients"][patient_id]["fees_cents"] += arguments["amount_cents"]
    return calls


def _decides(records: Records, start: Records, cancelled: set[str], patient_id: str, request: dict[str, str],
             rules: dict[str, bool], among: set[str]) -> set[str]:
    """The parts of the policy ``among`` whose absence would change what ``request`` does on ``records``."""
    # a booking's candidates differ only without the noon rule: scanned once for it and once for the rest, not twice
    # for every blind policy (the generator weighs dozens of requests this way for each one it keeps)
    found: dict[bool, list[str]] = {}

    def calls(blind: str | None) -> list[tuple[str, dict[str, Any]]]:
        candidates = None
        if request["kind"] == "book":
            noon = blind == "noon"
            if noon not in found:
                found[noon] = _candidates(records, request, blind)
            candidates = found[noon]
        if not _allowed(records, patient_id, request, rules, blind, start, cancelled, candidates):
            return []
        return _calls(records, patient_id, request, rules, blind, candidates)

    done = calls(None)
    return {blind for blind in among if calls(blind) != done}


def _outcome(records: Records, patient_id: str, requests: list[dict[str, str]], rules: dict[str, bool],
             blind: str | None = None) -> tuple[list[bool], Records]:
    """Which requests the policy serves (``blind``: without that part) and the records it leaves."""
    world: Records = copy_data(records)
    cancelled: set[str] = set()
    served = []
    for request in requests:
        served.append(_allowed(world, patient_id, request, rules, blind, records, cancelled))
        if served[-1]:
            if request["kind"] == "cancel":
                cancelled.add(_specialty(world, request["slot"]))
            _serve(world, patient_id, request, rules, blind)
    return served, world


# --- the functions (they do what they are asked; the policy is the agent's) -----------------------------------


def _find_patient(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    email = str(args["email"]).strip().lower()
    for patient in records["patients"].values():
        if patient["email"] == email:
            return f"patient {patient['id']}: {patient['name']}", None
    return f"error: no patient with e-mail {email[:100]!r}", None


def _get_patient(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    patient = records["patients"].get(str(args["patient_id"]).strip().upper())
    if patient is None:
        return f"error: no patient {str(args['patient_id'])[:40]!r}", None
    held = [f"{s} ({records['doctors'][slot['doctor']]['specialty']}, {slot['start'].replace('T', ' ')})"
            for s, slot in sorted(records["slots"].items()) if slot["patient"] == patient["id"]]
    fees = patient["fees_cents"]
    return (f"patient {patient['id']}: {patient['name']}, referrals: {', '.join(patient['referrals']) or 'none'}, "
            f"fees owed ${fees // 100}.{fees % 100:02d}, appointments: {'; '.join(held) or 'none'}"), None


def _free_slots(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    specialty, day = str(args["specialty"]).strip().lower(), str(args["date"]).strip()[:10]
    if specialty not in SPECIALTIES:
        return f"error: no specialty {specialty[:40]!r} (specialties: {', '.join(SPECIALTIES)})", None
    lines = [f"- {s}: {records['doctors'][slot['doctor']]['name']}, {slot['start'].replace('T', ' ')}"
             for s, slot in sorted(records["slots"].items(), key=lambda item: (item[1]["start"], item[0]))
             if slot["patient"] is None and slot["start"][:10] == day
             and records["doctors"][slot["doctor"]]["specialty"] == specialty]
    return ("\n".join(lines) if lines else "no free slots"), None


def _book_slot(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    slot = records["slots"].get(str(args["slot_id"]).strip())
    patient_id = str(args["patient_id"]).strip().upper()
    if slot is None:
        return f"error: no slot {str(args['slot_id'])[:40]!r}", None
    if patient_id not in records["patients"]:
        return f"error: no patient {patient_id[:40]!r}", None
    if slot["patient"] is not None:
        return f"error: slot {args['slot_id']} is taken", None
    slot["patient"] = patient_id
    return f"slot {args['slot_id']} booked for {patient_id}", records


def _cancel_slot(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    slot = records["slots"].get(str(args["slot_id"]).strip())
    if slot is None:
        return f"error: no slot {str(args['slot_id'])[:40]!r}", None
    if slot["patient"] is None:
        return f"error: slot {args['slot_id']} is free", None
    slot["patient"] = None
    return f"slot {args['slot_id']} cancelled", records


def _charge_fee(records: Records, args: dict[str, Any]) -> tuple[str, Records | None]:
    patient = records["patients"].get(str(args["patient_id"]).strip().upper())
    amount = args["amount_cents"]
    if patient is None:
        return f"error: no patient {str(args['patient_id'])[:40]!r}", None
    if not isinstance(amount, int) or not 0 < amount <= 10**7:
        return "error: amount_cents must be a positive whole number", None
    patient["fees_cents"] += amount
    return f"fee charged; {patient['id']} owes ${patient['fees_cents'] // 100}.{patient['fees_cents'] % 100:02d}", records
