"""Capture checks and joint positions of a folder of motion files with Ray Data, as Parquet,
with an optional clean-up stage.

    python examples/ray_qa_parquet.py SOURCE OUT_DIR [--recipe CLEAN.toml] [--body-model MODELS] [--num-cpus N]

SOURCE is a folder (searched recursively) or a bucket URI (s3://, gs://, abfs://: Ray lists
and reads it through pyarrow's filesystems). Writes OUT_DIR/qa (one row per `skelview qa
--json` record: file, kind, joint, frames, value, message, and the whole record as JSON) and
OUT_DIR/positions (file, joint, frame, x, y, z in metres with +Y up; NaN where the file left
a value missing), each a folder of Parquet files. Every file whose name ends in an extension
skelview reads is taken, except .amc (an AMC needs its ASF beside it; load those pairs with
skelview.load).

With --recipe, every file is cleaned up on its worker by the recipe (a TOML file as
`skelview edit --save-recipe` and the viewer's Save recipe… write it): the qa rows are those
of the file as read (stage "source") and as edited (stage "edited"), so the two can be
counted against each other, and the positions are the edited motion's. A recipe that fails
on a file gives one row of kind "edit_error" with the step and the reason.

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


def error_row(path: str, stage: str, kind: str, message: str) -> dict[str, Any]:
    record = {"file": path, "kind": kind, "message": message}
    return {"file": path, "stage": stage, "kind": kind, "joint": None, "start_frame": -1, "end_frame": -1, "value": float("nan"), "message": message, "record": json.dumps(record)}


def check_rows(motion: "skelview.Motion", path: str, stage: str) -> list[dict[str, Any]]:
    """The capture-check records of one motion, as flat rows."""
    rows = []
    for record in skelview.qa(motion):
        record["file"] = path
        rows.append(
            {
                "file": path,
                "stage": stage,
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


def qa_rows(row: dict[str, Any], recipe: str | None = None, body_model: str | None = None) -> list[dict[str, Any]]:
    """One file's capture-check records: as read, and as edited when there is a recipe."""
    path = row["path"]
    try:
        motion = skelview.load_bytes(row["bytes"], os.path.basename(path), body_model=body_model, meshes=False)
    except skelview.LoadError as e:
        return [error_row(path, "source", "error", str(e))]
    rows = check_rows(motion, path, "source")
    if recipe is not None:
        try:
            rows += check_rows(motion.edit(recipe), path, "edited")
        except ValueError as e:
            rows.append(error_row(path, "edited", "edit_error", str(e)))
    return rows


def position_rows(row: dict[str, Any], recipe: str | None = None, body_model: str | None = None) -> list[dict[str, Any]]:
    """One file's joint positions (edited, with a recipe), a row per joint and frame."""
    path = row["path"]
    try:
        motion = skelview.load_bytes(row["bytes"], os.path.basename(path), body_model=body_model, meshes=False)
        if recipe is not None:
            motion = motion.edit(recipe)
    except (skelview.LoadError, ValueError):
        return []
    xyz = motion.positions()
    frames, joints = xyz.shape[0], xyz.shape[1]
    names = np.array(motion.joint_names, dtype=object)
    return [
        {"file": path, "joint": names[j], "frame": f, "x": float(xyz[f, j, 0]), "y": float(xyz[f, j, 1]), "z": float(xyz[f, j, 2])}
        for f in range(frames)
        for j in range(joints)
    ]


def run(source: str, out_dir: str, recipe: str | None = None, body_model: str | None = None) -> None:
    # Ray lists SOURCE itself, on whichever filesystem its URI names, so the same call reads a
    # local folder and a bucket. The recipe travels to the workers as text.
    data = ray.data.read_binary_files(source, include_paths=True, file_extensions=EXTENSIONS)
    kwargs = {"recipe": recipe, "body_model": body_model}
    data.flat_map(qa_rows, fn_kwargs=kwargs).write_parquet(os.path.join(out_dir, "qa"))
    data.flat_map(position_rows, fn_kwargs=kwargs).write_parquet(os.path.join(out_dir, "positions"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a folder or a bucket URI (s3://, gs://, abfs://)")
    parser.add_argument("out_dir")
    parser.add_argument("--recipe", default=None, help="a recipe (TOML) to clean every file up with")
    parser.add_argument(
        "--body-model", default=None, help="SMPL-family .npz bodies: your model file or folder (every worker must see it)"
    )
    parser.add_argument("--num-cpus", type=int, default=None, help="local Ray only (ignored with RAY_ADDRESS)")
    args = parser.parse_args()
    recipe = None
    if args.recipe:
        with open(args.recipe, encoding="utf-8") as f:
            recipe = f.read()
    if os.environ.get("RAY_ADDRESS"):
        ray.init()
    else:
        ray.init(num_cpus=args.num_cpus)
    run(args.source, args.out_dir, recipe, args.body_model)


if __name__ == "__main__":
    main()
