"""Plain TREC document lines as columns: the form runs and assessments of whole documents are read into.

A TREC document run (``topic Q0 docno rank score run_id``) or document qrels
file (``topic iteration docno rel``), a DataFrame without an ``xpath`` column,
a ``{query_id: {doc_id: value}}`` dict and ir_measures' records all become one
:class:`DocumentColumns`: a topic code, a document code and a value per line,
with the names behind the codes.  The flat measures score them as arrays, with
no Python object per line; element families see each document as a single
element (:attr:`graphsr.core.run.Run.results`, built on first use).
"""

from __future__ import annotations

from .._records import record, field
from functools import cached_property

import numpy as np

__all__ = [
    "AssessmentColumns",
    "DocumentColumns",
    "ElementColumns",
    "LineNumbers",
    "codes_in",
    "codes_of",
    "name_order",
    "rank_documents",
]


def codes_of(names: list) -> tuple[list, np.ndarray]:
    """The distinct names in order of first appearance, and each one's code."""
    index: dict = {}
    codes = np.fromiter((index.setdefault(x, len(index)) for x in names), dtype=np.int64, count=len(names))
    return list(index), codes


class _Lines:
    """What columns with a topic and a document column answer alike: how many entries, which topics (those with
    entries in order of first appearance -- a topic's entries are usually together -- then the columns' empty
    topics) and which documents."""

    def __len__(self) -> int:
        return len(self.topic)

    @cached_property
    def topics(self) -> list[str]:
        t = self.topic
        starts = t[np.flatnonzero(np.r_[True, t[1:] != t[:-1]])] if len(t) else t
        present = [self.topic_names[x] for x in dict.fromkeys(starts.tolist())]
        known = set(present)
        return present + [x for x in dict.fromkeys(self.empty_topics) if x not in known]

    @cached_property
    def docids(self) -> set[str]:
        """Every document an entry names."""
        names = self.doc_names
        used = np.bincount(self.doc, minlength=len(names)) > 0 if len(self.doc) else np.zeros(len(names), bool)
        return {names[x] for x in np.flatnonzero(used).tolist()}


class _NodeLines(_Lines):
    """Columns whose entries also name a node of their document (a canonical XPath of ``path_names``)."""

    @cached_property
    def plain(self) -> bool:
        """Whether every entry names a whole document (the node ``/doc[1]`` of a plain TREC document)."""
        from .document import PLAIN_DOCUMENT_NODE

        if not len(self.path):
            return True
        used = np.bincount(self.path, minlength=len(self.path_names)) > 0
        return all(self.path_names[x] == PLAIN_DOCUMENT_NODE for x in np.flatnonzero(used).tolist())


