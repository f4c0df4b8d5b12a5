"""The span family: measures of chunk retrieval over character spans -- Chroma's chunking evaluation
(``ChromaIoU``, ``ChromaP``, ``ChromaR``), precision and recall within an equal reading budget (``budgetP``,
``budgetR``) and the share of retrieved text never judged (``unjudged_chars``).

>>> from graphsr.measures.span import ChromaIoU, budgetP
>>> ChromaIoU @ 5, budgetP @ 2000
(ChromaIoU@5, budgetP@2000)
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {
        **declared_by(__name__),
        **{"SpanProvider": "provider", "SpanInputs": "kernels", "compute_span_family": "kernels"},
    },
)
