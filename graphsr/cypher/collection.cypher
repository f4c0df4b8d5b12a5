// Collections, documents and element nodes.  Collections and documents are keyed by an `id` string that
// graphsr computes (see graphsr/store/ids.py); MERGE on it makes every load idempotent.  Elements are keyed by
// an integer `key`: their document's `code` times 2^32 plus their pre-order number (root 1), so a document's
// elements are the keys code * 4294967296 + 1 .. (code + 1) * 4294967296 - 1.  Their summary memberships are
// properties (in_p_star, in_p_star_c, in_c, in_tag: the SID of their summary node of that kind).

// @name store_version
// the schema version of this store (none: an empty store, or one written before versions were kept)
OPTIONAL MATCH (s:Store) WHERE s.id = 'graphsr'
OPTIONAL MATCH (c:Collection)
RETURN s.version AS version, count(c) AS collections

// @name merge_store
// the Store node, made by the first load (before any collection: a store with collections and no Store node
// was written by an earlier graphsr)
MERGE (s:Store {id: 'graphsr'})
ON CREATE SET s.version = $version, s.next_document = 1

// @name allocate_document_codes
// $n new document codes, unique in the store (its Store node made by merge_store): the first is returned, the
// others follow it
MATCH (s:Store) WHERE s.id = 'graphsr'
SET s.next_document = s.next_document + $n
RETURN s.next_document - $n AS first

// @name merge_collection
// A collection made by this version marks the documents whose elements are being written (Document.writing,
// set before and cleared with complete): only those can hold what an interrupted load left, so only those
// are deleted before a write.
MERGE (c:Collection {id: $id})
ON CREATE SET c.name = $name, c.marked = true
SET c.path = $path, c.documents = $documents, c.elements = $elements
RETURN coalesce(c.marked, false) AS marked

// @name create_documents
// documents no load stored before (under the local store's writer lock, the state of every document is read
// before the pass): created with their HAS_DOCUMENT edge, with none of merge_documents' look-ups (33 us a document
// of 60,000 tiny ones)
MATCH (c:Collection) WHERE c.id = $collection
UNWIND $rows AS r
CREATE (d:Document {id: r.id, docid: r.docid, collection: r.collection, code: r.code, elements: r.elements, length: r.length, stored: r.stored, shape: r.shape})
SET d.writing = CASE WHEN r.writing THEN true ELSE null END
CREATE (c)-[:HAS_DOCUMENT]->(d)

// @name merge_documents
// a document keeps the code it was first stored with: the codes of the documents as stored are returned;
// r.writing marks it as being written (its elements follow)
UNWIND $rows AS r
MATCH (c:Collection) WHERE c.id = r.collection
MERGE (d:Document {id: r.id})
ON CREATE SET d.docid = r.docid, d.collection = r.collection, d.code = r.code
SET d.elements = r.elements, d.length = r.length, d.stored = CASE WHEN r.stored THEN true ELSE coalesce(d.stored, false) END, d.writing = CASE WHEN r.writing THEN true ELSE d.writing END, d.shape = coalesce(r.shape, d.shape)
MERGE (c)-[:HAS_DOCUMENT]->(d)
RETURN d.id AS id, d.code AS code, id(d) AS node

// Element nodes are written per document: a document whose elements are
// complete (for the summary kinds asked) is skipped; any other has what a
// previous, interrupted load left deleted and is written afresh.  The
// `complete` list is set last, so it is true only of finished documents.

// @name documents_state
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
RETURN d.id AS id, d.code AS code, d.complete AS complete, coalesce(d.writing, false) AS writing, d.elements AS elements

// @name delete_document_elements
// every element of the documents coded $codes
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296
DETACH DELETE e

// @name create_elements
// The elements of whole documents in one statement, under the local store's writer lock: rows are
// [key, pre, tag, depth, offset, length, in_p_star, in_p_star_c, in_c, in_tag] (null: a kind not stored),
// $children holds [row of the parent, row of the child] and $roots [document code, row of its root]: the nodes
// just created are found by their row, with no look-up, and each document by its (indexed) code.  The document
// is marked complete for $kinds in the same statement (a statement fails whole: complete is never set before its
// elements are written).  The two parts are subqueries, so that the list of the statement's nodes is not carried
// along the rows of the first into the second.  No element is looked up by key: a load needs no index of
// elements, and FalkorDB keeps none up to date while it creates them (measured: a million element nodes
// created in 1.35 s without an index of Element, 5.43 s with one of five properties; 60,000 documents of ten
// elements in 5.15 s rather than 7.54 s with the roots found by an indexed key in a second statement).
UNWIND $rows AS r
CREATE (e:Element {key: r[0], pre: r[1], tag: r[2], depth: r[3], offset: r[4], length: r[5], in_p_star: r[6], in_p_star_c: r[7], in_c: r[8], in_tag: r[9]})
WITH collect(e) AS es
CALL {
  WITH es
  UNWIND $children AS p
  WITH es[p[0]] AS parent, es[p[1]] AS child
  CREATE (parent)-[:CHILD]->(child)
}
CALL {
  WITH es
  UNWIND $roots AS q
  MATCH (d:Document) WHERE d.code = q[0]
  WITH d, es[q[1]] AS root
  CREATE (d)-[:ROOT]->(root)
  SET d.complete = $kinds, d.writing = null
}
RETURN size(es) AS elements

