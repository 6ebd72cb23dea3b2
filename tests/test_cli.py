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
    assert main(["show", "arithmetic/expression", "--level", "-1"]) == 2
    assert main(["show", "arithmetic/expression", "--level", "9"]) == 0  # unbounded: any level >= 0
    assert main(["show", "games/eight_puzzle", "--level", "9"]) == 2  # a fixed board: its presets only
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


def test_eval_without_a_model_refuses_the_options_only_a_model_uses(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # --out was ignored without --model: the user was left looking for transcripts that were never written
    for extra in (["--out", str(tmp_path / "run")], ["--samples", "4", "--k", "1", "4"], ["--catalogue"]):
        with pytest.raises(SystemExit) as refused:
            main(["eval", "--envs", "arithmetic/expression", "--levels", "0", "--seeds", "1", *extra])
        assert "add --model" in str(refused.value) and extra[0] in str(refused.value)
    assert not (tmp_path / "run").exists()
    assert main(["eval", "--envs", "arithmetic/expression", "--levels", "0", "--seeds", "1", "--model", "oracle",
                 "--out", str(tmp_path / "run")]) == 0
    assert (tmp_path / "run" / "transcripts.jsonl").is_file()


def test_export_refuses_the_options_of_another_kind_of_rows(tmp_path: Path) -> None:
    # --split (verl's) and --plain (hf's and openrlhf's) were dropped without a word on the other kinds
    for argv, named in ((["hf", "--split", "test"], "--split"), (["openrlhf", "--split", "test"], "--split"),
                        (["verl", "--plain"], "--plain")):
        out = tmp_path / f"{argv[0]}.jsonl"
        with pytest.raises(SystemExit) as refused:
            main(["export", argv[0], "--envs", "graphs/bridges", "--seeds", "2", *argv[1:], "--out", str(out)])
        assert named in str(refused.value) and not out.exists()
    assert main(["export", "verl", "--envs", "graphs/bridges", "--seeds", "2", "--split", "test",
                 "--out", str(tmp_path / "verl.jsonl")]) == 0
    assert '"split": "test"' in (tmp_path / "verl.jsonl").read_text()


def test_train_refuses_settings_that_would_learn_nothing_before_making_its_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="palaestra train needs torch (the test extra)")
    # --advantage group with one sample per problem made every advantage 0 (a run that could not learn)
    for extra, said in ((["--group-size", "1", "--advantage", "group"], "--group-size 2 or more"),
                        (["--group-size", "0"], "at least 1"), (["--eval-seeds", "0", "--eval-levels", "1"], "--eval-seeds"),
                        (["--batch-size", "10", "--group-size", "4"], "multiple")):
        assert main(["train", "--steps", "1", *extra, "--out", str(tmp_path / "run")]) == 2
        assert said in capsys.readouterr().err
        assert not (tmp_path / "run").exists()


def test_servers_refuse_impossible_settings_before_they_start(capsys: pytest.CaptureFixture[str]) -> None:
    # a bad port ended in bind()'s traceback, --max-sessions 0 in pydantic's, and a negative --max-level was taken
    for argv, said in ((["serve", "--port", "-1"], "0-65535"), (["serve-reward", "--port", "70000"], "0-65535"),
                       (["ui", "--port", "-5"], "0-65535"), (["serve", "--max-sessions", "0"], "at least 1"),
                       (["serve", "--max-level", "-1"], ">= 0"), (["serve-reward", "--max-level", "-2"], ">= 0"),
                       (["ui", "--max-level", "-3"], ">= 0"), (["serve-reward", "--job-seconds", "0"], "> 0"),
                       (["serve", "--step-timeout", "nan"], "> 0"), (["serve-reward", "--max-concurrent", "0"], "at least 1")):
        with pytest.raises(SystemExit) as refused:
            main(argv)
        assert refused.value.code == 2, argv
        assert said in capsys.readouterr().err, argv


