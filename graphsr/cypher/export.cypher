// Export of one collection with everything stored under it (graphsr store export).
// A label's nodes are first listed by key (the whole list of a collection's document codes, or of its ids under
// $prefix, read by a scan: a range over an indexed string is never used, since FalkorDB's string index does
// not compare as ORDER BY sorts), then read a page of keys at a time by equality, each with the relationships
// going out of it.  What belongs to the collection: its own node, the nodes whose ids are keyed under it
// ($prefix), the models built over it, and the Store node (the schema version and the next document code).
// One set of queries per label: a label is never a parameter.  Elements and steps, the many, are read with
// their documents and routes (by key range and along HAS_STEP).  A relationship's end is an id, or an
// element's key.  The `export_holds_*` queries count what the store holds for the collection along its
// relationships (not along the listing), for the export's receipt.

// @name export_keys_Store
MATCH (n:Store) WHERE n.id = 'graphsr'
RETURN n.id AS key

// @name export_nodes_Store
UNWIND $keys AS k
MATCH (n:Store) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Collection
MATCH (n:Collection) WHERE n.id = $id
RETURN n.id AS key

// @name export_nodes_Collection
UNWIND $keys AS k
MATCH (n:Collection) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Document
MATCH (n:Document) WHERE n.collection = $id
RETURN n.code AS key

// @name export_nodes_Document
UNWIND $keys AS k
MATCH (n:Document) WHERE n.code = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Summary
MATCH (n:Summary) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Summary
UNWIND $keys AS k
MATCH (n:Summary) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_SummaryNode
MATCH (n:SummaryNode) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_SummaryNode
UNWIND $keys AS k
MATCH (n:SummaryNode) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Model
MATCH (n:Model) WHERE n.collection = $name
RETURN n.id AS key

// @name export_nodes_Model
UNWIND $keys AS k
MATCH (n:Model) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Study
MATCH (n:Study) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Study
UNWIND $keys AS k
MATCH (n:Study) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Route
MATCH (n:Route) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Route
UNWIND $keys AS k
MATCH (n:Route) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Qrels
MATCH (n:Qrels) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Qrels
UNWIND $keys AS k
MATCH (n:Qrels) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Topic
MATCH (n:Topic) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Topic
UNWIND $keys AS k
MATCH (n:Topic) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_keys_Run
MATCH (n:Run) WHERE left(n.id, size($prefix)) = $prefix
RETURN n.id AS key

// @name export_nodes_Run
UNWIND $keys AS k
MATCH (n:Run) WHERE n.id = k
RETURN n.id AS id, properties(n) AS properties

// @name export_holds_Document
// documents along HAS_DOCUMENT, their elements as the loader counted them (documents stored with elements), and
// their ROOT edges
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $id
OPTIONAL MATCH (d)-[r:ROOT]->()
WITH d, count(r) AS roots
RETURN count(d) AS documents, sum(roots) AS roots, sum(CASE WHEN size(coalesce(d.complete, [])) > 0 OR coalesce(d.stored, false) OR coalesce(d.writing, false) THEN coalesce(d.elements, 0) ELSE 0 END) AS elements

// @name export_holds_Summary
MATCH (c:Collection)-[:HAS_SUMMARY]->(s:Summary) WHERE c.id = $id
OPTIONAL MATCH (s)-[:HAS_NODE]->(n:SummaryNode)
OPTIONAL MATCH (n)-[e:SUMMARY_EDGE]->()
RETURN count(DISTINCT s) AS summaries, count(DISTINCT n) AS nodes, count(DISTINCT e) AS edges

// @name export_holds_Model
MATCH (m:Model) WHERE m.collection = $name
OPTIONAL MATCH (m)-[o:OF_SUMMARY]->()
OPTIONAL MATCH (m)-[p:PI]->()
RETURN count(DISTINCT m) AS models, count(DISTINCT o) AS of_summary, count(DISTINCT p) AS pi, collect(DISTINCT m.id) AS ids

// @name export_holds_WEIGHT
MATCH (:SummaryNode)-[w:WEIGHT]->() WHERE w.model IN $models
RETURN count(w) AS weights

