"""Reader of element-level assessments.

Format (SPEC section 6), whitespace separated::

    topic Q0 file xpath rel

with ``rel`` a number in [0, 1].  Nodes that are not listed are not relevant.
"""

from __future__ import annotations

import os

from ..errors import QrelsFormatError
from ..model.document import quoted
from ..model.qrels import ElementQrels, QrelsRow

__all__ = ["read_element_qrels"]


def read_element_qrels(path: str | os.PathLike) -> ElementQrels:
    """Read element qrels.

    Raises
    ------
    QrelsFormatError
        For a line without 5 fields, a relevance that is not a number in
        [0, 1] (an INEX ``e,s`` pair needs a quantisation function, not
        supported here), a malformed XPath or a node assessed twice.
    """
    from ._lines import iter_fields

    rows: list[QrelsRow] = []
    for lineno, f in iter_fields(path, QrelsFormatError):
        if len(f) != 5:
            raise QrelsFormatError(f"expected 5 fields 'topic Q0 file xpath rel', got {len(f)}", path, lineno)
        topic, _q0, docid, xpath, rel_s = f
        try:
            rel = float(rel_s)
        except ValueError:
            extra = ""
            if "," in rel_s:
                extra = " (an INEX e,s pair needs a quantisation function, which element qrels do not take)"
            raise QrelsFormatError(f"expected a relevance number in [0, 1] in field 5, got {quoted(rel_s)}{extra}",
                                   path, lineno) from None
        if rel != rel:  # NaN
            raise QrelsFormatError(f"expected a relevance number in [0, 1] in field 5, got {quoted(rel_s)}", path, lineno)
        rows.append(QrelsRow(topic, docid, xpath, rel, lineno))
    if not rows:
        raise QrelsFormatError("the qrels file is empty: expected lines 'topic Q0 file xpath rel'", path)
    return ElementQrels.from_rows(rows, str(path))
