"""Red-team regressions for the terminal family (round 3, session 29).

Each test plays an episode (or judges a final tree) that earned reward without doing what the prompt asks, or
pins a right answer that was refused, through the env's own judge.
"""

from __future__ import annotations

import gzip
import json

from palaestra.core.registry import make_source
from palaestra.envs.terminal._trees import gunzipped
from palaestra.envs.tools.common import tool_call


def _episode(env_id: str, problem, commands: list[str]) -> float:
    source = make_source(env_id)
    replies = [tool_call("shell", command=command) for command in commands] + [source.format_answer("done")]
    return source.replay(problem, replies).reward


def _oracle_command(env_id: str, problem) -> str:
    first = make_source(env_id).plan(problem)[0]
    return json.loads(first.split("<tool_call>")[1].split("</tool_call>")[0])["arguments"]["command"]


def test_log_rotate_uncompressed_file_named_gz_fails() -> None:
    # The judge gunzips every .gz file and kept a file that is not gzip data as its bytes: the plain text renamed
    # app-<date>.log.gz equalled the expected (decompressed) text, so skipping gzip earned 1.
    env_id = "terminal/log_rotate"
    problem = make_source(env_id).sample(2, 3)
    oracle = _oracle_command(env_id, problem)
    assert "xargs -r gzip" in oracle
    renamed = oracle.replace("xargs -r gzip", "xargs -r -I{} mv {} {}.gz")
    assert _episode(env_id, problem, [oracle]) == 1.0
    assert _episode(env_id, problem, [renamed]) == 0.0


def test_gzip_files_are_read_member_after_member_as_gunzip_does() -> None:
    # `gzip -c b >> x.gz` appends a member; gunzip prints both. Only the first was read, so a right file made in two
    # parts was refused, and a right first member followed by any bytes was accepted.
    one, two = gzip.compress(b"one\n"), gzip.compress(b"two\n")
    assert gunzipped(one + two) == b"one\ntwo\n"
    assert gunzipped(one + b"anything") is None
    assert gunzipped(one + two, limit=5) is None
    assert gunzipped(b"plain text\n") is None


def test_archive_build_needs_gzip_compression() -> None:
    # The archive was opened with tarfile's "r:*": a plain tar (or xz, bzip2) named release.tar.gz passed.
    env_id = "terminal/archive_build"
    problem = make_source(env_id).sample(2, 3)
    oracle = _oracle_command(env_id, problem)
    assert "tar -czf" in oracle
    assert _episode(env_id, problem, [oracle]) == 1.0
    assert _episode(env_id, problem, [oracle.replace("tar -czf", "tar -cf")]) == 0.0
    assert _episode(env_id, problem, [oracle.replace("tar -czf", "tar -cjf")]) == 0.0


def test_permissions_folders_keep_their_modes() -> None:
    # The prompt says folders keep their modes; only files were judged, so a folder set to 700 (files still
    # readable) passed with the files right.
    env_id = "terminal/permissions"
    problem = make_source(env_id).sample(0, 3)
    oracle = _oracle_command(env_id, problem)
    assert _episode(env_id, problem, [oracle]) == 1.0
    assert _episode(env_id, problem, [oracle + " && chmod 700 deploy/logs"]) == 0.0
    assert _episode(env_id, problem, [oracle + " && chmod 700 deploy"]) == 0.0
