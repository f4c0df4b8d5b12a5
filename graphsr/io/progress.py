"""Progress bars on stderr for passes over a collection (tqdm, imported only when a bar is shown)."""

from __future__ import annotations

__all__ = ["progress_bar"]


class _NoBar:
    """What a pass updates when no bar is shown."""

    def update(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


class _Bar:
    """A tqdm bar with :meth:`note`: a short text after the counts (e.g. the elements read so far), shown when
    the bar redraws."""

    def __init__(self, total: int, desc: str, unit: str):
        from tqdm import tqdm

        self._bar = tqdm(
            total=total,
            unit=unit,
            desc=desc,
            leave=False,
            unit_scale=unit == "B",
            unit_divisor=1024 if unit == "B" else 1000,
        )

    def update(self, n: int = 1) -> None:
        self._bar.update(n)

    def note(self, text: str) -> None:
        self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        self._bar.close()


def progress_bar(total: int, desc: str, enabled: bool, unit: str = "doc"):
    """A bar of ``total`` items (documents by default; ``unit='B'``: bytes, scaled) labelled ``desc``
    (``update(n)``, ``note(text)``, ``close()``); a no-op when not ``enabled``."""
    if not enabled:
        return _NoBar()
    return _Bar(total, desc, unit)
