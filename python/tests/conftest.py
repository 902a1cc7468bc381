"""Where the tests find the corpus and the command line they compare with."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = Path(os.environ.get("SKELVIEW_CORPUS", ROOT.parent / "shared" / "corpus"))
    if not path.is_dir():
        if os.environ.get("CI") in ("true", "1"):
            pytest.fail(f"the test corpus is missing at {path}")
        pytest.skip(f"no test corpus at {path}")
    return path


@pytest.fixture(scope="session")
def cli() -> "callable":
    exe = os.environ.get("SKELVIEW_BIN") or str(ROOT / "target" / "debug" / "skelview")
    if not Path(exe).is_file():
        pytest.fail(f"no skelview executable at {exe} (cargo build, or set SKELVIEW_BIN)")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([exe, *args], capture_output=True, text=True)

    return run