// The same writes for a store that other loads may write at the same time
// (Neo4j, where no writer lock is held): MERGE on the unique `key` of each
// element (the uniqueness constraint makes a concurrent duplicate impossible;
// relationships MERGE between bound nodes, which Neo4j locks), and instead of
// deleting an unfinished document's elements, only those a longer earlier
// version of the document left (pre beyond its size) go.  Any interleaving of
// two loads then ends in the same graph as one load.

// @name trim_document_elements
UNWIND $rows AS r
WITH r.code * 4294967296 AS lo, r.elements AS n
MATCH (e:Element) WHERE e.key > lo + n AND e.key < lo + 4294967296
DETACH DELETE e

// @name merge_elements
UNWIND $rows AS r
WITH r, r[0] AS key
MERGE (e:Element {key: key})
SET e.pre = r[1], e.tag = r[2], e.depth = r[3], e.offset = r[4], e.length = r[5], e.in_p_star = r[6], e.in_p_star_c = r[7], e.in_c = r[8], e.in_tag = r[9]

// @name merge_roots
UNWIND $rows AS r
WITH r[0] AS code, r[1] AS key
MATCH (d:Document) WHERE d.code = code
MATCH (e:Element) WHERE e.key = key
MERGE (d)-[:ROOT]->(e)

// @name merge_children
UNWIND $rows AS r
WITH r[0] AS parent_key, r[1] AS child_key
MATCH (p:Element) WHERE p.key = parent_key
MATCH (c:Element) WHERE c.key = child_key
MERGE (p)-[:CHILD]->(c)

// @name add_members
// complete documents given the memberships of summary kinds loaded later: rows [key, {property: SID}]
UNWIND $rows AS r
WITH r[0] AS key, r[1] AS members
MATCH (e:Element) WHERE e.key = key
SET e += members

// @name mark_documents_complete
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
SET d.complete = $kinds, d.writing = null

// @name collection
MATCH (c:Collection) WHERE c.id = $id
RETURN c.name AS name, c.path AS path, c.documents AS documents, c.elements AS elements

// @name collection_documents
// a stored collection's completeness and its documents' ids (a load compares them with what it reads)
MATCH (c:Collection) WHERE c.id = $id
OPTIONAL MATCH (c)-[:HAS_DOCUMENT]->(d:Document)
RETURN c.elements AS elements, collect(d.docid) AS docids

// @name load_holds_Document
// a load's receipt: the collection's documents along HAS_DOCUMENT, their distinct codes and the lowest and highest
// (as many codes as documents, from lo to hi with none missing: one run of consecutive codes, counted by one range)
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $id
RETURN count(d) AS documents, count(DISTINCT d.code) AS codes, min(d.code) AS lo, max(d.code) AS hi

// @name load_holds_ROOT
// a load's receipt: the ROOT edges of the collection's documents
MATCH (c:Collection)-[:HAS_DOCUMENT]->(:Document)-[r:ROOT]->() WHERE c.id = $id
RETURN count(r) AS roots

// @name elements_in_key_ranges
// the element nodes whose keys lie in the open ranges $ranges ([lo, hi] pairs): a collection's runs of consecutive
// document codes, each counted by one scan of the key index rather than one a document (a load's receipt)
UNWIND $ranges AS r
MATCH (e:Element) WHERE e.key > r[0] AND e.key < r[1]
RETURN count(e) AS n

// @name elements_in_code_range
// the element nodes of the documents coded $lo to $hi, in one scan of the Element label (the local store's receipt
// of a collection loaded at once, while its index of element keys is not built): the code is compared, not the key,
// since a comparison of e.key made the server build that index first (3 s for 750,000 elements after a load)
MATCH (e:Element)
WITH e.key / 4294967296 AS code
WHERE code >= $lo AND code <= $hi
RETURN count(code) AS n

// @name elements_per_code
// every element node of the store counted per document code, in one scan of the Element label and no index
// (the local store's receipt while its index of element keys is not built: 3.5 million elements in 0.5 s,
// where building the index takes 14 s)
MATCH (e:Element)
RETURN e.key / 4294967296 AS code, count(e) AS n

