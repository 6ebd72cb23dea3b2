"""Lines of the code family's Python, now and at a base commit, for the envs that existed then.

Run::

    python bench/code_lines.py [--base 0f72827] [--verbose]

The measure is issue 22 item 6's ("the code family written once"): the ``.py`` lines of the code
envs registered at ``--base`` (by env id, from that commit's ``palaestra/envs/index.json``; an id
renamed since is followed through the current index's aliases), plus every module under
``palaestra/envs/code/`` those env modules import, directly or through another such module, plus
the packages on the way (``code/__init__.py``, ``templates/__init__.py``). A helper module shared
with envs added since counts once and fully. The same closure is taken at ``--base`` from
``git show`` of that commit's files, so the two numbers count the same envs.

The program templates (``templates/<module>.txt``, named by ``ProgramTexts("<module>")`` in a
counted module) are data and are printed apart: moving program text out of Python counts as
neither a gain nor a loss here. Every line counts (blank lines and comments too), as ``wc -l``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "palaestra.envs.code"
FAMILY_DIR = "palaestra/envs/code"


def _git_show(commit: str, path: str) -> str | None:
    done = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def _module_path(module: str) -> str:
    """``palaestra.envs.code.x`` -> ``palaestra/envs/code/x.py`` (a package gives its ``__init__.py``)."""
    return module.replace(".", "/") + ".py"


def _family_imports(source: str, read: Callable[[str], str | None]) -> set[str]:
    """The ``palaestra.envs.code`` modules a module's source imports (anywhere in it, deferred included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(PACKAGE))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            found.add(node.module)
            for alias in node.names:  # ``from palaestra.envs.code import _pipelines``: a submodule
                if read(_module_path(f"{node.module}.{alias.name}")) is not None:
                    found.add(f"{node.module}.{alias.name}")
    return found


def _packages_of(module: str) -> set[str]:
    """The packages importing ``module`` imports first, from ``palaestra.envs.code`` down."""
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(len(PACKAGE.split(".")), len(parts))}


def _template_names(source: str) -> set[str]:
    """The template files a module reads: the string argument of each ``ProgramTexts(...)`` call."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "ProgramTexts"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
    return names


def _package_path(module: str, read: Callable[[str], str | None]) -> str:
    plain = _module_path(module)
    return plain if read(plain) is not None else module.replace(".", "/") + "/__init__.py"


def measure(env_modules: list[str], read: Callable[[str], str | None]) -> tuple[dict[str, int], dict[str, int]]:
    """Lines per counted ``.py`` file and per template file, for the closure of ``env_modules``."""
    todo = list(env_modules)
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        source = read(_package_path(module, read))
        if source is None:
            raise SystemExit(f"{module}: no source found")
        todo.extend(_family_imports(source, read) | _packages_of(module))
    python: dict[str, int] = {}
    templates: dict[str, int] = {}
    for module in sorted(seen):
        path = _package_path(module, read)
        source = read(path) or ""
        python[path] = len(source.splitlines())
        for name in _template_names(source):
            tpath = f"{FAMILY_DIR}/templates/{name}.txt"
            templates[tpath] = len((read(tpath) or "").splitlines())
    return python, templates


def _read_here(path: str) -> str | None:
    file = ROOT / path
    return file.read_text(encoding="utf-8") if file.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="0f72827", help="the commit to compare with (default: issue 22's)")
    parser.add_argument("--verbose", action="store_true", help="lines per file, both sides")
    args = parser.parse_args(argv)

    base_index = json.loads(_git_show(args.base, "palaestra/envs/index.json") or "{}")
    base_envs = base_index["envs"] if isinstance(base_index, dict) and "envs" in base_index else base_index
    base_ids = {entry["id"]: entry["module"] for entry in base_envs if entry["family"] == "code"}
    index = json.loads((ROOT / "palaestra/envs/index.json").read_text(encoding="utf-8"))
    now_modules = {entry["id"]: entry["module"] for entry in index["envs"]}
    aliases = {old: target["id"] for old, target in index.get("aliases", {}).items()}
    now_env_modules = []
    for env_id in sorted(base_ids):
        current = aliases.get(env_id, env_id)
        if current not in now_modules:
            raise SystemExit(f"{env_id} (registered at {args.base}) is not registered now")
        now_env_modules.append(now_modules[current])

    def read_base(path: str) -> str | None:
        return _git_show(args.base, path)

    before_py, before_txt = measure(sorted(base_ids.values()), read_base)
    after_py, after_txt = measure(now_env_modules, _read_here)
    if args.verbose:
        for label, table in (
            (f"at {args.base}", before_py),
            ("now", after_py),
            ("templates now", after_txt),
        ):
            print(f"-- {label}")
            for path, lines in sorted(table.items()):
                print(f"{lines:7d}  {path}")
    before, after = sum(before_py.values()), sum(after_py.values())
    print(f"code envs registered at {args.base}: {len(base_ids)}")
    print(f"python lines at {args.base}: {before:6d} in {len(before_py)} files")
    print(f"python lines now:      {after:6d} in {len(after_py)} files")
    print(f"ratio now / base:      {after / before:.4f} ({(after - before) / before:+.1%})")
    print(f"template lines (data) at {args.base}: {sum(before_txt.values())}; now: {sum(after_txt.values())}"
          f" in {len(after_txt)} files")
    print(f"python + templates now: {after + sum(after_txt.values())} ({(after + sum(after_txt.values()) - before) / before:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
