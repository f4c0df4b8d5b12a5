"""Progress bars on stderr for passes over a collection (tqdm, imported only when a bar is shown)."""

from __future__ import annotations

__all__ = ["progress_bar"]


class _NoBar:
    """What a pass updates when no bar is shown."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, desc: str, enabled: bool, unit: str = "doc"):
    """A bar of ``total`` items (documents by default) labelled ``desc`` (``update(n)``, ``close()``); a no-op
    when not ``enabled``."""
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=desc, leave=False)
