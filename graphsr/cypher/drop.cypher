// Removing what a user no longer wants: one statement, so one transaction, per object.

// @name drop_collection
// the collection, everything keyed under it (documents, elements, summaries, studies, routes, steps, qrels,
// topics, runs: ids C/name and X/name/...) and the models built over it
MATCH (n)
WHERE n.id = $id OR any(p IN $prefixes WHERE n.id STARTS WITH p) OR (n:Model AND n.collection = $name)
WITH collect(n) AS doomed
UNWIND doomed AS n
DETACH DELETE n
RETURN DISTINCT size(doomed) AS removed

// @name drop_model
MATCH (m:Model) WHERE m.id = $id
WITH collect(m) AS doomed
UNWIND doomed AS m
DETACH DELETE m
RETURN DISTINCT size(doomed) AS removed

// @name drop_study
// a study, its routes and their steps (ids Y/collection/study, R/collection/study/..., P/collection/study/...)
MATCH (n)
WHERE n.id = $id OR any(p IN $prefixes WHERE n.id STARTS WITH p)
WITH collect(n) AS doomed
UNWIND doomed AS n
DETACH DELETE n
RETURN DISTINCT size(doomed) AS removed
