"""Exception types shared by every layer of graphsr.

Every error caused by what a user gave us (a file, a measure name, a model
specification) derives from :class:`GraphsrInputError`; the command line
turns those into a one-line message and exit code 2.  Errors in files carry
the file name and, where one exists, the 1-based line number, and say what
was expected and what arrived.
"""

from __future__ import annotations

from os import PathLike

__all__ = [
    "GraphsrError",
    "GraphsrInputError",
    "CollectionError",
    "RunFormatError",
    "RunRuleError",
    "QrelsFormatError",
    "RouteLogError",
    "UnknownNodeError",
    "XPathError",
    "DuplicateResultError",
    "MeasureNameError",
    "ModelSpecError",
    "ConvergenceError",
    "StoreError",
    "StoreLimitError",
]


class GraphsrError(Exception):
    """Base class of every error raised by graphsr."""


class GraphsrInputError(GraphsrError, ValueError):
    """Bad input: a file, a name or an option that cannot be used as given.

    Parameters
    ----------
    message : str
        What was expected and what arrived.
    path : str or path-like, optional
        The file the problem is in.
    line : int, optional
        1-based line number in ``path``.
    """

    def __init__(self, message: str, path: str | PathLike | None = None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
            where += ": "
        return where + self.message


class CollectionError(GraphsrInputError):
    """A collection cannot be read: empty, malformed XML or duplicate document ids."""


class RunFormatError(GraphsrInputError):
    """A run file line does not follow the run format."""


class RunRuleError(RunFormatError):
    """A passage run breaks a rule the official INEX tool enforces for its task (inex-rules §0).

    Raised by the measures with the indices of the results involved; the
    evaluation re-raises it naming the file, line, topic and article.

    Parameters
    ----------
    kind : str
        ``overlap`` (a passage shares characters with an earlier passage of its
        article), ``interleave`` (an article ranked again after another) or
        ``repeat`` (a second Best in Context result for an article).
    result, earlier : int
        The offending result and the earlier result it conflicts with.
    tasks : list of str
        The tasks whose rule it breaks.
    """

    def __init__(
        self, kind: str, result: int, earlier: int, tasks=(), message: str | None = None, path=None, line=None
    ):
        self.kind, self.result, self.earlier, self.tasks = kind, result, earlier, list(tasks)
        super().__init__(
            message or f"result {result} breaks the {kind} rule of task(s) {', '.join(self.tasks)}", path, line
        )


class QrelsFormatError(GraphsrInputError):
    """An assessment (qrels) file line does not follow the qrels format."""


class DuplicateJudgmentError(QrelsFormatError):
    """An assessment file judges one document (or node) twice for a topic."""


class RouteLogError(GraphsrInputError):
    """A navigation log line does not follow the log format."""


class UnknownNodeError(GraphsrInputError):
    """A run or qrels line names a document or XPath the collection does not have."""


class XPathError(GraphsrInputError):
    """A string is not an XPath graphsr reads (an absolute path of ``tag[n]`` steps)."""


class DuplicateResultError(GraphsrInputError):
    """A run returns the same node twice in one result, or the same result twice."""


class MeasureNameError(GraphsrInputError):
    """A measure string cannot be parsed, names an unknown measure or a bad parameter."""


class ModelSpecError(GraphsrInputError):
    """A navigation model specification (``SUMMARY:WEIGHT``) is not understood."""


class ConvergenceError(GraphsrError):
    """A numerical procedure (e.g. a stationary-distribution solve) failed."""


class StoreError(GraphsrError, RuntimeError):
    """The database refused or failed a query (message includes the query name)."""


class StoreLimitError(StoreError):
    """A query went past a limit the store's server enforces (its memory, its time): the server ended it and
    the store is as it was (exit 3, as every store error)."""