// @name export_holds_Study
MATCH (st:Study) WHERE st.collection = $name
OPTIONAL MATCH (st)-[:HAS_ROUTE]->(ro:Route)
OPTIONAL MATCH (ro)-[:HAS_STEP]->(s:Step)
OPTIONAL MATCH (s)-[f:FROM]->()
OPTIONAL MATCH (s)-[t:TO]->()
RETURN count(DISTINCT st) AS studies, count(DISTINCT ro) AS routes, count(DISTINCT s) AS steps, count(DISTINCT f) AS from_edges, count(DISTINCT t) AS to_edges

// @name export_holds_Qrels
MATCH (q:Qrels) WHERE q.collection = $name
OPTIONAL MATCH (q)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (t)-[a:ASSESSES]->()
RETURN count(DISTINCT q) AS qrels, count(DISTINCT t) AS topics, count(DISTINCT a) AS assessments

// @name export_holds_Run
MATCH (x:Run) WHERE x.collection = $name
OPTIONAL MATCH (x)-[r:RETURNS]->()
RETURN count(DISTINCT x) AS runs, count(DISTINCT r) AS results

// @name export_elements_of
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (n:Element) WHERE n.key > lo AND n.key < lo + 4294967296
RETURN n.key AS key, properties(n) AS properties

// @name export_out_elements_of
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (a:Element)-[r]->(b) WHERE a.key > lo AND a.key < lo + 4294967296
RETURN a.key AS start_key, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_element_lines_of
// (FalkorDB) The elements of the documents coded $codes as the lines of nodes_Element.csv, written by the server as
// one string (a row per element, its properties as a map, costs the client ~14 us an element; this ~4 us of the
// server's), with how many there are and how many are not as graphsr's schema has them (odd: a property of
// another type or name, a tag holding a double quote): the caller writes the lines only where none is odd.
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (n:Element) WHERE n.key > lo AND n.key < lo + 4294967296
WITH n, [n.key, n.pre, n.depth, n.offset, n.length] AS ints, [n.in_p_star, n.in_p_star_c, n.in_c, n.in_tag] AS members
RETURN count(n) AS n,
  sum(CASE WHEN all(x IN ints WHERE typeOf(x) = 'Integer') AND all(x IN members WHERE x IS NULL OR typeOf(x) = 'Integer')
      AND typeOf(n.tag) = 'String' AND NOT n.tag CONTAINS '"' AND size(keys(n)) = 6 + size([x IN members WHERE x IS NOT NULL])
      THEN 0 ELSE 1 END) AS odd,
  string.join(collect(string.join(['"E:' + toString(n.key) + '"', 'Element', toString(n.key), toString(n.pre), '"' + n.tag + '"',
      toString(n.depth), toString(n.offset), toString(n.length), coalesce(toString(n.in_p_star), ''),
      coalesce(toString(n.in_p_star_c), ''), coalesce(toString(n.in_c), ''), coalesce(toString(n.in_tag), '')], ',')), '\n') AS lines

// @name export_element_edge_lines_of
// (FalkorDB) The relationships going out of those elements as the lines of relationships_CHILD.csv, the same way;
// odd: one of another type, to another label, or with properties
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (a:Element)-[r]->(b) WHERE a.key > lo AND a.key < lo + 4294967296
RETURN count(r) AS n,
  sum(CASE WHEN type(r) = 'CHILD' AND b:Element AND size(keys(r)) = 0 AND typeOf(b.key) = 'Integer' THEN 0 ELSE 1 END) AS odd,
  string.join(collect(string.join(['"E:' + toString(a.key) + '"', '"E:' + toString(b.key) + '"', 'CHILD'], ',')), '\n') AS lines

// @name export_steps_of
UNWIND $ids AS i
MATCH (ro:Route)-[:HAS_STEP]->(n:Step) WHERE ro.id = i
RETURN n.id AS id, properties(n) AS properties

// @name export_out_Collection
UNWIND $ids AS i
MATCH (a:Collection)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Document
UNWIND $ids AS i
MATCH (a:Document)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Summary
UNWIND $ids AS i
MATCH (a:Summary)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_SummaryNode
UNWIND $ids AS i
MATCH (a:SummaryNode)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Model
UNWIND $ids AS i
MATCH (a:Model)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Study
UNWIND $ids AS i
MATCH (a:Study)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Route
UNWIND $ids AS i
MATCH (a:Route)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Step
UNWIND $ids AS i
MATCH (a:Step)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Qrels
UNWIND $ids AS i
MATCH (a:Qrels)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Topic
UNWIND $ids AS i
MATCH (a:Topic)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Run
UNWIND $ids AS i
MATCH (a:Run)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties
