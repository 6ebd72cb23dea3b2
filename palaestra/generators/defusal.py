"""Bomb-defusal manuals and devices (in the spirit of "Keep Talking and Nobody Explodes"), for ``games/bomb_defusal``.

A *device* has edgework (a serial number whose last character is a digit, a battery count, lit and
unlit indicators with three-letter labels) and modules of three kinds:

- ``wires``: 3 to 8 coloured wires, numbered from the top; exactly one is to be cut;
- ``button``: a coloured button with a label and a coloured strip; it is tapped, or held and
  released when the timer shows a digit;
- ``keypad``: four symbols; they are pressed one at a time in a stated order.

A *manual* (drawn per problem) says what to do from facts of the device:

- wires: one list of rules per wire count; the first rule whose condition holds applies, the last
  rule ("otherwise") always does. A condition is a conjunction of atoms about the module's wires
  and the edgework; an action cuts a wire by position or the first/last wire of a colour (only
  after a condition that guarantees a wire of that colour);
- button: a list of rules deciding tap or hold (atoms about the button and the edgework), and a
  table from the strip's colour to the release digit;
- keypad: columns of symbols; exactly one column holds all four of a keypad's symbols, and they
  are pressed in that column's order (top to bottom, or, where the manual has a reversing
  condition that holds, bottom to top).

The facts a player can ask for are ``serial``, ``batteries``, ``indicators`` and each module's
face (``module``). :func:`decide` applies a manual section to what is known so far: the action,
or the first unknown fact the rules need (conditions are read in order; a conjunction with a
known false atom is false without asking the rest). The game's honest player and a single-turn
"apply the manual" task both use it.

Example (a hand-checked rule list)::

    >>> section = {"3": [[[["more_than_one", "red"], ["odd"]], ["last_of", "red"]], [[], ["wire", 2]]]}
    >>> edgework = {"serial": "AB3CD7", "batteries": 2, "indicators": [["FRK", True]]}
    >>> decide({"wires": section}, {"kind": "wires", "wires": ["red", "blue", "red"]}, edgework)
    ('act', 3, 1)
    >>> decide({"wires": section}, {"kind": "wires", "wires": ["red", "blue", "red"]}, {})
    ('need', 'serial', 1)
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core.retry import retry

WIRE_COLOURS = ("red", "blue", "yellow", "white", "black", "green", "orange", "purple")
BUTTON_COLOURS = ("red", "blue", "white", "yellow", "black")
LABELS = ("ABORT", "DETONATE", "HOLD", "PRESS")
STRIP_COLOURS = ("blue", "white", "yellow", "red", "green")
INDICATORS = ("SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK")
SYMBOLS = ("omega", "psi", "lambda", "trident", "hook", "teardrop", "balloon", "pumpkin", "spiral", "comet",
           "anchor", "crown", "key", "bell", "moon", "sun", "eye", "feather", "flame", "leaf", "shell", "arrow",
           "cross", "diamond", "heart", "spade", "clover", "hourglass", "lantern", "mask", "wheel", "ribbon",
           "tower", "wave", "bolt", "snowflake")
KINDS = ("wires", "button", "keypad")
FACTS = ("serial", "batteries", "indicators")  # the edgework; each module's face is the fact "module"
VOWELS = "AEIOU"
KEYS = 4  # symbols on a keypad
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
ALTERNATIVES = 12  # other devices tried when checking that a section's answer depends on hidden facts
SECTION_ATTEMPTS = 50  # draws of a manual section before generation gives up

Atom = list[Any]  # [name, *arguments]
Module = dict[str, Any]
Edgework = dict[str, Any]

# Atoms: name -> the fact it reads. Wire atoms take a colour; button atoms a colour or a label; "batteries_*" a
# count; "lit" an indicator label.
ATOM_FACT = {"odd": "serial", "even": "serial", "vowel": "serial", "no_vowel": "serial",
             "batteries_more": "batteries", "batteries_at_most": "batteries",
             "lit": "indicators", "lit_any": "indicators", "no_lit_any": "indicators",
             "none_of": "module", "more_than_one": "module", "exactly_one": "module", "last_is": "module",
             "first_is": "module", "button_is": "module", "label_is": "module"}
GUARANTEES = ("more_than_one", "exactly_one", "last_is", "first_is")  # wire atoms implying a wire of their colour


def atom_value(atom: Atom, module: Module | None, edgework: Edgework) -> bool | None:
    """Whether ``atom`` holds, or None while the fact it reads is unknown (missing from ``edgework`` / no module)."""
    name, *args = atom
    fact = ATOM_FACT[name]
    if fact == "module":
        if module is None:
            return None
        if name == "button_is":
            return bool(module["colour"] == args[0])
        if name == "label_is":
            return bool(module["label"] == args[0])
        wires = module["wires"]
        count = wires.count(args[0])
        return {"none_of": count == 0, "more_than_one": count > 1, "exactly_one": count == 1,
                "last_is": wires[-1] == args[0], "first_is": wires[0] == args[0]}[name]
    if edgework.get(fact) is None:
        return None
    if fact == "serial":
        serial = edgework["serial"]
        odd = int(serial[-1]) % 2 == 1
        vowel = any(ch in VOWELS for ch in serial)
        return {"odd": odd, "even": not odd, "vowel": vowel, "no_vowel": not vowel}[name]
    if fact == "batteries":
        more = edgework["batteries"] > args[0]
        return more if name == "batteries_more" else not more
    if name in ("lit_any", "no_lit_any"):
        lit = any(on for _, on in edgework["indicators"])
        return lit if name == "lit_any" else not lit
    return any(label == args[0] and on for label, on in edgework["indicators"])


def condition_value(condition: list[Atom], module: Module | None, edgework: Edgework) -> tuple[bool | None, str]:
    """A conjunction's value (None while unknown) and, when unknown, the first unknown fact it needs."""
    values = [atom_value(atom, module, edgework) for atom in condition]
    if False in values:
        return False, ""
    if None in values:
        return None, ATOM_FACT[condition[values.index(None)][0]]
    return True, ""


