"""A stored document's shape: its elements' depths, tags and text offsets in pre-order, kept on its Document node.

The XPaths a navigation log names are resolved against the documents' trees, and a run scored with a stored
model needs the same trees with their text lengths.  Rebuilding them from the stored elements reads every
element of every document (on the local store: 3.5 million elements, rows parsed by the client, for a run
that touches a 25,000-document collection); the shape, written with the document when its elements are, is
one property per document, read a few thousand documents per statement.

The text is ``z2:`` and the base64 of a zlib stream of: the document's tag names joined by tabs (an XML name
holds no tab), a NUL, then four columns, each one byte giving its width (1, 2, 4 or 8 bytes, little-endian)
followed by one value per element in pre-order: the depth (the root's 1), the tag (its index among the
names), the start offset of the element's text less the previous element's (the first element's as is:
starts never decrease in pre-order) and the length of its text.  Measured on the help-page collection (3.5
million elements): about 3.5 bytes per element.  A ``z1:`` shape (written before offsets were kept) has the
depths and tags alone, behind a single width byte.
"""

from __future__ import annotations

import base64
import sys
import zlib
from array import array
from typing import NamedTuple

import numpy as np

from ..core.document import DocumentTree

__all__ = [
    "SHAPE_PREFIX",
    "encode_shape",
    "decode_shape",
    "decode_columns",
    "decode_tree",
    "ShapeColumns",
    "ShapeError",
]

#: The prefix of the shapes written now (with text offsets).
SHAPE_PREFIX = "z2:"
_PREFIX = SHAPE_PREFIX
_OLD = "z1:"


class ShapeError(ValueError):
    """A stored shape that does not read back as a document of the size stored."""


class ShapeColumns(NamedTuple):
    """A decoded shape: the tag names, and per element in pre-order its depth, tag index, text start and end
    (``start`` and ``end`` None for a ``z1:`` shape, which holds no offsets)."""

    names: list[str]
    depth: np.ndarray
    tag: np.ndarray
    start: np.ndarray | None
    end: np.ndarray | None


def _compressed(payload: bytes) -> bytes:
    """``payload`` as a zlib stream (level 6), its window and hash table no larger than the payload needs: zlib's
    defaults (a 32 KB window, a 128 KB hash table) are allocated and cleared for every call, which cost 40 µs a
    document of ten elements here against 4 µs (the stream reads back the same with any window)."""
    bits = min(max(len(payload).bit_length(), 9), 15)
    compressor = zlib.compressobj(6, zlib.DEFLATED, bits, min(max(bits - 7, 1), 8))
    return compressor.compress(payload) + compressor.flush()


def _column(values: np.ndarray) -> bytes:
    top = int(values.max(initial=0))
    width = 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4 if top < 1 << 32 else 8
    return bytes((width,)) + values.astype(f"<u{width}").tobytes()


#: Documents of at most this many elements are encoded from Python lists (numpy's cost per call, about 25 µs a
#: document of ten elements, is most of the work for them): the same bytes either way (tested).
SMALL = 64

_ARRAY_CODES = {2: "H", 4: "I", 8: "Q"}


def _small_column(values: list[int]) -> bytes:
    top = max(values, default=0)
    if top < 1 << 8:
        return b"\x01" + bytes(values)
    width = 2 if top < 1 << 16 else 4 if top < 1 << 32 else 8
    packed = array(_ARRAY_CODES[width], values)
    if packed.itemsize != width:  # (a platform whose C int is not 4 bytes)
        return _column(np.asarray(values, dtype=np.int64))
    if sys.byteorder != "little":
        packed.byteswap()
    return bytes((width,)) + packed.tobytes()


def _encode_small(doc: DocumentTree) -> str:
    start, end = doc.start.tolist(), doc.end.tolist()
    steps = [b - a for a, b in zip([0, *start], start)]
    lengths = [b - a for a, b in zip(start, end)]
    if min(steps, default=0) < 0 or min(lengths, default=0) < 0:
        raise ShapeError(f"document {doc.docid!r}: text offsets that are not those of a tree in pre-order")
    payload = b"".join(
        (
            "\t".join(doc.tags).encode("utf-8", "surrogatepass"),
            b"\0",
            _small_column(doc.depth.tolist()),
            _small_column(doc.tag.tolist()),
            _small_column(steps),
            _small_column(lengths),
        )
    )
    return _PREFIX + base64.b64encode(_compressed(payload)).decode("ascii")


def encode_shape(doc: DocumentTree) -> str:
    """The shape text of ``doc`` (its depths, tags and text offsets in pre-order)."""
    return _encode_small(doc) if len(doc.start) <= SMALL else _encode_arrays(doc)


