// Schema statements for the local store (FalkorDB). One statement per block;
// an index that already exists is not an error (the loader ignores "already indexed").
// Blocks named `schema` are made with the store.  Blocks named `deferred` index the labels that hold millions of
// nodes (elements, routes, steps): a server starting from its saved data rebuilds every index before it answers
// (2.3 s per million nodes for a label's first indexed property, 0.3 s for each further one, measured on
// FalkorDB 4.16), so these are made when a statement first filters on one of them after a start (all of a
// label's at once: FalkorDB indexes a label's properties in one index) and dropped when the server stops
// (graphsr/store/deferred.py).
// @name schema
CREATE INDEX FOR (n:Store) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Collection) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Document) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Document) ON (n.code)
// @name deferred
CREATE INDEX FOR (n:Element) ON (n.key)
// @name deferred
CREATE INDEX FOR (n:Element) ON (n.in_p_star)
// @name deferred
CREATE INDEX FOR (n:Element) ON (n.in_p_star_c)
// @name deferred
CREATE INDEX FOR (n:Element) ON (n.in_c)
// @name deferred
CREATE INDEX FOR (n:Element) ON (n.in_tag)
// @name schema
CREATE INDEX FOR (n:Summary) ON (n.id)
// @name schema
CREATE INDEX FOR (n:SummaryNode) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Model) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Study) ON (n.id)
// @name deferred
CREATE INDEX FOR (n:Route) ON (n.id)
// @name deferred
CREATE INDEX FOR (n:Step) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Qrels) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Topic) ON (n.id)
// @name schema
CREATE INDEX FOR (n:Run) ON (n.id)
