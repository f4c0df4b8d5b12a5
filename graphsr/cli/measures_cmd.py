"""List the measures graphsr computes: name, cut-off, parameters and definition.

Every name printed parses back (``graphsr eval -m NAME``); ``--family``
limits the list to one family (sr, esr, fol).
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--family", choices=["sr", "esr", "fol"], help="only this family")


def _fmt(v) -> str:
    from ..measures.base import format_param as fmt

    return "none" if v is None else fmt(v)


def run(args: argparse.Namespace) -> int:
    from ..measures import registry

    out = sys.stdout
    families = {"sr": "Structural Relevance (CIKM'08)", "esr": "Extended Structural Relevance (IRJ)",
                "fol": "official INEX passage measures (FOL assessments)"}
    reg = registry()
    for family, title in families.items():
        if args.family and family != args.family:
            continue
        names = sorted(n for n, cls in reg.items() if cls.FAMILY == family and cls.NAME == n)
        if not names:
            continue
        out.write(f"{title}\n")
        for name in names:
            cls = reg[name]
            aliases = sorted(a for a, c in reg.items() if c is cls and a != name)
            form = name + (f"[{cls.BRACKET}]" if getattr(cls, "BRACKET", None) else "")
            form += {"required": "@k", "optional": "[@k]", "none": ""}[cls.CUTOFF]
            params = ", ".join(  # a default of None may be the class's own (e.g. ESR's rel)
                f"{k}={_fmt(p.default if p.default is not None else getattr(cls, f'DEFAULT_{k.upper()}', None))}"
                for k, p in cls.SUPPORTED_PARAMS.items() if k != getattr(cls, "BRACKET", None))
            out.write(f"  {form:<22} {cls.DESCRIPTION}\n")
            if aliases:
                out.write(f"  {'':<22} also named: {', '.join(aliases)}\n")
            if params:
                out.write(f"  {'':<22} parameters: {params}\n")
            if getattr(cls, "TASKS", None):
                out.write(f"  {'':<22} tasks: {', '.join(cls.TASKS)}\n")
        out.write("\n")
    return 0
