"""How a figure's text is laid out and checked: wrapping titles and labels to the room they have
(:func:`_wrap_texts`), placing point labels where they collide with nothing (:func:`_place_labels`), what is
wrong with the text as drawn (:func:`layout_problems`: past the figure's edges, or overlapping), and the text
colour that reads on a background (:func:`text_colour`, WCAG contrast)."""

from __future__ import annotations

import numpy as np

__all__ = ["drawn_texts", "layout_problems", "text_colour", "shown_px", "shown_scale", "DPI", "SMALLEST_PX"]


def _fit(text, room: float) -> bool:
    """Wrap ``text`` (a matplotlib Text) at word boundaries until it is at most ``room`` pixels wide (along its
    direction); whether it was wrapped."""
    import textwrap

    renderer = text.figure.canvas.get_renderer()
    vertical = abs(text.get_rotation() % 180 - 90) < 1
    wrapped = False
    for _ in range(8):
        content = text.get_text()
        box = text.get_window_extent(renderer)
        size = box.height if vertical else box.width
        if not content or size <= room or room <= 20:
            break
        longest = max(map(len, content.split("\n")))
        chars = max(8, min(longest - 1, int(longest * room / size) - 1))
        original = getattr(text, "_unwrapped", content)  # (its own line breaks kept; each wrap starts afresh)
        text._unwrapped = original
        text.set_text("\n".join(textwrap.fill(line, chars, break_on_hyphens=False) for line in original.split("\n")))
        wrapped = True
    return wrapped


def _wrap_texts(fig) -> bool:
    """Wrap each axes' title (centred over its axes, which long tick labels push right: it may have less room
    than the figure is wide), the figure's title, and the axis labels (to their axes' length) that do not fit;
    whether any was wrapped."""
    renderer = fig.canvas.get_renderer()
    width = fig.bbox.width
    wrapped = False
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        title = ax.title
        if title.get_text():
            t = title.get_window_extent(renderer)
            centre = (t.x0 + t.x1) / 2
            wrapped |= _fit(title, 2 * min(centre, width - centre) - 8)
        if ax.xaxis.label.get_text():
            wrapped |= _fit(ax.xaxis.label, max(box.width, 0.6 * width))
        if ax.yaxis.label.get_text():
            wrapped |= _fit(ax.yaxis.label, box.height)
    if getattr(fig, "_suptitle", None) is not None:
        wrapped |= _fit(fig._suptitle, width - 8)
    return wrapped


def _place_labels(ax, points, texts, fontsize: float = 7) -> int:
    """Write each text beside its point at the first of eight positions round it where it overlaps no label
    placed before, no point and stays within the axes; a text with no such position is left off.  Returns how
    many were left off."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    marks = [ax.transData.transform(p) for p in points]
    placed: list = []
    left_off = 0
    offsets = [(4, 4), (4, -4), (-4, 4), (-4, -4), (6, 0), (-6, 0), (0, 7), (0, -7)]
    for (x, y), text in zip(points, texts):
        for dx, dy in offsets:
            label = ax.annotate(
                text,
                (x, y),
                xytext=(dx, dy),
                textcoords="offset points",
                fontsize=fontsize,
                ha="left" if dx > 0 else "right" if dx < 0 else "center",
                va="bottom" if dy > 0 else "top" if dy < 0 else "center",
            )
            box = label.get_window_extent(renderer)
            clear = (
                box.x0 >= inside.x0
                and box.x1 <= inside.x1
                and box.y0 >= inside.y0
                and box.y1 <= inside.y1
                and not any(box.overlaps(b) for b in placed)
                and not any(box.x0 - 2 <= mx <= box.x1 + 2 and box.y0 - 2 <= my <= box.y1 + 2 for mx, my in marks)
            )
            if clear:
                placed.append(box)
                break
            label.remove()
        else:
            left_off += 1
    return left_off


def drawn_texts(fig) -> list:
    """The figure's texts as drawn: visible, not empty, and (tick labels) at a tick within the axis' view."""
    from matplotlib.text import Text

    fig.draw_without_rendering()  # (places every text as a draw would, painting nothing)
    ticks, out = set(), []
    for ax in fig.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            lo, hi = sorted(limits)
            slack = 1e-9 * max(hi - lo, 1e-300)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    ticks.add(id(label))
                    shown = label.get_visible() and tick.get_visible() and label.get_text().strip()
                    if shown and lo - slack <= tick.get_loc() <= hi + slack:
                        out.append(label)
    for text in fig.findobj(Text):
        if id(text) not in ticks and text.get_visible() and text.get_text().strip():
            out.append(text)
    return out


#: The dots an inch a report's figures are drawn at, and the widest the report's page shows one (its 1,100 px column
#: less its margins): a wider figure is shown smaller, and its text with it.
DPI = 110
PAGE_PX = 1068
#: The smallest a figure's text may be, as the page shows it (CSS pixels of font size).
SMALLEST_PX = 9.0


def shown_scale(fig) -> float:
    """How much smaller than drawn the report's page shows ``fig`` (1 where it fits the page's column)."""
    return min(1.0, PAGE_PX / (fig.get_figwidth() * DPI))


def shown_px(fig, points: float) -> float:
    """A font size of ``points`` as the report's page shows it, in pixels."""
    return points * DPI / 72 * shown_scale(fig)


def layout_problems(fig) -> list[str]:
    """What is wrong with the figure's text as rendered: a text running past the figure's edges, two texts
    overlapping, or a text smaller than :data:`SMALLEST_PX` as the report's page shows it (an empty list for a
    figure without flaws)."""
    renderer = fig.canvas.get_renderer()
    texts = drawn_texts(fig)
    boxes = np.array([tuple(t.get_window_extent(renderer).extents) for t in texts], dtype=float).reshape(-1, 4)
    width, height = fig.bbox.width, fig.bbox.height
    problems = []
    for t in texts:
        px = shown_px(fig, t.get_fontsize())
        if px < SMALLEST_PX - 1e-9:
            problems.append(f"{t.get_text()!r} is {px:.1f} px as the page shows it (at least {SMALLEST_PX:g})")
    for t, (x0, y0, x1, y1) in zip(texts, boxes):
        if x0 < -0.5 or y0 < -0.5 or x1 > width + 0.5 or y1 > height + 0.5:
            problems.append(f"{t.get_text()!r} runs past the figure's edge ({x0:.0f}..{x1:.0f} of {width:.0f})")
    across = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    up = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    for i, j in zip(*np.nonzero(np.triu((across > 0.5) & (up > 0.5), k=1))):
        problems.append(f"{texts[i].get_text()!r} overlaps {texts[j].get_text()!r}")
    return problems


def _contrast(rgb) -> float:
    """The WCAG relative luminance of an sRGB colour (components in [0, 1])."""
    c = np.asarray(rgb[:3], dtype=float)
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


def text_colour(background) -> tuple[str, float]:
    """Black or white, whichever contrasts more with ``background`` (an RGB(A) colour), and the WCAG contrast
    ratio it gives (at least 4.58 for any background: above AA's 4.5).

    >>> colour, ratio = text_colour((0.0, 0.0, 0.5))  # navy, #000080: 16:1 against white
    >>> colour, round(ratio, 2)
    ('white', 16.04)
    """
    lum = _contrast(background)
    black, white = (lum + 0.05) / 0.05, 1.05 / (lum + 0.05)
    return ("black", black) if black >= white else ("white", white)
