"""New terminal envs (round 3b): general scripts pass, careless ones fail, replays score like episodes."""

from __future__ import annotations

import re

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.terminal import bulk_rename, ini_edit
from palaestra.envs.terminal.common import shell_plan

NEW_TERMINAL = ["terminal/ini_edit", "terminal/tree_diff", "terminal/bulk_rename",
                "terminal/manifest",
                "terminal/split_csv", "terminal/count_matches"]


@pytest.fixture(scope="module", autouse=True)
def _needs_bash() -> None:
    from palaestra.sandbox import probe

    if "bash" not in probe().languages:
        pytest.skip("the sandbox cannot run bash here")


def play(env_id: str, level: int, seed: int, replies: list[str]):
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state = source.initial_state(problem)
    verdict = None
    for reply in replies:
        outcome = source.advance(problem, state, source.format_answer(reply))
        state, verdict = outcome.state, outcome.verdict
        if outcome.done:
            break
    return verdict


@pytest.mark.parametrize("env_id", NEW_TERMINAL)
def test_a_replay_scores_like_the_episode(env_id: str) -> None:
    source = make_source(env_id)
    problem = source.sample(2, 5)
    assert palaestra.score(problem, [source.format_answer(r) for r in source.plan(problem)]).correct


def test_ini_edit_hand_checked_file() -> None:
    body = ("[database]\nport=5432\nport_old = 1\n; port = 2\n\n[database_replica]\nport = 5432\n"
            "[server]\nport  =  80\n")
    edits = [["database", "port", "6000"], ["server", "port", "81"]]
    assert ini_edit._apply(body, edits) == ("[database]\nport = 6000\nport_old = 1\n; port = 2\n\n"
                                            "[database_replica]\nport = 5432\n[server]\nport = 81\n")
    assert ini_edit._near_misses(body, edits) == 3  # port_old, the comment, the replica's port


def test_ini_edit_a_general_awk_script_passes_and_careless_seds_fail() -> None:
    source = make_source("terminal/ini_edit")
    problem = source.sample(4, 3)
    section, key, value = problem.data["edits"][0]
    others = problem.data["edits"][1:]
    rest = " ".join(f"-e '/^\\[{s}\\]$/,/^\\[/s|^{k} *=.*|{k} = {v}|'" for s, k, v in others)
    awk = (f"for f in $(find etc -type f -name '*.ini'); do awk -v s='{section}' -v k='{key}' -v v='{value}' "
           "'/^\\[/ { cur = substr($0, 2, length($0) - 2) } cur == s && $0 ~ \"^\" k \" *=\" { $0 = k \" = \" v } "
           "{ print }' \"$f\" > \"$f.tmp\" && mv \"$f.tmp\" \"$f\"; done"
           + (f" && find etc -type f -name '*.ini' -exec sed -i {rest} {{}} +" if others else ""))
    assert play("terminal/ini_edit", 4, 3, shell_plan([awk], "done")).correct
    everywhere = f"find etc -name '*.ini' -exec sed -i 's|^{key} *=.*|{key} = {value}|' {{}} +"  # any section
    assert not play("terminal/ini_edit", 4, 3, shell_plan([everywhere], "done")).correct
    prefix = ("find etc -name '*.ini' -exec sed -i "  # [section_replica] too, and key_old too
              + " ".join(f"-e '/^\\[{s}/,/^\\[/s|^{k}.*=.*|{k} = {v}|'" for s, k, v in problem.data["edits"])
              + " {} +")
    verdict = play("terminal/ini_edit", 4, 3, shell_plan([prefix], "done"))
    assert not verdict.correct and "different contents" in verdict.feedback
    all_files = source.plan(problem)[0].replace("-name '*.ini' ", "")  # .bak and .cfg files changed too
    assert not play("terminal/ini_edit", 4, 3, [all_files, "done"]).correct


