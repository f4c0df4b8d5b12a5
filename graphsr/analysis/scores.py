"""Score tables: per-topic values of many runs and measures, kept as a file so analyses need no re-scoring.

A score table is a long-form pandas DataFrame with the columns ``run``,
``measure``, ``topic`` and ``value``; the ``all`` rows hold each run's
aggregate as the evaluation computed it (a mean, a sum of counts, the
official tool's value).  ``graphsr eval ... --save scores.parquet`` writes
one; :meth:`ScoreTable.read` reads CSV or Parquet back.

>>> import pandas as pd
>>> t = ScoreTable(pd.DataFrame({"run": ["a", "a", "b", "b"], "measure": ["P@5"] * 4,
...                              "topic": ["1", "2", "1", "2"], "value": [0.2, 0.4, 0.6, 0.0]}))
>>> t.per_topic("P@5").round(2).to_dict()
{'a': {'1': 0.2, '2': 0.4}, 'b': {'1': 0.6, '2': 0.0}}
>>> t.means("P@5").round(2).to_dict()
{'a': 0.3, 'b': 0.3}
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import GraphsrInputError

__all__ = ["ScoreTable", "COLUMNS", "cutoff_families", "curve_families", "sidecar", "check_same_qrels"]

_CUTOFF = re.compile(r"^(?P<base>.+)@(?P<k>\d+)$")
_LEVEL = re.compile(r"^(?P<name>iP|ircl_prn)\[(?P<x>[0-9.]+)\](?P<rest>.*)$")

COLUMNS = ("run", "measure", "topic", "value")
_FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


def _format(path: str | os.PathLike) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in _FORMATS:
        raise GraphsrInputError(f"{path}: a score table is a .csv or .parquet file, got {suffix or 'no suffix'!r}")
    return _FORMATS[suffix]


#: The largest magnitude a score may have: far past any measure's values (counts included), and small enough
#: that sums of squares over any number of topics stay finite.
MAX_SCORE = 1e15


class ScoreTable:
    """Per-topic scores of runs under measures (long form; see the module docstring)."""

    def __init__(self, frame, provenance: list[dict] | None = None):
        import pandas as pd

        missing = [c for c in COLUMNS if c not in frame.columns]
        if missing:
            raise GraphsrInputError(
                f"a score table needs the columns {', '.join(COLUMNS)}; missing {', '.join(missing)}"
            )
        import numpy as np

        frame = frame[list(COLUMNS)].copy()
        for c in ("run", "measure", "topic"):
            codes, names = pd.factorize(frame[c], use_na_sentinel=True)  # (a missing name: code -1)
            blank = [k for k, v in enumerate(names.tolist()) if v is None or v != v or not str(v).strip()]
            bad = (codes == -1) | np.isin(codes, blank)
            if bad.any():
                raise GraphsrInputError(
                    f"a score table's {c} column holds {int(bad.sum())} missing name(s) (NaN, "
                    f"None or empty), e.g. in row {int(bad.argmax()) + 1}; every row names its "
                    "run, measure and topic"
                )
            frame[c] = frame[c].astype(str)
        frame["value"] = pd.to_numeric(frame["value"], errors="raise")
        values = frame["value"].to_numpy(dtype=float)
        wild = ~np.isfinite(values) | (np.abs(values) > MAX_SCORE)
        if wild.any():
            k = int(wild.argmax())
            row = frame.iloc[k]
            raise GraphsrInputError(
                f"a score table holds {int(wild.sum())} value(s) that are not finite numbers "
                f"within +-{MAX_SCORE:g} (e.g. {values[k]!r} for run {row['run']!r}, measure "
                f"{row['measure']!r}, topic {row['topic']!r}): no measure scores so, and means "
                "and tests over them mean nothing"
            )
        twice = frame.duplicated(["run", "measure", "topic"], keep=False)
        if twice.any():
            first = frame[twice].iloc[0]
            raise GraphsrInputError(
                f"a score table holds {int(twice.sum())} rows that repeat a (run, measure, topic): "
                f"e.g. {first['run']!r}, {first['measure']!r}, topic {first['topic']!r}; expected "
                "one value each (a mean would count the repeats)"
            )
        self.frame = frame.reset_index(drop=True)
        #: What the scores rest on: one record per evaluation the table holds (:mod:`graphsr.evaluation.provenance`:
        #: graphsr's version, the inputs' digests and judges, the options); empty when not known (a table made
        #: by hand, or by a graphsr before records).
        self.provenance: list[dict] = list(provenance or [])

    # -- building, reading, writing ---------------------------------------
    @classmethod
    def from_results(cls, results, include_all: bool = True, provenance: dict | None = None) -> "ScoreTable":
        """The scores of a :class:`~graphsr.evaluation.results.Results` (``all`` rows included), with the
        evaluation's provenance record."""
        return cls(results.to_frame(include_all=include_all), [provenance] if provenance else None)

    @classmethod
    def concat(cls, tables: list["ScoreTable"]) -> "ScoreTable":
        import pandas as pd

        return cls(pd.concat([t.frame for t in tables], ignore_index=True), [r for t in tables for r in t.provenance])

    @classmethod
    def read(cls, path: str | os.PathLike) -> "ScoreTable":
        """A score table from a CSV or Parquet file (by its suffix)."""
        import pandas as pd

        fmt = _format(path)
        if fmt != "csv":
            from .._extras import need

            need("pyarrow", f"reading the Parquet score table {path}")
        try:
            if fmt == "csv":
                frame = pd.read_csv(path, dtype={"run": str, "measure": str, "topic": str}, keep_default_na=False)
                provenance = _read_sidecar(path)
            else:
                import pyarrow.parquet as pq

                table = pq.read_table(path)
                frame = table.to_pandas()
                provenance = _records((table.schema.metadata or {}).get(PROVENANCE_KEY), path)
        except FileNotFoundError:
            raise GraphsrInputError(f"{path}: no such file") from None
        except (ValueError, OSError) as exc:
            raise GraphsrInputError(f"{path}: not a readable {fmt} score table ({exc})") from None
        try:
            return cls(frame, provenance)
        except (GraphsrInputError, ValueError) as exc:
            raise GraphsrInputError(f"{path}: {exc}") from None

    def write(self, path: str | os.PathLike) -> None:
        """Write as CSV or Parquet (by the suffix), atomically: a failed write leaves no partial file."""
        from ..io.atomic import atomic_path

        fmt = _format(path)
        if fmt != "csv":
            from .._extras import need

            need("pyarrow", f"writing the Parquet score table {path} (or write a .csv)")
        import json

        records = json.dumps(self.provenance, sort_keys=True).encode() if self.provenance else None
        side = sidecar(path)
        if Path(path).exists() and not Path(path).is_file():  # (a device or a pipe: no file beside it)
            records = None
        elif (
            fmt == "csv" and records is None and side.exists()
        ):  # (an older table's record would be taken as this one's)
            side.unlink()
        with atomic_path(path, "the score table") as tmp:
            if fmt == "csv":
                self.frame.to_csv(tmp, index=False)
                if records is not None:
                    with atomic_path(side, "the score table's provenance") as tmp_side:
                        tmp_side.write_bytes(records + b"\n")
            else:
                import pyarrow as pa
                import pyarrow.parquet as pq

                table = pa.Table.from_pandas(self.frame, preserve_index=False)
                if records is not None:
                    table = table.replace_schema_metadata({**(table.schema.metadata or {}), PROVENANCE_KEY: records})
                pq.write_table(table, tmp)

    # -- views ---------------------------------------------------------------
    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(self.frame["run"]))

    @property
    def measures(self) -> list[str]:
        return list(dict.fromkeys(self.frame["measure"]))

    def _measure(self, measure: str):
        rows = self.frame[self.frame["measure"] == measure]
        if rows.empty:
            raise GraphsrInputError(f"the score table has no measure {measure!r}; it has: {', '.join(self.measures)}")
        return rows

    def per_topic(self, measure: str, runs: list[str] | None = None):
        """A topics x runs DataFrame of ``measure``'s per-topic values (``all`` rows left out)."""
        rows = self._measure(measure)
        rows = rows[rows["topic"] != "all"]
        table = rows.pivot_table(index="topic", columns="run", values="value", aggfunc="first")
        order = [r for r in (runs or self.runs) if r in table.columns]
        missing = [r for r in (runs or []) if r not in table.columns]
        if missing:
            raise GraphsrInputError(f"the score table has no {measure} values for run(s) {', '.join(missing)}")
        from ..core.topics import topic_sort_key

        table = table[order]
        table.columns.name = None
        return table.loc[sorted(table.index, key=topic_sort_key)]

    def paired(self, measure: str, runs: list[str] | None = None):
        """:meth:`per_topic` restricted to the topics every run has (what paired tests compare)."""
        return self.per_topic(measure, runs).dropna()

    def means(self, measure: str | None = None):
        """Each run's aggregate: the ``all`` rows where the table has them, else the mean over topics.

        With ``measure``, a Series by run; without, a runs x measures DataFrame.
        """
        import pandas as pd

        if measure is None:
            return pd.DataFrame({m: self.means(m) for m in self.measures})
        rows = self._measure(measure)
        alls = rows[rows["topic"] == "all"].set_index("run")["value"]
        topics = rows[rows["topic"] != "all"].groupby("run", sort=False)["value"].mean()
        out = pd.Series(
            {
                r: (alls[r] if r in alls.index else topics.get(r, float("nan")))
                for r in self.runs
                if r in set(rows["run"])
            },
            name=measure,
            dtype=float,
        )
        return out


