"""The official tool's report: every line inex_eval 3.1 prints for a task, with its names and order.

For each run: with per-topic lines (``-q``) each evaluated topic's block, then
the ``all`` block (inex-rules §3).  Focused and thorough::

    per topic: num_ret num_rel num_rel_ret ret_size rel_size rel_ret_size
               art_prec art_rec art_f1 char_prec char_rec char_f1
               iP[0.00] iP[0.01] iP[0.05] iP[0.10] AiP
    all:       num_q, the same (MAiP for AiP), ircl_prn.0.00 .. ircl_prn.1.00 (101 levels)

Relevant in Context, T2I and Best in Context::

    per topic: the six counts, gP[1] gR[1] gP[2] gR[2] ... gP[50] gR[50], AgP
    all:       num_q, the six counts, MAgP, the gP/gR pairs, ircl_prn.0.00 .. ircl_prn.1.00 (11 levels)

Values are the measures of :mod:`graphsr.measures.fol` with the
task's parameters; counts print as integers, other values in full, as the
tool prints them (Java's ``Double.toString``: the shortest digits that read
back to the same double, ``7.5E-4`` below 1e-3), so the lines can be
compared with the tool's output as text.
"""

from __future__ import annotations

from ..measures.base import Measure
from ..measures.parse import parse_measure
from ..measures.fol import COUNTS, OFFICIAL_TOPICS, RATIOS, SCORE_PARAM, MAgP, MAiP, gP, gR
from ..measures.fol.params import BEP_DISTANCE, BETA, IRR
from .results import RunResult

__all__ = ["official_measures", "official_lines", "format_value", "java_double", "CONTEXT_RANKS"]

CONTEXT_RANKS = (1, 2, 3, 5, 10, 25, 50)
_FOCUSED_LEVELS = ("0.00", "0.01", "0.05", "0.10")


def official_measures(
    task: str = "focused", beta: float = BETA.default, irr: int = IRR.default, n: float = BEP_DISTANCE.default
) -> list[tuple[str, str, Measure]]:
    """``(per-topic name, all name, measure)`` of every line the tool prints for ``task``, in its order
    (``num_q`` aside; a per-topic name of None: the line is printed for ``all`` only)."""
    t = "" if task == "focused" else f"task={task}"
    if task in SCORE_PARAM:
        name, default = SCORE_PARAM[task]
        value = {"beta": beta, "irr": irr, "n": n}[name]
        scored = ",".join(filter(None, [t, f"{name}={value!r}" if value != default else ""]))
    else:
        scored = t

    def m(base: str, args: str = "", suffix: str = "") -> Measure:
        return parse_measure(base + (f"({args})" if args else "") + suffix)

    out = [(c, c, m(c, t)) for c in COUNTS]
    if task in ("focused", "thorough"):
        out += [(r, r, m(r, t)) for r in RATIOS]
        out += [(f"iP[{x}]", f"iP[{x}]", m(f"iP[{x}]", t)) for x in _FOCUSED_LEVELS]
        out.append((MAiP.TOPIC_LABEL, MAiP.NAME, m(MAiP.NAME, t)))
        out += [(None, f"ircl_prn.{j / 100:.2f}", m(f"ircl_prn[{j / 100:.2f}]", t)) for j in range(101)]
        return out
    context = [(MAgP.TOPIC_LABEL, MAgP.NAME, m(MAgP.NAME, scored))]
    for k in CONTEXT_RANKS:
        context.append((f"{gP.NAME}[{k}]", f"{gP.NAME}[{k}]", m(gP.NAME, scored, f"@{k}")))
        context.append((f"{gR.NAME}[{k}]", f"{gR.NAME}[{k}]", m(gR.NAME, t, f"@{k}")))
    levels = [(None, f"ircl_prn.{j / 10:.2f}", m(f"ircl_prn[{j / 10:.2f}]", scored)) for j in range(11)]
    # per topic, AgP closes the block; for "all", MAgP opens the scores
    return out + context + levels


def format_value(m: Measure, v: float) -> str:
    """A count as an integer, anything else in full, as Java's ``Double.toString`` (the tool's text).

    >>> from graphsr.measures import parse_measure
    >>> [format_value(parse_measure("MAiP"), v) for v in (0.948, 1.0, 0.0, 7.5e-4, 1.25e-05)]
    ['0.948', '1.0', '0.0', '7.5E-4', '1.25E-5']
    >>> format_value(parse_measure("num_rel_ret"), 1746.0)
    '1746'
    """
    return str(int(round(v))) if m.INTEGER else java_double(float(v))


def java_double(v: float) -> str:
    """``v`` as Java's ``Double.toString`` prints it: the shortest digits that read back to ``v``,
    in plain notation for 1e-3 <= |v| < 1e7 (at least one decimal), else as ``d.dddE<exp>``."""
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    a = abs(v)
    if a == 0.0 or 1e-3 <= a < 1e7:
        return repr(v)  # Python's repr is plain notation (with '.0' for integers) in this range
    from decimal import Decimal

    sign, digits, exp = Decimal(repr(v)).normalize().as_tuple()
    text = "".join(map(str, digits))
    power = len(text) - 1 + exp
    return ("-" if sign else "") + text[0] + "." + (text[1:] or "0") + f"E{power}"


def official_lines(
    result: RunResult, table: list[tuple[str, str, Measure]], per_topic: bool = False
) -> list[tuple[str, str, str]]:
    """The tool's lines ``(name, topic, value)`` for one evaluated run, in its order."""
    lines: list[tuple[str, str, str]] = []
    if per_topic:
        topic_rows = [(name, m) for name, _, m in table if name is not None]
        last = MAgP.TOPIC_LABEL  # AgP is the last per-topic line
        topic_rows = [row for row in topic_rows if row[0] != last] + [row for row in topic_rows if row[0] == last]
        for k, topic in enumerate(result.topics):
            for name, m in topic_rows:
                lines.append((name, topic, format_value(m, result.values[m][k])))
    lines.append((OFFICIAL_TOPICS, "all", str(len(result.topics))))
    for _, name, m in table:
        lines.append((name, "all", format_value(m, result.mean(m))))
    return lines
