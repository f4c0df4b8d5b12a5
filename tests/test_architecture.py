"""The layers of graphsr hold (import-linter, contracts in .importlinter), and a deliberately upward import
is caught; no module imports another package's private names."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LINT = Path(sys.executable).parent / "lint-imports"

needs_linter = pytest.mark.skipif(not LINT.exists(), reason="import-linter is a dev dependency (pip install -e .[dev])")


def lint(cwd: Path, config: Path, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--config", str(config), "--no-cache"], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=300)


@needs_linter
def test_the_layer_contracts_hold():
    done = lint(ROOT, ROOT / ".importlinter")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout


@needs_linter
def test_an_upward_import_breaks_the_contract(tmp_path):
    probe = tmp_path / "graphsr_probe"
    shutil.copytree(ROOT / "graphsr", probe, ignore=shutil.ignore_patterns("__pycache__", "*.so", "data"))
    topics = probe / "model" / "topics.py"
    topics.write_text(topics.read_text() + "\n\ndef _upward():\n    from ..cli import main  # noqa: F401\n")
    config = tmp_path / ".importlinter"
    config.write_text((ROOT / ".importlinter").read_text().replace("graphsr", "graphsr_probe"))
    done = lint(tmp_path, config, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode != 0
    assert "graphsr_probe.model is not allowed to import graphsr_probe.cli" in done.stdout


def test_no_module_imports_another_packages_private_names():
    offenders = []
    for path in (ROOT / "graphsr").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level > 1 else base
            source = ".".join(base + ([node.module] if node.module else []))
            source_package = source if source.count(".") <= 1 else ".".join(source.split(".")[:2])
            own_package = ".".join(package.split(".")[:2])
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and source_package != own_package:
                    offenders.append(f"{module}: from {source} import {alias.name}")
    assert offenders == []