@record(eq=False)
class DocumentColumns(_Lines):
    """One entry per line: ``topic[k]`` and ``doc[k]`` index ``topic_names`` and ``doc_names``, ``value[k]``
    is the line's score (a run) or relevance (assessments), ``line[k]`` its line in the file (None: not from a
    file; a :class:`LineNumbers` when every line of the file is an entry).  ``empty_topics`` are topics given with no line (a run that answers them with nothing).

    Examples
    --------
    >>> c = DocumentColumns.from_lists(["q1", "q1", "q2"], ["d1", "d2", "d1"], [2.0, 1.0, 0.5])
    >>> c.topics, sorted(c.docids), c.doc.tolist()
    (['q1', 'q2'], ['d1', 'd2'], [0, 1, 0])
    """

    topic_names: list[str]
    doc_names: list[str]
    topic: np.ndarray
    doc: np.ndarray
    value: np.ndarray
    line: "np.ndarray | LineNumbers | None" = None
    empty_topics: tuple[str, ...] = field(default=())
    #: The name -> code dicts the codes came from, when they are a vocabulary shared with other columns (a run
    #: read with its assessments' codes): codes below ``len(names)`` of the other columns mean the same names.
    index: tuple[dict, dict] | None = None
    #: The columns (assessments) whose codes these share, when they were coded after them (a DataFrame run read
    #: with its assessments): codes below their ``len(topic_names)`` and ``len(doc_names)`` mean the same names.
    coded_as: "DocumentColumns | None" = None

    def own_index(self) -> tuple[dict, dict] | None:
        """:attr:`index`, where its dicts name these columns' topics and documents only (another reader may have
        grown them): other columns can then be coded after these names."""
        index = self.index
        if index is None or (len(index[0]), len(index[1])) != (len(self.topic_names), len(self.doc_names)):
            return None
        return index

    @classmethod
    def from_lists(
        cls, topics: list[str], docids: list[str], values, lines=None, empty_topics: tuple[str, ...] = ()
    ) -> "DocumentColumns":
        """Columns from per-line names (codes in order of first appearance)."""
        topic_names, t = codes_of(topics)
        doc_names, d = codes_of(docids)
        return cls(
            topic_names,
            doc_names,
            t,
            d,
            np.asarray(values, dtype=float),
            None if lines is None else np.asarray(lines, dtype=np.int64),
            tuple(empty_topics),
        )

    #: Every line names a whole document.
    plain = True

    @property
    def num_results(self) -> int:
        """Each line is one result."""
        return len(self.topic)

    def duplicate(self) -> int | None:
        """The index of the first line whose (topic, document) an earlier line has, or None."""
        if len(self.topic) < 2:
            return None
        key = self.topic * np.int64(max(len(self.doc_names), 1))
        key += self.doc
        if not _repeats(key, len(self.topic_names) * max(len(self.doc_names), 1)):
            return None
        key = self.topic * np.int64(max(len(self.doc_names), 1)) + self.doc
        seen: set[int] = set()
        for k, x in enumerate(key.tolist()):  # rare: find the line
            if x in seen:
                return k
            seen.add(x)
        return None  # pragma: no cover - a repeated key is met above

    @cached_property
    def doc_order(self) -> np.ndarray:
        """Each document code's position when the names are sorted (trec_eval's tie order compares names)."""
        out = np.empty(len(self.doc_names), dtype=np.int64)
        out[name_order(self.doc_names)] = np.arange(len(self.doc_names))
        return out

    def ranked(self) -> np.ndarray:
        """The lines in trec_eval's order: by topic code, then value (score) descending, then document name
        descending."""
        return rank_documents(self.topic, self.value, self.doc, self)

    def as_elements(self) -> "ElementColumns":
        """A run's lines as :class:`ElementColumns`: each document the node ``/doc[1]``, ranked as trec_eval
        ranks them (:meth:`ranked`; ranks 1, 2, ... per topic), topics in this run's order."""
        from .document import PLAIN_DOCUMENT_NODE

        n = len(self)
        order = self.ranked()
        place = codes_in(self.topic_names, dict(zip(self.topics, range(len(self.topics)))))
        order = order[np.argsort(place[self.topic[order]], kind="stable")]  # topics in the run's order
        topic = self.topic[order]
        first = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]]) if n else np.zeros(0, dtype=np.int64)
        rank = np.arange(n, dtype=np.int64) - np.repeat(first, np.diff(np.r_[first, n])) + 1
        return ElementColumns(
            self.topic_names,
            self.doc_names,
            [PLAIN_DOCUMENT_NODE],
            topic,
            self.doc[order],
            rank,
            self.value[order],
            np.zeros(n, dtype=np.int64),
            None if self.line is None else np.asarray(self.line[order], dtype=np.int64),
            tuple(self.empty_topics),
        )


