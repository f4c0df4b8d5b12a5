"""Receipts: what a write left in the store, counted along the store's own relationships, against what it meant
to write.  Every write that can lose or mix data (a load, an export, a study's routes) checks one and fails
loudly (:class:`~graphsr.store.base.StoreError`, exit 3) on a difference.
"""

from __future__ import annotations

from .base import GraphStore, StoreError
from .ids import collection_id

__all__ = ["collection_holdings", "check_receipt"]


def collection_holdings(store: GraphStore, name: str) -> dict[str, int]:
    """What the store holds for collection ``name``, per label and relationship type, counted along the
    collection's relationships (not along the export's listing), and the tree's and routes' invariants: a
    stored document's elements are one ROOT and a CHILD edge for every other element; a step has one FROM and
    one TO edge."""
    cid = collection_id(name)
    [d] = store.run("export_holds_Document", id=cid)
    [s] = store.run("export_holds_Summary", id=cid)
    [m] = store.run("export_holds_Model", name=name)
    [w] = store.run("export_holds_WEIGHT", models=list(m["ids"] or []))
    [st] = store.run("export_holds_Study", name=name)
    [q] = store.run("export_holds_Qrels", name=name)
    [x] = store.run("export_holds_Run", name=name)
    if st["from_edges"] != st["steps"] or st["to_edges"] != st["steps"]:
        raise StoreError(
            f"collection {name!r}: its studies' {st['steps']} steps have {st['from_edges']} FROM and "
            f"{st['to_edges']} TO edges (one each expected): a study mixes two logs; reload it with "
            "'graphsr store routes --replace'"
        )
    roots = int(d["roots"] or 0)
    return {
        "Store": 1,
        "Collection": 1,
        "Document": d["documents"],
        "Element": int(d["elements"] or 0),
        "Summary": s["summaries"],
        "SummaryNode": s["nodes"],
        "Model": m["models"],
        "Study": st["studies"],
        "Route": st["routes"],
        "Step": st["steps"],
        "Qrels": q["qrels"],
        "Topic": q["topics"],
        "Run": x["runs"],
        "HAS_DOCUMENT": d["documents"],
        "ROOT": roots,
        "CHILD": max(int(d["elements"] or 0) - roots, 0),
        "HAS_SUMMARY": s["summaries"],
        "HAS_NODE": s["nodes"],
        "SUMMARY_EDGE": s["edges"],
        "OF_SUMMARY": m["of_summary"],
        "PI": m["pi"],
        "WEIGHT": w["weights"],
        "HAS_ROUTE": st["routes"],
        "HAS_STEP": st["steps"],
        "FROM": st["steps"],
        "TO": st["steps"],
        "HAS_TOPIC": q["topics"],
        "ASSESSES": q["assessments"],
        "RETURNS": x["results"],
    }


def check_receipt(
    what: str, held: dict[str, int], own: dict[str, int], word: str = "wrote", consequence: str = "nothing was kept"
) -> None:
    """Raise :class:`StoreError` naming every label or type whose count in ``own`` (what the write read, wrote
    or computed: ``word``) differs from ``held`` (what the store holds; a missing count is 0), and saying
    ``consequence``."""
    wrong = [
        (k, own.get(k, 0), held.get(k, 0)) for k in dict.fromkeys([*held, *own]) if own.get(k, 0) != held.get(k, 0)
    ]
    if wrong:
        raise StoreError(
            f"{what} is incomplete, {consequence}: "
            + "; ".join(f"{k}: {word} {w:,}, the store holds {e:,}" for k, w, e in wrong)
        )
