"""SMPL-family bodies from Python: a synthetic SMPL model and motion written here with NumPy
(the real models' licences forbid shipping them), loaded with `body_model=`, against an
independent NumPy implementation of the model's equations."""

import io
import zipfile

import numpy as np
import pytest

import skelview

PARENTS = [-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19, 20, 21]
J = len(PARENTS)


def _npz(path, arrays):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, value in arrays.items():
            b = io.BytesIO()
            np.save(b, value)
            z.writestr(name + ".npy", b.getvalue())


# SMPL-X: the body's 22, jaw and eyes under the head, then five fingers of three on each wrist.
PARENTS_X = PARENTS[:22] + [15, 15, 15]
for _wrist in (20, 21):
    for _finger in range(5):
        PARENTS_X += [_wrist, len(PARENTS_X), len(PARENTS_X) + 1]


def _model(rng, parents=PARENTS, shapes=10):
    j = len(parents)
    v = 4 * j
    regressor = np.zeros((j, v))
    weights = np.zeros((v, j))
    for k in range(j):
        regressor[k, 4 * k : 4 * k + 4] = [0.4, 0.3, 0.2, 0.1]
        p = max(parents[k], 0)
        weights[4 * k : 4 * k + 4, k] = 0.7
        weights[4 * k : 4 * k + 4, p] += 0.3
    return {
        "v_template": rng.normal(0, 0.5, (v, 3)),
        "shapedirs": rng.normal(0, 0.02, (v, 3, shapes)),
        "posedirs": rng.normal(0, 0.01, (v, 3, 9 * (j - 1))),
        "J_regressor": regressor,
        "weights": weights,
        "kintree_table": np.array([[2**32 - 1] + parents[1:], list(range(j))], dtype=np.int64),
        "f": np.array([[4 * k, 4 * k + 1, 4 * k + 2] for k in range(j)], dtype=np.int64),
    }


def _rodrigues(r):
    angle = np.linalg.norm(r)
    if angle < 1e-12:
        return np.eye(3)
    k = r / angle
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * kx + (1 - np.cos(angle)) * kx @ kx


def _smpl(model, betas, pose, trans, parents=PARENTS, expression=None):
    """Joints and vertices as the SMPL paper defines them (pose blend shapes, then LBS); for
    SMPL-X with 20 shape columns, as the smplx package splits them: 10 of shape, 10 of
    expression."""
    dirs = model["shapedirs"]
    shaped = model["v_template"] + dirs[:, :, : len(betas)] @ betas
    if expression is not None:
        shaped = shaped + dirs[:, :, 10 : 10 + len(expression)] @ expression
    J = len(parents)
    rest = model["J_regressor"] @ shaped
    rotations = [_rodrigues(pose[3 * j : 3 * j + 3]) for j in range(J)]
    feature = np.concatenate([(rotations[j] - np.eye(3)).ravel() for j in range(1, J)])
    posed = shaped + model["posedirs"] @ feature
    world = []
    for j, p in enumerate(parents):
        local = np.eye(4)
        local[:3, :3] = rotations[j]
        local[:3, 3] = rest[j] - (rest[p] if p >= 0 else 0)
        world.append(local if p < 0 else world[p] @ local)
    joints = np.array([w[:3, 3] for w in world]) + trans
    skin = []
    for j in range(J):
        s = world[j].copy()
        s[:3, 3] -= world[j][:3, :3] @ rest[j]
        skin.append(s)
    blended = np.einsum("vj,jab->vab", model["weights"], np.array(skin))
    vertices = np.einsum("vab,vb->va", blended[:, :3, :3], posed) + blended[:, :3, 3] + trans
    return joints, vertices


