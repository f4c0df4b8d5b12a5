// Navigation studies: routes of steps between stored element nodes, and the
// step counts and inverse efforts (sum of 1/duration_ms; untimed: steps without a positive
// duration) aggregated per pair of elements or summary nodes.  Reads of a study start from its Study node (by
// its indexed id) and follow HAS_ROUTE: filtering every Route by its study property took 5.6 s rather than
// 0.96 s for 400,000 steps.

// @name merge_steps
UNWIND $rows AS r
WITH r, r.src AS src, r.dst AS dst
MATCH (a:Element) WHERE a.key = src
MATCH (b:Element) WHERE b.key = dst
MERGE (st:Study {id: r.study})
ON CREATE SET st.name = r.study_name
MERGE (ro:Route {id: r.route})
ON CREATE SET ro.route_id = r.route_id, ro.study = r.study, ro.user_id = r.user_id, ro.topic_id = r.topic_id
MERGE (st)-[:HAS_ROUTE]->(ro)
MERGE (s:Step {id: r.id})
SET s.seq = r.seq, s.duration_ms = r.duration_ms, s.time = r.time
MERGE (ro)-[:HAS_STEP]->(s)
MERGE (s)-[:FROM]->(a)
MERGE (s)-[:TO]->(b)

// @name element_transitions
// per pair of elements (keys); the docid is read once per pair, after the steps are counted
MATCH (st:Study)-[:HAS_ROUTE]->(ro:Route)-[:HAS_STEP]->(s:Step)-[:FROM]->(a:Element)
MATCH (s)-[:TO]->(b:Element)
WHERE st.id = $study
WITH a.key AS src, b.key AS dst, a.pre AS src_pre, b.pre AS dst_pre, count(s) AS steps, sum(CASE WHEN s.duration_ms > 0 THEN 1.0 / s.duration_ms ELSE 0.0 END) AS inverse_effort, sum(CASE WHEN s.duration_ms > 0 THEN 0 ELSE 1 END) AS untimed
WITH src, dst, src_pre, dst_pre, steps, inverse_effort, untimed, src / 4294967296 AS code
MATCH (d:Document) WHERE d.code = code
RETURN src, dst, d.docid AS docid, src_pre, dst_pre, steps, inverse_effort, untimed
ORDER BY src, dst

// @name summary_transitions
// per pair of summary nodes of one kind: the elements' membership property $property holds their SIDs
MATCH (st:Study)-[:HAS_ROUTE]->(ro:Route)-[:HAS_STEP]->(s:Step)-[:FROM]->(a:Element)
MATCH (s)-[:TO]->(b:Element)
WHERE st.id = $study AND a[$property] IS NOT NULL AND b[$property] IS NOT NULL
RETURN a[$property] AS src, b[$property] AS dst, count(s) AS steps, sum(CASE WHEN s.duration_ms > 0 THEN 1.0 / s.duration_ms ELSE 0.0 END) AS inverse_effort, sum(CASE WHEN s.duration_ms > 0 THEN 0 ELSE 1 END) AS untimed
ORDER BY src, dst

// @name study_routes
// the steps of a study, their elements as keys (graphsr names them by XPath from the stored documents)
MATCH (st:Study)-[:HAS_ROUTE]->(ro:Route)-[:HAS_STEP]->(s:Step)-[:FROM]->(a:Element)
MATCH (s)-[:TO]->(b:Element)
WHERE st.id = $study
RETURN ro.route_id AS route_id, s.seq AS step, a.key AS src, b.key AS dst, s.duration_ms AS duration_ms, ro.user_id AS user_id, ro.topic_id AS topic_id
ORDER BY route_id, step

// A study is INCOMPLETE from the start of a load of its routes until its end: a load that was killed leaves it
// so, and readers refuse it (a study from before this mark has no `complete` property and is read as it is).
// @name begin_study
MERGE (st:Study {id: $study})
ON CREATE SET st.name = $name, st.collection = $collection
SET st.complete = false

// @name finish_study
MATCH (st:Study {id: $study})
SET st.complete = true, st.digest = $digest

// @name study_state
MATCH (st:Study {id: $study})
RETURN st.complete AS complete, st.digest AS digest

// @name study_holds
// a study's routes, steps and their FROM and TO edges, counted along HAS_ROUTE and HAS_STEP (the receipt of a load
// where other loads may write at once; under the local store's writer lock the store's own counts are read): one
// count per kind, each over its own pattern (measured on FalkorDB for 100,000 routes of 400,803 steps: 1.05 s,
// against 2.7 s counting DISTINCT routes, steps and edges over one chain of OPTIONAL MATCHes)
MATCH (st:Study) WHERE st.id = $study
OPTIONAL MATCH (st)-[:HAS_ROUTE]->(ro:Route)
WITH st, count(ro) AS routes
OPTIONAL MATCH (st)-[:HAS_ROUTE]->(:Route)-[:HAS_STEP]->(s:Step)
WITH st, routes, count(s) AS steps
OPTIONAL MATCH (st)-[:HAS_ROUTE]->(:Route)-[:HAS_STEP]->(:Step)-[f:FROM]->()
WITH st, routes, steps, count(f) AS from_edges
OPTIONAL MATCH (st)-[:HAS_ROUTE]->(:Route)-[:HAS_STEP]->(:Step)-[t:TO]->()
RETURN routes, steps, from_edges, count(t) AS to_edges

// @name create_steps
// The routes of a study being loaded under the local store's writer lock (the study is empty: new, or dropped
// before), whole routes per statement: $rows are [id, route_id, user_id, topic_id, steps' id prefix, steps], each
// step [node of from, node of to, seq, duration_ms, time] (its id: the prefix and seq), the elements given by the store's own node ids
// (read with documents_shapes under the same lock): a step is created beside the route just created, and finds its elements by id, with
// no index look-up (measured on FalkorDB: 10,000 look-ups by id in 12 ms, by the indexed key in 166 ms).
MATCH (st:Study) WHERE st.id = $study
UNWIND $rows AS r
CREATE (st)-[:HAS_ROUTE]->(ro:Route {id: r[0], route_id: r[1], study: $study, user_id: r[2], topic_id: r[3]})
WITH ro, r[4] AS prefix, r[5] AS steps
UNWIND steps AS s
WITH ro, prefix, s, s[0] AS src, s[1] AS dst
MATCH (a:Element) WHERE id(a) = src
MATCH (b:Element) WHERE id(b) = dst
CREATE (ro)-[:HAS_STEP]->(x:Step {id: prefix + toString(s[2]), seq: s[2], duration_ms: s[3], time: s[4]}), (x)-[:FROM]->(a), (x)-[:TO]->(b)
