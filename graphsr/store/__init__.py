"""Property-graph persistence: a zero-set-up local FalkorDB and Neo4j, one set of Cypher queries.

Schema (version 2; every node but an element has an ``id`` computed by graphsr, elements an integer ``key``,
see :mod:`graphsr.store.ids`):

================  ===========================================================
node label        properties
================  ===========================================================
Store             version (of this schema), next_document (the next code)
Collection        name, path, documents, elements, marked (documents carry writing)
Document          docid, collection, code (unique in the store), elements,
                  length, stored (elements stored?), complete (summary kinds
                  whose memberships are written), writing (its elements are
                  being written; cleared with complete)
Element           key (its document's code * 2**32 + pre), pre (pre-order
                  number, root = 1), tag, depth, offset, length (INEX
                  characters), in_p_star, in_p_star_c, in_c, in_tag (the SID
                  of its summary node of each kind stored)
Summary           kind, collection, nodes, edges, documents, elements
SummaryNode       summary, sid, label, path (label path), tag, children (child
                  label set), has_children, extent_size, content_length
Model             name, collection, summary, kind, weight, solver, source,
                  params (JSON)
Study, Route,     a navigation study's routes (route_id, user_id, topic_id)
Step              and steps (seq, duration_ms, time)
Qrels, Topic      assessments; Run: a run
================  ===========================================================

An element's XPath and document id are not stored: graphsr derives them from
its document's elements (pre-order, depth and tag give the tree) and from the
Document whose code its key holds.

Relationships: (Collection)-[:HAS_DOCUMENT]->(Document)-[:ROOT]->(Element),
(Element)-[:CHILD]->(Element), (Collection)-[:HAS_SUMMARY]->(Summary)-[:HAS_NODE]->
(SummaryNode), (SummaryNode)-[:SUMMARY_EDGE {pairs, child_length}]->(SummaryNode),
(Model)-[:OF_SUMMARY]->(Summary), (Model)-[:PI {value}]->(SummaryNode),
(SummaryNode)-[:WEIGHT {model, value}]->(SummaryNode),
(Study)-[:HAS_ROUTE]->(Route)-[:HAS_STEP]->(Step)-[:FROM|TO]->(Element),
(Qrels)-[:HAS_TOPIC]->(Topic)-[:ASSESSES {rel}]->(Element),
(Run)-[:RETURNS {topic, rank, score}]->(Element).
"""

from .base import NODE_LABELS, RELATIONSHIP_TYPES, GraphStore, StoreError
from .load import LoadReport, store_assessments, store_collection, store_run, store_steps, store_summary
from .services import (collection_info, drop_collection, list_collections, drop_model, drop_study, list_models, list_summaries,
                       model_record, require_elements, save_element_model, save_model, stored_document,
                       stored_summary, study_routes, summary_extent, transitions)
from .url import default_store_url, open_store, stop_store

__all__ = ["NODE_LABELS", "RELATIONSHIP_TYPES", "GraphStore", "StoreError", "LoadReport", "store_assessments",
           "store_collection", "store_run", "store_steps", "store_summary", "collection_info", "list_models",
           "list_summaries", "model_record", "require_elements", "save_model", "save_element_model", "stored_document", "stored_summary",
           "study_routes", "summary_extent", "transitions", "default_store_url", "open_store", "drop_collection", "drop_model", "drop_study", "stop_store", "list_collections"]
