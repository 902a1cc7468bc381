"""The Python package against the command line: same files, same numbers, same errors."""

import json
import os
import re
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import skelview

# One file of each format (small), for the position comparisons.
SAMPLES = [
    "bvh/cmu_cgspeed_01_01.bvh",
    "asfamc/cmu_backflip.amc",
    "htr/MACFileLib_ExampleFile_89seg.htr",
    "acl/09_02.acl.sjson",
    "hanim/JoeHAnimKick1a.x3dv",
    "fbx/ozz_pab_atlas.fbx",
    "gltf/Fox.glb",
    "c3d/cmu_01_01_float.c3d",
]

EXTENSIONS = {e for f in skelview.formats() for e in f["extensions"]}


def motion_files(corpus: Path) -> list:
    out = []
    for p in sorted(corpus.rglob("*")):
        name = p.name.lower()
        if p.is_file() and any(name.endswith("." + e) for e in EXTENSIONS):
            out.append(p)
    return out


def cli_positions(cli, path: Path, frames: list) -> np.ndarray:
    r = cli("positions", str(path), "--frames", ",".join(map(str, frames)))
    assert r.returncode == 0, r.stderr
    rows = [line.split(",") for line in r.stdout.splitlines()[1:]]
    values = [[float(v) if v else np.nan for v in row[-3:]] for row in rows]
    return np.array(values, dtype=np.float64).reshape(len(frames), -1, 3)


def test_every_corpus_file_loads_as_the_command_line_says(corpus, cli):
    files = motion_files(corpus)
    assert len(files) > 60
    for path in files:
        r = cli("info", str(path))
        if r.returncode == 0:
            m = skelview.load(path)
            assert m.frame_count >= 0 and len(m.joint_names) == m.parents.shape[0], path
        else:
            with pytest.raises(skelview.LoadError) as e:
                skelview.load(path)
            assert str(e.value) == r.stderr.strip().splitlines()[-1], path


