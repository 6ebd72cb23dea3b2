"""The shell profile runs no program outside its allow-list through the dynamic loader (#23 hostile review,
round 3). The loader must be executable (every allow-listed ELF tool needs it), and it runs whatever ELF file it
can read: before, a bash job could read all of /lib and /usr/lib and ran git, gcc's cc1, SWI-Prolog and a
bundled Python with ``/lib64/ld-linux-x86-64.so.2 PROGRAM``. Now it reads only its tools' shared libraries."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from sandbox_support import require_language

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local import languages


def _programs_under_library_dirs() -> list[str]:
    """Host programs that live under the library directories (none of them allow-listed)."""
    found = [p for p in ("/usr/lib/git-core/git", "/usr/lib/swi-prolog/bin/x86_64-linux/swipl") if os.path.isfile(p)]
    if gcc := shutil.which("gcc"):
        cc1 = subprocess.run([gcc, "-print-prog-name=cc1"], capture_output=True, text=True, check=False).stdout.strip()
        if os.path.isabs(cc1) and os.path.isfile(cc1):
            found.append(cc1)
    return found


def test_the_loader_runs_no_program_outside_the_allow_list(jail: LocalBackend) -> None:
    require_language(jail, "bash")
    chain = languages.discover("bash")
    loaders = sorted({languages.interpreter(p) for p in chain["run"]["exec"]} - {None})
    programs = _programs_under_library_dirs()
    if not loaders or not programs:
        pytest.skip("no dynamic loader or no program under the library directories on this host")
    script = "\n".join(f"{loader} {program} --version </dev/null; echo \"exit $?\""
                       for loader in loaders for program in programs)
    r = jail.run(script, language="bash", limits=Limits(wall_seconds=10, cpu_seconds=10))
    assert r.error is None, r
    exits = [line for line in r.stdout.splitlines() if line.startswith("exit ")]
    assert len(exits) == len(loaders) * len(programs) and all(line != "exit 0" for line in exits), r
    assert "cannot open shared object file" in r.stderr, r


def test_the_tools_still_find_their_libraries_and_data(jail: LocalBackend) -> None:
    require_language(jail, "bash")
    script = ("printf 'b\\na\\n' | sort | xz | xz -d | grep -P '^[ab]$' | bzip2 | bzip2 -d | wc -l; "
              "printf '%%PDF-1.4\\n' > p; file -b p | cut -c1-3; date -u -d @0 +%Y")
    if not {"xz", "bzip2", "file"} <= set(languages.discover("bash")["tools"]):
        pytest.skip("xz, bzip2 or file is not installed")
    r = jail.run(script, language="bash", limits=Limits(wall_seconds=10, cpu_seconds=10))
    assert r.ok and r.stdout == "2\nPDF\n1970\n", r
