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
    p.add_argument(
        "--format",
        choices=["text", "json"],
        default="text",
        help="text (default), or json: every measure with its parameters (name, type, default, "
        "choices, range), cut-off rule, bounds and aliases, the machine-readable declaration",
    )


def _fmt(v) -> str:
    from ..measures.base import format_param as fmt

    return "none" if v is None else fmt(v)


def run(args: argparse.Namespace) -> int:
    from ..errors import GraphsrInputError
    from ..measures import providers, registry
    from ..measures.base import measure_classes

    out = sys.stdout
    reg = registry()
    families = providers()
    if args.family and args.family not in families:
        raise GraphsrInputError(f"unknown measure family {args.family!r}; families: {', '.join(families)}")
    if args.format == "json":
        import json

        json.dump(declarations(args.family), out, indent=1, ensure_ascii=False)
        out.write("\n")
        return 0
    for family, provider in families.items():
        if args.family and family != args.family:
            continue
        names = sorted(n for n, cls in measure_classes().items() if cls.FAMILY == family)
        if not names:
            continue
        out.write(
            f"{provider.TITLE or family} [{family}]: {' or '.join(sorted(provider.ASSESSMENTS))} "
            f"assessments, {' or '.join(sorted(provider.RUNS))} runs\n"
        )
        for name in names:
            cls = reg[name]
            aliases = sorted(a for a, c in reg.items() if c is cls and a != name)
            form = name + (f"[{cls.BRACKET}]" if cls.BRACKET else "")
            form += {"required": "@k", "optional": "[@k]", "none": ""}[cls.CUTOFF]
            if cls.AT_PARAM != "cutoff":  # IPrec@0.5: the @ sets a parameter
                form += "@x"
            params = ", ".join(  # a default of None may be the class's own (e.g. ESR's rel)
                f"{k}={_fmt(p.default if p.default is not None else getattr(cls, f'DEFAULT_{k.upper()}', None))}"
                for k, p in cls.SUPPORTED_PARAMS.items()
                if k not in (cls.BRACKET, cls.AT_PARAM)
            )
            out.write(f"  {form:<22} {cls.DESCRIPTION}\n")
            if aliases:
                out.write(f"  {'':<22} also named: {', '.join(aliases)}\n")
            if params:
                out.write(f"  {'':<22} parameters: {params}\n")
            if getattr(cls, "TASKS", None):
                out.write(f"  {'':<22} tasks: {', '.join(cls.TASKS)}\n")
        out.write("\n")
    if not args.family or args.family == "flat":
        _trec_names(out)
    return 0


def _trec_names(out) -> None:
    """trec_eval's names, and the graphsr measures they stand for (from the name table the parser reads)."""
    from ..measures.parse import TREC_NAMES, TREC_NICKNAMES, trec_label

    out.write("trec_eval's names, reported under the name asked for (-m map prints map):\n")
    for name, (target, param, defaults, *fixed) in TREC_NAMES.items():
        if param is None or param in ("beta", "coefficients"):
            form = name if param is None else f"{name}.{'beta' if param == 'beta' else 'a,b,c,d'}"
            means = str(_target(target)) + (f"({', '.join(f'{k}={v}' for k, v in fixed[0].items())})" if fixed else "")
        elif param in ("recall", "mult"):
            form, means = f"{name}_x", f"{target}@x"
        else:
            form, means = f"{name}_k", f"{target}@k"
        if param is not None:
            labels = [trec_label(name, v) for v in defaults]
            shown = ", ".join(labels) if len(labels) <= 3 else f"{labels[0]}, {labels[1]}, ..., {labels[-1]}"
            means += f"; {name}.a,b,...: several; {name} alone: {shown}"
        out.write(f"  {form:<22} {means}\n")
    for nick, names in TREC_NICKNAMES.items():
        out.write(f"  {nick:<22} {' '.join(names)}\n")
    out.write(
        "  (num_ret, num_rel and num_rel_ret are the official INEX tool's article counts with passage or "
        "element assessments)\n"
    )


def _target(name: str):
    from ..measures.parse import parse_measure

    try:
        return parse_measure(name)
    except Exception:  # noqa: BLE001 -- a measure that needs its parameter
        return name


def declarations(family: str | None = None) -> list[dict]:
    """Every registered measure (of ``family``) as plain data: its name, family, description, cut-off rule, what
    ``@`` sets, bounds, aliases, parameters (name, type, default, choices, range, description) and an
    ``example``: the canonical string of one instance (a cut-off of 10, a level of 0.5 where it needs them),
    which parses back to that measure."""
    from ..measures import registry
    from ..measures.base import measure_classes

    reg = registry()
    out = []
    for name, cls in sorted(measure_classes().items(), key=lambda kv: kv[0].lower()):
        if family and cls.FAMILY != family:
            continue
        params = []
        for k, p in cls.SUPPORTED_PARAMS.items():
            default = p.default if p.default is not None else getattr(cls, f"DEFAULT_{k.upper()}", None)
            params.append(
                {
                    "name": k,
                    "type": p.dtype.__name__,
                    "default": default,
                    "choices": list(p.choices) if p.choices is not None else None,
                    "range": p.range,
                    "description": p.desc,
                    "bracket": k == cls.BRACKET,
                    "at": k == cls.AT_PARAM,
                }
            )
        out.append(
            {
                "name": name,
                "family": cls.FAMILY,
                "description": cls.DESCRIPTION,
                "cutoff": cls.CUTOFF,
                "at": cls.AT_PARAM,
                "bounds": list(cls.BOUNDS) if cls.BOUNDS else None,
                "aliases": sorted(a for a, c in reg.items() if c is cls and a != name),
                "parameters": params,
                "example": _example(cls),
            }
        )
    return out


def _example(cls) -> str:
    """The canonical string of one instance of measure class ``cls`` (see :func:`declarations`)."""
    kw = {}
    if cls.BRACKET:
        kw[cls.BRACKET] = 0.5
    if cls.AT_PARAM != "cutoff":
        kw[cls.AT_PARAM] = 0.5
    return str(cls(cutoff=10 if cls.CUTOFF == "required" else None, **kw).validate())
