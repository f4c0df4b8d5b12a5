"""Summary keys of elements, hashed, for batches of documents.

Every element gets a key made of two parts, chosen by the partition kind:

* part A: its incoming label path (``p*``, ``p*|c``) or its own label (``c``, ``tag``);
* part B: the set of its children's labels (``p*|c``, ``c``) or nothing.

Keys are compared through 128-bit hashes that depend only on tag names, so
the same element gets the same hash in every process and every document:

* a tag name ``s`` has four codes ``c_j(s) = mix(fnv1a64(utf8(s)) + (j+1)·φ)``
  (``mix`` = the splitmix64 finaliser, ``φ`` = 0x9E3779B97F4A7C15);
* label path, lanes j = 0, 1: ``h_j(e) = mix(h_j(parent(e)) ^ c_j(tag(e)))``,
  with ``h_0 = φ`` and ``h_1 = 0xBF58476D1CE4E5B9`` above the root;
* child-label set, lanes 2, 3: the XOR of ``c_j`` over the distinct labels of
  the element's children (the child at position 1 of each label adds it).

The C reader (``graphsr/io/_walk.c``) computes these while it walks a
parsed tree and stores them on the :class:`~graphsr.core.DocumentTree`;
:func:`key_hashes` is the reference implementation (numpy, level by level)
used for trees from anywhere else, and tests check that both agree.  Two
different keys share a 128-bit hash with probability about ``n**2 / 2**129``
for n distinct keys.  Only the distinct hashes of a batch reach Python
dictionaries, and the readable key of a summary node (its label path and
child set) is spelled out once, from one representative element.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.document import DocumentTree
from .kinds import PartitionKind

__all__ = ["Keyer", "Batch", "key_hashes", "fill_key_hashes", "tag_codes"]

_U64 = (1 << 64) - 1
_GOLD_INT = 0x9E3779B97F4A7C15
_M1_INT = 0xBF58476D1CE4E5B9
_M2_INT = 0x94D049BB133111EB
_GOLD = np.uint64(_GOLD_INT)
_M1 = np.uint64(_M1_INT)
_M2 = np.uint64(_M2_INT)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser, element-wise on uint64 (wrapping arithmetic)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def _mix_int(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1_INT) & _U64
    z = ((z ^ (z >> 27)) * _M2_INT) & _U64
    return z ^ (z >> 31)


_CODE_CACHE: dict[str, tuple[int, int, int, int]] = {}


def tag_codes(name: str) -> tuple[int, int, int, int]:
    """The four 64-bit codes of a tag name.

    Examples
    --------
    >>> len(tag_codes("sec")), tag_codes("sec") == tag_codes("sec"), tag_codes("sec") == tag_codes("p")
    (4, True, False)
    """
    c = _CODE_CACHE.get(name)
    if c is None:
        h = 0xCBF29CE484222325
        for b in name.encode("utf-8"):
            h = ((h ^ b) * 0x100000001B3) & _U64
        c = _CODE_CACHE[name] = tuple(_mix_int((h + (j + 1) * _GOLD_INT) & _U64) for j in range(4))
    return c


def key_hashes(doc: DocumentTree) -> tuple[np.ndarray, np.ndarray]:
    """Reference computation of a document's tag codes (T x 4) and node hashes (4 x n).

    Node hash rows: label-path lanes 0, 1 and child-label-set lanes 2, 3
    (see the module docstring).
    """
    codes = np.array([tag_codes(t) for t in doc.tags], dtype=np.uint64).reshape(-1, 4)
    return codes, _node_hashes(codes[doc.tag], doc.parent.astype(np.int64), doc.depth, doc.position)


def _node_hashes(c: np.ndarray, parent: np.ndarray, depth: np.ndarray, position: np.ndarray) -> np.ndarray:
    """The four hash rows of nodes in pre-order (one document, or several concatenated with their parents
    offset, -1 for a root), from each node's tag codes ``c``: label-path lanes 0 and 1 level by level from the
    roots down, child-label-set lanes 2 and 3 from each node's first child of each tag (``position`` 1)."""
    out = np.zeros((4, len(parent)), dtype=np.uint64)
    order = np.argsort(depth, kind="stable")
    at = np.searchsorted(depth[order], np.arange(1, int(depth.max()) + 2))
    for level in range(1, int(depth.max()) + 1):
        idx = order[at[level - 1] : at[level]]
        if level == 1:
            p0 = np.full(len(idx), _GOLD, dtype=np.uint64)
            p1 = np.full(len(idx), _M1, dtype=np.uint64)
        else:
            p0, p1 = out[0, parent[idx]], out[1, parent[idx]]
        out[0, idx] = _mix(p0 ^ c[idx, 0])
        out[1, idx] = _mix(p1 ^ c[idx, 1])
    first = np.flatnonzero((position == 1) & (parent >= 0))
    for lane in (2, 3):
        np.bitwise_xor.at(out[lane], parent[first], c[first, lane])
    return out


