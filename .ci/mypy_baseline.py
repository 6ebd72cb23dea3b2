"""mypy with a baseline that may only shrink: CI fails on an error the baseline does not hold.

Run from the repository root (``.ci/run`` does, after ruff)::

    python .ci/mypy_baseline.py            # mypy over palaestra (config: pyproject.toml), compared with the baseline
    python .ci/mypy_baseline.py --update   # after fixing errors: rewrite .ci/mypy-baseline.txt (it must only shrink)

The baseline holds one normalised line per error (``path: error: message  [code]``, no line numbers, so
edits elsewhere in a file do not disturb it), sorted, repeated as often as the error occurs in that
file. A new error fails with its mypy line; errors that disappeared pass, with a reminder to shrink the
baseline (``--update``). ``--update`` refuses to add errors: fix them, or ``# type: ignore[code]`` one
with a reason.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

BASELINE = Path(__file__).resolve().parent / "mypy-baseline.txt"
ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error: (?P<message>.*)$")


def normalise(line: str) -> str | None:
    """``path: error: message`` for a mypy error line (line numbers dropped), None for notes and summaries."""
    match = ERROR.match(line.rstrip())
    if not match:
        return None
    message = re.sub(r"\bline \d+\b", "line N", match["message"])
    return f"{match['path']}: error: {message}"


def errors(mypy_output: str) -> Counter[str]:
    return Counter(n for line in mypy_output.splitlines() if (n := normalise(line)) is not None)


def compare(current: Counter[str], baseline: Counter[str]) -> tuple[Counter[str], Counter[str]]:
    """(new errors, fixed errors): what ``current`` has beyond the baseline, and what it no longer has."""
    return current - baseline, baseline - current


def run_mypy() -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes", "--no-pretty",
                           "--hide-error-context"], capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 2: mypy itself failed (a config or syntax error)
        sys.exit(f"mypy failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout, done.returncode


def read_baseline() -> Counter[str]:
    return Counter(line for line in BASELINE.read_text().splitlines() if line) if BASELINE.exists() else Counter()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the baseline (it may only shrink)")
    args = parser.parse_args(argv)
    output, _ = run_mypy()
    current, baseline = errors(output), read_baseline()
    new, fixed = compare(current, baseline)
    if args.update:
        if new and BASELINE.exists():  # without one, --update starts the baseline
            print("\n".join(sorted(new.elements())))
            print(f"\n--update refuses to grow the baseline: {sum(new.values())} new error(s) above; fix them")
            return 1
        BASELINE.write_text("".join(f"{line}\n" for line in sorted(current.elements())))
        print(f"baseline: {sum(baseline.values())} -> {sum(current.values())} errors")
        return 0
    if new:
        lines = [line for line in output.splitlines() if normalise(line) in new]
        print("\n".join(lines))
        print(f"\nmypy: {sum(new.values())} new error(s) (listed above; {sum(current.values())} in all, "
              f"{sum(baseline.values())} in the baseline {BASELINE.name}): fix them")
        return 1
    note = (f"; {sum(fixed.values())} fixed: run `python .ci/mypy_baseline.py --update` to shrink the baseline"
            if fixed else "")
    print(f"mypy: no new errors ({sum(current.values())} errors, all in the baseline{note})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
