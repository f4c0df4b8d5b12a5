"""A stored document's shape: its elements' depths and tags in pre-order, kept on its Document node.

The XPaths a navigation log names are resolved against the documents' trees.  Rebuilding them from the
stored elements reads every element of every document the log visits (on the local store: 3.5 million
elements for a log of 100,000 routes over a 25,000-document collection, 4.4 s of the server's time); the
shape, written with the document when its elements are, is one property per document.

The text is ``z1:`` and the base64 of a zlib stream of: the document's tag names joined by tabs (an XML
name holds no tab), a NUL, one byte giving the width of what follows (1, 2 or 4 bytes, little-endian), then
every element's depth, then every element's tag (its index among the names).  Measured on the help-page
collection (3.5 million elements): about 1 byte per element.
"""

from __future__ import annotations

import base64
import zlib

import numpy as np

from ..core.document import DocumentTree

__all__ = ["encode_shape", "decode_shape", "ShapeError"]

_PREFIX = "z1:"


class ShapeError(ValueError):
    """A stored shape that does not read back as a document of the size stored."""


def encode_shape(doc: DocumentTree) -> str:
    """The shape text of ``doc`` (its depths and tags in pre-order)."""
    depth, tag = np.asarray(doc.depth), np.asarray(doc.tag)
    top = max(int(depth.max(initial=0)), int(tag.max(initial=0)))
    width = 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4
    dtype = np.dtype(f"<u{width}")
    payload = b"".join(
        (
            "\t".join(doc.tags).encode("utf-8", "surrogatepass"),
            b"\0",
            bytes((width,)),
            depth.astype(dtype).tobytes(),
            tag.astype(dtype).tobytes(),
        )
    )
    return _PREFIX + base64.b64encode(zlib.compress(payload, 6)).decode("ascii")


def decode_shape(text: str, elements: int) -> tuple[list[int], list[str]]:
    """The depths and tag names, in pre-order, of a shape stored for a document of ``elements`` elements.

    Raises
    ------
    ShapeError
        If the text is not a shape, or not one of a tree of ``elements`` elements (the first at depth 1,
        each next one at most one level deeper, every tag one of the names).
    """
    if not isinstance(text, str) or not text.startswith(_PREFIX):
        raise ShapeError("not a document shape")
    try:
        payload = zlib.decompress(base64.b64decode(text[len(_PREFIX) :], validate=True))
    except (ValueError, zlib.error) as e:
        raise ShapeError(f"a document shape that does not decode ({e})") from None
    cut = payload.find(b"\0")
    if cut < 0 or cut + 1 >= len(payload) or payload[cut + 1] not in (1, 2, 4):
        raise ShapeError("a document shape without its header")
    names = payload[:cut].decode("utf-8", "surrogatepass").split("\t")
    width = payload[cut + 1]
    body = (
        np.frombuffer(payload, dtype=np.dtype(f"<u{width}"), offset=cut + 2)
        if len(payload) > cut + 2
        else np.zeros(0, dtype=np.uint8)
    )
    if len(payload) - cut - 2 != 2 * elements * width:
        raise ShapeError(f"a document shape of {(len(payload) - cut - 2) // (2 * width)} elements, {elements} stored")
    depth, tag = body[:elements].astype(np.int64), body[elements:].astype(np.int64)
    if elements and (
        depth[0] != 1 or (depth[1:] < 1).any() or (depth[1:] > depth[:-1] + 1).any() or int(tag.max()) >= len(names)
    ):
        raise ShapeError("a document shape that is not a tree in pre-order")
    return depth.tolist(), [names[t] for t in tag.tolist()]
