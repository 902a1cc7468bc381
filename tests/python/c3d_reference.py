"""Reference values of a C3D file from a second reader, as JSON on standard output.

ezc3d (the C3D library biomechanics labs use) reads Intel and DEC files and computes force
platform data; it refuses MIPS files, which the pure-Python `c3d` package reads instead.
Usage: c3d_reference.py FILE [ezc3d|c3d]   (the second argument forces a reader)
"""
import json
import math
import sys


def clean(v):
    return None if v is None or not math.isfinite(v) else float(v)


def frames_of(n):
    return sorted({0, 1, n // 2, n - 1} & set(range(n)))


def with_ezc3d(path):
    import ezc3d

    c = ezc3d.c3d(path, extract_forceplat_data=True)
    pts = c["data"]["points"]  # 4 x points x frames
    n = pts.shape[2]
    labels = c["parameters"]["POINT"]["LABELS"]["value"][: pts.shape[1]]
    out = {"reader": "ezc3d", "frames": n, "labels": labels, "positions": {}}
    for f in frames_of(n):
        out["positions"][str(f)] = [[clean(pts[k, p, f]) for k in range(3)] for p in range(pts.shape[1])]
    an = c["data"]["analogs"]  # 1 x channels x samples
    out["analog_samples"] = int(an.shape[2])
    out["analog"] = {str(s): [clean(x) for x in an[0, :, s]] for s in frames_of(an.shape[2])}
    plates = []
    for pf in c["data"].get("platform", []):
        m = pf["force"].shape[1]
        idx = [s for s in range(0, m, max(1, m // 40))]
        plates.append({
            "samples": m,
            "at": idx,
            "force": [[clean(pf["force"][k, s]) for k in range(3)] for s in idx],
            "moment": [[clean(pf["moment"][k, s]) for k in range(3)] for s in idx],
            "cop": [[clean(pf["center_of_pressure"][k, s]) for k in range(3)] for s in idx],
        })
    out["plates"] = plates
    ev = c["parameters"].get("EVENT", {})
    if "USED" in ev and ev["USED"]["value"][0] > 0:
        times = ev["TIMES"]["value"]  # 2 x events: minutes, seconds
        out["events"] = [
            {"label": ev["LABELS"]["value"][i].strip(), "context": ev["CONTEXTS"]["value"][i].strip(), "time": float(times[0][i] * 60 + times[1][i])}
            for i in range(int(ev["USED"]["value"][0]))
        ]
    return out


def with_c3d(path):
    import c3d

    with open(path, "rb") as handle:
        reader = c3d.Reader(handle)
        labels = [l.strip() for l in reader.point_labels]
        frames = [(p.copy(), a.copy()) for _, p, a in reader.read_frames()]
    n = len(frames)
    out = {"reader": "c3d", "frames": n, "labels": labels, "positions": {}}
    for f in frames_of(n):
        p = frames[f][0]
        out["positions"][str(f)] = [
            [None, None, None] if p[i, 3] < 0 else [clean(p[i, k]) for k in range(3)] for i in range(p.shape[0])
        ]
    out["plates"] = None  # the c3d package computes no platform data
    return out


def main():
    path = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "c3d":
        json.dump(with_c3d(path), sys.stdout)
        return
    try:
        data = with_ezc3d(path)
    except Exception as error:  # ezc3d 1.7.2 refuses MIPS files
        data = with_c3d(path)
        data["ezc3d_error"] = str(error)
    json.dump(data, sys.stdout)


main()
