"""List the measures graphsr computes: name, cut-off, parameters and definition.

Every name printed parses back (``graphsr eval -m NAME``); each family says
which assessments and runs it scores; ``--family`` limits the list to one
family (sr, esr, fol, ...).
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--family", metavar="NAME", help="only this family (sr, esr, fol, ...)")


def _fmt(v) -> str:
    from ..measures.base import format_param as fmt

    return "none" if v is None else fmt(v)


def run(args: argparse.Namespace) -> int:
    from ..errors import GraphsrInputError
    from ..measures import providers, registry

    out = sys.stdout
    reg = registry()
    families = providers()
    if args.family and args.family not in families:
        raise GraphsrInputError(f"unknown measure family {args.family!r}; families: {', '.join(families)}")
    for family, provider in families.items():
        if args.family and family != args.family:
            continue
        names = sorted(n for n, cls in reg.items() if cls.FAMILY == family and cls.NAME == n)
        if not names:
            continue
        out.write(f"{provider.TITLE or family} [{family}]: {' or '.join(sorted(provider.ASSESSMENTS))} "
                  f"assessments, {' or '.join(sorted(provider.RUNS))} runs\n")
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
