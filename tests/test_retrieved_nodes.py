"""What RAG frameworks' retrievers return, read as runs and trees: LlamaIndex's hierarchical nodes from its objects,
its JSON lines export and as span JSON lines score the same; nodes placed in their documents whichever way their
offsets count; LangChain's documents read by their start index."""

from __future__ import annotations

import gzip
import io
import json
import csv
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.data import sample
from graphsr.errors import GraphsrInputError
from graphsr.evaluation.inputs import Inputs, Options, evaluate
from graphsr.io.retrieved import NodeHierarchy, Unit, read_hierarchy, retrieved_run, spans_of, write_spans

CHROMA = sample("chroma")
CORPORA = ("chatlogs", "state_of_the_union", "wikitexts")
MEASURES = ["ChromaIoU@5", "ChromaP@5", "ChromaR@5", "budgetP@2000", "budgetR@2000", "MAiP", "SRP@5", "SR@5"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Chroma's five corpora as LlamaIndex documents, split 512/128/32 words (no tokenizer download), a BM25
    leaf retriever and an auto-merging retriever over it, and 40 of its questions."""
    pytest.importorskip("llama_index.core")  # (here, not at the module's import: the other tests do without it)
    from llama_index.core import Document, StorageContext
    from llama_index.core.node_parser import HierarchicalNodeParser, SentenceSplitter, get_leaf_nodes
    from llama_index.core.retrievers import AutoMergingRetriever

    bm25_module = pytest.importorskip("llama_index.retrievers.bm25")
    root = tmp_path_factory.mktemp("chroma")
    with tarfile.open(CHROMA["collection"]) as tar:  # (three of its five corpora: the test's time is the split's)
        texts = {
            Path(m.name).stem: tar.extractfile(m).read().decode()
            for m in tar.getmembers()
            if m.isfile() and Path(m.name).stem in CORPORA
        }
    docs = [Document(text=t, id_=d) for d, t in sorted(texts.items())]

    def ids(i, doc):
        return f"{doc.id_}-{i}"

    splitters = {
        f"w{s}": SentenceSplitter(chunk_size=s, chunk_overlap=s // 8, tokenizer=str.split, id_func=ids)
        for s in (512, 128, 32)
    }
    parser = HierarchicalNodeParser.from_defaults(node_parser_ids=list(splitters), node_parser_map=splitters)
    nodes = parser.get_nodes_from_documents(docs)
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    leaves = bm25_module.BM25Retriever.from_defaults(nodes=get_leaf_nodes(nodes), similarity_top_k=8)
    merging = AutoMergingRetriever(leaves, storage, simple_ratio_thresh=0.25)
    every = csv.DictReader(io.TextIOWrapper(gzip.open(CHROMA["qrels"]), "utf-8"))
    questions = [q for q in every if q["corpus_id"] in CORPORA][:40]
    qrels = root / "qrels.csv"
    with open(qrels, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(questions[0]))
        w.writeheader()
        w.writerows(questions)
    got = {
        name: {str(k): r.retrieve(q["question"]) for k, q in enumerate(questions)}
        for name, r in (("leaves", leaves), ("merging", merging))
    }
    return {"docs": docs, "nodes": nodes, "texts": texts, "results": got, "qrels": qrels, "root": root}


def test_every_node_is_placed_in_its_document(corpus):
    h = read_hierarchy(corpus["docs"] + corpus["nodes"])
    for n in corpus["nodes"]:
        doc, start, end = h.span(n.node_id)
        assert corpus["texts"][doc][start:end] == n.text
    children = [n for n in corpus["nodes"] if n.parent_node is not None]
    assert children and sum(n.start_char_idx != h.span(n.node_id)[1] for n in children) > len(children) / 2


def test_the_hierarchy_is_each_documents_tree(corpus):
    h = read_hierarchy(corpus["docs"] + corpus["nodes"])
    tree, index = h.tree("wikitexts")
    assert tree.tags == ("doc", "l1", "l2", "l3")  # (levels: l1 the largest chunks)
    assert int(tree.end[0]) == len(corpus["texts"]["wikitexts"])
    for n in corpus["nodes"]:
        if n.ref_doc_id != "wikitexts":
            continue
        k = index[n.node_id]
        assert (int(tree.start[k]), int(tree.end[k])) == h.span(n.node_id)[1:]
        if n.parent_node is not None:
            assert int(tree.parent[k]) == index[n.parent_node.node_id]


def test_auto_merging_returns_parents(corpus):
    merged = [
        x
        for got in corpus["results"]["merging"].values()
        for x in got
        if x.node.parent_node is None or x.node.child_nodes
    ]
    assert merged, "the auto-merging retriever merged nothing: the test shows nothing"


@pytest.mark.parametrize("retriever", ["leaves", "merging"])
def test_objects_export_and_spans_score_the_same(corpus, retriever, tmp_path):
    results = corpus["results"][retriever]
    nodes = corpus["docs"] + corpus["nodes"]
    hierarchy_file = tmp_path / "nodes.jsonl"
    hierarchy_file.write_text("".join(json.dumps(n.to_dict()) + "\n" for n in nodes))
    export = tmp_path / f"{retriever}.jsonl"
    export.write_text(
        "".join(json.dumps(dict(x.to_dict(), query_id=q)) + "\n" for q, got in results.items() for x in got)
    )
    spans = tmp_path / f"{retriever}.spans.jsonl"
    assert write_spans(spans_of(results, read_hierarchy(nodes)), spans) == sum(map(len, results.values()))

    values = []
    run = retrieved_run(results, nodes=nodes, name=retriever)
    for scored in (run, export, spans):
        # (lenient: leaves of overlapping parents repeat the same text, which the focused task refuses)
        done = evaluate(Inputs(corpus["qrels"], [scored], collection=hierarchy_file), MEASURES, Options(lenient=True))
        assert not done.errors, done.errors
        values.append({str(m): done.results.runs[0].values[m].tolist() for m in done.results.measures})
    assert values[0] == values[1] == values[2]
    assert any(v for v in values[0]["ChromaR@5"])  # (the retriever finds something)


def test_a_child_without_its_hierarchy_is_refused(corpus):
    child = next(x for got in corpus["results"]["leaves"].values() for x in got if x.node.parent_node is not None)
    with pytest.raises(GraphsrInputError, match="give the hierarchy"):
        retrieved_run({"1": [child]})


def test_langchain_documents_by_their_start_index():
    splitters = pytest.importorskip("langchain_text_splitters")
    text = "One sentence here. " * 40 + "The answer is forty-two. " + "More text follows. " * 40
    splitter = splitters.RecursiveCharacterTextSplitter(chunk_size=120, chunk_overlap=30, add_start_index=True)
    docs = splitter.create_documents([text], metadatas=[{"source": "guide"}])
    run = retrieved_run({"q": docs[:5]})
    for k, d in enumerate(docs[:5]):
        start = int(run.offset[k])
        assert text[start : start + int(run.length[k])] == d.page_content


# ---- the placement rule on generated hierarchies ---------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_relative_and_absolute_offsets_place_alike(data):
    """A hierarchy of nested spans over a text, each child's offsets given in its parent's text or in the
    document (chosen per node): every node is placed where it is."""
    text = data.draw(st.text(alphabet="abcdefgh \n", min_size=20, max_size=200))
    units, truth = [Unit("d", "d", None, None, None, text)], {}

    def grow(node_id, parent, ps, pe, depth):
        if depth > 3 or pe - ps < 2:
            return
        for k in range(data.draw(st.integers(1, 3))):
            s = data.draw(st.integers(ps, pe - 1))
            e = data.draw(st.integers(s + 1, pe))
            child = f"{node_id}.{k}"
            relative = data.draw(st.booleans())
            given = (s - ps, e - ps) if relative else (s, e)
            units.append(Unit(child, "d", *given, node_id, text[s:e]))
            truth[child] = (s, e)
            grow(child, node_id, s, e, depth + 1)

    s = data.draw(st.integers(0, len(text) - 1))
    e = data.draw(st.integers(s + 1, len(text)))
    units.append(Unit("r", "d", s, e, None, text[s:e]))
    truth["r"] = (s, e)
    grow("r", None, s, e, 1)
    h = NodeHierarchy(units)
    for node, (s, e) in truth.items():
        _, got_s, got_e = h.span(node)
        assert text[got_s:got_e] == text[s:e]  # (a relative and an absolute reading may both fit: same text)
    tree, index = h.tree("d")
    assert len(tree) == len(truth) + 1


def test_haystack_hierarchical_documents(monkeypatch):
    """Haystack's HierarchicalDocumentSplitter: a child's split_idx_start counts in its parent's content, the
    first level's parent is the document itself; leaves retrieved by its BM25 retriever, read with their scores."""
    monkeypatch.setenv("HAYSTACK_TELEMETRY_ENABLED", "False")
    haystack = pytest.importorskip("haystack")
    from haystack.components.preprocessors import HierarchicalDocumentSplitter
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    with tarfile.open(CHROMA["collection"]) as tar:
        text = tar.extractfile("collection/state_of_the_union.md").read().decode()[:30000]
    splitter = HierarchicalDocumentSplitter(block_sizes={300, 80, 20}, split_overlap=4, split_by="word")
    out = splitter.run([haystack.Document(content=text, id="sotu")])["documents"]
    h = read_hierarchy(out)
    placed = 0
    for d in out:
        if d.meta.get("split_idx_start") is None:
            continue
        doc, start, end = h.span(d.id)
        assert doc == "sotu" and text[start:end] == d.content
        placed += 1
    relative = [d for d in out if d.meta.get("__level", 0) > 1 and d.meta["split_idx_start"] != h.span(d.id)[1]]
    assert placed > 100 and relative
    store = InMemoryDocumentStore()
    store.write_documents([d for d in out if not d.meta.get("__children_ids")])
    got = InMemoryBM25Retriever(store, top_k=5).run(query="the economy and jobs")["documents"]
    run = retrieved_run({"q": got}, nodes=h)
    assert run.score.tolist() == sorted(run.score.tolist(), reverse=True) == [d.score for d in got]
    for k, d in enumerate(got):
        assert text[int(run.offset[k]) : int(run.offset[k] + run.length[k])] == d.content
