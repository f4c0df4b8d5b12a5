// Schema statements for Neo4j 5: a uniqueness constraint (with its index) per label on the id property; elements
// on their integer key, documents on their code too.
// @name schema
CREATE CONSTRAINT graphsr_collection_id IF NOT EXISTS FOR (n:Collection) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_element_key IF NOT EXISTS FOR (n:Element) REQUIRE n.key IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_summary_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_summarynode_id IF NOT EXISTS FOR (n:SummaryNode) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_model_id IF NOT EXISTS FOR (n:Model) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_study_id IF NOT EXISTS FOR (n:Study) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_route_id IF NOT EXISTS FOR (n:Route) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_step_id IF NOT EXISTS FOR (n:Step) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_qrels_id IF NOT EXISTS FOR (n:Qrels) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_run_id IF NOT EXISTS FOR (n:Run) REQUIRE n.id IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_document_code IF NOT EXISTS FOR (n:Document) REQUIRE n.code IS UNIQUE
// @name schema
CREATE CONSTRAINT graphsr_store_id IF NOT EXISTS FOR (n:Store) REQUIRE n.id IS UNIQUE
// the membership properties' indexes: a summary node's elements found without scanning every document
// @name schema
CREATE INDEX graphsr_element_in_p_star IF NOT EXISTS FOR (n:Element) ON (n.in_p_star)
// @name schema
CREATE INDEX graphsr_element_in_p_star_c IF NOT EXISTS FOR (n:Element) ON (n.in_p_star_c)
// @name schema
CREATE INDEX graphsr_element_in_c IF NOT EXISTS FOR (n:Element) ON (n.in_c)
// @name schema
CREATE INDEX graphsr_element_in_tag IF NOT EXISTS FOR (n:Element) ON (n.in_tag)
