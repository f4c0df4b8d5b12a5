"""Each measure is declared once, and everything else reads the declaration.

* One class per name, in its family's declaration module; each trec_eval name in one place (a flat measure's
  ``TREC``, or :mod:`graphsr.measures.trec_eval.declared` for those no graphsr measure stands for), with its
  kernel.
* Every flat measure has one exact kernel (the ``graphsr trec_eval`` kernel of its trec_eval name, or, for a
  measure trec_eval lacks, its own fast path held to its reference tool) and at most one fast path
  (tests/test_flat_fast_paths.py holds each to the exact kernel).
* No module outside the declarations spells a measure's name: the trec_eval table, the kernel tables, the
  family namespaces and the index a name is loaded by are read from the declarations.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import graphsr
from graphsr.measures import parse_measure, provider_of
from graphsr.measures._index import FAMILY_OF
from graphsr.measures.base import FAMILY_PACKAGES, registry
from graphsr.measures.flat import FLAT_MEASURES, TREC_MORE
from graphsr.measures.trec_eval import kernels as trec_kernels
from graphsr.measures.trec_eval import prefs
from graphsr.measures.trec_eval.declared import TREC_ONLY
from graphsr.measures.trec_table import MEASURES as TREC

PACKAGE = Path(graphsr.__file__).parent
REGISTRY = registry()
CLASSES = list(dict.fromkeys(REGISTRY.values()))
#: Where measures are declared: each class's module, the trec_eval names no graphsr measure stands for, and the
#: index generated from them (tools/gen_docs.py; tests/test_docs.py checks it is current).
DECLARATIONS = {cls.__module__ for cls in CLASSES} | {
    "graphsr.measures.trec_eval.declared",
    "graphsr.measures._index",
}
#: Literals equal to a measure's name that are not one, each with what it is.
NOT_A_MEASURE = {
    ("graphsr.store.ids", "R"): "the id prefix of Route nodes",
    ("graphsr.store.ids", "P"): "the id prefix of Step nodes",
}


def _flat_instance(cls):
    """A valid instance of flat measure class ``cls`` (a cut-off or the value @ sets where one is needed)."""
    if cls.CUTOFF == "required":
        return cls(cutoff=5).validate()
    if cls.AT_PARAM != "cutoff":
        return cls(**{cls.AT_PARAM: 0.5}).validate()
    return cls().validate()


def test_each_name_is_one_class_declared_in_its_family():
    by_name = {}
    for cls in CLASSES:
        assert cls.NAME not in by_name, (cls, by_name.get(cls.NAME))
        by_name[cls.NAME] = cls
        module = cls.__module__.split(".")
        assert module[:2] == ["graphsr", "measures"] and module[2] in FAMILY_PACKAGES, cls
    current = {n: c.__module__.removeprefix("graphsr.measures.") for n, c in REGISTRY.items()}
    assert current == FAMILY_OF  # (the index is current)


def test_each_trec_eval_name_is_declared_once_with_its_kernel():
    declared = [form for cls in FLAT_MEASURES + TREC_MORE for form in cls.TREC] + list(TREC_ONLY)
    names = [form.name for form in declared]
    assert len(names) == len(set(names)) == len(TREC)
    assert len({form.order for form in declared}) == len(declared)  # (one place each in trec_eval's order)
    kernels = {f for m in (trec_kernels, prefs) for _, f in inspect.getmembers(m, inspect.isfunction)}
    for form in declared:
        # (a named kernel, never a lambda; a preference measure's names one of .prefs, imported at its first call)
        kernel = getattr(prefs, form.kernel.__name__, None) if form.reads == "prefs" else form.kernel
        assert form.shape == "id" or kernel in kernels, form.name
    for cls in FLAT_MEASURES + TREC_MORE:
        for form in cls.TREC:
            assert TREC[form.name].graphsr == cls.NAME


def test_names_shared_by_two_declarations_are_the_official_tools_counts():
    """num_ret, num_rel and num_rel_ret are the official INEX tool's article counts and trec_eval's document
    counts: read by the kind of assessments (graphsr.evaluation.entry.trec_counts).  Every other name both
    declare (P, Rprec, infAP, ...) is one measure's: trec_eval's name is graphsr's."""
    both = set(REGISTRY) & set(TREC)
    shared = sorted(n for n in both if TREC[n].graphsr != REGISTRY[n].NAME)
    assert shared == ["num_rel", "num_rel_ret", "num_ret"], shared
    assert all(REGISTRY[n].FAMILY == "fol" and TREC[n].graphsr is not None for n in shared), shared


@pytest.mark.parametrize("cls", FLAT_MEASURES + TREC_MORE, ids=lambda c: c.NAME)
def test_every_flat_measure_has_one_exact_kernel_and_at_most_one_fast_path(cls):
    m = _flat_instance(cls)
    exact, fast = m.exact(), cls.FAST
    assert exact is not None or fast is not None, m
    if exact is not None:
        assert exact.__module__ == trec_kernels.__name__, m
    if fast is not None:
        assert fast.__module__ == "graphsr.measures.flat.kernels", m
    assert "KERNELS" not in vars(trec_kernels) and "KERNELS" not in vars(cls)  # (no second table of kernels)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.NAME)
def test_every_measure_is_computed_by_its_familys_provider(cls):
    name = cls.NAME + ("@5" if cls.CUTOFF == "required" else "")
    bracket = getattr(cls, "BRACKET", None)
    if bracket and cls.CUTOFF != "required":
        name += "[0.5]"
    elif cls.AT_PARAM != "cutoff":
        name += "@0.5"
    try:
        m = parse_measure(name)
    except Exception:  # (a measure whose name needs more than this: its class is enough here)
        m = None
    assert provider_of(m if m is not None else cls).NAME == cls.FAMILY


def _spelled() -> dict[tuple[str, str], int]:
    """``(module, name)`` -> line of every string literal outside the declarations equal to a measure's name
    (graphsr's, its aliases, trec_eval's): f-string pieces are text, and declared parameter names (IPrec's
    ``recall``) are parameters."""
    names = set(REGISTRY) | set(TREC)
    params = {p for cls in CLASSES for p in cls.SUPPORTED_PARAMS} | {cls.AT_PARAM for cls in CLASSES}
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        if module in DECLARATIONS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        pieces = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in pieces
                and node.value in names
                and node.value not in params
            ):
                found.setdefault((module, node.value), node.lineno)
    return found


def test_no_module_outside_the_declarations_spells_a_measures_name():
    spelled = _spelled()
    unexplained = {k: line for k, line in spelled.items() if k not in NOT_A_MEASURE}
    assert not unexplained, unexplained
    assert set(NOT_A_MEASURE) <= set(spelled)  # (an explanation nothing needs is dropped)