@record(eq=False)
class ElementColumns(_NodeLines):
    """An element run's lines as arrays, in file order: ``topic[k]``, ``doc[k]`` and ``path[k]`` index
    ``topic_names``, ``doc_names`` and ``path_names`` (canonical XPaths, each once), ``rank[k]`` and
    ``score[k]`` are the line's rank and score, ``line[k]`` its line in the file (None: not from a file).
    The lines of a topic that share a rank form one tree result.

    Examples
    --------
    >>> c = ElementColumns.from_lists(["1", "1", "1"], ["d", "d", "e"], [1, 1, 2], [2.0, 2.0, 1.0],
    ...                               ["/a[1]", "/a[1]/b[1]", "/a[1]"])
    >>> c.path_names, c.path.tolist(), c.num_results
    (['/a[1]', '/a[1]/b[1]'], [0, 1, 0], 2)
    """

    topic_names: list[str]
    doc_names: list[str]
    path_names: list[str]
    topic: np.ndarray
    doc: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    path: np.ndarray
    line: np.ndarray | None = None
    empty_topics: tuple[str, ...] = field(default=())

    @classmethod
    def from_lists(
        cls,
        topics: list[str],
        docids: list[str],
        ranks,
        scores,
        paths: list[str],
        lines=None,
        empty_topics: tuple[str, ...] = (),
    ) -> "ElementColumns":
        """Columns from per-line values (paths canonical already; codes in order of first appearance)."""
        topic_names, t = codes_of(topics)
        doc_names, d = codes_of(docids)
        path_names, p = codes_of(paths)
        return cls(
            topic_names,
            doc_names,
            path_names,
            t,
            d,
            np.asarray(ranks, dtype=np.int64),
            np.asarray(scores, dtype=float),
            p,
            None if lines is None else np.asarray(lines, dtype=np.int64),
            tuple(empty_topics),
        )

    @cached_property
    def result_order(self) -> np.ndarray:
        """The lines ordered by topic code, rank, then file order: each tree result's lines together."""
        return np.lexsort((np.arange(len(self.topic)), self.rank, self.topic))

    @cached_property
    def result_starts(self) -> np.ndarray:
        """Where each tree result starts in :attr:`result_order` (and the number of lines at the end)."""
        o = self.result_order
        t, r = self.topic[o], self.rank[o]
        new = np.r_[True, (t[1:] != t[:-1]) | (r[1:] != r[:-1])] if len(o) else np.zeros(0, dtype=bool)
        return np.r_[np.flatnonzero(new), len(o)]

    @property
    def num_results(self) -> int:
        return len(self.result_starts) - 1

    def as_elements(self) -> "ElementColumns":
        """These columns (:meth:`DocumentColumns.as_elements` gives document runs the same form)."""
        return self


@record(eq=False)
class AssessmentColumns(_NodeLines):
    """Element assessments as arrays, in file order: ``topic[k]``, ``doc[k]`` and ``path[k]`` index
    ``topic_names``, ``doc_names`` and ``path_names`` (canonical XPaths, each once), ``value[k]`` is the node's
    relevance, ``grade[k]`` its INEX (e, s) pair (an ``(n, 2)`` array; None for assessments of values),
    ``line[k]`` its line in the file (None: not from a file).  ``empty_topics`` are topics given with no
    assessment.  No (topic, document, path) comes twice (the builders check).

    Examples
    --------
    >>> c = AssessmentColumns.from_lists(["1", "1"], ["d", "d"], ["/a[1]", "/a[1]/b[1]"], [1.0, 0.5])
    >>> c.topics, c.path.tolist(), c.plain
    (['1'], [0, 1], False)
    """

    topic_names: list[str]
    doc_names: list[str]
    path_names: list[str]
    topic: np.ndarray
    doc: np.ndarray
    path: np.ndarray
    value: np.ndarray
    grade: np.ndarray | None = None
    line: np.ndarray | None = None
    empty_topics: tuple[str, ...] = field(default=())

    @classmethod
    def from_lists(
        cls,
        topics: list[str],
        docids: list[str],
        paths: list[str],
        values,
        grades=None,
        lines=None,
        empty_topics: tuple[str, ...] = (),
    ) -> "AssessmentColumns":
        """Columns from per-assessment values (paths canonical already; codes in order of first appearance)."""
        topic_names, t = codes_of(topics)
        doc_names, d = codes_of(docids)
        path_names, p = codes_of(paths)
        grade = None if grades is None else np.asarray(grades, dtype=np.int64).reshape(-1, 2)
        return cls(
            topic_names,
            doc_names,
            path_names,
            t,
            d,
            p,
            np.asarray(values, dtype=float),
            grade,
            None if lines is None else np.asarray(lines, dtype=np.int64),
            tuple(empty_topics),
        )