#: Where a Parquet score table keeps its provenance records (a key of the file's schema metadata).
PROVENANCE_KEY = b"graphsr.provenance"


def sidecar(path: str | os.PathLike) -> Path:
    """Where a CSV score table's provenance records are kept: beside it, ``NAME.csv.provenance.json``."""
    return Path(f"{path}.provenance.json")


def _records(data: bytes | None, path) -> list[dict]:
    import json

    if not data:
        return []
    try:
        records = json.loads(data)
    except ValueError as exc:
        raise GraphsrInputError(f"{path}: its provenance record is not JSON ({exc})") from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise GraphsrInputError(f"{path}: its provenance is not a list of records")
    return records


def _read_sidecar(path) -> list[dict]:
    side = sidecar(path)
    return _records(side.read_bytes(), side) if side.is_file() else []


def cutoff_families(scores) -> dict[str, list[tuple[int, str]]]:
    """Measures present at several cut-offs: ``{base: [(k, measure), ...]}``."""
    out: dict[str, list[tuple[int, str]]] = {}
    for m in scores.measures:
        hit = _CUTOFF.match(m)
        if hit:
            out.setdefault(hit.group("base"), []).append((int(hit.group("k")), m))
    return {b: sorted(v) for b, v in out.items() if len(v) >= 2}


