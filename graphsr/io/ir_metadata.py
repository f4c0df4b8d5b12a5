"""ir_metadata headers of runs (Breuer et al., SIGIR 2022): a run's PRIMAD description (platform, research goal,
implementation, method, actor, data) as YAML in comment lines at the top of the run file::

    # ir_metadata.start
    # tag: bm25-rm3
    # actor:
    #   team: irgroup
    # ir_metadata.end
    1 Q0 doc1 1 12.5 bm25-rm3
    ...

Run readers skip comment lines, so an annotated run scores as the same run without its header.  repro_eval's
own writer marks the block ``# METADATA - START`` ... ``# METADATA - END``; both markings are read.  The block
must open the file (blank lines before it aside) and close within :data:`MAX_HEADER_BYTES`; its YAML must be a
mapping.  :func:`read_ir_metadata` gives the header's text (as written, without the comment marks) and its
mapping; :func:`annotate` writes a run with a header, so that a header read, kept (in a score table's provenance)
and written again is read back the same.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from ..errors import GraphsrInputError

__all__ = ["IrMetadata", "read_ir_metadata", "header_lines", "annotate", "MAX_HEADER_BYTES"]

#: The most a header may hold (1 MiB): a block that does not close within it is refused, not read to the end.
MAX_HEADER_BYTES = 1 << 20
_MARKS = {"ir_metadata.start": "ir_metadata.end", "METADATA - START": "METADATA - END"}


class IrMetadata(NamedTuple):
    """A run's ir_metadata header: its YAML text (the comment marks taken off) and that YAML's mapping."""

    text: str
    fields: dict[str, Any]

    @property
    def tag(self) -> str | None:
        tag = self.fields.get("tag")
        return None if tag is None else str(tag)


def _uncommented(line: str) -> str | None:
    """A comment line's text without its ``#`` and the one space after it; None for a line that is no comment."""
    if not line.startswith("#"):
        return None
    body = line[1:]
    return body[1:] if body.startswith(" ") else body


def read_ir_metadata(path: str | os.PathLike) -> IrMetadata | None:
    """The ir_metadata header opening the run file ``path``, or None when it has none.  A header that does not
    close (within :data:`MAX_HEADER_BYTES`), or whose YAML is not a mapping, is refused in one line."""
    import yaml

    if not os.path.isfile(path):  # (a device or a pipe is no run file: nothing is read from it)
        return None
    seen = 0
    with open(path, "rb") as fh:
        first = b""
        while not first.strip():
            first = fh.readline(MAX_HEADER_BYTES + 1)
            seen += len(first)
            if not first or seen > MAX_HEADER_BYTES:
                return None
        mark = _uncommented(first.decode("utf-8", "replace").strip())
        if mark is None or mark.strip() not in _MARKS:
            return None
        end = _MARKS[mark.strip()]
        lines: list[str] = []
        while raw := fh.readline(MAX_HEADER_BYTES + 1):
            seen += len(raw)
            if seen > MAX_HEADER_BYTES:
                break
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise GraphsrInputError(f"{path}: the ir_metadata header is not UTF-8 text") from None
            body = _uncommented(text)
            if body is None:
                raise GraphsrInputError(
                    f"{path}:{len(lines) + 2}: the ir_metadata header ends without '# {end}' (a line that is no "
                    "comment)"
                )
            if body.strip() == end:
                break
            lines.append(body)
        else:
            raise GraphsrInputError(f"{path}: the ir_metadata header ends without '# {end}' (at the end of the file)")
        if seen > MAX_HEADER_BYTES:
            raise GraphsrInputError(
                f"{path}: the ir_metadata header does not end within {MAX_HEADER_BYTES:,} bytes ('# {end}')"
            )
    text = "\n".join(lines) + ("\n" if lines else "")
    try:
        fields = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f":{where.line + 2}" if where is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise GraphsrInputError(f"{path}{line}: the ir_metadata header is not YAML ({problem})") from None
    if not isinstance(fields, dict):
        raise GraphsrInputError(f"{path}: the ir_metadata header is YAML but not a mapping of fields")
    return IrMetadata(text, fields)


def header_lines(metadata: IrMetadata | str) -> str:
    """The header as comment lines, between ``# ir_metadata.start`` and ``# ir_metadata.end``."""
    text = metadata.text if isinstance(metadata, IrMetadata) else metadata
    body = "".join(
        (f"# {line}" if line else "#") + "\n" for line in text.split("\n")[: -1 if text.endswith("\n") else None]
    )
    return f"# ir_metadata.start\n{body}# ir_metadata.end\n"


def annotate(run: str | os.PathLike, metadata: IrMetadata | str, out: str | os.PathLike) -> None:
    """Write run ``run`` to ``out`` with ``metadata`` as its header (a header ``run`` had is replaced), atomically:
    every line of the run counted as written."""
    from .atomic import atomic_path

    old = read_ir_metadata(run)
    skipped = copied = 0
    with open(run, "rb") as src, atomic_path(out, "the annotated run") as tmp:
        with open(tmp, "wb") as dst:
            dst.write(header_lines(metadata).encode("utf-8"))
            if old is not None:  # (skip the old header: up to its closing line)
                for raw in src:
                    skipped += len(raw)
                    mark = _uncommented(raw.decode("utf-8", "replace").strip())
                    if mark is not None and mark.strip() in _MARKS.values():
                        break
            for raw in src:
                dst.write(raw)
                copied += len(raw)
        size = os.fstat(src.fileno()).st_size
        if skipped + copied != size:  # (before the file is put in place)
            raise GraphsrInputError(f"{run}: {skipped + copied:,} of its {size:,} bytes were read")
