"""A real HTTP server on a local port, in a thread, for the IndexNow endpoint's tests."""

from __future__ import annotations

import contextlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator


@contextlib.contextmanager
def serving(handler: type[BaseHTTPRequestHandler], path: str = "/indexnow") -> Iterator[str]:
    """Serve ``handler`` on 127.0.0.1 while the block runs; yields the URL of ``path``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{path}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
