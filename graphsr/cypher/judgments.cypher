// Assessments (qrels) and runs, attached to stored element nodes.  Both belong to one collection: their ids
// (and a collection property) include it, so two collections' files of one name stay apart.

// @name merge_assessments
UNWIND $rows AS r
WITH r, r.element AS key
MATCH (e:Element) WHERE e.key = key
MERGE (q:Qrels {id: r.qrels})
ON CREATE SET q.name = r.name, q.collection = r.collection
MERGE (t:Topic {id: r.topic_id})
ON CREATE SET t.topic = r.topic, t.qrels = r.qrels
MERGE (q)-[:HAS_TOPIC]->(t)
MERGE (t)-[a:ASSESSES]->(e)
SET a.rel = r.rel, a.e = r.e, a.s = r.s

// @name merge_results
UNWIND $rows AS r
WITH r, r.element AS key
MATCH (e:Element) WHERE e.key = key
MERGE (x:Run {id: r.run})
ON CREATE SET x.name = r.name, x.collection = r.collection
MERGE (x)-[y:RETURNS {topic: r.topic, rank: r.rank}]->(e)
SET y.score = r.score

// @name run_results
// a stored run's results, their elements as keys (graphsr names them by XPath from the stored documents)
MATCH (x:Run)-[y:RETURNS]->(e:Element) WHERE x.id = $id
RETURN y.topic AS topic, y.rank AS rank, y.score AS score, e.key AS key
ORDER BY topic, rank, key

// @name qrels_judgments
// stored assessments, their elements as keys (graphsr names them by XPath from the stored documents)
MATCH (q:Qrels)-[:HAS_TOPIC]->(t:Topic)-[a:ASSESSES]->(e:Element) WHERE q.id = $id
RETURN t.topic AS topic, e.key AS key, a.rel AS rel, a.e AS e, a.s AS s
ORDER BY topic, key
