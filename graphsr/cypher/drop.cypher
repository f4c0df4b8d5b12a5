// Removing what a user no longer wants.  A collection or a study is removed in bounded batches (one
// transaction each, so no transaction holds a whole INEX collection): it is first marked INCOMPLETE, then
// what is keyed under it goes batch by batch, and its own node goes last; a drop that is killed leaves it
// INCOMPLETE (drop it again).

// @name drop_model
MATCH (m:Model) WHERE m.id = $id
WITH collect(m) AS doomed
UNWIND doomed AS m
DETACH DELETE m
RETURN DISTINCT size(doomed) AS removed

// @name mark_collection_dropping
MATCH (c:Collection) WHERE c.id = $id
SET c.elements = -1

// @name drop_document_elements
// every element of the documents coded $codes (a batch of a collection's documents, bounded by their elements)
UNWIND $codes AS code
WITH code * 4294967296 AS lo
MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296
WITH collect(e) AS doomed
UNWIND doomed AS e
DETACH DELETE e
RETURN DISTINCT size(doomed) AS removed

// @name drop_under_batch
// at most $limit nodes keyed under a collection or study (ids starting with one of $prefixes), or models
// built over collection $name
MATCH (n)
WHERE any(p IN $prefixes WHERE n.id STARTS WITH p) OR (n:Model AND n.collection = $name)
WITH n LIMIT $limit
WITH collect(n) AS doomed
UNWIND doomed AS n
DETACH DELETE n
RETURN DISTINCT size(doomed) AS removed

// @name mark_study_dropping
MATCH (st:Study) WHERE st.id = $id
SET st.complete = false

// @name drop_node
MATCH (n) WHERE n.id = $id
WITH collect(n) AS doomed
UNWIND doomed AS n
DETACH DELETE n
RETURN DISTINCT size(doomed) AS removed

// @name count_under
// the nodes keyed under $prefixes, and the models built over collection $name (a drop's receipt)
MATCH (n)
WHERE any(p IN $prefixes WHERE n.id STARTS WITH p) OR (n:Model AND n.collection = $name)
RETURN count(n) AS n

// @name collection_codes
MATCH (c:Collection)-[:HAS_DOCUMENT]->(d:Document) WHERE c.id = $id
RETURN d.code AS code, d.elements AS elements

// What depends on collection $name (a replace names it, and removes it only when told): its assessments, runs,
// studies, and the models built over it; one label a query (a label scan each, no scan of every node).
// @name dependants_Qrels
MATCH (n:Qrels) WHERE n.collection = $name
RETURN n.name AS name ORDER BY name

// @name dependants_Run
MATCH (n:Run) WHERE n.collection = $name
RETURN n.name AS name ORDER BY name

// @name dependants_Study
MATCH (n:Study) WHERE n.collection = $name
RETURN n.name AS name ORDER BY name

// @name dependants_Model
MATCH (n:Model) WHERE n.collection = $name
RETURN n.name AS name ORDER BY name
