// Structural summaries: summary nodes with their statistics and summary edges.
// (Elements get their memberships as they are created, collection.cypher: the property named for the kind,
// in_p_star for p*, holds the SID of their summary node; add_members gives complete documents those of a
// summary kind loaded later.)

// @name merge_summary
MATCH (c:Collection) WHERE c.id = $collection
MERGE (s:Summary {id: $id})
ON CREATE SET s.kind = $kind, s.collection = $collection
SET s.nodes = $nodes, s.edges = $edges, s.documents = $documents, s.elements = $elements
MERGE (c)-[:HAS_SUMMARY]->(s)

// @name merge_summary_nodes
UNWIND $rows AS r
MATCH (s:Summary) WHERE s.id = r.summary
MERGE (n:SummaryNode {id: r.id})
ON CREATE SET n.summary = r.summary, n.label = r.label, n.path = r.path, n.tag = r.tag, n.children = r.children, n.has_children = r.has_children
SET n.sid = r.sid, n.extent_size = r.extent_size, n.content_length = r.content_length
MERGE (s)-[:HAS_NODE]->(n)

// @name merge_summary_edges
UNWIND $rows AS r
MATCH (a:SummaryNode) WHERE a.id = r.src
MATCH (b:SummaryNode) WHERE b.id = r.dst
MERGE (a)-[e:SUMMARY_EDGE]->(b)
SET e.pairs = r.pairs, e.child_length = r.child_length

// @name summary
MATCH (s:Summary) WHERE s.id = $id
RETURN s.kind AS kind, s.collection AS collection, s.nodes AS nodes, s.edges AS edges, s.documents AS documents, s.elements AS elements

// @name summaries
MATCH (c:Collection)-[:HAS_SUMMARY]->(s:Summary)
RETURN c.name AS collection, s.kind AS kind, s.nodes AS nodes, s.edges AS edges, s.documents AS documents, s.elements AS elements
ORDER BY collection, kind

// @name summary_nodes
MATCH (s:Summary)-[:HAS_NODE]->(n:SummaryNode) WHERE s.id = $id
RETURN n.sid AS sid, n.label AS label, n.path AS path, n.tag AS tag, n.children AS children, n.has_children AS has_children, n.extent_size AS extent_size, n.content_length AS content_length
ORDER BY sid

// @name summary_node_sid
// a summary node's SID and extent, and whether it holds documents' roots only (no summary edge enters it)
MATCH (n:SummaryNode) WHERE n.id = $id
OPTIONAL MATCH (:SummaryNode)-[e:SUMMARY_EDGE]->(n)
RETURN n.sid AS sid, n.extent_size AS extent_size, count(e) = 0 AS roots

// @name summary_edges
MATCH (s:Summary)-[:HAS_NODE]->(a:SummaryNode)-[e:SUMMARY_EDGE]->(b:SummaryNode) WHERE s.id = $id
RETURN a.sid AS src, b.sid AS dst, e.pairs AS pairs, e.child_length AS child_length
ORDER BY src, dst

// The stored elements of a summary node: those of the collection's documents whose membership property
// ($property, named for the kind) holds its SID ($sid), read a document at a time by key range.

// @name summary_extent
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection
WITH d.docid AS docid, d.code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296 AND e[$property] = $sid
RETURN docid, e.pre AS pre
ORDER BY docid, pre

// @name summary_extent_documents
// the collection's documents, for a page of a summary node's elements read a batch of documents at a time in
// document order: their docid, code, elements and the kinds whose memberships they hold complete
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection
RETURN d.docid AS docid, d.code AS code, d.elements AS elements, d.complete AS complete

// @name summary_extent_of_codes
// the elements of the documents coded $codes whose membership property ($property) holds the SID $sid
UNWIND $codes AS code
WITH code, code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296 AND e[$property] = $sid
RETURN code, e.pre AS pre

// @name summary_extent_count
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection
WITH d.code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296 AND e[$property] = $sid
RETURN count(e) AS n

// The elements holding one SID of one kind, found by the membership property's index (one block per property:
// an index serves a property named in the text, not e[$property]): every collection's, as one string of keys
// (a value reads far faster than a row per element; FalkorDB's string.join) or, on other servers, a list, kept by the caller to one collection's documents and
// checked against the node's extent.  (FalkorDB 4.16's index never finds the value 0 (SID S1, the root's node), with equality
// or a range: found here on two collections; the caller reads S1 without it.)  Each kind's membership property
// costs the index about 8 bytes per element.

// @name summary_extent_by_in_p_star
MATCH (e:Element) WHERE e.in_p_star = $sid
RETURN count(e) AS n, string.join(collect(toString(e.key)), ' ') AS keys

// @name summary_extent_list_by_in_p_star
MATCH (e:Element) WHERE e.in_p_star = $sid
RETURN count(e) AS n, collect(e.key) AS keys

// @name summary_extent_by_in_p_star_c
MATCH (e:Element) WHERE e.in_p_star_c = $sid
RETURN count(e) AS n, string.join(collect(toString(e.key)), ' ') AS keys

// @name summary_extent_list_by_in_p_star_c
MATCH (e:Element) WHERE e.in_p_star_c = $sid
RETURN count(e) AS n, collect(e.key) AS keys

// @name summary_extent_by_in_c
MATCH (e:Element) WHERE e.in_c = $sid
RETURN count(e) AS n, string.join(collect(toString(e.key)), ' ') AS keys

// @name summary_extent_list_by_in_c
MATCH (e:Element) WHERE e.in_c = $sid
RETURN count(e) AS n, collect(e.key) AS keys

// @name summary_extent_by_in_tag
MATCH (e:Element) WHERE e.in_tag = $sid
RETURN count(e) AS n, string.join(collect(toString(e.key)), ' ') AS keys

// @name summary_extent_list_by_in_tag
MATCH (e:Element) WHERE e.in_tag = $sid
RETURN count(e) AS n, collect(e.key) AS keys

// @name summary_extent_roots
// (and summary_extent_root_list, for servers without FalkorDB's string.join)
// the elements of a summary node that no summary edge enters, all of them roots: the collection's documents' roots
// whose membership property ($property) holds $sid, as one string of keys, and how many (read by ROOT edges, not
// the membership index: see above)
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document)-[:ROOT]->(e:Element) WHERE c.id = $collection AND e[$property] = $sid
RETURN count(e) AS n, string.join(collect(toString(e.key)), ' ') AS keys

// @name summary_extent_root_list
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document)-[:ROOT]->(e:Element) WHERE c.id = $collection AND e[$property] = $sid
RETURN count(e) AS n, collect(e.key) AS keys

// @name collection_docids
// the collection's documents as one string: a line 'code<TAB>docid' each (one value reads far faster than a row
// per document, and faster than the documents' 15,000 look-ups by code), and how many there are
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection
RETURN count(d) AS n, string.join(collect(toString(d.code) + '	' + d.docid), '\n') AS lines

// @name collection_docid_lists
// the same as two lists (for docids holding a line break, and servers without FalkorDB's string.join)
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection
RETURN collect(d.code) AS codes, collect(d.docid) AS docids

// @name summary_extent_incomplete
// how many of the collection's documents do not hold their elements' memberships of $kind complete
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $collection AND NOT $kind IN coalesce(d.complete, [])
RETURN count(d) AS n
