// Derived navigation models: parameters, weights between summary nodes and
// the steady state pi per summary node.  Values are kept as numbers (`value`,
// for queries) and as exact decimal text (`exact`: some engines return
// doubles rounded to 15 digits), so a reloaded model scores bit for bit alike.

// @name merge_model
MATCH (s:Summary) WHERE s.id = $summary
MERGE (m:Model {id: $id})
SET m.name = $name, m.summary = $summary, m.collection = $collection, m.kind = $kind, m.weight = $weight, m.solver = $solver, m.source = $source, m.params = $params
MERGE (m)-[:OF_SUMMARY]->(s)

// @name merge_element_model
// an elementary route model: parameters only, its weights are the study's steps aggregated on load
MERGE (m:Model {id: $id})
SET m.name = $name, m.summary = '', m.collection = $collection, m.kind = 'elements', m.weight = $weight, m.solver = $solver, m.source = $source, m.params = $params

// @name delete_model_values
MATCH (m:Model)-[p:PI]->(n:SummaryNode) WHERE m.id = $id
DELETE p

// @name delete_model_weights
MATCH (a:SummaryNode)-[w:WEIGHT]->(b:SummaryNode) WHERE w.model = $id
DELETE w

// @name merge_model_pi
UNWIND $rows AS r
MATCH (m:Model) WHERE m.id = r.model
MATCH (n:SummaryNode) WHERE n.id = r.node
MERGE (m)-[p:PI]->(n)
SET p.value = r.pi, p.exact = r.exact

// @name merge_model_weights
UNWIND $rows AS r
MATCH (a:SummaryNode) WHERE a.id = r.src
MATCH (b:SummaryNode) WHERE b.id = r.dst
MERGE (a)-[w:WEIGHT {model: r.model}]->(b)
SET w.value = r.value, w.exact = r.exact

// @name model
MATCH (m:Model) WHERE m.id = $id
RETURN m.name AS name, m.summary AS summary, m.collection AS collection, m.kind AS kind, m.weight AS weight, m.solver AS solver, m.source AS source, m.params AS params

// @name model_pi
MATCH (m:Model)-[p:PI]->(n:SummaryNode) WHERE m.id = $id
RETURN n.sid AS sid, p.exact AS pi
ORDER BY sid

// @name model_weights
MATCH (a:SummaryNode)-[w:WEIGHT]->(b:SummaryNode) WHERE w.model = $id
RETURN a.sid AS src, b.sid AS dst, w.exact AS value
ORDER BY src, dst

// @name models
MATCH (m:Model)
RETURN m.name AS name, m.collection AS collection, m.kind AS kind, m.weight AS weight, m.solver AS solver, m.source AS source
ORDER BY name

// @name model_holds
// what the store holds of a model: its PI edges and its WEIGHT edges (a write's receipt; WEIGHT edges join
// summary nodes: matched from them, not from every node of the store -- 4 s on a 12-million-node store)
MATCH (m:Model) WHERE m.id = $id
OPTIONAL MATCH (m)-[p:PI]->()
WITH count(p) AS pi
OPTIONAL MATCH (:SummaryNode)-[w:WEIGHT]->() WHERE w.model = $id
RETURN pi, count(w) AS weights