def _first_rule(rules: list[Any], module: Module | None, edgework: Edgework) -> tuple[str, Any, int]:
    """``("act", action, rules read)`` for the first rule whose condition holds, or ``("need", fact, rules read)``."""
    for read, (condition, action) in enumerate(rules, start=1):
        value, fact = condition_value(condition, module, edgework)
        if value is None:
            return "need", fact, read
        if value:
            return "act", action, read
    raise ValueError("a rule list must end with an unconditional rule")


def decide(manual: dict[str, Any], module: Module | None, edgework: Edgework, kind: str | None = None
           ) -> tuple[str, Any, int]:
    """What the manual says to do about one module, from what is known.

    ``module`` is the module's face (None while unknown; then ``kind`` names its kind), ``edgework``
    the edgework facts known so far. Returns ``("act", action, conditions read)`` -- for wires the
    1-based wire to cut, for a button ``"tap"`` or the release digit (an int), for a keypad the
    symbols in pressing order -- or ``("need", fact, conditions read)`` with the first unknown fact the
    rules need (``"module"`` or an edgework fact).
    """
    kind = module["kind"] if module is not None else kind
    if kind in ("wires", "keypad") and module is None:
        return "need", "module", 0
    if kind == "wires":
        assert module is not None
        wires = module["wires"]
        what, action, read = _first_rule(manual["wires"][str(len(wires))], module, edgework)
        if what == "need":
            return what, action, read
        return "act", wire_to_cut(action, wires), read
    if kind == "button":
        section = manual["button"]
        what, action, read = _first_rule(section["rules"], module, edgework)
        if what == "need" or action == "tap":
            return what, action, read
        if module is None:
            return "need", "module", read
        digit = dict((colour, d) for colour, d in section["release"]).get(module["strip"], section["release_other"])
        return "act", digit, read
    assert module is not None
    section = manual["keypad"]
    column = next(col for col in section["columns"] if all(symbol in col for symbol in module["symbols"]))
    order = [symbol for symbol in column if symbol in module["symbols"]]
    if not section["reverse_if"]:
        return "act", order, 1
    value, fact = condition_value(section["reverse_if"], module, edgework)
    if value is None:
        return "need", fact, 1
    return "act", order[::-1] if value else order, 2


def wire_to_cut(action: list[Any], wires: list[str]) -> int:
    """The 1-based wire a wire action names on ``wires``."""
    name, *args = action
    if name == "wire":
        return int(args[0])
    if name == "last_wire":
        return len(wires)
    positions = [i for i, colour in enumerate(wires, start=1) if colour == args[0]]
    return positions[0] if name == "first_of" else positions[-1]


def solution(manual: dict[str, Any], module: Module, edgework: Edgework) -> Any:
    """The action for a module when every fact is known."""
    what, action, _ = decide(manual, module, edgework)
    assert what == "act"
    return action


