"""Record a second CommonMark implementation's reading of the Markdown constructs cmark-gfm's source positions get
wrong, and of the real Markdown in tests/data/markdown/real, as test data for graphsr's Markdown reader
(tests/data/markdown/reference.json; tests/test_markdown_trees.py compares graphsr's trees with it, so the tests
need no second parser).

The second implementation is markdown-it-py (CommonMark, with GitHub's tables), through
tests/markdown_reference.py:

    pip install markdown-it-py
    python tools/record_markdown_reference.py

Front matter is not CommonMark: its lines are given to the reference as blank lines, as graphsr gives them to
cmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The constructs: name -> Markdown.
CONSTRUCTS = {
    "a table after a paragraph line": "Intro\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "a table after two paragraph lines, in a quote": "> one\n> two\n> | a | b |\n> |---|---|\n> | 1 | 2 |\n",
    "a table after a paragraph line, in a list item": "- intro\n  | a |\n  | - |\n  | 1 |\n\n- next\n",
    "YAML front matter": "---\na: 1\n---\n## B\ntext\n\n## C\nmore\n",
    "TOML front matter": "+++\ntitle = 'x'\n+++\n# T\n\nbody\n",
    "link reference definitions before a paragraph": "[a]: http://x\n[b]: http://y\nPara text\n",
    "a definition with its title on the next line": "[a]: http://x\n  'title'\nPara\n\nnext\n",
    "definitions before a setext heading": "[a]: /u\nHeading\n---\nbody\n",
    "definitions in a list item": "1. [d]: http://x/0\n     'title'\n   text\n2. more\n",
    "an indented code block with trailing blank lines": "para\n\n    code\n    more\n\n\n\nnext\n",
    "a thematic break in a quote before an empty > line": "> ---\n>\nafter\n",
    "a setext heading in a quote": "> a\n> ---\n>\n> b\n",
    "a setext heading followed by a heading": "a: 1\n---\n## B\ntext\n",
    "an unclosed fence at the end": "```\ncode\n\n\n",
    "an unclosed fence in a list item": "- ```\n  code\n\n\n  more\n\nafter\n",
    "an unclosed fence in a nested quote": "> > ```\n> > code\n> >\n>\n> after\n",
}


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from graphsr.io.textdocs import _decoded, _front_matter_lines, _line_starts
    from tests.markdown_reference import reference_blocks

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "markdown" / "reference.json"))
    args = ap.parse_args()
    texts = dict(CONSTRUCTS)
    for path in sorted((ROOT / "tests" / "data" / "markdown" / "real").glob("*.md")):
        if path.name != "README.md":
            texts[f"real: {path.name}"] = _decoded(path.read_bytes(), str(path))
    recorded = {}
    for name, text in texts.items():
        starts = _line_starts(text)
        front = _front_matter_lines(text, starts)
        masked = "\n" * front + text[starts[front] :] if front else text
        recorded[name] = {"text": text if not name.startswith("real: ") else None, "blocks": reference_blocks(masked)}
    import markdown_it

    Path(args.out).write_text(
        json.dumps({"reference": f"markdown-it-py {markdown_it.__version__}", "cases": recorded}, indent=1) + "\n"
    )
    print(f"{len(recorded)} cases -> {args.out}")


if __name__ == "__main__":
    main()
