// Collections, documents and element nodes.  Every node is keyed by an `id`
// string that graphsr computes (see graphsr/store/ids.py); MERGE on it makes
// every load idempotent.

// @name merge_collection
// A collection made by this version marks the documents whose elements are being written (Document.writing,
// set before and cleared with complete): only those can hold what an interrupted load left, so only those
// are deleted before a write.  A collection made before (no c.marked) has every incomplete document's
// elements deleted first, as then.
MERGE (c:Collection {id: $id})
ON CREATE SET c.name = $name, c.marked = true
SET c.path = $path, c.documents = $documents, c.elements = $elements
RETURN coalesce(c.marked, false) AS marked

// @name merge_documents
UNWIND $rows AS r
MATCH (c:Collection) WHERE c.id = r.collection
MERGE (d:Document {id: r.id})
ON CREATE SET d.docid = r.docid, d.collection = r.collection
SET d.elements = r.elements, d.length = r.length, d.stored = CASE WHEN r.stored THEN true ELSE coalesce(d.stored, false) END
MERGE (c)-[:HAS_DOCUMENT]->(d)

// Element nodes are written per document: a document whose elements are
// complete (for the summary kinds asked) is skipped; any other has what a
// previous, interrupted load left deleted and is written afresh.  The
// `complete` list is set last, so it is true only of finished documents.

// @name documents_state
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
RETURN d.id AS id, d.complete AS complete, coalesce(d.writing, false) AS writing

// @name mark_documents_writing
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
SET d.writing = true

// @name delete_document_elements
UNWIND $ids AS i
MATCH (e:Element) WHERE e.doc = i
DETACH DELETE e

// @name create_elements
UNWIND $rows AS r
CREATE (e:Element {id: r.id, doc: r.doc, docid: r.docid, pre: r.pre, xpath: r.xpath, tag: r.tag, depth: r.depth, offset: r.offset, length: r.length})
WITH e, r
UNWIND r.nodes AS node
MATCH (n:SummaryNode) WHERE n.id = node
CREATE (e)-[:MEMBER_OF]->(n)

// @name create_roots
UNWIND $rows AS r
MATCH (d:Document) WHERE d.id = r.doc
MATCH (e:Element) WHERE e.id = r.root
CREATE (d)-[:ROOT]->(e)

// @name create_children
UNWIND $rows AS r
MATCH (p:Element) WHERE p.id = r.parent
MATCH (c:Element) WHERE c.id = r.child
CREATE (p)-[:CHILD]->(c)

// The same writes for a store that other loads may write at the same time
// (Neo4j, where no writer lock is held): MERGE on the unique `id` of each
// element (the uniqueness constraint makes a concurrent duplicate impossible;
// relationships MERGE between bound nodes, which Neo4j locks), and instead of
// deleting an unfinished document's elements, only those a longer earlier
// version of the document left (pre beyond its size) go.  Any interleaving of
// two loads then ends in the same graph as one load.

// @name trim_document_elements
UNWIND $rows AS r
MATCH (e:Element) WHERE e.doc = r.doc AND e.pre > r.elements
DETACH DELETE e

// @name merge_elements
UNWIND $rows AS r
MERGE (e:Element {id: r.id})
SET e.doc = r.doc, e.docid = r.docid, e.pre = r.pre, e.xpath = r.xpath, e.tag = r.tag, e.depth = r.depth, e.offset = r.offset, e.length = r.length
WITH e, r
UNWIND r.nodes AS node
MATCH (n:SummaryNode) WHERE n.id = node
MERGE (e)-[:MEMBER_OF]->(n)

// @name merge_roots
UNWIND $rows AS r
MATCH (d:Document) WHERE d.id = r.doc
MATCH (e:Element) WHERE e.id = r.root
MERGE (d)-[:ROOT]->(e)

// @name merge_children
UNWIND $rows AS r
MATCH (p:Element) WHERE p.id = r.parent
MATCH (c:Element) WHERE c.id = r.child
MERGE (p)-[:CHILD]->(c)

// @name mark_documents_complete
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
SET d.complete = $kinds, d.writing = null

// @name collection
MATCH (c:Collection) WHERE c.id = $id
RETURN c.name AS name, c.path AS path, c.documents AS documents, c.elements AS elements

// @name collections
MATCH (c:Collection)
RETURN c.name AS name, c.path AS path, c.documents AS documents, c.elements AS elements
ORDER BY name

// @name document_elements
MATCH (e:Element) WHERE e.doc = $doc
RETURN e.pre AS pre, e.xpath AS xpath, e.tag AS tag, e.depth AS depth, e.offset AS offset, e.length AS length
ORDER BY pre

// Documents whose elements are stored without their memberships of summary kind $kind (stored with other kinds).
// @name documents_missing_kind
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document)
WHERE c.id = $id AND d.complete IS NOT NULL AND size(d.complete) > 0 AND NOT $kind IN d.complete
RETURN count(d) AS n
