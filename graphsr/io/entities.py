"""Internal entities expanded in place: the tree a parser builds when it resolves a document's own entities.

graphsr parses XML with entity resolution off (``resolve_entities=False``): an external entity is never
fetched, and a reference to an entity declared only in an external DTD (DocBook's ``&nbsp;`` with the DTD not
loaded) stays a reference rather than failing the parse, as lxml's ``resolve_entities="internal"`` would. But an
entity declared in the document's own DOCTYPE is part of the document:

    <!DOCTYPE article [<!ENTITY app "<application>Disk Mounter</application>">]>
    <article><title>&app; help</title><para>Use &app; to mount. &app;</para></article>

has six elements, as lxml's tree with entities resolved has; left as references it would have three, and a
judgment of ``/article[1]/para[1]/application[2]`` would name no element.  :func:`expand_internal_entities`
replaces each reference to an internal entity by its replacement text, parsed, in place (nested references
too); references to external or undeclared entities stay (each counts as one character of text, as before),
in the document and in its entities' text alike (KDE's handbooks declare ``<!ENTITY gnu-lactic "&GNU;-Lactic">``
with ``&GNU;`` in the DTD they name).

The expansion is bounded as libxml2 bounds its own: a document whose internal entities would expand to more
than :data:`MAX_AMPLIFICATION` times its size (and 1 MB) is refused in one line, and so are entities nested
deeper than :data:`MAX_DEPTH` or defined in terms of themselves.
"""

from __future__ import annotations

from lxml import etree

from ..errors import CollectionError

__all__ = ["expand_internal_entities", "MAX_AMPLIFICATION", "MAX_DEPTH"]

#: How many times its own size a document's internal entities may expand it to (libxml2's default factor is 5).
MAX_AMPLIFICATION = 5
#: The least the expansion may add whatever the document's size.
MIN_BUDGET = 1 << 20
#: How deeply entities may be nested in entities.
MAX_DEPTH = 40

_FRAGMENT_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True, remove_blank_text=False
)


def _internal_entities(root) -> dict[str, str]:
    """The document's internal general entities (declared in its own DOCTYPE with a literal value): name ->
    replacement text."""
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is None:
        return {}
    out = {}
    for ent in dtd.iterentities():
        if ent.system_url is None and ent.content is not None:
            out[ent.name] = ent.content
    return out


def expand_internal_entities(root, source: str | None = None) -> int:
    """Replace, in the tree of ``root``, every reference to an entity declared in the document's own DOCTYPE by
    its replacement text, parsed (elements, text, comments); returns the references replaced (0: the tree is
    unchanged, the common case, found at the cost of looking at the DOCTYPE).

    Raises
    ------
    CollectionError
        If the expansion would pass its bounds (see the module docstring), or an entity's replacement text is
        not well-formed content.
    """
    entities = _internal_entities(root)
    if not entities:
        return 0
    refs = [r for r in root.iter(etree.Entity) if r.name in entities]
    if not refs:
        return 0
    info = root.getroottree().docinfo
    # a document with an external DTD (not loaded) may name entities that DTD declares, in its own entities'
    # text too: each fragment gets an external subset of its own (never loaded), so that such a reference
    # stays a reference there as it does in the document, rather than failing the fragment's parse
    external = ' SYSTEM "graphsr:not-loaded"' if info.system_url is not None or info.public_id is not None else ""
    declarations = external + " [" + "".join(_declaration(name, text) for name, text in entities.items()) + "]"
    size = len(etree.tostring(root, encoding="unicode"))
    state = {"budget": max(MAX_AMPLIFICATION * size, MIN_BUDGET), "replaced": 0}
    fragments: dict[str, etree._Element] = {}
    _expand(refs, entities, declarations, fragments, state, (), source)
    return state["replaced"]


def _declaration(name: str, text: str) -> str:
    quote = '"' if '"' not in text else "'"
    if quote in text:  # both quotes in the text: the double one as a character reference
        quote, text = '"', text.replace('"', "&#34;")
    return f"<!ENTITY {name} {quote}{text}{quote}>"


def _fragment(name: str, entities, declarations: str, fragments: dict, source) -> etree._Element:
    """The replacement text of entity ``name`` parsed as content (once per entity), its own references kept."""
    frag = fragments.get(name)
    if frag is None:
        text = f"<!DOCTYPE x{declarations}><x>{entities[name]}</x>"
        try:
            frag = etree.fromstring(text.encode("utf-8"), _FRAGMENT_PARSER)
        except etree.XMLSyntaxError as exc:
            raise CollectionError(
                f"the replacement text of entity {name!r} is not well-formed content ({' '.join(str(exc).split())})",
                source,
            ) from None
        fragments[name] = frag
    return frag


def _expand(refs, entities, declarations, fragments, state, within: tuple, source) -> None:
    import copy

    for ref in refs:
        name = ref.name
        if name in within:
            raise CollectionError(
                f"entity {name!r} is defined in terms of itself ({' -> '.join(within + (name,))})", source
            )
        if len(within) >= MAX_DEPTH:
            raise CollectionError(f"entities nested deeper than {MAX_DEPTH} ({' -> '.join(within[:5])} ...)", source)
        state["budget"] -= len(entities[name])
        if state["budget"] < 0:
            raise CollectionError(
                f"the document's internal entities expand it more than {MAX_AMPLIFICATION} times "
                "its size; refused, as an entity bomb would be",
                source,
            )
        frag = copy.deepcopy(_fragment(name, entities, declarations, fragments, source))
        inner = [r for r in frag.iter(etree.Entity) if r.name in entities]
        if inner:
            _expand(inner, entities, declarations, fragments, state, within + (name,), source)
        _replace(ref, frag)
        state["replaced"] += 1


def _replace(ref, frag) -> None:
    """Put the content of ``frag`` (its text, then its children with their tails) where ``ref`` is, with
    ``ref``'s tail after it."""
    parent = ref.getparent()
    before = ref.getprevious()
    lead = frag.text or ""
    children = list(frag)
    tail = ref.tail or ""
    at = parent.index(ref)
    parent.remove(ref)  # (lxml moves ref's tail away with it: it is put back below)
    if lead:
        if before is None:
            parent.text = (parent.text or "") + lead
        else:
            before.tail = (before.tail or "") + lead
    for k, child in enumerate(children):
        parent.insert(at + k, child)
    if tail:
        last = children[-1] if children else before
        if last is None:
            parent.text = (parent.text or "") + tail
        else:
            last.tail = (last.tail or "") + tail
