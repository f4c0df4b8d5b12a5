// Export of one collection with everything stored under it, a page at a time (graphsr store export).
// Nodes of a label come in id order after $after (keyset pages: each page is one short query that an index
// on id serves, and no page repeats or skips a node), the relationships going out of a page's nodes with
// them.  What belongs to the collection: its own node, the nodes whose ids are keyed under it ($prefix),
// and the models built over it, and the Store node (the schema version and the next document code).  One pair
// of queries per label: a label is never a parameter.  Elements and steps, the many, are read with their
// documents and routes instead (by key range and along HAS_STEP): a keyset page over millions of elements
// scans and sorts them all, page after page.  A relationship's end is an id, or an element's key.

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

// @name export_nodes_Store
MATCH (n:Store) WHERE n.id = 'graphsr' AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_steps_of
UNWIND $ids AS i
MATCH (ro:Route)-[:HAS_STEP]->(n:Step) WHERE ro.id = i
RETURN n.id AS id, properties(n) AS properties

// @name export_nodes_Collection
MATCH (n:Collection) WHERE n.id = $id
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Collection
UNWIND $ids AS i
MATCH (a:Collection)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Document
MATCH (n:Document) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Document
UNWIND $ids AS i
MATCH (a:Document)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Summary
MATCH (n:Summary) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Summary
UNWIND $ids AS i
MATCH (a:Summary)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_SummaryNode
MATCH (n:SummaryNode) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_SummaryNode
UNWIND $ids AS i
MATCH (a:SummaryNode)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Model
MATCH (n:Model) WHERE n.collection = $name AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Model
UNWIND $ids AS i
MATCH (a:Model)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Study
MATCH (n:Study) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Study
UNWIND $ids AS i
MATCH (a:Study)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Route
MATCH (n:Route) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Route
UNWIND $ids AS i
MATCH (a:Route)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_out_Step
UNWIND $ids AS i
MATCH (a:Step)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Qrels
MATCH (n:Qrels) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Qrels
UNWIND $ids AS i
MATCH (a:Qrels)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Topic
MATCH (n:Topic) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Topic
UNWIND $ids AS i
MATCH (a:Topic)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties

// @name export_nodes_Run
MATCH (n:Run) WHERE n.id STARTS WITH $prefix AND n.id > $after
RETURN n.id AS id, properties(n) AS properties
ORDER BY id LIMIT $limit

// @name export_out_Run
UNWIND $ids AS i
MATCH (a:Run)-[r]->(b) WHERE a.id = i
RETURN a.id AS start, type(r) AS type, b.id AS end, b.key AS end_key, properties(r) AS properties
