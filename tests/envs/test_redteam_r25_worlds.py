"""Red-team regressions, session 25 (web, service, interactive, temporal)."""

from __future__ import annotations

from palaestra.core.registry import make_source

ROOMS = make_source("web/room_booking")


def _none_problems(level: int, count: int) -> list:
    problems = (ROOMS.sample(level, seed) for seed in range(60))
    return [p for p in problems if p.data["room"] is None][:count]


def test_room_booking_bare_none_earns_nothing() -> None:
    """v1 paid a bare "none" on every problem over budget (0.26/0.17/0.18 at levels 0/2/4); v2 asks for the room."""
    for level in (0, 4):
        problems = _none_problems(level, 3)
        assert problems
        for problem in problems:
            for bare in ("none", "No room.", "Nothing booked"):
                reward = ROOMS.replay(problem, [ROOMS.format_answer(bare)]).reward
                assert reward == 0.0, (level, problem.seed, bare)


def test_room_booking_none_with_the_right_room_wins_and_a_wrong_room_loses() -> None:
    problem = _none_problems(2, 1)[0]
    best = problem.data["route"][-1]
    room = problem.data["records"]["rooms"][best]
    for right in (f"none: {best}", f"None ({best}).", f"No room - {room['hotel']} {room['kind']}"):
        assert ROOMS.replay(problem, [ROOMS.format_answer(right)]).reward == 1.0, right
    cheaper = [p for p in problem.data["city_rooms"] if p != best]
    assert cheaper
    for wrong in (f"none: {cheaper[0]}", f"none: {best} or {cheaper[0]}", f"none: {best},{cheaper[0]}"):
        assert ROOMS.replay(problem, [ROOMS.format_answer(wrong)]).reward == 0.0, wrong
    assert "a bare 'none' is wrong" in problem.prompt


def test_requests_served_reads_labelled_lists_and_numbered_requests() -> None:
    """Right answers a careful grader accepts were unparsed: a "carried out" label, "Request #1", a "none" sentence."""
    source = make_source("service/access_requests")
    mixed = next(p for p in (source.sample(2, seed) for seed in range(80)) if p.answer == "1, 3")
    for right in ("Requests carried out: 1, 3", "Carried out: 1 and 3.", "Request #1 and Request #3"):
        assert source.judge(mixed, right).correct, right
    for wrong in ("Carried out: 1, 3. Refused: 2", "Requests carried out: 1, 2, 3", "carried out: 1 or 3"):
        assert not source.judge(mixed, wrong).correct, wrong
    loans = make_source("service/library_loans")
    refused = next(p for p in (loans.sample(1, seed) for seed in range(200)) if p.answer == "none")
    assert loans.judge(refused, "No requests carried out.").correct
    assert not loans.judge(refused, "Carried out: 1").correct


def test_faq_lookup_reads_the_figure_with_its_full_unit() -> None:
    """The figure followed by the table's own header ("24 points per 10 dollars") was unparsed; hedges stay wrong."""
    source = make_source("web/faq_lookup")
    problem = next(p for p in (source.sample(3, seed) for seed in range(40)) if "points" in p.prompt)
    answer = problem.answer
    for right in (
        f"{answer} points per 10 dollars",
        f"{answer} points per $10.",
        f"{answer} points per 10 dollars spent",
    ):
        assert source.judge(problem, right).correct, right
    assert not source.judge(problem, f"{int(answer) + 1} points per 10 dollars").correct
    assert not source.judge(problem, f"{answer} or {int(answer) + 1} points per 10 dollars").correct


def _tied_booking(problem) -> bool:
    """Whether a booking the policy serves has two equally early free slots (two doctors free at that time)."""
    import copy

    from palaestra.envs.service import clinic_appointments as clinic

    data = problem.data
    records = copy.deepcopy(data["records"])
    patient = next(iter(records["patients"]))
    tied = False
    for request in data["requests"]:
        if clinic._allowed(records, patient, request, data["rules"]):
            if request["kind"] == "book":
                starts = [records["slots"][s]["start"] for s in clinic._candidates(records, request)[:2]]
                tied |= len(starts) == 2 and starts[0] == starts[1]
            clinic._serve(records, patient, request, data["rules"])
    return tied


def test_clinic_appointments_policy_breaks_ties_between_equally_early_slots() -> None:
    """v1's "earliest free slot of any doctor" left a tie open (a quarter of level 4's problems), and only the
    smallest slot id was judged right; v2's rule 1 names that tie-break."""
    source = make_source("service/clinic_appointments")
    problem = next(p for p in (source.sample(4, seed) for seed in range(40)) if _tied_booking(p))
    assert "of equally early slots, the one with the smallest slot id" in problem.prompt


def test_web_codes_read_after_the_pages_own_labels() -> None:
    """ "Phone extension: 4821" (the person page's label), "Her extension is 4821", "Your confirmation number is
    X" were unparsed; a hedge stays wrong."""
    staff = make_source("web/staff_directory")
    problem = staff.sample(1, 2)
    extension = problem.answer
    for right in (
        f"Phone extension: {extension}",
        f"Her extension is {extension}.",
        f"His phone extension is {extension}",
    ):
        assert staff.judge(problem, right).correct, right
    assert not staff.judge(problem, f"Phone extension: {extension} or 1234").correct
    forms = make_source("web/form_filling")
    problem = forms.sample(1, 2)
    assert forms.judge(problem, f"Your confirmation number is {problem.answer}.").correct
    assert not forms.judge(problem, f"Your confirmation number is {problem.answer}0.").correct
