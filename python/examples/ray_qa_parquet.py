"""Capture checks and joint positions of a folder of motion files with Ray Data, as Parquet.

    python examples/ray_qa_parquet.py SOURCE OUT_DIR [--num-cpus N]

SOURCE is a folder (searched recursively) or a bucket URI (s3://, gs://, abfs://: Ray lists
and reads it through pyarrow's filesystems). Writes OUT_DIR/qa (one row per `skelview qa
--json` record: file, kind, joint, frames, value, message, and the whole record as JSON) and
OUT_DIR/positions (file, joint, frame, x, y, z in metres with +Y up; NaN where the file left
a value missing), each a folder of Parquet files. Every file whose name ends in an extension
skelview reads is taken, except .amc (an AMC needs its ASF beside it; load those pairs with
skelview.load).

On one machine `ray.init()` starts a local Ray. On a cluster the same script runs unchanged:
set RAY_ADDRESS (`RAY_ADDRESS=ray://head:10001 python examples/ray_qa_parquet.py
s3://bucket/takes s3://bucket/out`) or, from the repository root, submit it (`ray job submit
--working-dir python -- python examples/ray_qa_parquet.py s3://bucket/takes s3://bucket/out`).
There SOURCE and OUT_DIR must be places every node reaches (a bucket, or a shared
filesystem), and every worker needs skelview installed (a runtime_env with the wheel, or the
cluster image).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import numpy as np
import ray

import skelview

# Every extension skelview reads but .amc (see the module's docstring).
EXTENSIONS = sorted({e for f in skelview.formats() for e in f["extensions"]} - {"amc"})


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


def run(source: str, out_dir: str) -> None:
    # Ray lists SOURCE itself, on whichever filesystem its URI names, so the same call reads a
    # local folder and a bucket.
    data = ray.data.read_binary_files(source, include_paths=True, file_extensions=EXTENSIONS)
    data.flat_map(qa_rows).write_parquet(os.path.join(out_dir, "qa"))
    data.flat_map(position_rows).write_parquet(os.path.join(out_dir, "positions"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a folder or a bucket URI (s3://, gs://, abfs://)")
    parser.add_argument("out_dir")
    parser.add_argument("--num-cpus", type=int, default=None, help="local Ray only (ignored with RAY_ADDRESS)")
    args = parser.parse_args()
    if os.environ.get("RAY_ADDRESS"):
        ray.init()
    else:
        ray.init(num_cpus=args.num_cpus)
    run(args.source, args.out_dir)


if __name__ == "__main__":
    main()
