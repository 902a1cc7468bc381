"""Capture checks and joint positions of a folder of motion files with Ray Data, as Parquet.

    python examples/ray_qa_parquet.py FOLDER OUT_DIR [--num-cpus N]

Writes OUT_DIR/qa (one row per `skelview qa --json` record: file, kind, joint, frames,
value, message, and the whole record as JSON) and OUT_DIR/positions (file, joint, frame, x,
y, z in metres with +Y up; NaN where the file left a value missing), each a folder of
Parquet files.

On one machine `ray.init()` starts a local Ray. On a cluster the same script runs unchanged:
set RAY_ADDRESS (`RAY_ADDRESS=ray://head:10001 python examples/ray_qa_parquet.py s3://bucket/takes
s3://bucket/out`) or submit it (`ray job submit --working-dir . -- python
examples/ray_qa_parquet.py ...`); every worker needs `pip install skelview` (a runtime_env
with the wheel, or the cluster image).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import numpy as np
import ray

import skelview

EXTENSIONS = tuple("." + e for f in skelview.formats() for e in f["extensions"])


def motion_files(folder: str) -> list[str]:
    """Every file under `folder` that skelview reads (an .amc needs its .asf: left out)."""
    out = []
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            if name.lower().endswith(EXTENSIONS) and not name.lower().endswith(".amc"):
                out.append(os.path.join(root, name))
    return sorted(out)


def qa_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """One file's capture-check records, as flat rows."""
    path = row["path"]
    try:
        motion = skelview.load_bytes(row["bytes"], os.path.basename(path))
    except skelview.LoadError as e:
        record = {"file": path, "kind": "error", "message": str(e)}
        return [{"file": path, "kind": "error", "joint": None, "start_frame": -1, "end_frame": -1, "value": float("nan"), "message": str(e), "record": json.dumps(record)}]
    rows = []
    for record in skelview.qa(motion):
        record["file"] = path
        rows.append(
            {
                "file": path,
                "kind": record["kind"],
                "joint": record.get("joint"),
                "start_frame": record.get("start_frame", -1),
                "end_frame": record.get("end_frame", -1),
                "value": float(record.get("value", float("nan"))),
                "message": record.get("message", ""),
                "record": json.dumps(record, sort_keys=True),
            }
        )
    return rows


def position_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """One file's joint positions, a row per joint and frame."""
    path = row["path"]
    try:
        motion = skelview.load_bytes(row["bytes"], os.path.basename(path))
    except skelview.LoadError:
        return []
    xyz = motion.positions()
    frames, joints = xyz.shape[0], xyz.shape[1]
    names = np.array(motion.joint_names, dtype=object)
    return [
        {"file": path, "joint": names[j], "frame": f, "x": float(xyz[f, j, 0]), "y": float(xyz[f, j, 1]), "z": float(xyz[f, j, 2])}
        for f in range(frames)
        for j in range(joints)
    ]


def run(folder: str, out_dir: str) -> None:
    files = motion_files(folder)
    data = ray.data.read_binary_files(files, include_paths=True)
    data.flat_map(qa_rows).write_parquet(os.path.join(out_dir, "qa"))
    data.flat_map(position_rows).write_parquet(os.path.join(out_dir, "positions"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("out_dir")
    parser.add_argument("--num-cpus", type=int, default=None, help="local Ray only (ignored with RAY_ADDRESS)")
    args = parser.parse_args()
    if os.environ.get("RAY_ADDRESS"):
        ray.init()
    else:
        ray.init(num_cpus=args.num_cpus)
    run(args.folder, args.out_dir)


if __name__ == "__main__":
    main()
