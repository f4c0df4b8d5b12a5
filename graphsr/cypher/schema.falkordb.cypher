// Schema statements for the local store (FalkorDB). One statement per block;
// an index that already exists is not an error (the loader ignores "already indexed").
// @name schema
CREATE INDEX FOR (n:Store) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Collection) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Document) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Document) ON (n.code)
// @name schema
CREATE INDEX FOR (n:Element) ON (n.key)
// @name schema
CREATE INDEX FOR (n:Element) ON (n.in_p_star)
// @name schema
CREATE INDEX FOR (n:Element) ON (n.in_p_star_c)
// @name schema
CREATE INDEX FOR (n:Element) ON (n.in_c)
// @name schema
CREATE INDEX FOR (n:Element) ON (n.in_tag)
// @name schema
CREATE INDEX FOR (n:Summary) ON (n.id)
// @name schema
CREATE INDEX FOR (n:SummaryNode) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Model) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Study) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Route) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Step) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Qrels) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Topic) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Run) ON (n.id)
