"""Length-prefixed frames: ``marshal`` between trusted ends, JSON from jobs to the server.

The client, the server and the cells the server sends a session are written by trusted code running the
same interpreter, so ``marshal`` (fast, bytes-native, only plain data types) is safe there. A job's reports
to the server (its status pipe) are not: a session's cells run in the very process that reports them, so the
model's code can write anything on that pipe. Those frames are JSON (``encode_status``), read by a
:class:`StatusDecoder` that bounds the frame size and turns anything malformed into a
:class:`StatusViolation` for the server to stop that one job (``marshal`` is not safe on hostile input).

Example::

    from palaestra.sandbox.local.protocol import Decoder, StatusDecoder, encode, encode_status
    Decoder().feed(encode({"op": "ping"}))                          # [{'op': 'ping'}]
    StatusDecoder(1 << 16).feed(encode_status({"files": {"a": b"\x00"}}))   # [{'files': {'a': b'\x00'}}]
"""

from __future__ import annotations

import base64
import json
import marshal
import struct
from typing import Any

_HEADER = struct.Struct("<I")
MAX_FRAME = 1 << 30


def encode(message: Any) -> bytes:
    data = marshal.dumps(message)
    return _HEADER.pack(len(data)) + data


class Decoder:
    """Accumulate bytes; return every complete message."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        self._buf += data
        out = []
        while len(self._buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buf)
            if size > MAX_FRAME:
                raise ValueError(f"sandbox protocol: frame of {size} bytes")
            if len(self._buf) < _HEADER.size + size:
                break
            out.append(marshal.loads(bytes(self._buf[_HEADER.size : _HEADER.size + size])))
            del self._buf[: _HEADER.size + size]
        return out


class StatusViolation(ValueError):
    """A job's status frame the server cannot accept (too large, not JSON, not an object)."""


_BYTES_KEY = "$bytes"  # JSON has no bytes: {"$bytes": base64} stands for them


def encode_status(message: dict[str, Any]) -> bytes:
    """A job's report to the server (see the module docstring): JSON, bytes as base64."""
    data = json.dumps(message, default=_bytes_as_json, separators=(",", ":")).encode()
    return _HEADER.pack(len(data)) + data


def _bytes_as_json(value: Any) -> dict[str, str]:
    if isinstance(value, (bytes, bytearray)):
        return {_BYTES_KEY: base64.b64encode(value).decode()}
    raise TypeError(f"a status report holds only JSON values and bytes, not {type(value).__name__}")


def _json_as_bytes(pairs: dict[str, Any]) -> Any:
    if len(pairs) == 1 and _BYTES_KEY in pairs:
        encoded = pairs[_BYTES_KEY]
        if not isinstance(encoded, str):
            raise StatusViolation("bytes not given as base64 text")
        return base64.b64decode(encoded, validate=True)
    return pairs


class StatusDecoder:
    """A job's status frames, read as hostile input: each at most ``limit`` bytes (checked before it is
    buffered), each a JSON object; anything else raises :class:`StatusViolation`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buf += data
        out = []
        while len(self._buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buf)
            if size > self.limit:
                raise StatusViolation(f"a frame of {size} bytes (at most {self.limit})")
            if len(self._buf) < _HEADER.size + size:
                break
            frame = bytes(self._buf[_HEADER.size : _HEADER.size + size])
            del self._buf[: _HEADER.size + size]
            try:
                message = json.loads(frame, object_hook=_json_as_bytes)
            except (ValueError, RecursionError) as exc:  # bad JSON, UTF-8, base64 or int digits; deep nesting
                raise StatusViolation(f"not a JSON frame: {type(exc).__name__}") from None
            if not isinstance(message, dict):
                raise StatusViolation("a frame that is not an object")
            out.append(message)
        return out