#: Pairs (topics times documents) up to which a repeated pair is found by marking a flag per pair (a byte each)
#: rather than by sorting: at most this many bytes, or 8 per line where lines are more.
DENSE_PAIRS = 1 << 24


def _repeats(key: np.ndarray, size: int) -> bool:
    """Whether some value of ``key`` (each in ``0 .. size - 1``) is repeated; ``key`` may be sorted in place."""
    if size <= max(DENSE_PAIRS, 8 * len(key)):
        seen = np.zeros(size, dtype=bool)
        seen[key] = True
        return int(np.count_nonzero(seen)) < len(key)
    key.sort()  # in place: a run's lines are checked in one array the size of a column
    return bool((key[1:] == key[:-1]).any())


def codes_in(names: list[str], index: dict[str, int]) -> np.ndarray:
    """The code in ``index`` of each of ``names`` (distinct names; -1 where absent), with no Python-level loop.

    >>> codes_in(["b", "x", "a"], {"a": 0, "b": 1}).tolist()
    [1, -1, 0]
    """
    out = dict.fromkeys(names, -1)
    common = out.keys() & index.keys()
    out.update(zip(common, map(index.__getitem__, common)))
    return np.fromiter(out.values(), dtype=np.int64, count=len(out))


def rank_documents(topic: np.ndarray, score: np.ndarray, doc: np.ndarray, run: DocumentColumns) -> np.ndarray:
    """The order of lines by topic, score descending and, among lines of a topic with equal scores, document
    name descending (trec_eval's order); names are compared only when some scores tie.

    One integer sort: each line's key is its topic, then the rank of its score among the distinct scores
    (descending), then the rank of its document's name (descending), packed into one int64.  A run whose
    topics come in blocks (each topic's lines together, as runs are written) is ranked a few topics at a time,
    about :data:`CHUNK` lines each, so that the sorts' temporary arrays stay small whatever the run's size (the
    order is then int32 when it fits, int64 otherwise).

    Examples
    --------
    >>> c = DocumentColumns.from_lists(["1", "1", "2", "1"], ["a", "b", "c", "c"], [1.0, 2.0, 5.0, 1.0])
    >>> rank_documents(c.topic, c.value, c.doc, c).tolist()
    [1, 3, 0, 2]
    """
    n = len(topic)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    ranked = _ranked_already(topic, score)
    if ranked is not None:
        return ranked
    groups = _topic_groups(topic) if n > CHUNK else None
    if groups is None:
        return _rank_lines(topic, score, doc, run)
    out = np.empty(n, dtype=np.int32 if n < 1 << 31 else np.int64)
    at = 0
    for lines in groups:
        part = _rank_lines(topic[lines], score[lines], doc[lines], run)
        out[at : at + len(part)] = lines[part] if isinstance(lines, np.ndarray) else part + lines.start
        at += len(part)
    return out


def _ranked_already(topic: np.ndarray, score: np.ndarray) -> np.ndarray | None:
    """The order of lines written ranked (each topic's lines together, their scores strictly descending, as a
    system writes its run) without a sort: the topics' blocks in topic order; None when the lines are not so
    written (a tie, whose order compares names, included).  A few passes over the columns, where the sort takes
    the run's size times its logarithm."""
    n = len(topic)
    descending = score[1:] < score[:-1]  # (False for a NaN: such a run is ranked by the sort, which places it)
    descending |= topic[1:] != topic[:-1]
    if not descending.all():
        return None
    del descending
    blocks = _topic_blocks(topic)
    if blocks is None:
        return None
    starts, ends, order = blocks
    dtype = np.int32 if n < 1 << 31 else np.int64
    if (order[1:] > order[:-1]).all():  # (the blocks in topic order already)
        return np.arange(n, dtype=dtype)
    lengths = (ends - starts)[order]
    shift = starts[order] - (np.cumsum(lengths) - lengths)  # each block's start in the file less its start in the order
    out = np.arange(n, dtype=dtype)
    out += np.repeat(shift.astype(dtype), lengths)
    return out