// @name summary_nodes_held
MATCH (s:Summary)-[:HAS_NODE]->(n:SummaryNode) WHERE s.id = $id
RETURN count(n) AS n

// @name collections
MATCH (c:Collection)
RETURN c.name AS name, c.path AS path, c.documents AS documents, c.elements AS elements
ORDER BY name

// @name document_elements
MATCH (d:Document) WHERE d.id = $doc
WITH d.code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296
RETURN e.key AS key, e.pre AS pre, e.tag AS tag, e.depth AS depth, e.offset AS offset, e.length AS length
ORDER BY key

// @name documents_elements
// the elements of several documents, by document code: [code, pre, tag, depth, offset, length] rows
UNWIND $codes AS code
WITH code, code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296
RETURN code, e.pre AS pre, e.tag AS tag, e.depth AS depth, e.offset AS offset, e.length AS length
ORDER BY code, pre

// @name documents_shapes
// The local store's (FalkorDB's) compact read of several documents' trees: per document coded $codes, one
// string of its elements' pre, depth, tag, node id, offset and length, tab-separated, in pre-order (a tag, an
// XML name, holds no tab).  FalkorDB's node ids stay fixed while the writer lock is held (only a locked write deletes nodes):
// a write under the lock then finds a node by id rather than by an index look-up of its key.
// One string per document rather than a row per element: the client parses 40 strings, not 9 million values
// (measured: 2.4 million elements in 3.2 s rather than 18.5 s), each element's fields joined from a list (twice
// as fast as concatenating them one by one: 200,000 elements in 0.33 s rather than 0.55 s).  Bolt servers read
// documents_elements.
UNWIND $codes AS code
WITH code, code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296
WITH code, e ORDER BY code, e.pre
RETURN code, string.join(collect(string.join([toString(e.pre), toString(e.depth), e.tag, toString(id(e)), toString(e.offset), toString(e.length)], '\t')), '\t') AS shape

// @name document_codes
// the code and docid of the documents coded $codes
UNWIND $codes AS code
MATCH (d:Document) WHERE d.code = code
RETURN d.code AS code, d.docid AS docid

// Documents whose elements are stored without their memberships of summary kind $kind (stored with other kinds).
// @name documents_missing_kind
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document)
WHERE c.id = $id AND d.complete IS NOT NULL AND size(d.complete) > 0 AND NOT $kind IN d.complete
RETURN count(d) AS n

// @name documents_state_and_shapes
// documents_state with the shape of each document (its elements' depths and tags: graphsr/store/shapes.py), null
// for one stored by a graphsr before shapes: a log's XPaths are resolved without reading elements.  By id: the
// state and shapes of 51,420 documents of music-svg in 0.63 s, where their state by id and then their shapes by
// code took 0.73 + 1.60 s (FalkorDB 4.16)
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
RETURN d.id AS id, d.code AS code, d.complete AS complete, coalesce(d.writing, false) AS writing,
       d.elements AS elements, d.shape AS shape

// @name documents_state_shapes_and_roots
// documents_state_and_shapes with the local store's node id of each document's root (its other elements' ids
// follow from it where they were created into fresh ids: checked with elements_at_nodes)
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
OPTIONAL MATCH (d)-[:ROOT]->(r:Element)
RETURN d.id AS id, d.code AS code, d.complete AS complete, coalesce(d.writing, false) AS writing,
       d.elements AS elements, d.shape AS shape, id(r) AS root

// @name elements_at_nodes
// how many of the [node id, key] $pairs name an element of that key: a look-up by id each (FalkorDB 4.16 seeks by
// id only for an unlabelled node whose id is a variable: 50,000 in 0.06 s; with the label or the key in the same
// WHERE it scans the key index, 0.86 s)
UNWIND $pairs AS p
WITH p[0] AS node, p[1] AS key
MATCH (e) WHERE id(e) = node
WITH e, key WHERE e:Element AND e.key = key
RETURN count(e) AS n

// @name documents_tree_shapes
// the docid, element count and shape (graphsr/store/shapes.py) of each document coded $codes: its tree is rebuilt
// from the shape, without reading its elements
UNWIND $codes AS code
MATCH (d:Document) WHERE d.code = code
RETURN code, d.docid AS docid, d.elements AS elements, d.shape AS shape

// @name documents_tree_shapes_by_id
// documents_tree_shapes of the documents with ids $ids
UNWIND $ids AS i
MATCH (d:Document) WHERE d.id = i
RETURN d.code AS code, d.docid AS docid, d.elements AS elements, d.shape AS shape
