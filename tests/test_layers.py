"""The architecture's arrows (DESIGN.md), enforced: each layer imports only the layers below it,
and an env never imports another env (only non-registered helper modules of its family)."""

from __future__ import annotations

import ast
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


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return [name for name in found if name.startswith("palaestra.")]


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
SIBLING_FAMILIES = {("algorithms", "graphs"), ("games", "interactive"), ("interactive", "games")}


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


def _top_level_imports(path: Path) -> list[str]:
    """Imports executed when the module loads (not those deferred inside functions)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return [name for name in found if name.startswith("palaestra.")]


def test_no_import_cycles_between_modules() -> None:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: [t for t in _top_level_imports(p) if t in modules and t != m] for m, p in modules.items()}
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
