"""A small typed script: `mypy --strict` must accept it against the package's stubs."""

import numpy as np
import numpy.typing as npt

import skelview


def heights(path: str) -> npt.NDArray[np.float32]:
    m: skelview.Motion = skelview.load(path, take=None)
    xyz = m.positions(space="world", units="m")
    return xyz[:, m.joint_names.index("Head"), 1]


def checks(path: str) -> int:
    try:
        return sum(1 for r in skelview.qa(path, kinds=["pop"]) if r["kind"] != "summary")
    except skelview.LoadError as e:
        print(e.path, e.line, e.col)
        return -1
