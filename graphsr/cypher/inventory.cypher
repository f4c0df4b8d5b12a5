// What is stored: node counts per label and relationship counts per type.

// @name node_counts
MATCH (n:Collection) RETURN 'Collection' AS label, count(n) AS n
UNION ALL MATCH (n:Document) RETURN 'Document' AS label, count(n) AS n
UNION ALL MATCH (n:Element) RETURN 'Element' AS label, count(n) AS n
UNION ALL MATCH (n:Summary) RETURN 'Summary' AS label, count(n) AS n
UNION ALL MATCH (n:SummaryNode) RETURN 'SummaryNode' AS label, count(n) AS n
UNION ALL MATCH (n:Model) RETURN 'Model' AS label, count(n) AS n
UNION ALL MATCH (n:Study) RETURN 'Study' AS label, count(n) AS n
UNION ALL MATCH (n:Route) RETURN 'Route' AS label, count(n) AS n
UNION ALL MATCH (n:Step) RETURN 'Step' AS label, count(n) AS n
UNION ALL MATCH (n:Qrels) RETURN 'Qrels' AS label, count(n) AS n
UNION ALL MATCH (n:Topic) RETURN 'Topic' AS label, count(n) AS n
UNION ALL MATCH (n:Run) RETURN 'Run' AS label, count(n) AS n

// @name relationship_counts
MATCH ()-[r:HAS_DOCUMENT]->() RETURN 'HAS_DOCUMENT' AS type, count(r) AS n
UNION ALL MATCH ()-[r:ROOT]->() RETURN 'ROOT' AS type, count(r) AS n
UNION ALL MATCH ()-[r:CHILD]->() RETURN 'CHILD' AS type, count(r) AS n
UNION ALL MATCH ()-[r:HAS_SUMMARY]->() RETURN 'HAS_SUMMARY' AS type, count(r) AS n
UNION ALL MATCH ()-[r:HAS_NODE]->() RETURN 'HAS_NODE' AS type, count(r) AS n
UNION ALL MATCH ()-[r:SUMMARY_EDGE]->() RETURN 'SUMMARY_EDGE' AS type, count(r) AS n
UNION ALL MATCH ()-[r:MEMBER_OF]->() RETURN 'MEMBER_OF' AS type, count(r) AS n
UNION ALL MATCH ()-[r:OF_SUMMARY]->() RETURN 'OF_SUMMARY' AS type, count(r) AS n
UNION ALL MATCH ()-[r:PI]->() RETURN 'PI' AS type, count(r) AS n
UNION ALL MATCH ()-[r:WEIGHT]->() RETURN 'WEIGHT' AS type, count(r) AS n
UNION ALL MATCH ()-[r:HAS_ROUTE]->() RETURN 'HAS_ROUTE' AS type, count(r) AS n
UNION ALL MATCH ()-[r:HAS_STEP]->() RETURN 'HAS_STEP' AS type, count(r) AS n
UNION ALL MATCH ()-[r:FROM]->() RETURN 'FROM' AS type, count(r) AS n
UNION ALL MATCH ()-[r:TO]->() RETURN 'TO' AS type, count(r) AS n
UNION ALL MATCH ()-[r:HAS_TOPIC]->() RETURN 'HAS_TOPIC' AS type, count(r) AS n
UNION ALL MATCH ()-[r:ASSESSES]->() RETURN 'ASSESSES' AS type, count(r) AS n
UNION ALL MATCH ()-[r:RETURNS]->() RETURN 'RETURNS' AS type, count(r) AS n
