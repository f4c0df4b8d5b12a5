"""An ArcadeDB server with its Bolt plugin on 127.0.0.1, for the tests of the Neo4j path (tests/test_store_arcadedb.py).

    python arcadedb_server.py ROOT PASSWORD LIFETIME

starts the server (the ``arcadedb-embedded`` wheel: the server and its own Java runtime) with its data under
ROOT, on free loopback ports, creates the database ``graphsr`` and prints one line ``READY BOLT_PORT HTTP_PORT``.
It stops when its standard input closes (the test process ended, however it ended) or after LIFETIME seconds,
whichever comes first: a server the suite starts never outlives it for long.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import sys
import threading
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    root, password, lifetime = sys.argv[1], sys.argv[2], float(sys.argv[3])
    from arcadedb_embedded.server import ArcadeDBServer

    http_port, bolt_port = free_port(), free_port()
    server = ArcadeDBServer(
        root_path=root,
        root_password=password,
        config={
            "host": "127.0.0.1",
            "http_port": http_port,
            "bolt_port": bolt_port,
            "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
        },
    )
    server.start()
    auth = base64.b64encode(f"root:{password}".encode()).decode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{http_port}/api/v1/server",
        data=json.dumps({"command": "create database graphsr"}).encode(),
        headers={"Authorization": f"Basic {auth}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        body = answer.read()
    if b'"ok"' not in body:
        print(f"cannot create the database: {body!r}", file=sys.stderr, flush=True)
        server.stop()
        return 1
    print(f"READY {bolt_port} {http_port}", flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(lifetime)
    try:
        server.stop()
    finally:
        os._exit(0)  # the JVM's own threads must not keep the process


if __name__ == "__main__":
    sys.exit(main())
