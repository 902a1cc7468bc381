"""Synthetic SMPL-X inputs for benches/bodies.sh, and the NumPy side of its comparison.

    bodies.py make OUT FRAMES    a model folder OUT/models/smplx/SMPLX_NEUTRAL.npz with the real
                                 model's array sizes (10,475 vertices, 55 joints, 400 shape and
                                 486 pose directions, float64, saved uncompressed as the real
                                 files are) and OUT/motion_FRAMES.npz in AMASS's SMPL-X layout.
                                 No real model or AMASS file is used: their licences forbid it.
    bodies.py numpy MOTION MODEL OUT.npy|OUT.csv
                                 the motion's joints by the model equations, vectorised over
                                 frames (Rodrigues for every joint of every frame at once, then
                                 one batched 4x4 product per joint down the tree), written as
                                 .npy, or as the CSV `skelview positions --raw` writes.
    bodies.py compare A.csv B.csv|B.npy
                                 the largest difference between two outputs, in metres.
"""

import os
import sys
import time

import numpy as np

# SMPL-X's kinematic tree: 22 body joints, jaw and eyes, then 15 joints per hand.
PARENTS = [-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19, 15, 15, 15]
for wrist in (20, 21):
    for _ in range(5):
        first = len(PARENTS)
        PARENTS += [wrist, first, first + 1]
J = len(PARENTS)  # 55
V = 10475


def make(out, frames):
    rng = np.random.default_rng(7)
    models = os.path.join(out, "models", "smplx")
    os.makedirs(models, exist_ok=True)
    model = os.path.join(models, "SMPLX_NEUTRAL.npz")
    if not os.path.exists(model):
        # Joints spread over a body's height; each vertex near a joint and weighted to it. Each
        # joint is regressed from 20 of its vertices: the published regressors are as sparse
        # (a few vertices around each joint), and skelview reads only those vertices' shape
        # directions where NumPy implementations shape the whole template.
        joints = rng.uniform([-0.4, -1.2, -0.1], [0.4, 0.6, 0.1], (J, 3))
        owner = rng.integers(0, J, V)
        v_template = joints[owner] + rng.normal(0, 0.03, (V, 3))
        regressor = np.zeros((J, V))
        for j in range(J):
            mine = np.flatnonzero(owner == j)
            mine = mine[:20]
            regressor[j, mine] = 1.0 / max(len(mine), 1)
        weights = np.zeros((V, J))
        weights[np.arange(V), owner] = 1.0
        np.savez(
            model,
            v_template=v_template,
            shapedirs=rng.normal(0, 0.002, (V, 3, 400)),
            posedirs=rng.normal(0, 0.001, (V, 3, 9 * (J - 1))),
            J_regressor=regressor,
            weights=weights,
            kintree_table=np.array([[2**32 - 1] + PARENTS[1:], list(range(J))], dtype=np.int64),
            f=rng.integers(0, V, (20908, 3)).astype(np.uint32),
        )
    motion = os.path.join(out, f"motion_{frames}.npz")
    if not os.path.exists(motion):
        t = np.linspace(0, 20, frames)[:, None]
        poses = 0.6 * np.sin(t * rng.uniform(0.5, 3, 3 * J) + rng.uniform(0, 6, 3 * J))
        np.savez(
            motion,
            poses=poses,
            trans=np.concatenate([np.sin(t), np.cos(t), 0.1 * t], 1),
            betas=rng.normal(0, 1, 16),
            num_betas=np.array(16),
            gender=np.array("neutral"),
            mocap_frame_rate=np.array(120.0),
            surface_model_type=np.array("smplx"),
        )
    print(model, motion)


def rodrigues(r):
    """Rotation matrices of rotation vectors r (N x 3)."""
    angle = np.linalg.norm(r, axis=1, keepdims=True)
    axis = r / np.maximum(angle, 1e-12)
    x, y, z = axis.T
    zero = np.zeros_like(x)
    k = np.stack([zero, -z, y, z, zero, -x, -y, x, zero], 1).reshape(-1, 3, 3)
    s, c = np.sin(angle)[:, :, None], np.cos(angle)[:, :, None]
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def joints(motion_path, model_path):
    """Frames x joints x 3: posed joints in the model's space, `trans` added."""
    motion, model = np.load(motion_path), np.load(model_path)
    poses, trans, betas = motion["poses"], motion["trans"], motion["betas"]
    frames = poses.shape[0]
    shapedirs = model["shapedirs"]
    nb = min(len(betas), shapedirs.shape[2])
    rest = model["J_regressor"] @ (model["v_template"] + shapedirs[:, :, :nb] @ betas[:nb])
    parents = model["kintree_table"][0].astype(np.int64)
    parents[0] = -1
    rot = rodrigues(poses.reshape(-1, 3)).reshape(frames, J, 3, 3)
    world = np.zeros((frames, J, 4, 4))
    for j in range(J):
        local = np.zeros((frames, 4, 4))
        local[:, :3, :3] = rot[:, j]
        local[:, :3, 3] = rest[j] - (rest[parents[j]] if parents[j] >= 0 else 0)
        local[:, 3, 3] = 1
        world[:, j] = local if parents[j] < 0 else world[:, parents[j]] @ local
    return world[:, :, :3, 3] + trans[:, None, :]


def write_csv(path, positions):
    """The rows `skelview positions` writes: joint,frame,x,y,z, frame by frame."""
    frames, joints_n = positions.shape[:2]
    names = np.tile([f"j{j}" for j in range(joints_n)], frames)
    index = np.repeat(np.arange(frames), joints_n)
    xyz = positions.reshape(-1, 3)
    with open(path, "w") as f:
        f.write("joint,frame,x,y,z\n")
        np.savetxt(f, np.column_stack([names, index.astype(str), xyz.astype(str)]), fmt="%s", delimiter=",")


def read_output(path):
    if path.endswith(".npy"):
        return np.load(path).reshape(-1, 3)
    return np.loadtxt(path, delimiter=",", skiprows=1, usecols=(2, 3, 4))


def main():
    what = sys.argv[1]
    if what == "make":
        make(sys.argv[2], int(sys.argv[3]))
    elif what == "numpy":
        start = time.perf_counter()
        p = joints(sys.argv[2], sys.argv[3])
        computed = time.perf_counter()
        (np.save if sys.argv[4].endswith(".npy") else write_csv)(sys.argv[4], p)
        print(f"joints {computed - start:.3f} s, written {time.perf_counter() - computed:.3f} s", file=sys.stderr)
    elif what == "compare":
        a, b = read_output(sys.argv[2]), read_output(sys.argv[3])
        print(f"{np.abs(a - b).max():.2e}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
