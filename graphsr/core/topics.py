"""Topic ids."""

from __future__ import annotations

__all__ = ["topic_sort_key", "select_topics", "missing_topics_warning"]


def topic_sort_key(topic: str):
    """Natural order of topic ids: numbers numerically, then the rest as text.

    >>> sorted(["10", "9", "b", "a"], key=topic_sort_key)
    ['9', '10', 'a', 'b']
    """
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)


def select_topics(run_topics, judged, all_topics: bool = False) -> tuple[list[str], list[str]]:
    """The topics to average (trec_eval's rule) and the run's topics without assessments, both sorted.

    By default the run's topics that have assessments; with ``all_topics``
    (``-c``) every judged topic (one the run lacks scores 0).

    >>> select_topics(["3", "10", "7"], {"3", "7", "9"})
    (['3', '7'], ['10'])
    >>> select_topics(["3"], {"3", "7", "9"}, all_topics=True)
    (['3', '7', '9'], [])
    """
    judged = set(judged)
    present = list(dict.fromkeys(run_topics))
    chosen = judged if all_topics else (t for t in present if t in judged)
    return sorted(chosen, key=topic_sort_key), sorted((t for t in present if t not in judged), key=topic_sort_key)


def missing_topics_warning(run: str | None, missing: list[str]) -> str:
    """The warning for run topics that have no assessments (one wording for every measure family)."""
    return (
        (f"{run}: " if run else "")
        + f"{len(missing)} run topic(s) have no assessments and are ignored: "
        + ", ".join(missing[:10])
        + (" ..." if len(missing) > 10 else "")
    )
