"""A small typed script: `mypy --strict` must accept it against the package's stubs."""

import numpy as np
import numpy.typing as npt

import skelview


def heights(path: str) -> npt.NDArray[np.float32]:
    m: skelview.Motion = skelview.load(path, take=None)
    xyz = m.positions(space="world", units="m")
    every_tenth = m.positions(slice(None, None, 10))
    moving = m.rotations(np.abs(np.diff(xyz[:, 0, 1], prepend=0.0)) > 0.001)
    assert every_tenth.shape[1] == moving.shape[1]
    return xyz[:, m.joint_names.index("Head"), 1]


def checks(path: str) -> int:
    try:
        return sum(1 for r in skelview.qa(path, kinds=["pop"]) if r["kind"] != "summary")
    except skelview.LoadError as e:
        print(e.path, e.line, e.col)
        return -1


def batch(paths: list[str], out: str) -> dict[str, npt.NDArray[np.float32]]:
    motions = skelview.load_many(paths, 2, fps=30.0)
    first = skelview.load_bytes(open(paths[0], "rb").read(), paths[0], bvh_positions="add")
    first.to_bvh(out + ".bvh", order="XYZ")
    skelview.convert(paths[0], out + ".glb", take=None)
    hand = skelview.measure(first, speed=["RightHand"], frames=slice(0, 100))
    names = [f["name"] for f in skelview.formats()]
    assert names and hand["frame"].shape == hand["time"].shape and skelview.qa(first, kinds="pop", thresholds={"pop": {"factor": 5.0}})
    return {m.path: m.rest_positions(units="file") for m in motions}


def skin(path: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.uint32]]:
    m = skelview.load(path)
    meshes: list[skelview.Mesh] = m.meshes
    first = meshes[0]
    assert first.index == 0 and first.vertex_count > 0 and first.skinned in (True, False) and first.name
    smiles = [k for k, mesh in enumerate(meshes) if "smile" in mesh.morph_targets]
    every = m.vertices(slice(0, 10), units="file", y_up=False)
    assert every.shape[1] >= first.vertex_count and all(k >= 0 for k in smiles)
    return m.vertices([0, -1], mesh=0), first.faces