@pytest.mark.parametrize("rel", SAMPLES)
def test_positions_equal_the_command_line(corpus, cli, rel):
    path = corpus / rel
    m = skelview.load(path)
    n = m.frame_count
    frames = sorted({0, n // 2, n - 1}) if n else []
    ours = m.positions(frames)
    assert ours.dtype == np.float32 and ours.shape == (len(frames), len(m.joint_names), 3)
    theirs = cli_positions(cli, path, frames)
    np.testing.assert_allclose(ours, theirs, atol=1e-6, equal_nan=True)


def test_shapes_names_parents_and_channels(corpus):
    m = skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh")
    assert m.format == "BVH" and m.frame_count == 2752 and abs(m.fps - 120.0) < 0.01
    assert m.joint_names[0] == "Hips" and m.parents[0] == -1 and m.parents.dtype == np.int32
    assert all(0 <= p < i for i, p in enumerate(m.parents) if i > 0 and p >= 0)
    assert m.channels.shape == (2752, len(m.channel_names)) and m.channels.dtype == np.float32
    assert m.channel_names[0] == "Hips.Xposition"
    assert m.missing.shape == m.channels.shape and not m.missing.any()
    q = m.rotations([0, 1])
    assert q.shape == (2, len(m.joint_names), 4)
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-5)
    r = m.rotations([0], kind="matrix", space="world")
    assert r.shape == (1, len(m.joint_names), 3, 3)
    assert m.rest_positions().shape == (len(m.joint_names), 3)
    assert m.units == "cmu (1/0.45 in)" and m.up_axis == "+Y" and m.up_reason == "head above the feet"
    local = m.positions([0], space="local", units="file")
    assert local.shape == (1, len(m.joint_names), 3)
    raw = m.positions([0], units="file", y_up=False)
    np.testing.assert_allclose(raw[0, 0], m.channels[0, :3], atol=1e-4)


def test_load_bytes_equals_load(corpus):
    path = corpus / "bvh/cmu_cgspeed_01_01.bvh"
    a = skelview.load(path)
    b = skelview.load_bytes(path.read_bytes(), path.name)
    np.testing.assert_array_equal(a.positions(), b.positions())
    assert a.joint_names == b.joint_names


@pytest.mark.parametrize(
    "text, place",
    [
        (b"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xposition Ypos", (5, 24)),
        (b"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1\n2x\n", (11, 1)),
        (b"\x00\x01binary junk\xff" * 20, (1, 1)),
    ],
)
def test_load_errors_carry_the_command_lines_place(tmp_path, cli, text, place):
    path = tmp_path / "bad.bvh"
    path.write_bytes(text)
    with pytest.raises(skelview.LoadError) as e:
        skelview.load(path)
    r = cli("info", str(path))
    assert r.returncode != 0
    assert str(e.value) == r.stderr.strip().splitlines()[-1]
    assert isinstance(e.value, ValueError)
    assert (e.value.line, e.value.col) == place, str(e.value)
    assert f"{path}:{e.value.line}:{e.value.col}:" in r.stderr
    assert e.value.path == str(path) and e.value.message == str(e.value)


def test_a_truncated_c3d_names_its_byte(tmp_path, corpus):
    path = tmp_path / "cut.c3d"
    path.write_bytes((corpus / "c3d/cmu_01_01_float.c3d").read_bytes()[:300])
    with pytest.raises(skelview.LoadError) as e:
        skelview.load(path)
    assert e.value.offset is not None and e.value.line is None and "512-byte" in str(e.value)


def test_qa_equals_the_command_lines_json(corpus, cli):
    for rel in ["bvh/cmu_cgspeed_01_01.bvh", "c3d/mac_walk1_intel_float.c3d"]:
        path = str(corpus / rel)
        r = cli("qa", "--json", path)
        theirs = [json.loads(line) for line in r.stdout.splitlines()]
        ours = skelview.qa(path)
        assert ours == theirs
        m = skelview.load(path)
        assert skelview.qa(m, kinds=["gap", "jump"])[-1]["kind"] == "summary"


def test_captures_bring_markers_analog_platforms_and_events(corpus):
    m = skelview.load(corpus / "c3d/mac_walk1_intel_float.c3d")
    assert m.is_capture and m.format == "C3D"
    xyz = m.marker_positions(units="file", y_up=False)
    assert xyz.shape == (151, 49, 3)
    assert np.isnan(xyz[:, m.joint_names.index("RKNE (2)")]).all(), "the second RKNE is missing in every frame"
    a = m.analog
    assert a["values"].shape == (151 * 16, 18) and a["rate"] == 960.0 and a["names"][0] == "F1X"
    plates = m.force_plates()
    assert len(plates) == 2 and plates[0]["type"] == 4 and plates[0]["force"].shape == (151 * 16, 3)
    assert len(m.events) == 8 and m.residuals.shape == (151, 49)
    bvh = skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh")
    assert not bvh.is_capture
    with pytest.raises(ValueError):
        bvh.marker_positions()


def test_writers_and_convert(tmp_path, corpus):
    m = skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh")
    m.to_bvh(tmp_path / "a.bvh")
    m.to_glb(tmp_path / "a.glb")
    back = skelview.load(tmp_path / "a.bvh")
    np.testing.assert_allclose(back.positions([10]), m.positions([10]), atol=1e-4)
    assert skelview.load(tmp_path / "a.glb").frame_count == m.frame_count
    skelview.convert(corpus / "c3d/mac_walk1_intel_float.c3d", tmp_path / "f.mot")
    assert (tmp_path / "f.mot").read_text().startswith("f.mot\nversion=1\n")
    skelview.convert(corpus / "c3d/cmu_01_01_float.c3d", tmp_path / "m.trc")
    t = skelview.load(tmp_path / "m.trc")
    assert t.is_capture and t.frame_count == 2751


def test_load_many_keeps_the_order_and_releases_the_gil(corpus):
    files = [p for p in motion_files(corpus / "bvh") if p.stat().st_size < 3_000_000] * 3
    many = skelview.load_many(files)
    assert [m.path for m in many] == [str(p) for p in files]
    # While one thread is inside the call, Python code on another runs. With the interpreter's
    # switch interval made huge, a thread hands the GIL over only when it blocks or releases
    # it, so the main thread can see `inside` true only if the call released the GIL: no
    # clock is compared, and a busy machine changes nothing.
    state = {"inside": False, "seen_inside": 0}

    def work():
        state["inside"] = True
        skelview.load_many(files, workers=1)
        state["inside"] = False

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        worker = threading.Thread(target=work)
        worker.start()
        while worker.is_alive():
            state["seen_inside"] += state["inside"]
            time.sleep(0.001)  # blocks: lets the worker take the GIL back when its call ends
    finally:
        sys.setswitchinterval(old)
    assert state["seen_inside"] > 0, "the main thread never ran while load_many was running"


def test_load_and_positions_from_other_threads_while_the_importing_thread_waits(corpus):
    # The importing thread is one of the pool's workers: calls from other threads must still
    # run (on the other workers) while it sits in Python, and give the same arrays.
    path = corpus / "bvh" / "cmu_cgspeed_01_01.bvh"
    want = skelview.load(path).positions()
    results = {}

    def work(k):
        results[k] = skelview.load(path).positions()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)  # only turns a hang into a failure
    assert not any(t.is_alive() for t in threads), "a call from another thread did not finish"
    for k in range(3):
        np.testing.assert_array_equal(results[k], want)


