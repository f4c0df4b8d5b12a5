"""trec_eval 9.0.8's measures as trec_eval computes them, for ``graphsr trec_eval`` (:mod:`.table`: the measure
list, parameters and names; :mod:`.kernels`: one topic's values)."""
