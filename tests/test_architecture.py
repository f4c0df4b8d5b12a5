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
    return subprocess.run(
        [str(LINT), "--config", str(config), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@needs_linter
def test_the_layer_contracts_hold():
    done = lint(ROOT, ROOT / ".importlinter")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout


@needs_linter
def test_an_upward_import_breaks_the_contract(tmp_path):
    probe = tmp_path / "graphsr_probe"
    shutil.copytree(ROOT / "graphsr", probe, ignore=shutil.ignore_patterns("__pycache__", "*.so", "data"))
    topics = probe / "core" / "topics.py"
    topics.write_text(topics.read_text() + "\n\ndef _upward():\n    from ..cli import main  # noqa: F401\n")
    config = tmp_path / ".importlinter"
    config.write_text((ROOT / ".importlinter").read_text().replace("graphsr", "graphsr_probe"))
    done = lint(tmp_path, config, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode != 0
    assert "graphsr_probe.core is not allowed to import graphsr_probe.cli" in done.stdout


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


TOY_FAMILY = '''"""A toy family: the share of the first k results holding a relevant node."""

import numpy as np

from ..base import Measure, register
from ..element_provider import ElementProvider
from ..provider import register_provider


class _Hit(Measure):
    NAME = "Hit"
    DESCRIPTION = "share of the first k results holding a relevant node"
    CUTOFF = "required"
    FAMILY = "toy"
    BOUNDS = (0.0, 1.0)


register(_Hit)


class ToyProvider(ElementProvider):
    NAME = "toy"
    TITLE = "a toy family"

    def compute(self, measures, ranked, doc_codes, prepared):
        rel = np.bincount(ranked.item_result, weights=ranked.rel > 0, minlength=len(ranked.result_topic)) > 0
        pos = ranked.result_positions()
        return {m: np.bincount(ranked.result_topic[pos < m.cutoff], weights=rel[pos < m.cutoff],
                               minlength=len(ranked.topics)) / m.cutoff for m in measures}


register_provider(ToyProvider())
'''


def test_a_new_family_is_one_package_and_one_line(tmp_path):
    """The claim of graphsr/measures/provider.py, end to end: a family package plus its name in
    FAMILY_PACKAGES, and `graphsr measures` lists it and `graphsr eval` scores with it."""
    from graphsr.data import sample

    copy = tmp_path / "graphsr"
    shutil.copytree(ROOT / "graphsr", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "measures" / "toy").mkdir()
    (copy / "measures" / "toy" / "__init__.py").write_text(TOY_FAMILY)
    base = copy / "measures" / "base.py"
    text = base.read_text()
    assert text.count("FAMILY_PACKAGES = (") == 1
    base.write_text(text.replace("FAMILY_PACKAGES = (", 'FAMILY_PACKAGES = ("toy", '))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    listed = subprocess.run(
        [sys.executable, "-m", "graphsr", "measures", "--family", "toy"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0 and "a toy family [toy]" in listed.stdout and "Hit@k" in listed.stdout
    s = sample("shakespeare")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "eval",
            str(s["qrels"]),
            str(s["runs"][0]),
            "--collection",
            str(s["collection"]),
            "-m",
            "Hit@1",
            "-m",
            "SRP@1",
            "-q",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (
        str(tmp_path)
        in subprocess.run(
            [sys.executable, "-c", "import graphsr; print(graphsr.__file__)"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        ).stdout
    )
    rows = [line.split("\t") for line in done.stdout.splitlines()]
    hit = {t: float(v) for m, t, v in rows if m == "Hit@1"}
    srp = {t: float(v) for m, t, v in rows if m == "SRP@1"}
    assert hit and hit.keys() == srp.keys()
    assert all(hit[t] == (srp[t] > 0) for t in hit if t != "all")  # one result: a hit exactly when it has relevance


def test_the_old_name_of_the_core_types_warns_and_gives_the_same_objects():
    """graphsr.model (read as navigation models) is now graphsr.core; the old imports still work, with a warning."""
    import subprocess
    import sys

    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "try:\n    import graphsr.model\nexcept DeprecationWarning as w:\n    print('warned:', w)\n"
        "warnings.simplefilter('ignore')\n"
        "import graphsr.model, graphsr.core\n"
        "from graphsr.model.run import Run\nfrom graphsr.core.run import Run as R2\n"
        "print(Run is R2, graphsr.model.ElementQrels is graphsr.core.ElementQrels)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "warned: graphsr.model is now graphsr.core (import from graphsr.core; graphsr.model goes in a later release)",
        "True True",
    ]