# Drawing devices -------------------------------------------------------------------------------------------------


def draw_edgework(rng: random.Random) -> Edgework:
    letters = "ABCDEFGHIJKLMNPQRSTUVWXZ"
    serial = "".join(rng.choice(letters + "0123456789") for _ in range(5)) + str(rng.randrange(10))
    labels = rng.sample(INDICATORS, rng.randint(0, 3))
    return {"serial": serial, "batteries": rng.randint(0, 4),
            "indicators": [[label, rng.random() < 0.5] for label in labels]}


def draw_module(rng: random.Random, kind: str, manual: dict[str, Any], colours: int) -> Module:
    if kind == "wires":
        counts = sorted(int(count) for count in manual["wires"])
        return {"kind": kind, "wires": [rng.choice(WIRE_COLOURS[:colours]) for _ in range(rng.choice(counts))]}
    if kind == "button":
        return {"kind": kind, "colour": rng.choice(BUTTON_COLOURS), "label": rng.choice(LABELS),
                "strip": rng.choice(STRIP_COLOURS)}
    # Columns share at most two symbols (see _columns), so four symbols of one column lie in no other.
    return {"kind": kind, "symbols": rng.sample(rng.choice(manual["keypad"]["columns"]), KEYS)}


# Drawing manuals -------------------------------------------------------------------------------------------------


def _edgework_atom(rng: random.Random, group: str) -> Atom:
    if group == "parity":
        return [rng.choice(("odd", "even"))]
    if group == "vowel":
        return [rng.choice(("vowel", "no_vowel"))]
    if group == "batteries":
        return [rng.choice(("batteries_more", "batteries_at_most")), rng.randint(1, 2)]
    kind = rng.choice(("lit_any", "no_lit_any", "lit"))
    return [kind, rng.choice(INDICATORS)] if kind == "lit" else [kind]


EDGEWORK_GROUPS = ("parity", "vowel", "batteries", "indicator")
ENDS = ("first_is", "last_is")


def _condition(rng: random.Random, size: int, local: list[Atom]) -> list[Atom]:
    """``size`` atoms on distinct facts: module atoms drawn from ``local`` (distinct entries), the rest edgework."""
    groups = list(EDGEWORK_GROUPS)
    rng.shuffle(groups)
    atoms: list[Atom] = []
    locals_left = list(local)
    rng.shuffle(locals_left)
    for _ in range(size):
        if locals_left and (rng.random() < 0.6 or not groups):
            atom = locals_left.pop()
            if atom[0] in ENDS and any(other[0] == atom[0] for other in atoms):
                continue  # the first (or last) wire has one colour: "last is red and last is blue" never holds
            atoms.append(atom)
        elif groups:
            atoms.append(_edgework_atom(rng, groups.pop()))
    return atoms


def _wire_rules(rng: random.Random, count: int, colours: int, rules: int, depth: int) -> list[Any]:
    palette = WIRE_COLOURS[:colours]
    otherwise = _position(rng, count)
    out: list[list[Any]] = []
    for _ in range(rules):
        local = [[name, colour] for colour in rng.sample(palette, min(3, colours))
                 for name in [rng.choice(("none_of", "more_than_one", "exactly_one", "last_is", "first_is"))]]
        condition = _live_condition(rng, [rule[0] for rule in out], depth, local)
        sure = [atom[1] for atom in condition if atom[0] in GUARANTEES]
        if sure and rng.random() < 0.6:
            action = [rng.choice(("first_of", "last_of")), rng.choice(sure)]
        else:  # a position other than the otherwise rule's, so that the rule matters
            action = rng.choice([position for position in _positions(count) if position != otherwise])
        out.append([condition, action])
    out.append([[], otherwise])
    return out


def _implies(atom: Atom, other: Atom) -> bool:
    """Whether ``atom`` holding makes ``other`` hold (the same atom, a stronger battery bound, a named lit indicator)."""
    if atom == other:
        return True
    if atom[0] == other[0] == "batteries_more":
        return bool(atom[1] >= other[1])
    if atom[0] == other[0] == "batteries_at_most":
        return bool(atom[1] <= other[1])
    return atom[0] == "lit" and other[0] == "lit_any"


