"""The route simulator: seeded, documented, and a model learned from its routes converges to its own chain."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.cli.main import main
from graphsr.io import parse_document, read_routes
from graphsr.navigation.transitions import StepNavigation
from graphsr.simulation import RouteSimulator, write_routes

DOC = parse_document(b"<a><b><c/><c/></b><b><c/><d><e/></d></b><f/></a>", "doc")


def test_same_seed_same_routes():
    a = list(RouteSimulator(seed=5).walk([DOC], 50))
    b = list(RouteSimulator(seed=5).walk([DOC], 50))
    c = list(RouteSimulator(seed=6).walk([DOC], 50))
    assert a == b and a != c


def test_transition_matrix_follows_depth_weights():
    m = RouteSimulator().transition_matrix(DOC)
    assert np.allclose(m.sum(axis=1), 1.0)
    # from the root (depth 1) to its children b, b, f (depth 2): equal weights
    root_children = np.flatnonzero(DOC.parent == 0)
    assert np.allclose(m[0, root_children], 1 / 3)
    # from d (depth 3): to its parent b (depth 2, weight 1) or its child e (depth 4, weight 1)
    d = DOC.node("/a/b[2]/d")
    assert m[d, DOC.node("/a/b[2]")] == pytest.approx(0.5) and m[d, DOC.node("/a/b[2]/d/e")] == pytest.approx(0.5)
    deep = RouteSimulator(depth_weights={1: 1, 2: 1, 3: 1, 4: 0.2}).transition_matrix(DOC)
    assert deep[d, DOC.node("/a/b[2]/d/e")] == pytest.approx(0.2 / 1.2)


@pytest.mark.parametrize("n_routes, tol", [(200, 0.2), pytest.param(20000, 0.03, marks=pytest.mark.slow)])
def test_learned_model_converges_to_the_simulators_chain(n_routes, tol):
    sim = RouteSimulator(seed=11, mean_steps=6)
    steps = list(sim.walk([DOC], n_routes))
    src = np.array([DOC.node(s.src) for s in steps])
    dst = np.array([DOC.node(s.dst) for s in steps])
    nav = StepNavigation(
        src, dst, np.ones(len(src)), n_states=len(DOC), state_of=np.arange(len(DOC)), doc_of=np.zeros(len(DOC), int)
    )
    learned = nav.P.toarray()
    truth = sim.transition_matrix(DOC)
    visited = np.bincount(src, minlength=len(DOC)) > 0
    assert np.abs(learned[visited] - truth[visited]).max() < tol


def test_steps_are_tree_moves_with_positive_dwell():
    for s in RouteSimulator(seed=2).walk([DOC], 100):
        a, b = DOC.node(s.src), DOC.node(s.dst)
        assert DOC.parent[a] == b or DOC.parent[b] == a
        assert s.duration_ms > 0 and s.user.startswith("u")


def test_written_log_reads_back(tmp_path):
    steps = list(RouteSimulator(seed=1, topics=3).walk([DOC], 30))
    for name in ("log.csv", "log.jsonl"):
        assert write_routes(steps, tmp_path / name) == len(steps)
        back = list(read_routes(tmp_path / name))
        assert [(s.route_id, s.step, s.src, s.dst, s.topic) for s in back] == [
            (s.route_id, s.step, s.src, s.dst, s.topic) for s in steps
        ]
    assert not list(tmp_path.glob("*.partial"))


def test_bad_parameters():
    with pytest.raises(ValueError, match="mean_steps"):
        RouteSimulator(mean_steps=0.5)
    with pytest.raises(ValueError, match="entry"):
        RouteSimulator(entry="anywhere")


def test_cli(tmp_path, capsys):
    from graphsr.data import sample

    out = tmp_path / "sim.csv"
    assert (
        main(
            ["simulate-routes", str(sample("mobydick")["collection"]), "-o", str(out), "--routes", "25", "--seed", "4"]
        )
        == 0
    )
    assert read_routes(out).report.routes == 25
    assert main(["simulate-routes", str(sample("mobydick")["collection"]), "-o", str(out), "--depth-weights", "x"]) == 2
    assert "--depth-weights" in capsys.readouterr().err


def _dense_walk(sim, docs, n_routes):
    """The simulator as first written (an n x n matrix per document): the reference the neighbour lists must
    reproduce draw for draw."""
    rng = np.random.default_rng(sim.seed)
    p_stop, (mu, sigma), clock = 1.0 / sim.mean_steps, sim.dwell_ms, 0.0
    for r in range(n_routes):
        doc = docs[int(rng.integers(len(docs)))]
        m, w, xpaths = sim.transition_matrix(doc), sim.weights(doc.depth), doc.xpaths()
        cur = 0 if sim.entry == "root" or w.sum() == 0 else int(rng.choice(len(doc), p=w / w.sum()))
        steps = int(rng.geometric(p_stop))
        user = f"u{int(rng.integers(sim.users)) + 1}" if sim.users else None
        topic = f"t{int(rng.integers(sim.topics)) + 1}" if sim.topics else None
        for s in range(1, steps + 1):
            row = m[cur]
            if row.sum() == 0:
                break
            nxt = int(rng.choice(len(row), p=row))
            dwell = float(rng.lognormal(mu, sigma))
            clock += dwell
            yield (
                f"r{r + 1}",
                s,
                doc.docid,
                xpaths[cur],
                xpaths[nxt],
                user,
                topic,
                round(dwell, 1),
                f"{clock / 1000:.3f}",
            )
            cur = nxt


@pytest.mark.parametrize(
    "options",
    [{}, {"entry": "root", "topics": 3}, {"depth_weights": {1: 0, 2: 1, 3: 0}}, {"mean_steps": 9, "users": 0}],
)
def test_neighbour_lists_walk_as_the_matrix_walked(options):
    """Moves drawn from each node's neighbour list (no n x n matrix) are the moves the dense matrix gave, draw
    for draw, on the Shakespeare plays."""
    from graphsr.data import sample
    from graphsr.io import iter_documents

    docs = list(iter_documents(sample("shakespeare")["collection"]))[:4] + [DOC]
    for seed in (1, 7):
        sim = RouteSimulator(seed=seed, **options)
        got = [
            (s.route_id, s.step, s.docid, s.src, s.dst, s.user, s.topic, s.duration_ms, s.timestamp)
            for s in sim.walk(docs, 60)
        ]
        assert got == list(_dense_walk(sim, docs, 60))


def test_walking_a_collection_on_disk_streams_documents(tmp_path):
    """walk_collection reads the collection once, document by document: every step is an edge of its tree, the
    same seed gives the same log whatever the listing, routes start an hour apart, and the moves follow the
    simulator's chain."""
    docs = {f"d{k}": DOC for k in range(3)}
    for name in docs:
        (tmp_path / f"{name}.xml").write_bytes(b"<a><b><c/><c/></b><b><c/><d><e/></d></b><f/></a>")
    sim = RouteSimulator(seed=3, mean_steps=5)
    a, b = list(sim.walk_collection(tmp_path, 3000)), list(sim.walk_collection(tmp_path, 3000))
    assert a == b and {s.docid for s in a} == set(docs)
    assert len({s.route_id for s in a}) <= 3000
    for s in a[:500]:
        assert DOC.parent[DOC.node(s.dst)] == DOC.node(s.src) or DOC.parent[DOC.node(s.src)] == DOC.node(s.dst)
    first = {}
    for s in a:
        first.setdefault(s.route_id, float(s.timestamp))
    r = max(first, key=lambda x: int(x[1:]))
    assert first[r] >= (int(r[1:]) - 1) * sim.ROUTE_GAP_S
    m = sim.transition_matrix(DOC)
    src = np.array([DOC.node(s.src) for s in a])
    dst = np.array([DOC.node(s.dst) for s in a])
    counts = np.zeros_like(m)
    np.add.at(counts, (src, dst), 1)
    seen = counts.sum(axis=1) > 200
    assert np.allclose(counts[seen] / counts[seen].sum(axis=1, keepdims=True), m[seen], atol=0.06)