def test_bad_arguments_are_value_errors(corpus):
    m = skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh")
    with pytest.raises(IndexError):
        m.positions([99999])
    with pytest.raises(ValueError):
        m.positions(units="furlong")
    with pytest.raises(ValueError):
        skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh", bvh_positions="sideways")
    assert m.positions([-1]).shape[0] == 1


def test_frames_as_slices_masks_ranges_and_arrays(corpus):
    m = skelview.load(corpus / "bvh/cmu_cgspeed_01_01.bvh")
    every = m.positions()
    n = m.frame_count
    for frames, want in [
        (slice(10, 200, 7), list(range(10, 200, 7))),
        (slice(None, None, -500), list(range(n - 1, -1, -500))),
        (slice(-3, None), [n - 3, n - 2, n - 1]),
        (slice(5, 5), []),
        (range(0, 40, 9), [0, 9, 18, 27, 36]),
        (np.array([3, -1, 3], dtype=np.int32), [3, n - 1, 3]),
        (np.arange(n) % 100 == 0, list(range(0, n, 100))),
    ]:
        got = m.positions(frames)
        assert got.shape == (len(want), len(m.joint_names), 3), frames
        np.testing.assert_array_equal(got, every[want])
        np.testing.assert_array_equal(m.rotations(frames), m.rotations(want))
    assert list(skelview.measure(m, speed=["Head"], frames=slice(0, 30, 10))["frame"]) == [0, 10, 20]
    with pytest.raises(IndexError, match=f"needs {n} values"):
        m.positions(np.ones(3, dtype=bool))
    with pytest.raises(TypeError, match="slice, a sequence of frame indices"):
        m.positions(5)
    with pytest.raises(ValueError):
        m.positions(slice(0, 10, 0))


def test_arguments_are_checked_and_write_errors_are_os_errors(tmp_path, corpus):
    path = corpus / "bvh/cmu_cgspeed_01_01.bvh"
    m = skelview.load(path)
    for bad in ["xyz", "ZZX", "ZX", "abc"]:
        if sorted(bad.upper()) == ["X", "Y", "Z"]:
            m.to_bvh(tmp_path / "lower.bvh", order=bad)
            assert "Xrotation Yrotation Zrotation" in (tmp_path / "lower.bvh").read_text()
            continue
        with pytest.raises(ValueError, match="X, Y and Z once each"):
            m.to_bvh(tmp_path / "o.bvh", order=bad)
    with pytest.raises(ValueError, match="to_bvh writes a .bvh file"):
        m.to_bvh(tmp_path / "a.txt")
    with pytest.raises(ValueError, match="to_glb writes a .glb file"):
        m.to_glb(tmp_path / "a.gltf")
    with pytest.raises(ValueError, match="to_trc writes a .trc file"):
        m.to_trc(tmp_path / "a")
    assert not list(tmp_path.glob("a.*"))
    for write in [lambda p: m.to_bvh(p / "a.bvh"), lambda p: m.to_glb(p / "a.glb"), lambda p: skelview.convert(path, p / "a.bvh")]:
        with pytest.raises(OSError):
            write(tmp_path / "no such folder")
    for rate in [0, -24.0, float("nan"), float("inf")]:
        with pytest.raises(ValueError, match="fps must be"):
            skelview.load(path, fps=rate)
        with pytest.raises(ValueError, match="amc_fps: option 'amc.fps'"):
            skelview.load(path, amc_fps=rate)
    with pytest.raises(TypeError, match="format options by keyword: .*amc_fps"):
        skelview.load(path, amc_rate=60)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        skelview.load_many([path], workers=0)
    assert len(skelview.load_many([path, path], workers=10_000)) == 2
    assert skelview.qa(m, kinds="pop") == skelview.qa(m, kinds=["pop"]) == skelview.qa(m, kinds="pop,pop")
    with pytest.raises(TypeError, match="kinds must be"):
        skelview.qa(m, kinds=3)
    with pytest.raises(ValueError):
        skelview.qa(m, kinds="popcorn")
    # Thresholds as a dict give what the same TOML gives, and are checked as strictly.
    strict = skelview.qa(m, kinds=["pop", "jitter"], thresholds={"pop": {"factor": 2.0}, "jitter": {"rms_mm": 0.5}})
    assert strict == skelview.qa(m, kinds=["pop", "jitter"], thresholds="[pop]\nfactor = 2.0\n[jitter]\nrms_mm = 0.5\n")
    assert len(strict) > len(skelview.qa(m, kinds=["pop", "jitter"]))
    for bad in [{"pop": {"fator": 2.0}}, {"pop": {"factor": -1.0}}, {"popcorn": {}}, {"pop": {"factor": "high"}}]:
        with pytest.raises(ValueError):
            skelview.qa(m, thresholds=bad)
    with pytest.raises(TypeError, match="thresholds must be"):
        skelview.qa(m, thresholds=3)
    # A list of Python bools is a mask, not the indices 0 and 1.
    mask = [False] * m.frame_count
    mask[7] = mask[9] = True
    np.testing.assert_array_equal(m.positions(mask), m.positions([7, 9]))
    assert m.positions([]).shape == (0, len(m.joint_names), 3)