def _encode_arrays(doc: DocumentTree) -> str:
    start = np.asarray(doc.start, dtype=np.int64)
    steps = np.diff(start, prepend=0)
    if len(start) and ((steps < 0).any() or (np.asarray(doc.end) < start).any()):
        raise ShapeError(f"document {doc.docid!r}: text offsets that are not those of a tree in pre-order")
    payload = b"".join(
        (
            "\t".join(doc.tags).encode("utf-8", "surrogatepass"),
            b"\0",
            _column(np.asarray(doc.depth)),
            _column(np.asarray(doc.tag)),
            _column(steps),
            _column(np.asarray(doc.end, dtype=np.int64) - start),
        )
    )
    return _PREFIX + base64.b64encode(_compressed(payload)).decode("ascii")


def _read_column(payload: bytes, at: int, elements: int) -> tuple[np.ndarray, int]:
    """One column (its width byte, then ``elements`` values) from ``payload`` at byte ``at``: the values as
    int64 and where the next column begins."""
    width = payload[at] if at < len(payload) else 0
    end = at + 1 + width * elements
    if width not in (1, 2, 4, 8) or end > len(payload):
        raise ShapeError(f"a document shape whose columns do not hold the {elements} elements stored")
    values = np.frombuffer(payload, dtype=np.dtype(f"<u{width}"), count=elements, offset=at + 1)
    if width == 8 and elements and int(values.max()) >= 1 << 62:
        raise ShapeError("a document shape with an offset out of range")
    return values.astype(np.int64), end


def _header(text: str) -> tuple[bytes, int, list[str]]:
    """A shape's payload, where its names end (the NUL after them) and the names."""
    try:
        payload = zlib.decompress(base64.b64decode(text[len(_PREFIX) :], validate=True))
    except (ValueError, zlib.error) as e:
        raise ShapeError(f"a document shape that does not decode ({e})") from None
    cut = payload.find(b"\0")
    if cut < 0:
        raise ShapeError("a document shape without its header")
    return payload, cut, payload[:cut].decode("utf-8", "surrogatepass").split("\t")


def decode_columns(text: str, elements: int) -> ShapeColumns:
    """The columns of a shape stored for a document of ``elements`` elements.

    Raises
    ------
    ShapeError
        If the text is not a shape, or not one of a tree of ``elements`` elements (the first at depth 1,
        each next one at most one level deeper, every tag one of the names).
    """
    if not isinstance(text, str) or not text.startswith((_PREFIX, _OLD)):
        raise ShapeError("not a document shape")
    payload, cut, names = _header(text)
    start = end = None
    if text.startswith(_OLD):  # one width byte, then the depths and the tags
        width = payload[cut + 1] if cut + 1 < len(payload) else 0
        if width not in (1, 2, 4):
            raise ShapeError("a document shape without its header")
        if len(payload) - cut - 2 != 2 * elements * width:
            raise ShapeError(
                f"a document shape of {(len(payload) - cut - 2) // (2 * width)} elements, {elements} stored"
            )
        body = np.frombuffer(payload, dtype=np.dtype(f"<u{width}"), offset=cut + 2).astype(np.int64)
        depth, tag = body[:elements], body[elements:]
    else:
        depth, at = _read_column(payload, cut + 1, elements)
        tag, at = _read_column(payload, at, elements)
        steps, at = _read_column(payload, at, elements)
        lengths, at = _read_column(payload, at, elements)
        if at != len(payload):
            raise ShapeError(f"a document shape whose columns do not hold the {elements} elements stored")
        start = np.cumsum(steps)
        end = start + lengths
    _check_tree(depth, tag, names)
    return ShapeColumns(names, depth, tag, start, end)


def _check_tree(depth: np.ndarray, tag: np.ndarray, names: list[str]) -> None:
    if len(depth) and (
        depth[0] != 1 or (depth[1:] < 1).any() or (depth[1:] > depth[:-1] + 1).any() or int(tag.max()) >= len(names)
    ):
        raise ShapeError("a document shape that is not a tree in pre-order")


def decode_tree(text: str, elements: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The tag names and the depth and tag columns of a shape stored for a document of ``elements`` elements, as
    :func:`decode_columns` reads them, without reading the offsets.

    Raises
    ------
    ShapeError
        As :func:`decode_columns`.
    """
    if not isinstance(text, str) or not text.startswith(_PREFIX):
        cols = decode_columns(text, elements)
        return cols.names, cols.depth, cols.tag
    payload, cut, names = _header(text)
    depth, at = _read_column(payload, cut + 1, elements)
    tag, at = _read_column(payload, at, elements)
    for _ in range(2):  # the offsets' columns: their widths and lengths only
        width = payload[at] if at < len(payload) else 0
        if width not in (1, 2, 4, 8):
            raise ShapeError(f"a document shape whose columns do not hold the {elements} elements stored")
        at += 1 + width * elements
    if at != len(payload):
        raise ShapeError(f"a document shape whose columns do not hold the {elements} elements stored")
    _check_tree(depth, tag, names)
    return names, depth, tag


def decode_shape(text: str, elements: int) -> tuple[list[int], list[str]]:
    """The depths and tag names, in pre-order, of a shape stored for a document of ``elements`` elements (see
    :func:`decode_columns`)."""
    cols = decode_columns(text, elements)
    return cols.depth.tolist(), [cols.names[t] for t in cols.tag.tolist()]
