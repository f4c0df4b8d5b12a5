"""How the command line names what the library's messages point to: its options, and what a scoring context
may have to hold.  The library words its messages for a Python caller
(:data:`graphsr.measures.provider.PYTHON_WORDING`); the commands pass this table, with the same keys, wherever
they score (``wording=CLI_WORDING``)."""

from __future__ import annotations

__all__ = ["CLI_WORDING"]

CLI_WORDING = {
    "option:lenient": "--lenient",
    "option:order=rank": "--order rank",
    "option:all_topics": "-c",
    "option:collection": "--collection DIR",
    "option:store": "--store",
    "option:model": "--model NAME",
    "option:model_spec": "--model SUMMARY:WEIGHT",
    "option:routes": "--routes LOG",
    "option:routes_model": "--routes-model NAME",
    "option:chunks": "--chunks MAP",
    "option:ties=average": "--ties average",
    "needs:documents": "the collection's documents (--collection DIR, or a stored collection)",
    "needs:navigation": "an SR navigation model (--model SUMMARY:WEIGHT with --collection DIR, 'none' for no "
    "navigation, or a stored model)",
    "needs:routes": "navigation learned from route steps (--routes LOG with --collection DIR, --routes-model NAME, "
    "or --nav depth4 for the depth prior)",
    "needs:size": "the collection's size in elements (--collection DIR, or a stored model)",
    "needs:chunks": "the chunking's chunk map (--chunks MAP)",
}
