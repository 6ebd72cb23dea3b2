"""Precompiled C++ headers (#29 item 1): a root server precompiles <bits/stdc++.h>, <iostream>
and <string> once per compiler and flags, at the lowest priority, while programs compile
without them; afterwards programs compile with them and mean exactly what they meant before
(a header included again, or first included elsewhere, is the real one), and no job can write them."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_support import require, require_language

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local import languages

PROGRAMS = {  # first include precompiled, a precompiled header included again, none first
    "#include <bits/stdc++.h>\nusing namespace std;\n"
    'int main() { vector<int> v{3, 1, 2}; sort(v.begin(), v.end()); for (int x : v) cout << x; cout << "\\n"; }\n': "123",
    '#include <string>\n#include <iostream>\n#include <string>\nint main() { std::string s = "ab"; std::cout << s + s << "\\n"; }\n': "abab",
    "#include <vector>\n#include <iostream>\n#include <bits/stdc++.h>\n"
    'int main() { std::vector<int> v(4); std::cout << v.size() << "\\n"; }\n': "4",
}  # fmt: skip
WRITE = """#include <cstdio>
int main(int argc, char **argv) {
    const char *paths[] = {"%s/string.gch", "%s/string", "%s/planted"};
    for (const char *p : paths) { FILE *f = std::fopen(p, "w"); std::puts(f ? "WROTE" : "denied"); }
}
"""


@pytest.fixture(scope="module")
def fresh() -> Iterator[tuple[LocalBackend, str]]:
    """A backend with a base dir of its own (so the headers are built anew, once for this module), and that dir."""
    base = tempfile.mkdtemp(prefix="palaestra-pch-test-")
    os.chmod(base, 0o711)
    backend = LocalBackend(min_tier="none", base_dir=base)
    try:
        yield backend, base
    finally:
        backend.close()
        shutil.rmtree(base, ignore_errors=True)


def _built(base: str, within: float = 600.0) -> Path:
    """The precompiled headers' directory once the server has built it (polled: the build runs at
    the lowest priority, so a busy host delays it; no figure is asserted)."""
    chain = languages.discover("cpp")
    final = Path(languages.pch_dir(base, chain))
    give_up = time.monotonic() + within
    while not final.is_dir() and time.monotonic() < give_up:
        time.sleep(0.5)
    assert final.is_dir(), "the server never finished precompiling the headers"
    return final


def test_programs_compile_the_same_before_and_after_the_headers_are_precompiled(
    fresh: tuple[LocalBackend, str],
) -> None:
    backend, base = fresh
    backend.run("pass")
    require(backend.probe(), "uid")  # jobs of the server's own uid could rewrite them: no headers then
    require_language(backend, "cpp")
    before = {source: backend.run(source, language="cpp") for source in PROGRAMS}
    final = _built(base)
    after = {source: backend.run(source, language="cpp") for source in PROGRAMS}
    for source, expected in PROGRAMS.items():
        for result in (before[source], after[source]):
            assert result.ok and result.stdout == expected + "\n", result
    for path in [final, *final.rglob("*")]:
        mode = path.stat().st_mode
        assert path.stat().st_uid == 0 and not mode & (stat.S_IWGRP | stat.S_IWOTH), path
    assert {p.name for p in final.iterdir()} == {"bits", "iostream", "iostream.gch", "string", "string.gch"}


def test_no_job_can_write_the_precompiled_headers(fresh: tuple[LocalBackend, str]) -> None:
    backend, base = fresh
    backend.run("pass")
    require(backend.probe(), "uid", "landlock")
    require_language(backend, "cpp")
    backend.run("int main() {}", language="cpp")  # starts the build
    final = _built(base)
    before = {p.name: p.read_bytes() for p in final.iterdir() if p.is_file()}
    result = backend.run(WRITE.replace("%s", str(final)), language="cpp", limits=Limits(wall_seconds=10))
    assert result.ok and result.stdout.split() == ["denied"] * 3, result
    assert {p.name: p.read_bytes() for p in final.iterdir() if p.is_file()} == before
