"""cmark-gfm's block tree of a Markdown text, read from the parser's own syntax tree.

``cmarkgfm`` (CommonMark's reference parser, GitHub's fork, with its table extension) exposes only its HTML
renderer to Python; its shared library exports the whole cmark API, which is opened here (through cffi, as
cmarkgfm does) to walk the tree the parser builds: each block's kind and the source lines cmark records for it,
without rendering the document to HTML and parsing that again (which held the text four times over: the HTML,
lxml's tree of it with every inline element).  Inline nodes are never visited.

The positions are cmark's own, with its known slips (a paragraph's start before its link reference
definitions, an indented code block's trailing blank lines, a table interrupting a paragraph): the reader
(:func:`graphsr.io.textdocs.markdown_tree`) repairs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Block", "blocks"]

_CDEF = """
typedef struct cmark_node cmark_node;
typedef struct cmark_parser cmark_parser;
typedef struct cmark_syntax_extension cmark_syntax_extension;
cmark_parser *cmark_parser_new(int options);
void cmark_parser_free(cmark_parser *parser);
void cmark_parser_feed(cmark_parser *parser, const char *buffer, size_t len);
cmark_node *cmark_parser_finish(cmark_parser *parser);
cmark_syntax_extension *cmark_find_syntax_extension(const char *name);
int cmark_parser_attach_syntax_extension(cmark_parser *parser, cmark_syntax_extension *extension);
void cmark_gfm_core_extensions_ensure_registered(void);
cmark_node *cmark_node_first_child(cmark_node *node);
cmark_node *cmark_node_next(cmark_node *node);
const char *cmark_node_get_type_string(cmark_node *node);
int cmark_node_get_start_line(cmark_node *node);
int cmark_node_get_end_line(cmark_node *node);
int cmark_node_get_end_column(cmark_node *node);
int cmark_node_get_heading_level(cmark_node *node);
int cmark_node_get_list_type(cmark_node *node);
int cmark_node_get_list_tight(cmark_node *node);
int cmark_node_get_fenced(cmark_node *node, int *length, int *offset, char *character);
void cmark_node_free(cmark_node *node);
"""

#: The blocks whose children are blocks (walked into); the others are leaves (their children, if any, inline).
_CONTAINERS = {"document", "block_quote", "list", "item", "table"}


@dataclass(slots=True)
class Block:
    """One block: its kind (cmark's type name; ``heading`` with its ``level``, ``list`` ordered or not,
    ``code_block`` with its opening ``fence`` if it has one), its parent's index in the list (-1 for the document), and cmark's source
    lines: ``first`` (0-based) and ``end`` (0-based, exclusive: the line after its last)."""

    kind: str
    parent: int
    first: int
    end: int
    level: int = 0  # a heading's level; 1 for an ordered list
    fence: str = ""  # a fenced code block's opening fence (``` or ~~~~, ...)
    tight: bool = False  # a list whose items' paragraphs are not set apart (HTML shows them without <p>)


@lru_cache(maxsize=1)
def _library():
    import cffi
    import cmarkgfm._cmark as compiled

    ffi = cffi.FFI()
    ffi.cdef(_CDEF)
    lib = ffi.dlopen(compiled.__file__)
    lib.cmark_gfm_core_extensions_ensure_registered()
    return ffi, lib


def blocks(text: str) -> list[Block]:
    """The blocks of ``text`` in document order (pre-order), the document first, as cmark-gfm with GitHub's
    tables reads them."""
    ffi, lib = _library()
    data = text.encode("utf-8", "surrogatepass")
    parser = lib.cmark_parser_new(0)
    if parser == ffi.NULL:
        raise MemoryError("cmark could not make a parser")
    try:
        table = lib.cmark_find_syntax_extension(b"table")
        if table != ffi.NULL:
            lib.cmark_parser_attach_syntax_extension(parser, table)
        lib.cmark_parser_feed(parser, data, len(data))
        root = lib.cmark_parser_finish(parser)
    finally:
        lib.cmark_parser_free(parser)
    if root == ffi.NULL:
        raise MemoryError("cmark could not parse the document")
    del data
    try:
        return _walk(ffi, lib, root)
    finally:
        lib.cmark_node_free(root)


def _walk(ffi, lib, root) -> list[Block]:
    out = [Block("document", -1, 0, 0)]
    kinds: dict = {}  # (type strings are static: one decode per kind)
    stack = [(lib.cmark_node_first_child(root), 0)]
    null = ffi.NULL
    first_child, next_node = lib.cmark_node_first_child, lib.cmark_node_next
    type_string, start_line, end_line, end_column = (
        lib.cmark_node_get_type_string,
        lib.cmark_node_get_start_line,
        lib.cmark_node_get_end_line,
        lib.cmark_node_get_end_column,
    )
    length, offset, character = ffi.new("int *"), ffi.new("int *"), ffi.new("char *")  # (cmark writes them)
    while stack:
        node, parent = stack.pop()
        if node == null:
            continue
        stack.append((next_node(node), parent))
        raw = type_string(node)
        key = int(ffi.cast("uintptr_t", raw))
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = ffi.string(raw).decode()
        first = start_line(node) - 1
        last, column = end_line(node), end_column(node)
        block = Block(kind, parent, first, last if column > 0 else last - 1)
        if kind == "heading":
            block.level = lib.cmark_node_get_heading_level(node)
        elif kind == "list":
            block.level = 1 if lib.cmark_node_get_list_type(node) == 2 else 0
            block.tight = bool(lib.cmark_node_get_list_tight(node))
        elif kind == "code_block" and lib.cmark_node_get_fenced(node, length, offset, character):
            block.fence = character[0].decode("latin-1") * length[0]
        out.append(block)
        if kind in _CONTAINERS:
            stack.append((first_child(node), len(out) - 1))
    return out
