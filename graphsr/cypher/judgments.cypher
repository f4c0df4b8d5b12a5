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
SET a.rel = r.rel, a.e = r.e, a.s = r.s, a.judge = r.judge

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
RETURN t.topic AS topic, e.key AS key, a.rel AS rel, a.e AS e, a.s AS s, a.judge AS judge
ORDER BY topic, key

// Loading assessments or a run under a name already stored: the node is INCOMPLETE (complete = false) from the
// start of its load to its end, then holds its content's digest; the same content again changes nothing, other
// content replaces it (--replace) or is refused (graphsr.store.load).

// @name begin_qrels
MERGE (q:Qrels {id: $id})
ON CREATE SET q.name = $name, q.collection = $collection
SET q.complete = false

// @name finish_qrels
// (with what the load rests on: graphsr's version, the file's SHA-256, who judged its judgments)
MATCH (q:Qrels) WHERE q.id = $id
SET q.complete = true, q.digest = $digest, q.graphsr = $graphsr, q.source_sha256 = $source_sha256,
    q.judges = $judges

// @name qrels_provenance
// what a stored load of assessments rests on: graphsr's version, its file's SHA-256, the judges it names
MATCH (q:Qrels) WHERE q.id = $id
RETURN q.graphsr AS graphsr, q.source_sha256 AS source_sha256, q.judges AS judges

// @name qrels_state
MATCH (q:Qrels) WHERE q.id = $id
RETURN q.complete AS complete, q.digest AS digest

// @name qrels_holds
MATCH (q:Qrels) WHERE q.id = $id
OPTIONAL MATCH (q)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (t)-[a:ASSESSES]->()
RETURN count(DISTINCT t) AS topics, count(DISTINCT a) AS rows

// @name drop_qrels
MATCH (q:Qrels) WHERE q.id = $id
OPTIONAL MATCH (q)-[:HAS_TOPIC]->(t:Topic)
WITH q, collect(t) AS topics
UNWIND topics + [q] AS n
DETACH DELETE n

// @name begin_run
MERGE (x:Run {id: $id})
ON CREATE SET x.name = $name, x.collection = $collection
SET x.complete = false

// @name finish_run
MATCH (x:Run) WHERE x.id = $id
SET x.complete = true, x.digest = $digest, x.graphsr = $graphsr, x.source_sha256 = $source_sha256,
    x.judges = $judges

// @name run_state
MATCH (x:Run) WHERE x.id = $id
RETURN x.complete AS complete, x.digest AS digest

// @name run_holds
MATCH (x:Run) WHERE x.id = $id
OPTIONAL MATCH (x)-[y:RETURNS]->()
RETURN count(DISTINCT y) AS rows

// @name drop_run
MATCH (x:Run) WHERE x.id = $id
DETACH DELETE x