def test_one_thread_pool_serves_calls_from_other_threads(tmp_path, corpus):
    # With one rayon thread the importing thread must not be the pool's only worker: a call
    # from another Python thread would wait for ever while it sits in Python.
    script = tmp_path / "one.py"
    script.write_text(
        "import sys, threading, skelview\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.append(skelview.load(sys.argv[1]).positions().shape), daemon=True)\n"
        "t.start(); t.join(60)\n"
        "sys.exit(0 if out else 3)\n"
    )
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    r = subprocess.run([sys.executable, str(script), str(corpus / "bvh/cmu_cgspeed_01_01.bvh")], env=env, timeout=120)
    assert r.returncode == 0, "a call from another thread did not finish under RAYON_NUM_THREADS=1"


def test_the_stubs_pass_mypy_strict(tmp_path):
    if os.environ.get("CI") in ("true", "1"):
        import mypy.api as mypy
    else:
        mypy = pytest.importorskip("mypy.api")
    example = Path(__file__).with_name("typed_example.py")
    out, err, status = mypy.run(["--strict", str(example)])
    assert status == 0, out + err


def test_the_stubs_match_the_module(tmp_path):
    # Every name, argument, default and keyword-only marker of the stubs against the compiled
    # module's own signatures (mypy's stubtest), so the two cannot drift apart.
    if os.environ.get("CI") not in ("true", "1"):
        pytest.importorskip("mypy.stubtest")
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "skelview._skelview"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_measure_equals_the_command_line(corpus, cli):
    path = corpus / "bvh/cmu_cgspeed_01_01.bvh"
    m = skelview.load(path)
    ours = skelview.measure(m, distance=[("LeftHand", "RightHand")], angle=[("LeftUpLeg", "LeftLeg", "LeftFoot")], speed=["Head"], frames=[10, 100, 200])
    r = cli("measure", str(path), "--distance", "LeftHand", "RightHand", "--angle", "LeftUpLeg", "LeftLeg", "LeftFoot", "--speed", "Head", "--frames", "10,100,200")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    header, rows = lines[0].split(","), [[float(v) if v else np.nan for v in l.split(",")] for l in lines[1:]]
    assert list(ours["frame"]) == [10, 100, 200]
    for k, name in enumerate(header[2:], start=2):
        np.testing.assert_allclose(ours[name], [row[k] for row in rows], rtol=1e-6, atol=1e-9)
    with pytest.raises(ValueError):
        skelview.measure(m, speed=["Nose"])