def _answer_of(env_id: str, level: int, seed: int, command: str) -> tuple[object, str]:
    """Run ``command`` in the problem's tree and answer with its output."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state = source.initial_state(problem)
    outcome = source.advance(problem, state, source.format_answer(shell_plan([command], "")[0]))
    output = outcome.observation.split("<tool_response>\n", 1)[1].rsplit("[exit status", 1)[0]
    return problem, output.strip()


def test_tree_diff_a_general_diff_script_answers_and_a_careless_one_does_not() -> None:
    source = make_source("terminal/tree_diff")
    seed = next(s for s in range(40) if source.sample(4, s).data["question"] == "any")
    problem = source.sample(4, seed)
    general = ("diff -rq before after | grep -v '\\.tmp' | sed -E 's#^Only in (before|after)/?([^:]*): (.*)$#\\2/\\3#; "
               "s#^Files before/(.*) and after/.* differ$#\\1#; s#^/##'")
    _, output = _answer_of("terminal/tree_diff", 4, seed, general)
    assert source.judge(problem, output).correct, output
    careless = general.replace(" | grep -v '\\.tmp'", "")  # the .tmp files are to be ignored
    _, output = _answer_of("terminal/tree_diff", 4, seed, careless)
    assert not source.judge(problem, output).correct


def test_tree_diff_hand_checked_kinds() -> None:
    source = make_source("terminal/tree_diff")
    problem = source.sample(2, 0)
    data = problem.data
    before = {p[len("before/"):]: b for p, b in data["files"].items() if p.startswith("before/")}
    after = {p[len("after/"):]: b for p, b in data["files"].items() if p.startswith("after/")}
    kinds = {"added": set(after) - set(before), "deleted": set(before) - set(after),
             "edited": {p for p in set(before) & set(after) if before[p] != after[p]}}
    kinds["any"] = kinds["added"] | kinds["deleted"] | kinds["edited"]
    assert set(data["matching"]) == kinds[data["question"]]
    assert source.judge(problem, "\n".join(f"./{p}" for p in reversed(data["matching"]))).correct
    verdict = source.judge(problem, "\n".join(f"before/{p}" for p in data["matching"]))
    assert not verdict.correct and "missing" in verdict.feedback


def test_bulk_rename_hand_checked_names() -> None:
    assert bulk_rename.target_name("IMG_7.JPG") == "img_0007.jpg"
    assert bulk_rename.target_name("scan_00012.Jpeg") == "scan_0012.jpeg"
    assert bulk_rename.target_name("DSC_08.png") == "dsc_0008.png"
    assert bulk_rename.target_name("clip_123456.MOV") == "clip_123456.mov"
    for lookalike in ("IMG_7_edit.jpg", "IMG-7.jpg", "IMG_7", "IMG_7.tar.gz", "img2_7.png", "_7.jpg", "IMG_7a.jpg"):
        assert bulk_rename.target_name(lookalike) == lookalike


def test_bulk_rename_a_general_loop_passes_and_an_octal_printf_fails() -> None:
    general = ("find media -type f -print0 | while IFS= read -r -d '' f; do d=${f%/*}; b=${f##*/}; "
               "if [[ $b =~ ^([A-Za-z]+)_([0-9]+)\\.([A-Za-z]+)$ ]]; then p=${BASH_REMATCH[1],,}; "
               "n=$((10#${BASH_REMATCH[2]})); e=${BASH_REMATCH[3],,}; t=$(printf '%s_%04d.%s' \"$p\" \"$n\" \"$e\"); "
               "[ \"$b\" != \"$t\" ] && mv -- \"$f\" \"$d/$t\"; fi; done; true")
    source = make_source("terminal/bulk_rename")
    seed = next(s for s in range(40) if any(name.rsplit("/", 1)[1].split("_")[-1][:2] in ("08", "09")
                                            for name in source.sample(3, s).data["files"]))
    assert play("terminal/bulk_rename", 3, seed, shell_plan([general], "done")).correct
    octal = general.replace("$((10#${BASH_REMATCH[2]}))", "${BASH_REMATCH[2]}")  # printf reads 08 as octal
    verdict = play("terminal/bulk_rename", 3, seed, shell_plan([octal], "done"))
    assert not verdict.correct and "missing" in verdict.feedback
    loose = general.replace("^([A-Za-z]+)_", "^([A-Za-z0-9]*)_")  # img2_7.png and _7.jpg too
    seed = next(s for s in range(40) if any(re.fullmatch(r"[A-Za-z]+2_[0-9]{1,3}\.[A-Za-z]+", name.rsplit("/", 1)[1])
                                            for name in source.sample(4, s).data["files"]))
    assert not play("terminal/bulk_rename", 4, seed, shell_plan([loose], "done")).correct


def test_manifest_a_general_script_passes_and_careless_counts_or_filters_fail() -> None:
    source = make_source("terminal/manifest")
    seed = next(s for s in range(40) if any("/tmp/" in p for p in source.sample(3, s).data["files"]))
    general = ("cd data; find . -type f -print | sed 's#^\\./##' | grep -v -e '^\\.' -e '/\\.[^/]*$' "
               "-e '^tmp/' -e '/tmp/' | LC_ALL=C sort | while IFS= read -r f; do echo \"$(wc -l < \"$f\") $f\"; "
               "done > ../MANIFEST")
    assert play("terminal/manifest", 3, seed, shell_plan([general], "done")).correct
    grep_count = general.replace("wc -l <", "grep -c '' <")  # counts a last line without its newline
    assert grep_count != general
    assert not play("terminal/manifest", 3, seed, shell_plan([grep_count], "done")).correct
    keeps_tmp = general.replace(" -e '^tmp/' -e '/tmp/'", "")
    verdict = play("terminal/manifest", 3, seed, shell_plan([keeps_tmp], "done"))
    assert not verdict.correct and "MANIFEST" in verdict.feedback


def test_manifest_hand_checked_rules() -> None:
    from palaestra.envs.terminal import manifest

    assert manifest._counted("data/a/tmpl/x.txt") and manifest._counted("data/tmp.txt")
    assert not manifest._counted("data/a/tmp/x.txt") and not manifest._counted("data/a/.env")
    problem = make_source("terminal/manifest").sample(0, 1)
    for line in problem.data["manifest"].splitlines():
        count, path = line.split(" ", 1)
        assert problem.data["files"]["data/" + path].count("\n") == int(count)


def test_split_csv_careless_splits_fail() -> None:
    source = make_source("terminal/split_csv")
    problem = source.sample(2, 1)
    assert play("terminal/split_csv", 2, 1, source.plan(problem)).correct
    key = problem.data["key"]
    one_header = source.plan(problem)[0].replace("FNR == 1", "NR == 1")  # later parts' headers become records
    assert not play("terminal/split_csv", 2, 1, [one_header, "done"]).correct
    values = [p.split("/")[1][: -len(".csv")] for p in problem.data["expected"] if not p.endswith("/none.csv")]
    grep = "mkdir -p split; " + "; ".join(f"{{ head -1 exports/part-01.csv; cat exports/*.csv | grep ',{v},\\|,{v}$'; }}"
                                          f" > split/{v}.csv" for v in values)  # the word in any column
    verdict = play("terminal/split_csv", 2, 1, shell_plan([grep], "done"))
    assert not verdict.correct and key


def test_split_csv_accepts_crlf_output() -> None:
    source = make_source("terminal/split_csv")
    problem = source.sample(0, 3)
    crlf = source.plan(problem)[0].replace("print > f", "printf \\\"%s\\\\r\\\\n\\\", $0 > f")
    assert crlf != source.plan(problem)[0]
    assert play("terminal/split_csv", 0, 3, [crlf, "done"]).correct


def test_count_matches_a_general_search_answers_and_careless_ones_do_not() -> None:
    source = make_source("terminal/count_matches")
    seed = next(s for s in range(40) if source.sample(3, s).data["measure"] == "lines")
    problem = source.sample(3, seed)
    target, extension = problem.data["target"], problem.data["extension"]
    general = f"grep -rwh --include='*.{extension}' --exclude-dir=vendor --exclude-dir='.?*' {target} . | wc -l"
    _, output = _answer_of("terminal/count_matches", 3, seed, general)
    assert source.judge(problem, output).correct, (output, problem.answer)
    for careless in (general.replace(" --exclude-dir='.?*'", ""),  # counts .git/ and .cache/ too
                     general.replace("-rwh", "-rh"),  # substrings: total_x, xs
                     general.replace("-rwh", "-rwih")):  # other cases
        _, output = _answer_of("terminal/count_matches", 3, seed, careless)
        assert not source.judge(problem, output).correct, careless


def test_count_matches_hand_checked_uses() -> None:
    from palaestra.envs.terminal import count_matches

    assert count_matches._uses("key = key * 2", "key") == 2
    assert count_matches._uses("value.key = self.key", "key") == 2
    assert count_matches._uses("total_key = keys + KEY + mykey", "key") == 0
