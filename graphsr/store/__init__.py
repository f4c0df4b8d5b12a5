"""Property-graph persistence: a zero-set-up local FalkorDB and Neo4j, one set of Cypher queries.

The graph's labels, properties, relationships and indexes: ``docs/reference/schema.md``, generated from
:data:`graphsr.store.export.NODE_PROPERTIES`, :data:`graphsr.store.export.RELATIONSHIP_PROPERTIES` and the
index statements in ``cypher/``; keys and ids: :mod:`graphsr.store.ids`.
"""

from .base import NODE_LABELS, RELATIONSHIP_TYPES, GraphStore, StoreError, StoreLimitError
from .load import LoadReport, store_collection, store_summary
from .named import store_assessments, store_run
from .study_writes import store_steps
from .services import (
    collection_info,
    drop_collection,
    list_collections,
    drop_model,
    drop_study,
    list_models,
    list_summaries,
    model_record,
    save_element_model,
    save_model,
    stored_summary,
    study_routes,
    transitions,
)
from .trees import stored_document, stored_trees
from .resolve import require_elements
from .extents import summary_extent
from .url import default_store_url, open_store, stop_store

__all__ = [
    "NODE_LABELS",
    "RELATIONSHIP_TYPES",
    "GraphStore",
    "StoreError",
    "StoreLimitError",
    "LoadReport",
    "store_assessments",
    "store_collection",
    "store_run",
    "store_steps",
    "store_summary",
    "collection_info",
    "list_models",
    "list_summaries",
    "model_record",
    "require_elements",
    "save_model",
    "save_element_model",
    "stored_document",
    "stored_trees",
    "stored_summary",
    "study_routes",
    "summary_extent",
    "transitions",
    "default_store_url",
    "open_store",
    "drop_collection",
    "drop_model",
    "drop_study",
    "stop_store",
    "list_collections",
]
