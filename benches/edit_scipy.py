"""SciPy's side of benches/edit.sh: on the markers of a C3D (read with ezc3d, not timed), the
time of `filtfilt(b, a, x)` alone (b, a = butter(4, 6 / (rate / 2)), on every coordinate row
with its gaps set to 0, as filtfilt takes no NaN), and of a fill of every gap by a
`CubicSpline` through 10 valid samples each side (what skelview's `spline` does) followed by
the same filtfilt. Prints JSON.

Usage: edit_scipy.py FILE.c3d
"""
import json
import sys
import time

import ezc3d
import numpy as np
from scipy.interpolate import CubicSpline
from scipy.signal import butter, filtfilt

SIDE = 10


def fill(row):
    """Fills the inner gaps of one row in place; gaps at either end stay."""
    bad = np.isnan(row)
    if not bad.any():
        return
    edges = np.flatnonzero(np.diff(np.concatenate(([0], bad.view(np.int8), [0]))))
    for first, end in zip(edges[::2], edges[1::2]):
        if first == 0 or end == len(row):
            continue
        lo, hi = max(0, first - SIDE), min(len(row), end + SIDE)
        idx = np.arange(lo, hi)
        ok = ~np.isnan(row[lo:hi])
        row[first:end] = CubicSpline(idx[ok], row[lo:hi][ok], bc_type="natural")(np.arange(first, end))


def main():
    c = ezc3d.c3d(sys.argv[1])
    rate = float(c["parameters"]["POINT"]["RATE"]["value"][0])
    pts = c["data"]["points"][:3]
    x = np.ascontiguousarray(pts.transpose(1, 0, 2).reshape(-1, pts.shape[2]), dtype=np.float64)
    b, a = butter(4, 6.0 / (rate / 2))
    zeroed = np.nan_to_num(x)
    t = time.perf_counter()
    filtfilt(b, a, zeroed, axis=1)
    filt = time.perf_counter() - t
    t = time.perf_counter()
    filled = x.copy()
    for row in filled:
        fill(row)
    filtfilt(b, a, np.nan_to_num(filled), axis=1)
    both = time.perf_counter() - t
    json.dump({"rows": x.shape[0], "frames": x.shape[1], "filtfilt_s": filt, "spline_fill_and_filtfilt_s": both}, sys.stdout)


main()