def _live_condition(rng: random.Random, earlier: list[list[Atom]], depth: int, local: list[Atom]) -> list[Atom]:
    """A condition of 1 to ``depth`` atoms (:func:`_condition`) that no earlier condition of its list shadows (a
    rule whose condition implies an earlier one's could never apply)."""
    def live() -> list[Atom] | None:
        condition = _condition(rng, rng.randint(1, depth), local)
        shadowed = any(all(any(_implies(atom, other) for atom in condition) for other in before) for before in earlier)
        return None if shadowed else condition

    return retry(live, attempts=SECTION_ATTEMPTS, what="a rule that earlier rules do not shadow")


def _positions(count: int) -> list[list[Any]]:
    """The positional wire actions on ``count`` wires ("the last wire" standing for the ``count``-th)."""
    return [["wire", k] for k in range(1, count)] + [["last_wire"]]


def _position(rng: random.Random, count: int) -> list[Any]:
    return rng.choice(_positions(count))


def _button_rules(rng: random.Random, rules: int, depth: int) -> list[Any]:
    otherwise = rng.choice(("tap", "hold"))
    out: list[list[Any]] = []
    for _ in range(rules):  # the conditional rules mostly say the opposite of the otherwise rule
        local: list[Atom] = [["button_is", rng.choice(BUTTON_COLOURS)], ["label_is", rng.choice(LABELS)]]
        action = otherwise if rng.random() < 0.25 else {"tap": "hold", "hold": "tap"}[otherwise]
        condition = _live_condition(rng, [rule[0] for rule in out], depth, local)
        out.append([condition, action])
    out.append([[], otherwise])
    return out


def draw_manual(rng: random.Random, kinds: list[str], wire_counts: tuple[int, int], colours: int, rules: int,
                depth: int, columns: int) -> dict[str, Any]:
    """A manual with a section for each of ``kinds``; every section's answer depends on hidden facts (checked
    against :data:`ALTERNATIVES` drawn devices; a section that fails is drawn again)."""
    manual: dict[str, Any] = {}
    edgeworks = [draw_edgework(rng) for _ in range(ALTERNATIVES)]

    def varied(draw_module_face: Any) -> bool:
        actions = {repr(solution(manual, draw_module_face(), edgework)) for edgework in edgeworks}
        return len(actions) >= 2

    if "wires" in kinds:
        manual["wires"] = {}
        for count in range(wire_counts[0], wire_counts[1] + 1):
            def wire_list(count: int = count) -> list[Any] | None:
                manual["wires"][str(count)] = _wire_rules(rng, count, colours, rules, depth)
                return manual["wires"][str(count)] if varied(lambda: {
                    "kind": "wires", "wires": [rng.choice(WIRE_COLOURS[:colours]) for _ in range(count)]}) else None

            retry(wire_list, attempts=SECTION_ATTEMPTS, what=f"a {count}-wire list whose answer varies")
    if "button" in kinds:
        strips = rng.sample(STRIP_COLOURS, 3)
        digits = rng.sample(range(10), 4)

        def button_section() -> dict[str, Any] | None:
            manual["button"] = {"rules": _button_rules(rng, rules, depth),
                                "release": [[strip, digit] for strip, digit in zip(strips, digits)],
                                "release_other": digits[3]}
            return manual["button"] if varied(lambda: draw_module(rng, "button", manual, colours)) else None

        retry(button_section, attempts=SECTION_ATTEMPTS, what="a button section whose answer varies")
    if "keypad" in kinds:
        manual["keypad"] = {"columns": _columns(rng, columns),
                            "reverse_if": _condition(rng, depth - 1, []) if depth > 1 else []}
    return manual


def _columns(rng: random.Random, count: int, length: int = 6) -> list[list[str]]:
    """``count`` columns of ``length`` symbols; any two share at most two symbols, so four symbols of one column
    lie in no other."""
    columns: list[list[str]] = []
    for _ in range(200):
        if len(columns) == count:
            break
        column = rng.sample(SYMBOLS, length)
        if all(len(set(column) & set(other)) <= 2 for other in columns):
            columns.append(column)
    if len(columns) < count:
        raise ValueError("could not draw keypad columns")
    return columns


# Words -----------------------------------------------------------------------------------------------------------


