"""The C extensions compile without a warning under -Wall (as -Werror), with the flags setup.py builds them with."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _extensions():
    import importlib.util

    spec = importlib.util.spec_from_file_location("graphsr_setup", ROOT / "setup.py")
    source = (ROOT / "setup.py").read_text().replace("setup(ext_modules=extensions())", "")
    namespace: dict = {"__file__": str(ROOT / "setup.py")}
    exec(compile(source, str(ROOT / "setup.py"), "exec"), namespace)  # the declarations, not the build
    assert spec is not None
    return namespace["extensions"](), namespace["FLAGS"]


@pytest.mark.parametrize("index", range(6))
def test_an_extension_compiles_without_warnings(tmp_path, index):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    extensions, flags = _extensions()
    assert "-Wall" in flags and len(extensions) == 6
    ext = extensions[index]
    includes = [f"-I{d}" for d in [*ext.include_dirs, sysconfig.get_paths()["include"]]]
    for source in ext.sources:
        done = subprocess.run(
            [cc, *flags, "-Werror", "-fPIC", *includes, "-c", str(ROOT / source), "-o", str(tmp_path / "out.o")],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
