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

from ._skelview import LoadError, Motion, convert, formats, load, load_bytes, load_many, measure, qa

__all__ = ["LoadError", "Motion", "convert", "formats", "load", "load_bytes", "load_many", "measure", "qa", "show"]


def show(*paths: "str | os.PathLike[str]") -> "subprocess.Popen[bytes]":
    """Opens the viewer on `paths` (the `skelview` executable on PATH, or $SKELVIEW_BIN)."""
    exe = os.environ.get("SKELVIEW_BIN") or shutil.which("skelview")
    if exe is None:
        raise FileNotFoundError(
            "the skelview viewer is not installed: `cargo install --path .` in the skelview "
            "repository puts it on PATH (or set SKELVIEW_BIN to its path)"
        )
    return subprocess.Popen([exe, *[os.fspath(p) for p in paths]])