def atom_text(atom: Atom) -> str:
    name, *args = atom
    arg = args[0] if args else None
    if name in ("batteries_more", "batteries_at_most"):
        bound = "more than" if name == "batteries_more" else "at most"
        count = int(args[0])
        return f"there {'is' if count == 1 else 'are'} {bound} {('no', 'one', 'two', 'three')[count]} " \
               f"batter{'y' if count == 1 else 'ies'}"
    return {
        "odd": "the last digit of the serial number is odd",
        "even": "the last digit of the serial number is even",
        "vowel": "the serial number contains a vowel",
        "no_vowel": "the serial number contains no vowel",
        "lit": f"there is a lit indicator labelled {arg}",
        "lit_any": "at least one indicator is lit",
        "no_lit_any": "no indicator is lit",
        "none_of": f"there are no {arg} wires",
        "more_than_one": f"there is more than one {arg} wire",
        "exactly_one": f"there is exactly one {arg} wire",
        "last_is": f"the last wire is {arg}",
        "first_is": f"the first wire is {arg}",
        "button_is": f"the button is {arg}",
        "label_is": f"the button says {arg}",
    }[name]


def condition_text(condition: list[Atom]) -> str:
    return " and ".join(atom_text(atom) for atom in condition)


def wire_action_text(action: list[Any]) -> str:
    name, *args = action
    if name == "wire":
        return f"cut the {ORDINALS[int(args[0]) - 1]} wire"
    if name == "last_wire":
        return "cut the last wire"
    return f"cut the {'first' if name == 'first_of' else 'last'} {args[0]} wire"


def _rule_lines(rules: list[Any], say: Any) -> list[str]:
    lines = []
    for index, (condition, action) in enumerate(rules):
        if not condition:
            lines.append(f"  - Otherwise: {say(action)}." if index else f"  - Always: {say(action)}.")
        else:
            lead = "If" if index == 0 else "Otherwise, if"
            lines.append(f"  - {lead} {condition_text(condition)}: {say(action)}.")
    return lines


def manual_text(manual: dict[str, Any]) -> str:
    """The manual as the prompt states it."""
    parts = []
    if "wires" in manual:
        lines = ["WIRES. Wires are numbered from the top (1 is the top wire). Use the list for the module's "
                 "number of wires; the first rule whose condition holds says which one wire to cut."]
        for count, rules in sorted(manual["wires"].items(), key=lambda item: int(item[0])):
            lines.append(f" {count} wires:")
            lines += _rule_lines(rules, wire_action_text)
        parts.append("\n".join(lines))
    if "button" in manual:
        section = manual["button"]
        lines = ["THE BUTTON. The first rule whose condition holds says whether to tap the button or hold it."]
        lines += _rule_lines(section["rules"], lambda action: f"{action} the button")
        release = ", ".join(f"{strip} strip: {digit}" for strip, digit in section["release"])
        lines.append(f" When you hold the button, release it when the timer shows the digit for the colour of "
                     f"the strip beside it: {release}; any other colour: {section['release_other']}.")
        parts.append("\n".join(lines))
    if "keypad" in manual:
        section = manual["keypad"]
        lines = [f"KEYPADS. A keypad shows {KEYS} symbols; all of them appear in exactly one of these columns "
                 "(listed top to bottom):"]
        lines += [f"  Column {i}: {', '.join(column)}" for i, column in enumerate(section["columns"], start=1)]
        if section["reverse_if"]:
            lines.append(f" Press the {KEYS} symbols in the order they appear in that column from bottom to top if "
                         f"{condition_text(section['reverse_if'])}; otherwise from top to bottom.")
        else:
            lines.append(f" Press the {KEYS} symbols in the order they appear in that column, top to bottom.")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def fact_text(fact: str, edgework: Edgework) -> str:
    """The partner's truthful answer about one edgework fact."""
    if fact == "serial":
        return f"The serial number is {edgework['serial']}."
    if fact == "batteries":
        count = edgework["batteries"]
        return f"The device has {count} batter{'y' if count == 1 else 'ies'}."
    if not edgework["indicators"]:
        return "The device has no indicators."
    listed = ", ".join(f"{'lit' if on else 'unlit'} {label}" for label, on in edgework["indicators"])
    return f"The indicators are: {listed}."


def module_text(number: int, module: Module) -> str:
    """The partner's truthful description of module ``number``'s face."""
    if module["kind"] == "wires":
        wires = module["wires"]
        return f"Module {number} (wires) has {len(wires)} wires, from the top: {', '.join(wires)}."
    if module["kind"] == "button":
        return (f"Module {number} (button) is a {module['colour']} button labelled {module['label']}, with a "
                f"{module['strip']} strip beside it.")
    return f"Module {number} (keypad) shows the symbols {', '.join(module['symbols'])}."