def test_edit_gives_the_command_lines_result_and_leaves_the_source(tmp_path, cli):
    sample = Path(__file__).resolve().parents[2] / "assets" / "walk01.bvh"
    m = skelview.load(sample)
    before = m.channels.copy()
    edited = m.edit(unroll=True, filter={"cutoff_hz": 6, "order": 2}, trim="10:80", resample=60)
    assert np.array_equal(m.channels, before), "the source is untouched"
    assert edited.frame_count != m.frame_count and abs(edited.fps - 60) < 1e-9
    edited.save(tmp_path / "py.bvh")
    run = cli("edit", str(sample), "--unroll", "--filter", "butterworth:6:2", "--trim", "10:80", "--resample", "60", "-o", str(tmp_path / "cli.bvh"))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "py.bvh").read_bytes() == (tmp_path / "cli.bvh").read_bytes()
    # The same recipe as TOML text and as a list of dicts.
    toml = '[[step]]\nop = "unroll"\n[[step]]\nop = "filter"\ncutoff_hz = 6.0\norder = 2\n[[step]]\nop = "trim"\nrange = "10:80"\n[[step]]\nop = "resample"\nfps = 60.0\n'
    steps = [{"op": "unroll"}, {"op": "filter", "cutoff_hz": 6, "order": 2}, {"op": "trim", "range": "10:80"}, {"op": "resample", "fps": 60}]
    for recipe in (toml, steps, {"step": steps}):
        assert np.array_equal(m.edit(recipe).channels, edited.channels)


def test_filled_samples_are_marked_and_bad_parameters_name_themselves(corpus, tmp_path):
    m = skelview.load(corpus / "c3d" / "codamotion_gaitwands_2015_float.c3d")
    filled = m.edit(fill_gaps={"method": "spline", "max_gap": 1000})
    assert filled.filled.shape == m.missing.shape
    assert filled.filled.any() and not m.filled.any()
    assert not (filled.filled & filled.missing).any(), "a filled value is no longer missing"
    # This file keeps no residuals (every one 0 or -1): the written C3D cannot mark what was
    # filled, and save says so.
    with pytest.warns(UserWarning, match="cannot tell them from measured ones"):
        filled.save(tmp_path / "filled.c3d")
    back = skelview.load(tmp_path / "filled.c3d")
    assert (back.residuals == 0).sum() >= filled.filled.sum() // 3
    # Residual 0 is the C3D spec's "interpolated": a file that keeps residuals, filled and
    # read back, marks what was filled (this one keeps none: every residual is 0 or -1).
    kept = skelview.load(corpus / "c3d" / "amass_eb015pi_intel_int.c3d")
    refilled = kept.edit(fill_gaps={"method": "spline", "max_gap": 1000})
    assert refilled.filled.sum() > kept.filled.sum() > 0, "the file's own residual-0 samples, then the fill's"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        refilled.save(tmp_path / "refilled.c3d")
    assert np.array_equal(skelview.load(tmp_path / "refilled.c3d").filled, refilled.filled)
    with pytest.raises(ValueError, match="did you mean 'L.Knee'"):
        m.edit(remove_joint="L.Kne")
    with pytest.raises(ValueError, match="Nyquist"):
        m.edit(filter=100000)
    with pytest.raises(ValueError, match="cutof_hz"):
        m.edit([{"op": "filter", "cutof_hz": 6}])
    with pytest.raises(ValueError, match="needs a recipe"):
        m.edit()


def test_humanoid_maps_and_retargeting_give_the_command_lines_results(tmp_path, cli):
    sample = Path(__file__).resolve().parents[2] / "assets" / "walk01.bvh"
    m = skelview.load(sample)
    bones = m.humanoid()
    assert bones["hips"] == "Hips" and bones["leftUpperArm"] == "LeftArm" and bones["chest"] == "Spine1"
    corrected = m.humanoid('[bones]\nchest = "Spine"\nspine = ""\n')
    assert corrected["chest"] == "Spine" and "spine" not in corrected
    with pytest.raises(ValueError, match="no joint of that name"):
        m.humanoid('[bones]\nleftFoot = "Paw"\n')
    # Onto itself: the same positions; the same bytes as the command line writes.
    same = m.retarget(m)
    np.testing.assert_allclose(same.positions(), m.positions(), atol=1e-4)
    planted = m.retarget(m, keep_feet=True)
    np.testing.assert_allclose(planted.positions(), m.positions(), atol=5e-2)  # knees move while a foot is held
    same.save(tmp_path / "py.bvh")
    run = cli("retarget", str(sample), "--onto", str(sample), "-o", str(tmp_path / "cli.bvh"))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "py.bvh").read_bytes() == (tmp_path / "cli.bvh").read_bytes()
    with pytest.raises(ValueError, match="lacks hips"):
        m.retarget(m, target_map='[bones]\nhips = ""\n')
    with pytest.raises(ValueError, match="scale"):
        m.retarget(m, scale=-1.0)
    # A VRM animation written from Python reads back with its humanoid bones.
    m.save(tmp_path / "walk.vrma")
    back = skelview.load(tmp_path / "walk.vrma")
    assert back.humanoid()["leftUpperArm"] == "leftUpperArm" and back.frame_count == m.frame_count


