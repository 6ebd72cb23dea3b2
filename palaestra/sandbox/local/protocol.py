"""Length-prefixed ``marshal`` frames between the client and the sandbox server.

Both ends run the same interpreter, so ``marshal`` (fast, bytes-native, only plain data
types) is safe to use: the server is trusted code, and jobs never write to this channel.

Example::

    from palaestra.sandbox.local.protocol import Decoder, encode
    d = Decoder()
    d.feed(encode({"op": "ping"}))    # [{'op': 'ping'}]
"""

from __future__ import annotations

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
