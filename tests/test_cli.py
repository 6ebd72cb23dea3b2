from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from palaestra.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_list_shows_every_env(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^arithmetic/expression\s+v\d+\s+arithmetic\s+single\s+5", out, re.M)
    assert re.search(r"\d+ environments in \d+ families", out)


def test_list_filters_by_turns_family_and_tag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--turns", "multi"]) == 0
    out = capsys.readouterr().out
    assert "games/mastermind" in out and "arithmetic/expression" not in out
    assert main(["list", "--family", "games", "--tag", "words"]) == 0
    out = capsys.readouterr().out
    assert "games/wordle" in out and "games/mastermind" not in out


def test_bare_command_prints_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "usage: palaestra" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert re.match(r"palaestra \d+\.\d+", capsys.readouterr().out)


def test_show_prints_prompt_and_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "arithmetic/expression", "--level", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Evaluate the expression" in out and "# reference answer" in out


def test_show_rejects_bad_level_and_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "games/eight_puzzle", "--level", "9"]) == 2  # bounded: levels 0-4
    assert main(["show", "arithmetic/expression", "--level", "9"]) == 0  # unbounded: level 9 by its growth rule
    assert main(["show", "no/such_env"]) == 2
    assert "unknown env id" in capsys.readouterr().err


def test_check_runs_the_kit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "games/guess_number", "--quick"]) == 0
    assert "0 failed check(s)" in capsys.readouterr().out


def test_play_reads_answers_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from palaestra.core.registry import make_source

    answer = make_source("arithmetic/expression").sample(0, 3).answer
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{answer}\n"))
    assert main(["play", "arithmetic/expression", "--seed", "3"]) == 0
    assert "reward 1, total 1, correct" in capsys.readouterr().out


def test_eval_prints_oracle_and_random_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--envs", "arithmetic/expression", "--levels", "0", "1", "--seeds", "3"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("arithmetic/expression"))
    assert row.split()[2:4] == ["6", "1.00"]  # 6 episodes, oracle solves all
    assert "oracle solved 6/6" in out


def test_ci_runs_the_readme_test_command() -> None:
    command = [ln for ln in (ROOT / ".ci/run").read_text().splitlines() if ln.strip() and not ln.startswith(("#", "set ", "cd "))][-1]
    assert command in (ROOT / "README.md").read_text()
