"""The package's layers: ``core`` (the model) imports no adapter or integration, adapters import ``core`` only,
integrations import both, and no chain of imports, at module level or inside a function, comes back to where it
started. The graph is read from the source, so a new import that breaks a rule fails here."""

from __future__ import annotations

import ast
import pathlib

import llenvs_go

PACKAGE = pathlib.Path(llenvs_go.__file__).resolve().parent
# What each layer may import from the package besides itself (the leading-underscore modules are its runtime).
ALLOWED = {
    # math_verify (the verifier's drop-in, on _native and core.columns only) serves core.math_verify, llenvs' reward.
    "core": {"core", "_native", "_deadline", "_version", "math_verify"},
    # code (the sandbox's face, on _native and core.columns only) gives the huggingface adapter its Sandbox.
    "adapters": {"adapters", "core", "_native", "_deadline", "_version", "code"},
}


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("llenvs_go", *path.relative_to(PACKAGE).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(name: str, path: pathlib.Path, modules: dict[str, pathlib.Path]) -> set[str]:
    """The package modules ``name`` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_graph_is_read():
    graph = _graph()
    assert "llenvs_go.core.scoring" in graph["llenvs_go.integrations.scoring"]
    assert "llenvs_go.core.native" in graph["llenvs_go.adapters.reasoning_gym_environment"]


def test_lower_layers_do_not_import_higher_ones():
    bad = [(m, t) for m, targets in _graph().items() for t in targets
           if _layer(m) in ALLOWED and _layer(t) not in ALLOWED[_layer(m)]]
    assert bad == [], f"imports across layers (module, imported): {bad}"


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    cycles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(path[path.index(t):] + [t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == [], f"import cycles: {cycles}"
