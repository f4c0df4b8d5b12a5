"""Collections listed once per evaluation: while :func:`listings_kept` holds, :func:`graphsr.io.collection.
list_collection` keeps each collection's listing, so that what one evaluation reads of a collection in two places
(the judgments' lengths, then the trees and summaries) comes from one listing.  Outside it each listing is made
when asked for (a collection may change between evaluations).  A module of its own: an evaluation opens the
scope without importing the collection reader (and lxml) it may not need."""

from __future__ import annotations

import contextlib
import contextvars

__all__ = ["listings_kept", "kept_listings"]

_LISTINGS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("graphsr_listings", default=None)


@contextlib.contextmanager
def listings_kept():
    """The block in which each collection is listed once (see the module docstring)."""
    token = _LISTINGS.set({})
    try:
        yield
    finally:
        _LISTINGS.reset(token)


def kept_listings() -> dict | None:
    """The listings kept by real path in the current scope, or None outside one."""
    return _LISTINGS.get()