def test_seeds_and_counts_are_checked_where_they_are_read(capsys: pytest.CaptureFixture[str]) -> None:
    # a negative seed made a problem that env.reset refuses to replay (show, export); a count of 0 or less made nothing
    for argv in (["show", "graphs/bridges", "--seed", "-1"], ["play", "graphs/bridges", "--seed", "-3"],
                 ["export", "verl", "--envs", "graphs/bridges", "--first-seed", "-4", "--out", "x.jsonl"],
                 ["export", "verl", "--envs", "graphs/bridges", "--seeds", "0", "--out", "x.jsonl"],
                 ["eval", "--envs", "graphs/bridges", "--seeds", "-2"], ["eval", "--model", "oracle", "--samples", "0"]):
        with pytest.raises(SystemExit) as refused:
            main(argv)
        assert refused.value.code == 2, argv  # argparse's usage error, before anything runs
        err = capsys.readouterr().err
        assert ">= 0" in err or "at least 1" in err, (argv, err)


def test_ci_runs_the_readme_test_command() -> None:
    command = [ln for ln in (ROOT / ".ci/run").read_text().splitlines() if ln.strip() and not ln.startswith(("#", "set ", "cd "))][-1]
    assert command in (ROOT / "README.md").read_text()


def test_list_of_an_unknown_family_says_which_families_exist(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--family", "no_such_family"]) == 1
    err = capsys.readouterr().err
    assert "no environment matches" in err and "graphs" in err and "games" in err


def test_check_names_an_unknown_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "games/guess_number", "--only", "no_such_check"]) == 2
    err = capsys.readouterr().err
    assert "unknown check(s) no_such_check" in err and "reference_accepted" in err


def test_every_command_spells_envs_and_levels_the_same_way() -> None:
    from palaestra.cli import build_parser

    parser = build_parser()
    for argv, env_dest, level_dest in ((["eval"], "envs", "levels"), (["train"], "env", "level"),
                                       (["export", "hf", "--out", "x.jsonl"], "envs", "levels")):
        for env_flag in ("--envs", "--env"):
            for level_flag in ("--levels", "--level"):
                args = parser.parse_args([*argv, env_flag, "strings/copy", level_flag, "1"])
                assert getattr(args, env_dest) == ["strings/copy"] and getattr(args, level_dest) == [1]


def test_every_argument_has_help() -> None:
    from palaestra.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    missing = [f"{name} {action.dest}" for name, sub in commands.items() for action in sub._actions
               if action.dest != "help" and not action.help]
    assert missing == []


def test_golden_and_index_work_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # outside the checkout: the snapshots are still found in the checkout
    assert main(["golden", "graphs/bridges"]) == 0
    assert "ok   graphs/bridges" in capsys.readouterr().out
    assert main(["golden", "--update", "graphs/bridges", "--dir", str(tmp_path / "snap")]) == 0
    assert (tmp_path / "snap" / "graphs" / "bridges.json").is_file()
    assert list(tmp_path.iterdir()) == [tmp_path / "snap"]  # nothing written to the current folder otherwise


def test_golden_update_does_not_rewrite_a_version_whose_problems_changed(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Round 3's twenty-fifth session changed service/retail_returns' problems and rewrote its snapshot at the same
    version; --update now refuses that (the change needs a version bump), unless --same-version says it is unreleased."""
    import json

    snap = str(tmp_path / "snap")
    assert main(["golden", "--update", "graphs/bridges", "--dir", snap]) == 0
    path = tmp_path / "snap" / "graphs" / "bridges.json"
    pinned = json.loads(path.read_text())
    level = next(iter(pinned["hashes"]))
    seed = next(iter(pinned["hashes"][level]))
    pinned["hashes"][level][seed] = "0" * 32  # as if the generator now produced another problem there
    path.write_text(json.dumps(pinned))
    capsys.readouterr()
    assert main(["golden", "--update", "graphs/bridges", "--dir", snap]) == 1
    assert "bump `version` first" in capsys.readouterr().out
    assert json.loads(path.read_text())["hashes"][level][seed] == "0" * 32  # not rewritten
    assert main(["golden", "--update", "--same-version", "graphs/bridges", "--dir", snap]) == 0
    assert main(["golden", "graphs/bridges", "--dir", snap]) == 0
