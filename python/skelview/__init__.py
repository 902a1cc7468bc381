"""skelview: motion-capture files as NumPy arrays, with skelview's engine.

Reads BVH, ASF/AMC, HTR/GTR, ACL, H-Anim (X3D, ClassicVRML), FBX, glTF/VRM, C3D and TRC with
one API; runs the capture checks; writes BVH, glTF, TRC and OpenSim MOT.

    import skelview
    m = skelview.load("walk.bvh")
    xyz = m.positions()          # frames x joints x 3, metres, +Y up
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig

from ._skelview import LoadError, Mesh, Motion, convert, formats, load, load_bytes, load_many, measure, operations, qa

__all__ = ["LoadError", "Mesh", "Motion", "convert", "formats", "load", "load_bytes", "load_many", "measure", "operations", "qa", "show", "viewer"]


def viewer() -> str:
    """The viewer program: $SKELVIEW_BIN, else the one this package's wheel installed beside
    the Python that runs it, else `skelview` on PATH."""
    exe = os.environ.get("SKELVIEW_BIN")
    if exe:
        return exe
    name = "skelview.exe" if os.name == "nt" else "skelview"
    beside = os.path.join(sysconfig.get_path("scripts"), name)
    if os.path.isfile(beside):
        return beside
    found = shutil.which("skelview")
    if found is None:
        raise FileNotFoundError(
            "the skelview viewer is not installed: the wheel carries it (pip install skelview-...whl), "
            "or `cargo install --path .` in the skelview repository puts it on PATH (or set SKELVIEW_BIN)"
        )
    return found


def show(*paths: "str | os.PathLike[str]") -> "subprocess.Popen[bytes]":
    """Opens the viewer on `paths` (the bundled sample when none) and returns its process."""
    return subprocess.Popen([viewer(), *[os.fspath(p) for p in paths]])
