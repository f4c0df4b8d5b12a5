"""The Neo4j backend through the real neo4j driver, against FalkorDB's Bolt endpoint.

There is no Neo4j server here; FalkorDB speaks Bolt, but its endpoint binds
every interface, so the smoke test runs in a private network namespace
(``unshare -n``, as root) where only its own loopback exists.  Without the
namespace the test is skipped, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _namespace_problem() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    if shutil.which("ip") is None:
        return "ip (iproute2) is not installed"
    proc = subprocess.run(["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"cannot create a private network namespace: {proc.stderr.strip() or proc.returncode}"
    return None


@pytest.mark.slow
def test_bolt_backend_smoke():
    problem = _namespace_problem()
    if problem:
        if os.environ.get("GRAPHSR_REQUIRE_BOLT") == "1":
            pytest.fail(f"the Bolt smoke test must run here: {problem}")
        pytest.skip(problem)
    script = Path(__file__).parent / "bolt" / "smoke.py"
    proc = subprocess.run(["unshare", "-n", sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SMOKE OK 17" in proc.stdout
