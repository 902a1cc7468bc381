"""Python loaders against `import skelview`, in one run: every corpus BVH loaded and its
world positions computed for every frame, by skelview, pybvh 0.9 and bvhio 1.5.4 (in turn,
per file; the best of RUNS for the fast ones, one run of bvhio); then `load_many` on the
corpus BVHs copied 20 times against a Python loop of `load`.

    python benches/python_load.py [RUNS] [--smoke]

Needs the package installed (`pip install ./python`) and `pip install pybvh==0.9.0
bvhio==1.5.4`. --smoke: two small files, no copies (keeps the script working in CI).
"""

import glob
import os
import shutil
import sys
import tempfile
import time

import skelview

CORPUS = os.environ.get("SKELVIEW_CORPUS", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))


def with_skelview(path):
    skelview.load(path).positions()


def with_pybvh(path):
    import pybvh

    pybvh.read_bvh_file(path).joint_positions()


def with_bvhio(path):
    import bvhio

    root = bvhio.readAsHierarchy(path)
    joints = [j for j, _, _ in root.layout()]
    for frame in range(len(root.Keyframes)):
        root.loadPose(frame)
        [j.PositionWorld for j in joints]


def best(fn, path, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(path)
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    smoke = "--smoke" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = 1 if smoke else int(args[0]) if args else 3
    files = sorted(glob.glob(os.path.join(CORPUS, "bvh", "*.bvh")), key=os.path.getsize)
    if smoke:
        files = files[:2]
    with_skelview(files[0])  # the first call starts rayon's pool: not part of any file's time
    totals = {"skelview": 0.0, "pybvh": 0.0, "bvhio": 0.0}
    compared = 0
    print(f"{'file':44} {'MB':>6} {'skelview s':>11} {'pybvh s':>9} {'bvhio s':>9}")
    for path in files:
        row = {}
        for name, fn, n in [("skelview", with_skelview, runs), ("pybvh", with_pybvh, runs), ("bvhio", with_bvhio, 1)]:
            try:
                row[name] = best(fn, path, n)
            except Exception as error:  # a reader that cannot read the file
                row[name] = float("nan")
                print(f"  {name} failed on {os.path.basename(path)}: {type(error).__name__}: {error}"[:160])
        if all(v == v for v in row.values()):
            compared += 1
            for k, v in row.items():
                totals[k] += v
        print(f"{os.path.basename(path):44} {os.path.getsize(path) / 1e6:6.2f} {row['skelview']:11.4f} {row['pybvh']:9.3f} {row['bvhio']:9.3f}")
    print(f"{f'total ({compared} files every reader read)':44} {'':6} {totals['skelview']:11.4f} {totals['pybvh']:9.3f} {totals['bvhio']:9.3f}")
    print(f"skelview vs pybvh: {totals['pybvh'] / totals['skelview']:.0f}x; vs bvhio: {totals['bvhio'] / totals['skelview']:.0f}x")

    copies = 1 if smoke else 20
    with tempfile.TemporaryDirectory() as tmp:
        many = []
        for k in range(copies):
            for path in files:
                target = os.path.join(tmp, f"{k}_{os.path.basename(path)}")
                shutil.copy(path, target)
                many.append(target)
        t = time.perf_counter()
        for p in many:
            skelview.load(p)
        loop = time.perf_counter() - t
        t = time.perf_counter()
        skelview.load_many(many, workers=1)
        one = time.perf_counter() - t
        t = time.perf_counter()
        skelview.load_many(many)
        all_cores = time.perf_counter() - t
    print(f"{len(many)} files: Python loop of load {loop:.3f} s; load_many one worker {one:.3f} s; all {os.cpu_count()} cores {all_cores:.3f} s ({one / all_cores:.2f}x)")


main()
