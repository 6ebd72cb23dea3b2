"""Bounds for the standard library's threaded HTTP servers (``palaestra serve-reward``, ``palaestra ui``).

``ThreadingHTTPServer`` takes every connection on a thread of its own, and its handler's ``timeout`` bounds each
read, not a request: a client sending one header byte every few seconds holds a thread for ever, and a thousand
such clients hold a thousand threads. So:

- :class:`BoundedHTTPServer` serves at most ``max_connections`` connections at once; the next ones wait in the
  listen queue (``backlog``) and are accepted as connections close (backpressure, not refusal). A connection
  waiting to be accepted closes the one that has waited longest for a request or its headers, once that one has
  waited ``EVICT_AFTER`` seconds: ``max_connections`` sockets that sent nothing (or trickled a header) held every
  slot until their idle timeout, and each request from anyone else waited that long (30 s for ``palaestra ui``,
  120 s for ``serve-reward``);
- :class:`BoundedHandler` gives a request's line and headers ``header_timeout`` seconds in all, from their first
  byte, and lets a keep-alive connection idle ``idle_timeout`` seconds between requests;
  ``read_within(seconds)`` bounds the body the same way.

Example::

    class Handler(BoundedHandler):
        def do_GET(self): ...
    server = BoundedHTTPServer(("127.0.0.1", 0), Handler, max_connections=64, idle_timeout=30, header_timeout=10)
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

EVICT_AFTER = 2.0  # seconds a connection waiting for a request or its headers keeps its slot from one waiting for it


class DeadlineReader(io.RawIOBase):
    """The connection's bytes, each read waiting at most the idle timeout and never past ``deadline`` (if set):
    a client trickling a byte at a time cannot stretch a request's headers (or body) past their deadline."""

    def __init__(self, sock: socket.socket, idle: float) -> None:
        self.sock, self.idle = sock, idle
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        wait = self.idle
        if self.deadline is not None:
            wait = min(wait, self.deadline - time.monotonic())
            if wait <= 0:
                raise TimeoutError("the request's deadline passed")
        self.sock.settimeout(wait)
        return self.sock.recv_into(buffer)


class BoundedHTTPServer(ThreadingHTTPServer):
    """A threaded HTTP server with at most ``max_connections`` connections (threads) at once (see the module)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], *, max_connections: int,
                 idle_timeout: float, header_timeout: float, backlog: int = 128) -> None:
        self.idle_timeout, self.header_timeout = idle_timeout, header_timeout
        self.request_queue_size = backlog  # read by server_activate's listen()
        self.connections = threading.BoundedSemaphore(max_connections)
        self._closing = False
        self._waiting: dict[socket.socket, float] = {}  # connections waiting for a request or its headers: since when
        self._waiting_lock = threading.Lock()
        self.evict_after = EVICT_AFTER
        super().__init__(address, handler)

    def waiting(self, connection: socket.socket, since: float | None) -> None:
        """Record that ``connection`` waits for a request or its headers from ``since`` (None: no longer)."""
        with self._waiting_lock:
            if since is None:
                self._waiting.pop(connection, None)
            else:
                self._waiting.setdefault(connection, since)

    def _evict_one(self) -> None:
        """Close the connection that has waited longest for a request or its headers (its handler then ends and
        frees its slot): a connection that is only held open must not keep out one that has a request to send."""
        with self._waiting_lock:
            if not self._waiting:
                return
            oldest = min(self._waiting, key=self._waiting.__getitem__)
            if time.monotonic() - self._waiting[oldest] < self.evict_after:
                return
            del self._waiting[oldest]
            try:
                oldest.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def get_request(self) -> tuple[Any, Any]:
        """Accept the next connection once a connection slot is free (one that only waits for a request is freed for
        it); until then it waits in the listen queue."""
        if not self.connections.acquire(blocking=False):
            self._evict_one()
        else:
            self.connections.release()
        while not self.connections.acquire(timeout=0.2):
            self._evict_one()
            if self._closing:
                raise OSError("the server is shutting down")  # serve_forever skips the request and sees the shutdown
        try:
            return super().get_request()
        except BaseException:
            self.connections.release()
            raise

    def process_request(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread took the connection: give its slot back
            self.connections.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release()

    def shutdown(self) -> None:
        self._closing = True
        super().shutdown()


class BoundedHandler(BaseHTTPRequestHandler):
    """A handler whose request line and headers have the server's ``header_timeout`` in all (see the module)."""

    server: BoundedHTTPServer

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)  # writes too: a client that reads nothing is dropped
        self.rfile.close()  # read through the deadline reader instead
        self._reader = DeadlineReader(self.connection, self.server.idle_timeout)
        self._buffered = io.BufferedReader(self._reader)
        self.rfile = self._buffered

    def handle_one_request(self) -> None:
        """Wait for a request up to the idle timeout; from its first byte, its line and headers have
        ``header_timeout`` seconds in all (a byte at a time used to restart the idle timer for ever)."""
        self._reader.deadline = None
        self.server.waiting(self.connection, time.monotonic())  # may be closed for a connection waiting to be accepted
        try:
            arrived = bool(self._buffered.peek(1))
        except OSError:  # idle past the timeout, or reset
            arrived = False
        if not arrived:
            self.server.waiting(self.connection, None)
            self.close_connection = True
            return
        self._reader.deadline = time.monotonic() + self.server.header_timeout
        try:
            super().handle_one_request()
        except OSError:
            self.close_connection = True
        finally:
            self._reader.deadline = None
            self.server.waiting(self.connection, None)

    def parse_request(self) -> bool:
        ok = super().parse_request()  # reads the headers, within the header deadline
        self.server.waiting(self.connection, None)  # the headers are in: the request is being served
        self._reader.deadline = None
        self.connection.settimeout(self.server.idle_timeout)
        return ok

    @contextmanager
    def read_within(self, seconds: float) -> Iterator[None]:
        """Reads in the block (a request's body) end ``seconds`` from now at the latest (TimeoutError, an OSError)."""
        self._reader.deadline = time.monotonic() + seconds
        try:
            yield
        finally:
            self._reader.deadline = None
            self.connection.settimeout(self.server.idle_timeout)
