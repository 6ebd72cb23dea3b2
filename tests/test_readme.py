"""The docs' code is part of the product: the authoring guide's env example must pass the contract kit."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

from palaestra import kit
from palaestra.core import registry

GUIDE = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text()


def test_authoring_guide_env_example_passes_the_kit() -> None:
    block = next(b for b in re.findall(r"```python\n(.*?)```", GUIDE, re.S) if "@register" in b)
    namespace: dict[str, object] = {}
    exec(compile(block, "docs/authoring.md", "exec"), namespace)  # our own documentation, not model text
    try:
        checks = [c for c in kit.CHECKS if c != "determinism_across_processes"]  # not importable elsewhere
        failed = [r for r in kit.run_checks("arithmetic/gcd", checks=checks) if not r.ok]
        assert failed == []
    finally:
        registry.remove("arithmetic/gcd")


README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
# Blocks that need what a test machine has not got: a GPU-sized model from a hub (4, 5: TRL), a running server (6),
# and the authoring sketch with `...` bodies (7). Their APIs are tested against the real packages elsewhere.
RUNNABLE_BLOCKS = 4


def _forks_of_this_process() -> set[int]:
    """Live children of this process that are copies of it (forked, never exec'd: the same command line)."""
    me = str(os.getpid())
    with open(f"/proc/{me}/cmdline", "rb") as f:
        mine = f.read()
    forks = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                parent = f.read().rsplit(b")", 1)[1].split()[1].decode()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if parent == me and f.read() == mine:
                    forks.add(int(pid))
        except OSError:
            continue  # it ended meanwhile
    return forks


def test_readme_python_snippets_run_as_written() -> None:
    """The README's first Python blocks run in order, as written, given a stand-in model and the names they leave
    to the reader (a model, completions, a game's replies)."""
    import palaestra

    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) >= RUNNABLE_BLOCKS
    game = palaestra.make("games/guess_number")
    game.reset(seed=0)
    namespace: dict[str, object] = {
        "my_model": lambda prompt: "<answer>0 4 2 9</answer>",  # any text: the snippets only need a reply
        "completions": ["<answer>1</answer>"] * 96, "text": "<answer>1</answer>",
        "game_problem": game.unwrapped.problem, "reply_1": "<answer>50</answer>", "reply_2": "<answer>25</answer>",
        "reply_3": "<answer>12</answer>",
    }
    forks_before = _forks_of_this_process()
    try:
        for number, block in enumerate(blocks[:RUNNABLE_BLOCKS]):
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)  # our own documentation
        # As written, the snippets end what they start: the async env's workers are gone once it is closed.
        left_running = _forks_of_this_process() - forks_before
    finally:
        # The async vector env's forked workers, should a block fail before its own close: they would hold every
        # descriptor of this test worker (a pipe to another process among them) until the worker ends.
        envs = namespace.get("envs")
        if envs is not None:
            envs.close()  # type: ignore[attr-defined]
    assert namespace["problem"].env_id == "graphs/shortest_path"  # type: ignore[attr-defined]
    assert not left_running, f"processes the README's snippets forked and left running: {sorted(left_running)}"


def test_readme_gymnasium_make_line_works() -> None:
    import gymnasium

    import palaestra.factory  # noqa: F401  (registers every env with Gymnasium)

    quoted = re.search(r'gymnasium\.make\("(palaestra\.factory:[^"]+)"\)', README)
    assert quoted is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium warns that the bare id took the newest version
        env = gymnasium.make(quoted.group(1))
    assert env.spec is not None and env.spec.id.startswith("graphs/shortest_path-v")