# A file of each format that declares read options: a format that gains options fails the
# test below until it has one here.
OPTION_SAMPLES = {
    "BVH": "bvh/cmu_cgspeed_01_01.bvh",
    "ASF/AMC": "asfamc/cmu_backflip.amc",
    "FBX": "fbx/ozz_robot.fbx",
    "C3D": "c3d/cmu_01_01_float.c3d",
}


def _written_sample(name, tmp_path):
    """A small file of a format the corpus has none of (NumPy: HumanML3D joints, 4 frames)."""
    if name == "NumPy":
        path = tmp_path / "joints.npy"
        joints = np.zeros((4, 22, 3), dtype=np.float32)
        joints[:, :, 1] = np.arange(22) * 0.08
        np.save(path, joints)
        return path
    return None


def test_every_format_option_is_set_by_key_and_keyword_and_refused_when_wrong(corpus, tmp_path):
    walked = []
    for f in skelview.formats():
        for o in f["options"]:
            if "path" in o:  # a file on the user's disk (NumPy's body model): tests/npz_bodies.rs
                continue
            written = _written_sample(f["name"], tmp_path)
            assert f["name"] in OPTION_SAMPLES or written, f"no sample file for {f['name']}'s option {o['key']}"
            path = written or corpus / OPTION_SAMPLES[f["name"]]
            values = o["choices"] if "choices" in o else [o["min"], o["default"], o["max"]]
            for value in values:
                skelview.load(path, options={o["key"]: value})
                if f["name"] != "ASF/AMC":  # an AMC alone in memory has no ASF
                    skelview.load_bytes(path.read_bytes(), path.name, options={o["key"]: value})
                if o["keyword"]:
                    skelview.load(path, **{o["keyword"]: value})
            wrong = "no-such-value" if "choices" in o else o["max"] * 2
            with pytest.raises(ValueError, match=re.escape(o["key"])):
                skelview.load(path, options={o["key"]: wrong})
            with pytest.raises(ValueError, match=re.escape(o["key"])):
                skelview.load_many([path], options={o["key"]: wrong})
            walked.append(o["key"])
    assert {"bvh.positions", "amc.fps", "fbx.joints", "c3d.zero_points", "c3d.x_screen", "npz.gender"} <= set(walked)
    with pytest.raises(ValueError, match="no format has an option 'bvh.nope'"):
        skelview.load(corpus / OPTION_SAMPLES["BVH"], options={"bvh.nope": 1})


def test_format_options_change_what_is_read(corpus):
    amc = corpus / OPTION_SAMPLES["ASF/AMC"]
    assert skelview.load(amc, options={"amc.fps": 60}).fps == pytest.approx(60)
    assert skelview.load(amc, amc_fps=30).fps == pytest.approx(30)
    fbx = corpus / OPTION_SAMPLES["FBX"]
    skin, bones = (len(skelview.load(fbx, options={"fbx.joints": v}).joint_names) for v in ["skin", "bones"])
    assert bones <= skin


def _example(op, param, joint):
    """A value of `param` for the example step of `op`, from its declaration."""
    if param["kind"] == "range":
        return "2:20"
    if param["kind"] == "names":
        return [joint]
    if param["kind"] == "text" and param["key"] in ("from", "name"):
        return joint
    if param["kind"] == "text":
        return param["start"] or "Renamed"
    if param["kind"] == "number":
        value = float(param["start"] or param["min"])
        return int(value) if param["integer"] else value
    return param["start"] or param["choices"][0]


