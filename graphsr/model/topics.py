"""Topic ids."""

from __future__ import annotations

__all__ = ["topic_sort_key"]


def topic_sort_key(topic: str):
    """Natural order of topic ids: numbers numerically, then the rest as text.

    >>> sorted(["10", "9", "b", "a"], key=topic_sort_key)
    ['9', '10', 'a', 'b']
    """
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)
