"""Failures the hostile trial met as tracebacks are one line each (exit 2 for what the user gave, 3 for the
system or the store), run as a user runs them: real processes, a real full device, a real store."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphsr.data import sample

S, M, INEX = sample("shakespeare"), sample("mobydick"), sample("inex2010")


def cli(*argv, cwd=None, stdout=subprocess.PIPE, env=None):
    return subprocess.run(
        [sys.executable, "-m", "graphsr", *map(str, argv)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        timeout=300,
        env=env,
    )


def one_line(proc, code):
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_output_onto_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        proc = cli("eval", INEX["qrels"], INEX["runs"][1], "-q", stdout=full)
    assert one_line(proc, 3) == "graphsr: error: No space left on device (writing the output)"


def test_a_closed_pipe_stays_quiet():
    proc = subprocess.run(
        f"{sys.executable} -m graphsr eval {INEX['qrels']} {INEX['runs'][1]} -q | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("runid") and proc.stderr == ""


def test_a_bolt_url_with_credentials_is_read_not_a_traceback():
    from graphsr.store.bolt import split_userinfo

    assert split_userinfo("bolt://u:p%3Aw@localhost:7687") == ("bolt://localhost:7687", "u", "p:w")
    err = one_line(cli("store", "show", "--store", "bolt://user:secret@127.0.0.1:1"), 3)
    assert err.startswith("graphsr: store error: cannot reach bolt://127.0.0.1:1") and "secret" not in err


def test_a_nul_byte_in_a_dotenv_value_is_a_warning(tmp_path):
    (tmp_path / ".env").write_bytes(b"GRAPHSR_STORE=local:/tmp/a\x00b\n")
    env = {k: v for k, v in os.environ.items() if k != "GRAPHSR_STORE"}
    env["GRAPHSR_STORE"] = f"local:{tmp_path / 'none'}"  # the environment wins; the .env line is still read
    proc = cli("eval", M["qrels"], M["runs"][0], "-m", "P@5", cwd=tmp_path, env=env)
    assert proc.returncode == 0 or "Traceback" not in proc.stderr
    assert "Traceback" not in proc.stderr
    (tmp_path / ".env").write_bytes(b"GRAPHSR_NEO4J_USER=a\x00b\n")
    proc = cli("store", "show", "--store", f"local:{tmp_path / 'nostore'}", cwd=tmp_path)
    assert ".env:1: expected a value without a NUL byte" in proc.stderr and "Traceback" not in proc.stderr


def test_demo_refuses_an_output_that_is_a_file_before_it_works(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("x")
    proc = cli("demo", "--out", taken, "--store", f"local:{tmp_path / 's'}")
    assert one_line(proc, 2) == f"graphsr: error: {taken}: expected a directory for the demo's report, got a file"
    assert proc.stdout == "" and not (tmp_path / "s").exists()


@pytest.mark.slow
def test_an_export_onto_a_full_disk_is_one_line_and_keeps_nothing(tmp_path):
    from .conftest import small_tmpfs

    url = f"local:{tmp_path / 'store'}"
    with small_tmpfs(tmp_path / "small", "256k") as mnt:
        try:
            assert (
                cli(
                    "store",
                    "load",
                    S["collection"],
                    "--store",
                    url,
                    "--name",
                    "plays",
                    "--elements",
                    "all",
                    "--no-progress",
                ).returncode
                == 0
            )
            err = one_line(
                cli("store", "export", mnt / "out", "--store", url, "--collection", "plays", "--no-progress"), 3
            )
            assert f"cannot write the export to {mnt / 'out'} (No space left on device); nothing was kept" in err
            assert list(mnt.iterdir()) == []
        finally:
            cli("store", "stop", "--store", url)
