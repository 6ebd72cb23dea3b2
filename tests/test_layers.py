"""The architecture's arrows (DESIGN.md), enforced: each layer imports only the layers below it,
and an env never imports another env (only non-registered helper modules of its family)."""

from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "palaestra"

BELOW_ENVS = {"core", "verifiers", "solvers", "generators", "sandbox", "tools"}
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "sandbox": {"core"},
    "solvers": {"core"},
    "generators": {"core", "solvers"},
    "verifiers": {"core", "sandbox", "solvers"},
    "tools": {"core", "sandbox", "verifiers", "solvers", "generators"},
    "envs": BELOW_ENVS,
    "wrappers": BELOW_ENVS,
    "factory": {*BELOW_ENVS, "wrappers"},
    "vector": {*BELOW_ENVS, "wrappers", "factory"},
    "catalog": {"core"},
    "kit": {"core", "factory"},
    "baselines": {*BELOW_ENVS, "wrappers", "factory", "vector", "kit"},
    "integrations": {*BELOW_ENVS, "wrappers", "factory", "vector", "baselines", "catalog"},
    "ui": {*BELOW_ENVS, "wrappers", "factory", "vector", "baselines"},
    "cli": {*BELOW_ENVS, "wrappers", "factory", "vector", "kit", "catalog", "baselines", "integrations", "ui"},
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _face() -> dict[str, str]:
    """The package face: ``palaestra.<name>`` -> the module that defines it (``_LAZY`` in ``palaestra/__init__.py``)."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("palaestra/__init__.py has no _LAZY table")


FACE = _face()


def _through_the_face(name: str) -> str:
    """``palaestra.make`` (a name of the package face) -> ``palaestra.factory``; other names unchanged."""
    parts = name.split(".")
    return FACE.get(parts[1], name) if len(parts) == 2 and parts[0] == "palaestra" else name


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str | None:
    """The absolute module an ImportFrom names, relative ones (``from .api import x``) resolved."""
    if node.level == 0:
        return node.module
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@functools.cache  # four tests read every module's imports: parse each file once per process
def _imports(path: Path, module: str | None = None) -> list[str]:
    """The palaestra modules (and names) ``path`` (the module ``module``) imports, wherever the import statement
    stands (in a function, under ``if TYPE_CHECKING:``): relative imports resolved, names of the package face
    (``from palaestra import make``, ``palaestra.make(...)`` after ``import palaestra``) mapped to their module."""
    module = module or _module_name(path)
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif (target := _absolute(module, path, node)) is not None:
            found += [target] + [f"{target}.{alias.name}" for alias in node.names]
    if "palaestra" in found:  # `import palaestra`: the names it reaches through the face
        found += [f"palaestra.{node.attr}" for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                  and isinstance(node.value, ast.Name) and node.value.id == "palaestra"]
    return [_through_the_face(name) for name in found if name.startswith("palaestra.")]


@functools.cache
def _registers_an_env(module: str) -> bool:
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    return path.exists() and "@register" in path.read_text()


def test_layers_point_one_way() -> None:
    crossings = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        layer = _layer(module)
        if layer not in ALLOWED:
            continue
        for target in _imports(path):
            target_layer = _layer(target)
            if target_layer in ("", layer) or target_layer not in ALLOWED:
                continue
            if target_layer not in ALLOWED[layer]:
                crossings.append(f"{module} imports {target} ({layer} -> {target_layer})")
    assert crossings == []


def test_an_env_never_imports_another_env() -> None:
    offenders = []
    for path in sorted((PACKAGE / "envs").rglob("*.py")):
        module = _module_name(path)
        for target in _imports(path):
            if target.startswith("palaestra.envs.") and target != module and _registers_an_env(target):
                offenders.append(f"{module} imports the env module {target}")
    assert offenders == []


# Family helpers shared by sibling families of one issue; anything more widely useful belongs in verifiers/,
# solvers/ or generators/ (as puzzles' clue pruning and value reader moved to solvers/clues.py and
# verifiers/assignments.py). A new pair here needs a reason.
# terminal/ and service/ are tool tasks: their envs build on tools/common.ToolTask (the tool-call protocol, the
# tools' world state in the episode); ToolTask should move to a shared layer once a third family needs it.
SIBLING_FAMILIES = {("algorithms", "graphs"), ("terminal", "tools"), ("service", "tools"), ("web", "tools"),
                    ("web", "service"), ("repo", "tools")}


def test_a_family_reads_another_familys_helpers_only_as_a_declared_sibling() -> None:
    offenders = []
    for path in sorted((PACKAGE / "envs").rglob("*.py")):
        module = _module_name(path)
        family = module.split(".")[2] if module.count(".") >= 2 else ""
        for target in _imports(path):
            parts = target.split(".")
            if len(parts) >= 3 and parts[1] == "envs" and parts[2] not in (family, "index") and \
                    (family, parts[2]) not in SIBLING_FAMILIES and (PACKAGE / "envs" / parts[2]).is_dir():
                offenders.append(f"{module} imports {target}")
    assert offenders == []


def test_every_layer_is_known() -> None:
    layers = {_layer(_module_name(p)) for p in PACKAGE.rglob("*.py")} - {""}
    assert layers <= set(ALLOWED), f"new top-level modules need a place in ALLOWED: {layers - set(ALLOWED)}"


def test_no_import_cycles_between_modules() -> None:
    """No cycle, counting every import: those deferred into functions or under TYPE_CHECKING too (deferring an
    import hides a cycle from the interpreter, not from the design)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: sorted({t for t in _imports(p) if t in modules and t != m}) for m, p in modules.items()}
    # A package's __init__ importing its own submodules is how packages work, not a cycle.
    graph = {m: [t for t in targets if not t.startswith(m + ".")] for m, targets in graph.items()}
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for target in graph[node]:
            if state.get(target) == "open":
                cycles.append(" -> ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target, [*stack, target])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_imports_are_seen_through_the_face_relative_and_deferred(tmp_path: Path) -> None:
    """The holes the arrows once had: the package face, relative imports, deferred and TYPE_CHECKING imports."""
    source = tmp_path / "example.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from palaestra import make\n"
        "from .api import Limits\n"
        "from ..core import problem\n"
        "if TYPE_CHECKING:\n"
        "    from palaestra.kit import base\n"
        "def later():\n"
        "    import palaestra\n"
        "    return palaestra.make_vec\n"
    )
    found = set(_imports(source, module="palaestra.sandbox.example"))
    assert {"palaestra.factory", "palaestra.vector", "palaestra.sandbox.api", "palaestra.core.problem",
            "palaestra.kit.base"} <= found
    package_init = tmp_path / "__init__.py"
    package_init.write_text("from .api import Limits\n")
    assert "palaestra.sandbox.api" in _imports(package_init, module="palaestra.sandbox")


def test_helper_modules_cannot_be_mistaken_for_envs() -> None:
    """A module of a family folder is an env (``<family>/<module>`` in the index) or a helper named ``common`` or
    ``_<name>``: ``languages/grammar`` would read as an env id (and the registry would import it as one)."""
    index = json.loads((PACKAGE / "envs" / "index.json").read_text())
    env_modules = {entry["module"] for entry in index["envs"]}
    misleading = []
    for path in sorted((PACKAGE / "envs").glob("*/*.py")):
        module = _module_name(path)
        if path.stem in ("__init__", "common") or path.stem.startswith("_") or module in env_modules:
            continue
        misleading.append(module)
    assert misleading == []