def _topic_blocks(topic: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Where each block of equal topics starts and ends, and the blocks' order by topic; None when a topic's
    lines are in two places."""
    change = np.flatnonzero(topic[1:] != topic[:-1]) + 1
    starts = np.concatenate(([0], change))
    ends = np.concatenate((change, [len(topic)]))
    del change
    block_topic = topic[starts]
    order = np.argsort(block_topic, kind="stable")
    if len(block_topic) > 1 and (block_topic[order[1:]] == block_topic[order[:-1]]).any():
        return None  # a topic in two places
    return starts, ends, order


def _topic_groups(topic: np.ndarray):
    """The lines of ``topic`` in groups of whole topics, about :data:`CHUNK` lines each, in topic order (slices
    where the lines are in place, index arrays where not); None when some topic's lines are not together."""
    blocks = _topic_blocks(topic)
    if blocks is None:
        return None
    starts, ends, order = blocks
    groups, pending, size = [], [], 0
    for b in order.tolist():
        pending.append(b)
        size += int(ends[b] - starts[b])
        if size >= CHUNK or b == order[-1]:
            groups.append(pending)
            pending, size = [], 0
    out = []
    for g in groups:
        if all(starts[b2] == ends[b1] for b1, b2 in zip(g, g[1:])):
            out.append(slice(int(starts[g[0]]), int(ends[g[-1]])))
        else:
            out.append(np.concatenate([np.arange(starts[b], ends[b]) for b in g]))
    return out


def _rank_lines(topic: np.ndarray, score: np.ndarray, doc: np.ndarray, run: DocumentColumns) -> np.ndarray:
    """:func:`rank_documents` of some lines in one sort (temporary arrays dropped as soon as they are used)."""
    n = len(topic)
    order = np.argsort(score)  # (no sort here needs stability: equal keys get equal ranks, or keys are unique)
    ordered = score[order]
    distinct = np.empty(n, dtype=bool)
    distinct[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=distinct[1:])
    del ordered
    levels = int(np.count_nonzero(distinct))
    if (int(topic.max()) + 1) * levels >= 1 << 62:  # too many to pack: sort key by key
        return np.lexsort((-run.doc_order[doc], -score, topic))
    rank = np.cumsum(distinct, dtype=np.int64 if n >= 1 << 31 else np.int32)  # 1 .. levels, ascending scores
    del distinct
    np.subtract(levels, rank, out=rank)  # 0 for the highest score
    key = np.empty(n, dtype=np.int64)
    key[order] = rank
    del order, rank
    part = topic.astype(np.int64)
    part *= levels
    key += part
    del part
    order = np.argsort(key)
    if not _has_ties(key, order):
        return order
    broken = _break_ties(key, order, doc, run)
    if broken is not None:
        return broken
    del order
    names = max(len(run.doc_names), 1)
    if (int(topic.max()) + 1) * levels * names >= 1 << 62:  # too many to pack with the names: key by key
        return np.lexsort((-run.doc_order[doc], -score, topic))
    key *= names
    part = run.doc_order.take(doc)
    np.subtract(names - 1, part, out=part)
    key += part  # (topic, document) pairs are unique: so are the keys
    del part
    return np.argsort(key)


#: Lines in one tie beyond which, when many lines tie, every name is ordered at once rather than each tie's.
LARGEST_TIE = 4096


def _ties_module():
    """The C tie orderer (graphsr.core._ties), or None where it was not built."""
    try:
        from . import _ties
    except ImportError:  # pragma: no cover - the extension is optional
        return None
    return _ties


def _break_ties(key: np.ndarray, order: np.ndarray, doc: np.ndarray, run: DocumentColumns) -> np.ndarray | None:
    """``order`` (lines sorted by ``key``) with each run of equal keys put in document name descending order,
    comparing the names of the tied lines only (real scores tie a few lines a topic: ordering the names of every
    document of a large collection for them costs more than the rest of the ranking).  In C each tied line's name
    is compared with the few of its group's; without the C extension, where many lines tie, None: ordering every
    name at once, in bulk, is then cheaper."""
    sk = key[order]
    same = sk[1:] == sk[:-1]
    tied = np.zeros(len(order), dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    pos = np.flatnonzero(tied)
    many = len(pos) > len(order) // 8
    lines = order[pos]
    group = np.cumsum(np.r_[True, sk[pos][1:] != sk[pos][:-1]])
    ties = _ties_module() if isinstance(run.doc_names, list) else None
    if many and ties is not None and np.bincount(group).max() > LARGEST_TIE:
        ties = None  # (one tie of thousands of lines: sorting its names one by one costs more than in bulk)
    names = run.doc_names
    within = None if ties is None else ties.names_descending(names, doc[lines].astype(np.int64), group)
    if within is None:
        if many:
            return None
        rank = np.empty(len(pos), dtype=np.int64)
        rank[name_order([names[d] for d in doc[lines].tolist()])] = np.arange(len(pos))
        within = np.lexsort((-rank, group))
    order = order.copy()
    order[pos] = lines[within]
    return order


class LineNumbers:
    """The line numbers of entries read from a file in which every line is an entry (no blank or comment
    line): entry ``k`` is line ``k + 1``.  Indexes like the line column it stands for, without storing one
    (4 bytes a line: 8 MB for a 2M-line run), since lines are only named in messages.

    >>> LineNumbers(5)[2], LineNumbers(5)[np.array([0, 4])].tolist(), len(LineNumbers(5))
    (3, [1, 5], 5)
    """

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k):
        if isinstance(k, (int, np.integer)):
            if not -self.n <= k < self.n:
                raise IndexError(f"line index {k} out of range for {self.n} lines")
            return int(k) % self.n + 1
        return np.arange(1, self.n + 1, dtype=np.int64)[k]

    def __array__(self, dtype=None, copy=None):
        return np.arange(1, self.n + 1, dtype=dtype or np.int64)

    def __reduce__(self):
        return LineNumbers, (self.n,)


def name_order(names: list[str]) -> np.ndarray:
    """The indices that sort distinct ``names`` as strings (code point order, which is also the order of their
    UTF-8 bytes, trec_eval's ``strcmp``).

    ASCII names (the usual document ids) are compared as big-endian 64-bit words of their bytes, zero-padded:
    integer sorts, ~3x faster than numpy's string sort; others are sorted as numpy strings.

    Examples
    --------
    >>> name_order(["b", "a10", "a9", "a1"]).tolist()
    [3, 1, 2, 0]
    """
    if not names:
        return np.zeros(0, dtype=np.int64)
    joined = "".join(names)
    if joined.isascii() and "\0" not in joined:  # (padding is zeros: a name with a NUL would compare wrongly)
        raw = np.array(names, dtype="S")
        width = -(-raw.itemsize // 8) * 8
        if width != raw.itemsize:
            raw = raw.astype(f"S{width}")
        words = raw.view(">u8").reshape(len(raw), width // 8)
        return np.argsort(words[:, 0]) if width == 8 else np.lexsort(words.T[::-1])
    return np.argsort(np.array(names), kind="stable")


#: Entries handled at a time where a step needs temporary arrays of its own (look-ups, tie checks).
CHUNK = 1 << 18


def _has_ties(key: np.ndarray, order: np.ndarray) -> bool:
    """Whether ``key`` in the sorted ``order`` has two equal neighbours (a chunk at a time)."""
    for a in range(0, len(order) - 1, CHUNK):
        k = key.take(order[a : a + CHUNK + 1])
        if (k[1:] == k[:-1]).any():
            return True
    return False