@pytest.fixture
def body(tmp_path):
    rng = np.random.default_rng(7)
    model = _model(rng)
    _npz(tmp_path / "SMPL_NEUTRAL.npz", model)
    frames = 5
    poses = rng.normal(0, 0.5, (frames, 72))
    poses[:, 0:3] *= 6  # a root rotation vector longer than π, as real files hold
    trans, betas = rng.normal(0, 1, (frames, 3)), rng.normal(0, 1, 10)
    _npz(tmp_path / "motion.npz", {"poses": poses, "trans": trans, "betas": betas, "mocap_framerate": np.array(25.0)})
    return tmp_path, model, poses, trans, betas


def test_joints_and_vertices_follow_the_model_equations(body):
    folder, model, poses, trans, betas = body
    m = skelview.load(folder / "motion.npz", body_model=folder / "SMPL_NEUTRAL.npz")
    assert len(m.joint_names) == J and m.joint_names[:3] == ["pelvis", "left_hip", "right_hip"]
    assert m.fps == pytest.approx(25.0)
    raw = m.positions(units="file", y_up=False)
    vertices = m.vertices(units="file", y_up=False)
    assert vertices.shape == (len(poses), 4 * J, 3)
    for f in range(len(poses)):
        joints, verts = _smpl(model, betas, poses[f], trans[f])
        assert np.abs(raw[f] - joints).max() < 1e-5
        assert np.abs(vertices[f] - verts).max() < 1e-5
    # Joints alone (meshes=False): the same joints, no body mesh, the model read for its
    # joints once and taken again for the next motion.
    for _ in range(2):
        bare = skelview.load(folder / "motion.npz", body_model=folder / "SMPL_NEUTRAL.npz", meshes=False)
        assert not bare.meshes and np.array_equal(bare.positions(units="file", y_up=False), raw)
    many = skelview.load_many([folder / "motion.npz"] * 3, body_model=folder / "SMPL_NEUTRAL.npz", meshes=False)
    assert all(np.array_equal(x.positions(units="file", y_up=False), raw) for x in many)


def test_without_a_body_model_an_approximate_skeleton_says_how_to_set_one(body):
    folder, *_ = body
    m = skelview.load(folder / "motion.npz")
    assert len(m.joint_names) == J and not m.meshes
    assert any("--body-model" in w and "SKELVIEW_BODY_MODELS" in w for w in m.warnings)


def test_smplx_expressions_move_the_face_as_the_model_equations_say(tmp_path):
    rng = np.random.default_rng(8)
    model = _model(rng, PARENTS_X, shapes=20)
    # Expression directions on the head's and jaw's vertices only, as on a real face.
    face = np.zeros(len(PARENTS_X) * 4, bool)
    face[4 * 15 : 4 * 16] = face[4 * 22 : 4 * 23] = True
    model["shapedirs"][~face, :, 10:] = 0
    _npz(tmp_path / "SMPLX_NEUTRAL.npz", model)
    frames = 3
    poses = rng.normal(0, 0.4, (frames, 165))
    trans, betas, expressions = rng.normal(0, 1, (frames, 3)), rng.normal(0, 1, 300), rng.normal(0, 1.5, (frames, 100))
    # BEAT2's layout: 300 betas, 100 expression coefficients a frame.
    _npz(tmp_path / "beat2.npz", {"poses": poses, "trans": trans, "betas": betas, "expressions": expressions, "mocap_frame_rate": np.array(30.0)})
    m = skelview.load(tmp_path / "beat2.npz", body_model=tmp_path / "SMPLX_NEUTRAL.npz")
    assert any("first 10 of the file's 100" in w for w in m.warnings)
    raw = m.positions(units="file", y_up=False)
    vertices = m.vertices(units="file", y_up=False)
    for f in range(frames):
        joints, verts = _smpl(model, betas[:10], poses[f], trans[f], PARENTS_X, expressions[f, :10])
        assert np.abs(raw[f] - joints).max() < 1e-5
        assert np.abs(vertices[f] - verts).max() < 1e-5
    still, _ = _smpl(model, betas[:10], poses[0], trans[0], PARENTS_X)
    assert np.abs(raw[0][22] - still[22]).max() > 1e-3, "the expression moves the jaw"