def fill_key_hashes(docs: list[DocumentTree]) -> None:
    """Compute the key hashes of the documents ``docs`` that have none (:func:`key_hashes`' values), all of them
    in one pass level by level over their concatenated nodes rather than document by document (trees rebuilt
    from a store come in thousands: 25,000 documents in 0.3 s rather than 3.5 s)."""
    todo = [d for d in docs if d.key_hashes is None]
    if not todo:
        return
    distinct: dict[str, int] = {}
    rows = np.fromiter((distinct.setdefault(t, len(distinct)) for d in todo for t in d.tags), dtype=np.int64)
    codes = np.array([tag_codes(t) for t in distinct], dtype=np.uint64).reshape(-1, 4)[rows]
    sizes = np.fromiter((len(d.tag) for d in todo), dtype=np.int64, count=len(todo))
    offsets = np.zeros(len(todo) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    vocab = np.fromiter((len(d.tags) for d in todo), dtype=np.int64, count=len(todo))
    first_tag = np.zeros(len(todo) + 1, dtype=np.int64)
    np.cumsum(vocab, out=first_tag[1:])
    doc_of = np.repeat(np.arange(len(todo)), sizes)
    c = codes[np.concatenate([d.tag for d in todo]).astype(np.int64) + first_tag[:-1][doc_of]]
    parent = np.concatenate([d.parent for d in todo]).astype(np.int64)
    root = parent < 0
    parent += offsets[:-1][doc_of]
    parent[root] = -1
    out = _node_hashes(c, parent, np.concatenate([d.depth for d in todo]), np.concatenate([d.position for d in todo]))
    for k, d in enumerate(todo):
        a, b = int(offsets[k]), int(offsets[k + 1])
        d.key_hashes = (codes[first_tag[k] : first_tag[k + 1]], out[:, a:b])


class Batch(NamedTuple):
    """Documents concatenated for one vectorised pass."""

    docs: list
    offsets: np.ndarray  # start of each document's nodes; len(docs) + 1 entries
    parent: np.ndarray  # global parent index, -1 for roots
    length: np.ndarray  # node length (end - start)
    own: np.ndarray | None  # own-tag codes, lanes 0, 1 (n x 2), for the c and tag kinds
    hashes: np.ndarray  # node hash lanes needed by the kind (rows), all nodes (columns)


class Keyer:
    """Maps elements of documents to summary node ids (SIDs) for one partition kind."""

    def __init__(self, kind: PartitionKind):
        self.kind = kind
        self.sid_of: dict[tuple[int, int], int] = {}
        # per SID: the 128-bit key hash, and the readable key
        # (label path tuple, or own label; child label set or None)
        self.hkeys: list[tuple[int, int]] = []
        self.keys: list[tuple] = []
        self._known: tuple[np.ndarray, np.ndarray] | None = None  # sorted first hash lanes, their SIDs
        self._k2 = np.zeros(0, dtype=np.uint64)

    def intern(self, hkey: tuple[int, int], readable: tuple) -> int:
        """The SID of a key hash, adding it (with its readable key) if new."""
        v = self.sid_of.get(hkey)
        if v is None:
            v = self.sid_of[hkey] = len(self.keys)
            self.hkeys.append(hkey)
            self.keys.append(readable)
            self._known = None  # re-indexed on the next lookup
        return v

    def batch(self, docs: list[DocumentTree]) -> Batch:
        """Concatenate documents into one batch."""
        sizes = np.fromiter((len(d.tag) for d in docs), dtype=np.int64, count=len(docs))
        offsets = np.zeros(len(docs) + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        doc_of = np.repeat(np.arange(len(docs)), sizes)
        parent = np.concatenate([d.parent for d in docs]).astype(np.int64)
        root = parent < 0
        parent += offsets[:-1][doc_of]
        parent[root] = -1
        length = np.concatenate([d.end for d in docs]) - np.concatenate([d.start for d in docs])
        fill_key_hashes(docs)  # (those the C reader did not fill in)
        hs = [d.key_hashes for d in docs]
        lanes = slice(0 if self.kind.by_path else 2, 4 if self.kind.by_children else 2)  # rows needed
        hashes = np.concatenate([h[1][lanes] for h in hs], axis=1)
        own = None  # own-tag codes: part A of the c and tag kinds
        if not self.kind.by_path:
            ntag = np.fromiter((len(h[0]) for h in hs), dtype=np.int64, count=len(hs))
            tag_off = np.zeros(len(hs), dtype=np.int64)
            np.cumsum(ntag[:-1], out=tag_off[1:])
            codes = np.concatenate([h[0] for h in hs])
            own = codes[np.concatenate([d.tag for d in docs]) + tag_off[doc_of], :2]
        return Batch(docs, offsets, parent, length, own, hashes)

    def sids_batch(self, docs: list[DocumentTree], grow: bool) -> np.ndarray:
        """SIDs of the nodes of several documents, concatenated in order (-1: key not in the summary)."""
        if not docs:
            return np.zeros(0, dtype=np.int64)
        return self.sids_of(self.batch(docs), grow)

    def sids_of(self, b: Batch, grow: bool) -> np.ndarray:
        """SIDs of the nodes of a batch (see :meth:`batch`)."""
        if self.kind.by_path:
            a1, a2 = b.hashes[0], b.hashes[1]
        else:
            a1, a2 = b.own[:, 0], b.own[:, 1]
        if self.kind.by_children:
            c1, c2 = b.hashes[-2], b.hashes[-1]
            k1 = _mix(a1 ^ _mix(c1 + _GOLD))
            k2 = _mix(a2 ^ _mix(c2 + _M2))
        else:
            k1, k2 = a1, a2
        return self._lookup(np.ascontiguousarray(k1), np.ascontiguousarray(k2), grow, b)

    def _lookup(self, k1: np.ndarray, k2: np.ndarray, grow: bool, b: Batch) -> np.ndarray:
        """SIDs for key hashes: known keys by binary search, new ones interned in order of appearance."""
        sids = np.full(len(k1), -1, dtype=np.int64)
        if self._known is None and self.hkeys:  # (a keyer restored from kept keys: indexed once, searched after)
            self._index_known()
        if self._known is not None and len(k1):
            known_k1, known_sid = self._known
            pos = np.minimum(np.searchsorted(known_k1, k1), len(known_k1) - 1)
            hit = known_k1[pos] == k1
            sids[hit] = known_sid[pos[hit]]
            new = np.flatnonzero(~hit)
        else:
            new = np.arange(len(k1))
        if len(new):
            uniq, first, inv = np.unique(k1[new], return_index=True, return_inverse=True)
            ids = np.full(len(uniq), -1, dtype=np.int64)
            added = False
            for j in np.argsort(first, kind="stable").tolist():  # order of first appearance
                rep = int(new[first[j]])
                hk = (int(uniq[j]), int(k2[rep]))
                v = self.sid_of.get(hk)
                if v is None and grow:
                    v = self.intern(hk, self._readable_key(rep, b))
                    added = True
                if v is not None:
                    ids[j] = v
            sids[new] = ids[inv.ravel()]
            if added or self._known is None:
                self._index_known()
        hit = sids >= 0
        if not np.array_equal(self._k2[sids[hit]], k2[hit]):
            raise RuntimeError("two summary keys share the first 64 bits of their hash; please report")
        return sids

    def _index_known(self) -> None:
        k1 = np.array([h for h, _ in self.hkeys], dtype=np.uint64)
        order = np.argsort(k1)
        self._known = (k1[order], order.astype(np.int64)) if len(k1) else None
        self._k2 = np.array([h for _, h in self.hkeys], dtype=np.uint64)

    def _readable_key(self, rep: int, b: Batch) -> tuple:
        k = int(np.searchsorted(b.offsets, rep, side="right")) - 1
        doc, i = b.docs[k], rep - int(b.offsets[k])
        names = doc.tags
        if self.kind.by_path:
            path = []
            while i >= 0:
                path.append(names[doc.tag[i]])
                i = int(doc.parent[i])
            a = tuple(reversed(path))
            i = rep - int(b.offsets[k])
        else:
            a = names[doc.tag[i]]
        kids = None
        if self.kind.by_children:
            kids = frozenset(names[t] for t in doc.tag[doc.parent == i].tolist())
        return a, kids

    @classmethod
    def restore(cls, kind: PartitionKind, keys: list[tuple]) -> "Keyer":
        """A keyer for readable keys kept elsewhere (e.g. a store), in SID order.

        The key hashes are recomputed from the keys, exactly as
        :meth:`sids_of` computes them from documents.
        """
        k = cls(kind)
        for a, kids in keys:
            if kind.by_path:
                h0, h1 = _GOLD_INT, _M1_INT
                for t in a:
                    c = tag_codes(t)
                    h0, h1 = _mix_int(h0 ^ c[0]), _mix_int(h1 ^ c[1])
            else:
                h0, h1 = tag_codes(a)[:2]
            if kind.by_children:
                b2 = b3 = 0
                for t in kids:
                    c = tag_codes(t)
                    b2 ^= c[2]
                    b3 ^= c[3]
                h0 = _mix_int(h0 ^ _mix_int((b2 + _GOLD_INT) & _U64))
                h1 = _mix_int(h1 ^ _mix_int((b3 + _M2_INT) & _U64))
            k.intern((h0, h1), (tuple(a) if kind.by_path else a, frozenset(kids) if kind.by_children else None))
        return k

    def label(self, sid: int) -> str:
        a, kids = self.keys[sid]
        head = "/" + "/".join(a) if self.kind.by_path else a
        if kids is not None:
            head += "|{" + ",".join(sorted(kids)) + "}"
        return head