def test_every_operation_is_a_keyword_of_edit_with_its_declared_parameters(tmp_path, cli):
    sample = Path(__file__).resolve().parents[2] / "assets" / "walk01.bvh"
    capture = Path(__file__).resolve().parents[2] / "tests" / "data" / "trc" / "outside_writer.trc"
    ops = skelview.operations()
    assert {"fill_gaps", "filter", "trim", "rename", "add_event", "remove_event"} <= {o["name"] for o in ops}
    for op in ops:
        events = op["name"] in ("add_event", "remove_event")
        m = skelview.load(capture if events else sample)
        joint = m.joint_names[-1]
        params = {p["key"]: _example(op, p, joint) for p in op["params"] if p["required"] or p["kind"] in ("names", "range")}
        if op["name"] == "remove_event":
            # An event to remove: added by the step before, at the same time.
            params["label"] = "Foot Strike"
            steps = {"add_event": {"label": "Foot Strike", "context": "Left", "time_secs": params["time_secs"]}, "remove_event": params}
        else:
            steps = {op["name"]: params}
        edited = m.edit(**steps)
        assert isinstance(edited, skelview.Motion), op["name"]
        # The plain keyword value sets the declared parameter, as the command line's value does.
        key = op["keyword_value"]
        if key is not None and len([p for p in op["params"] if p["required"]]) == 1:
            plain = m.edit(**{op["name"]: params[key]})
            assert plain.frame_count == edited.frame_count, op["name"]
        elif key is None:
            assert m.edit(**{op["name"]: True}).frame_count == edited.frame_count, op["name"]
    with pytest.raises(ValueError, match="no such operation .*fill_gaps"):
        skelview.load(sample).edit(smooth=3)


