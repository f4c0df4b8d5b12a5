"""Reader of TREC-like element runs (INEX 2009+).

Format (SPEC section 6), whitespace separated::

    topic Q0 file rank score run_id xpath

Lines sharing ``(topic, rank)`` form one tree result.
"""

from __future__ import annotations

import os

from ..errors import RunFormatError
from ..model.document import quoted
from ..model.run import Run, RunRow

__all__ = ["read_run", "write_run"]


def read_run(path: str | os.PathLike, name: str | None = None) -> Run:
    """Read an element run file.

    Parameters
    ----------
    path : path-like
        The run file.
    name : str, optional
        How to report the run; default: the path as given.

    Returns
    -------
    Run

    Raises
    ------
    RunFormatError
        For a line without 7 fields, a non-integer rank, a non-numeric score,
        a malformed XPath, or lines of one (topic, rank) naming two documents.
    DuplicateResultError
        For a node repeated within a result or a result repeated at two ranks.

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".run", delete=False)
    >>> _ = f.write("1 Q0 moby 1 2.0 sys /book[1]/fm[1]\\n1 Q0 moby 1 2.0 sys /book[1]\\n")
    >>> f.close()
    >>> run = read_run(f.name)
    >>> [(r.rank, r.xpaths) for r in run.results["1"]]
    [(1, ('/book[1]/fm[1]', '/book[1]'))]
    >>> os.unlink(f.name)
    """
    from ._lines import iter_fields

    rows: list[RunRow] = []
    run_ids: dict[str, None] = {}
    for lineno, f in iter_fields(path, RunFormatError):
        if len(f) != 7:
            hint = ""
            if len(f) == 8:
                hint = " (8 fields look like a passage run with offset and length; this reader takes XPaths)"
            raise RunFormatError(
                f"expected 7 fields 'topic Q0 file rank score run_id xpath', got {len(f)}{hint}", path, lineno)
        topic, _q0, docid, rank_s, score_s, run_id, xpath = f
        try:
            rank = int(rank_s)
        except ValueError:
            raise RunFormatError(f"expected an integer rank in field 4, got {quoted(rank_s)}", path, lineno) from None
        try:
            score = float(score_s)
        except ValueError:
            raise RunFormatError(f"expected a numeric score in field 5, got {quoted(score_s)}", path, lineno) from None
        run_ids[run_id] = None
        rows.append(RunRow(topic, docid, rank, score, xpath, lineno))
    if not rows:
        raise RunFormatError("the run is empty: expected at least one line "
                             "'topic Q0 file rank score run_id xpath'", path)
    return Run.from_rows(rows, str(path) if name is None else name, str(path), tuple(run_ids))


def write_run(run: Run, path: str | os.PathLike, run_id: str | None = None) -> None:
    """Write an element run as ``topic Q0 file rank score run_id xpath`` lines (a tree result: one line per
    node, sharing its rank), topics in the run's order; atomically (no partial file on failure)."""
    from pathlib import Path

    run_id = run_id or (run.run_ids[0] if run.run_ids else Path(run.name).stem)
    if not run_id or any(c.isspace() for c in run_id):
        raise RunFormatError(f"a run id is one word, got {run_id!r}", path)
    path = Path(path)
    tmp = path.with_name(f".{path.name}.partial")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            for topic, results in run.results.items():
                for r in results:
                    for xp in r.xpaths:
                        out.write(f"{topic} Q0 {r.docid} {r.rank} {r.score:.6g} {run_id} {xp}\n")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise RunFormatError(f"cannot write the run ({exc.strerror or exc})", path) from None