def curve_families(scores) -> dict[str, list[tuple[float, str]]]:
    """Precision curves present (``iP[x]`` or ``ircl_prn[x]`` at 3 or more levels), by name and task."""
    out: dict[str, list[tuple[float, str]]] = {}
    for m in scores.measures:
        hit = _LEVEL.match(m)
        if hit:
            out.setdefault(hit.group("name") + hit.group("rest"), []).append((float(hit.group("x")), m))
    return {k: sorted(v) for k, v in out.items() if len(v) >= 3}


def check_same_qrels(tables: list[tuple[str, "ScoreTable"]], mixed: bool = False) -> list[str]:
    """Refuse score tables scored against different people's judgments (their records' qrels digests differ),
    unless ``mixed``; give the warnings to print: tables whose records are unknown could not be checked."""
    from ..evaluation.provenance import qrels_digests

    if len(tables) < 2:
        return []
    seen: dict[tuple[str, ...], str] = {}
    unknown = []
    for name, table in tables:
        if not table.provenance:
            unknown.append(name)
            continue
        for record in table.provenance:
            seen.setdefault(qrels_digests(record), name)
    if len(seen) > 1 and not mixed:
        (a, first), (b, second) = list(seen.items())[:2]
        raise GraphsrInputError(
            f"{first} and {second} were scored against different judgments (qrels {','.join(d[:12] for d in a)} and "
            f"{','.join(d[:12] for d in b)}): their scores do not compare; give --mixed-qrels to compare them anyway"
        )
    if unknown:
        return [f"{', '.join(unknown)}: no provenance record: whether its judgments are the others' was not checked"]
    return []
