"""Read one column out of a CSV file whose quoted fields hold commas, doubled quotes and line breaks.

The file follows RFC 4180, stated in the prompt: fields are separated by commas; a field may be enclosed
in double quotes, and then may contain commas, line breaks and doubled quotes ("" stands for one "); the
enclosing quotes are not part of the value. Names (``"Berg, Ada"``), notes with quotes and commas and,
from level 2, notes broken over several lines, and tag lists (``"eco, gift"``) stand on both sides of the
asked column, so splitting lines at commas (from either end) or counting lines as records gives wrong
values; simple fields are sometimes quoted too (``"K-042"``). Since v2 the file also has columns of the asked ones'
kinds (an origin and a depot city, a floor and a box count), each blank in some records, so picking out the record's
city or small numbers by their look, without parsing, gives wrong values (v1 had one of each: 1.0).
Since v3 the note comes before both asked columns and, from level 2, at least one is broken over lines, so reading
each line that starts with a record's id as that record (skipping the lines that continue a note) gives wrong values
(it gave 0.42-0.68 of levels 2-6, 40 seeds a level: every problem asking the quantity, then left of the note, and
the 0.10 with no broken note); now 0.
The answer is the list of the asked column's values for every record in file order; the verifier reads
a list (quotes optional) with the shared reader and names the first wrong record. The reference is the
data the file was written from, so it is unique.

Difficulty: the records plus the quoted fields holding a comma, a doubled quote or a line break (each
counted once per trap).
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.sets import read_list, read_token

EXAMPLE = "K-000, K-999"  # a fixed placeholder: never derived from the answer
HEADER = ("id", "origin", "floor", "customer", "note", "qty", "city", "tags", "boxes", "depot", "code")
ASKED = ("qty", "city")  # both have a quoted field with commas on each side: no split from either end works
# columns of the asked ones' kinds (a city, a small number), each blank in some records: the asked value is
# not "the city" or "the small number" of a record, nor the first or last one
DECOYS = {"origin": "city", "floor": "number", "boxes": "number", "depot": "city"}
BLANK = 0.4
TAGS = ("eco", "gift", "bulk", "fragile", "new")
NOTES = ("leave at the door", "call first", "fragile", "gift wrap", "no plastic", "ring twice", "back entrance")


def _note(rng: random.Random, newlines: bool) -> tuple[str, int]:
    """A free-text note and how many traps (commas, quotes, line breaks) it holds."""
    parts = rng.sample(NOTES, rng.randint(1, 3))
    traps = 0
    text = parts[0]
    for part in parts[1:]:
        joiner = rng.choice((", ", "\n", " - ")) if newlines else rng.choice((", ", " - "))
        traps += joiner != " - "
        text += joiner + part
    if rng.random() < 0.4:
        text = f'{text} "{rng.choice(("urgent", "VIP", "asap"))}"'
        traps += 1
    return text, traps


def _file(records: list[list[str]]) -> str:
    """The CSV text, quoting only the fields that need it."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(HEADER)
    writer.writerows(records)
    return buffer.getvalue().rstrip("\n")


@register
class CsvFields(Task):
    id = "data/csv_fields"
    family = "data"
    description = "Read one column of a CSV file whose quoted fields hold commas, doubled quotes and line breaks."
    tags = ("data", "csv", "parsing")
    version = 3  # v3: the note before both asked columns, and broken over lines in every problem from level 2
    # v2: decoy columns of the asked kinds (v1's only city and only small number paid 1.0 unparsed)

    @dataclass(frozen=True)
    class Config:
        records: int
        newlines: bool  # notes broken over several lines

    presets = (Config(3, False), Config(4, False), Config(6, True), Config(8, True), Config(11, True))
    growth = Growth(steps={"records": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        asked = rng.choice(ASKED)
        records, traps = [], 0
        for index in range(config.records):
            surname, first = rng.choice(WORDS["surnames"]), rng.choice(WORDS["first_names"])
            customer = f"{surname}, {first}" if rng.random() < 0.6 else f"{first} {surname}"
            traps += "," in customer
            note, note_traps = _note(rng, config.newlines)
            traps += note_traps
            tags = ", ".join(rng.sample(TAGS, rng.choice((1, 2, 2, 3))))
            traps += "," in tags
            decoys = {name: "" if rng.random() < BLANK else
                      (rng.choice(WORDS["cities"]) if kind == "city" else str(rng.randint(1, 40)))
                      for name, kind in DECOYS.items()}
            records.append([str(100 + 7 * index + rng.randrange(7)), decoys["origin"], decoys["floor"], customer,
                            note, str(rng.randint(1, 40)), rng.choice(WORDS["cities"]), tags, decoys["boxes"],
                            decoys["depot"], f"K-{rng.randrange(100, 1000)}"])
        if config.newlines and not any("\n" in record[HEADER.index("note")] for record in records):
            # a note broken over lines in every such problem: reading the lines that start with an id as records
            # answered every one that had none (0.10 of levels 2-4)
            rng.choice(records)[HEADER.index("note")] += "\n" + rng.choice(NOTES)
            traps += 1
        text = _file(records)
        # quote a few simple fields too: quotes around a plain value do not change it
        lines = text.split("\n")
        codes = tuple("," + record[-1] for record in records)  # a record's last line ends with its code
        simple = [i for i, line in enumerate(lines[1:], start=1) if line.endswith(codes)]
        for i in rng.sample(simple, min(len(simple), rng.randint(0, 2))):
            head, _, code = lines[i].rpartition(",")
            lines[i] = f'{head},"{code}"'
        text = "\n".join(lines)
        values = [record[HEADER.index(asked)] for record in records]
        prompt = (
            f"Here is a CSV file (RFC 4180):\n\n```\n{text}\n```\n\nFields are separated by commas. A field may be "
            'enclosed in double quotes; inside the quotes it may contain commas, line breaks and doubled quotes ("" '
            "stands for one \"), and the enclosing quotes are not part of the value. The first line is the header.\n\n"
            f"List the value of the column {asked} for every record, in file order, separated by commas, for "
            f"example: {EXAMPLE}"
        )
        data = {"values": values, "asked": asked, "records": config.records, "traps": traps}
        return Problem(prompt=prompt, answer=", ".join(values), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        given = read_list(answer, read_token, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected values separated by commas, such as {EXAMPLE}")
        truth = problem.data["values"]
        for number, (mine, theirs) in enumerate(zip(given, truth, strict=False), start=1):
            if mine != theirs:
                return Verdict.wrong(f"the value of record {number} is wrong")
        if len(given) != len(truth):
            return Verdict.wrong(f"the file has {len(truth)} records, the answer {len(given)} values")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Records + traps (commas, doubled quotes, line breaks inside quoted fields)."""
        return float(problem.data["records"] + problem.data["traps"])

    def spellings(self, problem: Problem) -> list[str]:
        values = problem.data["values"]
        return [*markup_spellings(problem.answer or ""), "\n".join(values), '["' + '", "'.join(values) + '"]',
                "; ".join(values)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = problem.data["values"]
        wrong = [", ".join(values[:-1]), ", ".join([*values, values[0]])]
        if len(set(values)) > 1:
            wrong.append(", ".join(values[1:] + values[:1]))
        return wrong
