"""What keeps a web page in the user's browser from driving a local server (``palaestra ui``, ``serve-reward``,
``serve``).

A page on any site can send "simple" requests (a POST of ``text/plain``, a GET) to ``127.0.0.1`` without asking
the server first, and a DNS-rebinding name (``evil.example`` that resolves to 127.0.0.1) makes the browser treat
the local server as that site's own. So these servers:

- refuse a request whose ``Host`` is not one of their own names (the bound address, ``localhost``, ``127.0.0.1``,
  ``[::1]``, any port) with 421, unless a token is configured (the token is what protects those servers then);
- refuse a request carrying an ``Origin`` that is not their own (``http://`` + the request's ``Host``) or one
  they were told to admit (``palaestra serve --allow-origin``) with 403;
- take POST bodies only as ``Content-Type: application/json`` (415 otherwise): a browser sends that cross-origin
  only after a CORS preflight, which these servers never grant.

Example::

    >>> hosts = allowed_hosts("127.0.0.1")
    >>> refusal({"Host": "localhost:8765"}, hosts, token=False)
    >>> refusal({"Host": "evil.example:8765"}, hosts, token=False)[0]
    421
    >>> refusal({"Host": "127.0.0.1:8765", "Origin": "http://evil.example"}, hosts, token=False)[0]
    403
    >>> is_json("application/json; charset=utf-8"), is_json("text/plain")
    (True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from email.message import Message

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::"})


def host_name(host: str) -> str:
    """The name part of a ``Host`` header (no port, no IPv6 brackets), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(bound: str) -> frozenset[str]:
    """The names a request's ``Host`` may carry: the loopback names and the bound address (unless a wildcard)."""
    name = bound.strip().strip("[]").lower()
    return LOOPBACK_NAMES if name in WILDCARD_BINDS else LOOPBACK_NAMES | {name}


def refusal(headers: Mapping[str, str] | Message, hosts: frozenset[str], token: bool,
            origins: Collection[str] = ()) -> tuple[int, str] | None:
    """``(status, message)`` when the request may come from a foreign web page, else None (``origins``: web pages
    admitted besides the server's own, as ``scheme://host[:port]``)."""
    host = headers.get("Host")
    if host is not None and not token and host_name(host) not in hosts:
        return 421, (f"this server answers only requests addressed to {', '.join(sorted(hosts))} (Host was "
                     f"{host[:100]!r}): a foreign Host is how a DNS-rebinding web page reaches a local server")
    origin = headers.get("Origin")
    given = (origin or "").strip().rstrip("/").lower()
    own = f"http://{host.strip().lower()}" if host is not None else None
    if origin is not None and given != own and given not in {o.strip().rstrip("/").lower() for o in origins}:
        return 403, (f"cross-origin requests are refused (Origin {origin[:100]!r}): only this server's own page "
                     "and clients that send no Origin may use it")
    return None


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` header says ``application/json`` (parameters such as a charset allowed)."""
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"


JSON_REQUIRED = ("POST bodies must be sent as 'Content-Type: application/json' (other types are what a web page "
                 "can send to this server without asking first)")