def cli_vertices(cli, path: Path, frames: list, *flags: str) -> np.ndarray:
    r = cli("positions", str(path), "--vertices", "--frames", ",".join(map(str, frames)), *flags)
    assert r.returncode == 0, r.stderr
    rows = np.array([[float(v) for v in line.split(",")] for line in r.stdout.splitlines()[1:]], dtype=np.float64)
    # Frame after frame, each frame's meshes in order (the columns mesh, vertex, frame).
    assert list(rows[:: len(rows) // len(frames), 2]) == frames
    return rows[:, 3:].reshape(len(frames), -1, 3)


def test_meshes_and_their_posed_vertices_equal_the_command_line(corpus, cli):
    path = corpus / "gltf/Fox.glb"
    m = skelview.load(path)
    assert len(m.meshes) == 1 and isinstance(m.meshes[0], skelview.Mesh)
    fox = m.meshes[0]
    assert fox.index == 0 and fox.skinned and fox.vertex_count == 1728 and fox.morph_targets == []
    assert fox.faces.shape == (576, 3) and fox.faces.dtype == np.uint32 and fox.faces.max() < fox.vertex_count
    ours = m.vertices(frames=[0, 5])
    assert ours.dtype == np.float32 and ours.shape == (2, 1728, 3)
    np.testing.assert_allclose(ours, cli_vertices(cli, path, [0, 5]), atol=1e-5)
    assert np.abs(ours[1] - ours[0]).max() > 1e-3, "the fox moves between frames 0 and 5"
    raw = m.vertices([0, 5], units="file", y_up=False)
    np.testing.assert_allclose(raw, cli_vertices(cli, path, [0, 5], "--raw"), atol=1e-5)
    np.testing.assert_allclose(raw, ours, atol=1e-5)  # a glTF is in metres, +Y up already
    assert np.array_equal(m.vertices([0, 5], mesh=0), ours) and np.array_equal(m.vertices([0, 5], mesh=-1), ours)
    assert np.array_equal(m.vertices([-1]), m.vertices([m.frame_count - 1]))
    assert m.vertices().shape == (m.frame_count, 1728, 3) and m.vertices(slice(0, 4, 2)).shape == (2, 1728, 3)
    with pytest.raises(IndexError, match="mesh 1 is out of range: the file has 1 mesh"):
        m.vertices(mesh=1)
    with pytest.raises(IndexError, match="mesh -2 is out of range"):
        m.vertices(mesh=-2)
    with pytest.raises(ValueError, match="units must be 'm' or 'file'"):
        m.vertices(units="cm")
    with pytest.raises(IndexError):
        m.vertices([m.frame_count])


def test_vertices_and_joints_share_a_space_and_edits_keep_the_skin_bound():
    # The joints lie within the skin's box in each of the four spaces (a glTF's coincide:
    # metres, +Y up), and a scaled motion's skin grows with its skeleton.
    m = skelview.load(Path(__file__).resolve().parents[2] / "tests" / "data" / "avatars" / "Godette_vrm_v4.vrm")
    for units in ("m", "file"):
        for y_up in (True, False):
            joints = m.positions([0], units=units, y_up=y_up)[0]
            skin = m.vertices([0], units=units, y_up=y_up)[0]
            lo, hi = skin.min(axis=0), skin.max(axis=0)
            margin = 0.05 * (hi - lo).max()
            assert (joints >= lo - margin).all() and (joints <= hi + margin).all(), (units, y_up)
    grown = m.edit(scale=2.0)
    assert len(grown.meshes) == len(m.meshes)
    np.testing.assert_allclose(grown.vertices([0]), 2.0 * m.vertices([0]), atol=1e-4)


def test_meshes_come_in_info_order_with_their_morph_targets(cli):
    path = Path(__file__).resolve().parents[2] / "tests" / "data" / "avatars" / "RobotExpressive.glb"
    m = skelview.load(path)
    r = cli("info", "--json", str(path))
    assert r.returncode == 0, r.stderr
    listed = json.loads(r.stdout)["meshes"]
    assert len(m.meshes) == 19 == len(listed)
    for k, (mesh, info) in enumerate(zip(m.meshes, listed)):
        assert (mesh.index, mesh.name, mesh.vertex_count, mesh.skinned) == (k, info["name"], info["vertices"], info["skinned"])
        assert mesh.faces.shape == (info["triangles"], 3) and mesh.faces.max() < mesh.vertex_count
        assert len(mesh.morph_targets) == info["morph_targets"]
    assert any(mesh.morph_targets for mesh in m.meshes)
    every = m.vertices([0, -1])
    assert every.shape == (2, sum(mesh.vertex_count for mesh in m.meshes), 3)
    start = 0
    for k, mesh in enumerate(m.meshes):
        np.testing.assert_array_equal(m.vertices([0, -1], mesh=k), every[:, start : start + mesh.vertex_count])
        start += mesh.vertex_count
    assert "19 meshes" in str(pytest.raises(IndexError, m.vertices, mesh=19).value)


def test_a_file_without_meshes_has_none_to_pose():
    m = skelview.load(Path(__file__).resolve().parents[2] / "assets" / "walk01.bvh")
    assert m.meshes == []
    with pytest.raises(ValueError, match="has no meshes"):
        m.vertices()


def _trc_with_a_gap(path: Path) -> None:
    """Three markers over 30 frames at 100 Hz; marker B has no value in frames 10 to 14."""
    rows = []
    for f in range(30):
        b = "\t\t" if 10 <= f <= 14 else f"{10.0 + f:.1f}\t{1000.0 + f:.1f}\t0.0"
        rows.append(f"{f + 1}\t{f / 100:.2f}\t{f:.1f}\t1000.0\t100.0\t{b}\t{-f:.1f}\t1000.0\t-100.0")
    header = (
        "PathFileType\t4\t(X/Y/Z)\tgap.trc\n"
        "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
        "100\t100\t30\t3\tmm\t100\t1\t30\n"
        "Frame#\tTime\tA\t\t\tB\t\t\tC\t\t\n"
        "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\tX3\tY3\tZ3\n\n"
    )
    path.write_text(header + "\n".join(rows) + "\n")


def test_filled_marks_the_samples_the_command_line_says_it_filled(cli, tmp_path):
    # A capture's gap filled from Python is marked where the command line's note counts it.
    src = tmp_path / "gap.trc"
    _trc_with_a_gap(src)
    m = skelview.load(src)
    assert m.missing.sum() == 5 * 3
    run = cli("edit", str(src), "--fill-gaps", "spline", "-o", str(tmp_path / "cli.c3d"))
    assert run.returncode == 0, run.stderr
    assert "filled 1 gaps (5 frames)" in run.stdout + run.stderr, run.stdout + run.stderr
    for edited in (m.edit(fill_gaps="spline"), m.edit('[[step]]\nop = "fill_gaps"\nmethod = "spline"\n')):
        assert edited.filled.sum() == 5 * 3 and not edited.missing.any()
        b = edited.joint_names.index("B")
        assert edited.filled[10:15, 3 * b : 3 * b + 3].all() and not edited.filled[:10].any()
        # The filled positions lie on B's straight path.
        assert np.allclose(edited.channels[12, 3 * b : 3 * b + 3], [22.0, 1012.0, 0.0], atol=1e-3)
