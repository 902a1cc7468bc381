"""Writes a float C3D (Intel) of MARKERS markers and FRAMES frames: smooth random paths in
millimetres, a gap now and then, 100 Hz, no analog channels. For the read benchmark.

Usage: make_c3d.py OUT MARKERS FRAMES
"""
import struct
import sys

import numpy as np


def param(group_id, name, kind, dims, data):
    body = struct.pack("<bB", kind, len(dims)) + bytes(dims) + data + b"\x00"
    return struct.pack("<bb", len(name), group_id) + name.encode() + struct.pack("<h", 2 + len(body)) + body


def group(group_id, name):
    return struct.pack("<bb", len(name), -group_id) + name.encode() + struct.pack("<h", 3) + b"\x00"


def main():
    out, markers, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    labels = [f"M{i:04d}" for i in range(markers)]
    params = group(1, "POINT") + group(2, "ANALOG") + group(3, "TRIAL")
    params += param(1, "USED", 2, [], struct.pack("<h", markers))
    params += param(1, "SCALE", 4, [], struct.pack("<f", -0.1))
    params += param(1, "RATE", 4, [], struct.pack("<f", 100.0))
    params += param(1, "FRAMES", 2, [], struct.pack("<H", min(frames, 65535)))
    params += param(1, "UNITS", -1, [2], b"mm")
    params += param(1, "X_SCREEN", -1, [2], b"+X")
    params += param(1, "Y_SCREEN", -1, [2], b"+Z")
    for k in range(0, markers, 255):
        chunk = labels[k : k + 255]
        name = "LABELS" if k == 0 else f"LABELS{k // 255 + 1}"
        params += param(1, name, -1, [5, len(chunk)], "".join(chunk).encode())
    params += param(2, "USED", 2, [], struct.pack("<h", 0))
    params += param(3, "ACTUAL_START_FIELD", 2, [2], struct.pack("<HH", 1, 0))
    params += param(3, "ACTUAL_END_FIELD", 2, [2], struct.pack("<HH", frames & 0xFFFF, frames >> 16))
    params += b"\x00\x00"
    blocks = (len(params) + 4 + 511) // 512
    data_start = 2 + blocks + 1
    params_section = struct.pack("<BBBB", 1, 0x50, blocks, 84) + params
    params_section += b"\x00" * (blocks * 512 - len(params_section))
    header = bytearray(512)
    header[0], header[1] = 2, 0x50
    struct.pack_into("<HHHHHfHHf", header, 2, markers, 0, 1, min(frames, 65535), 10, -0.1, data_start, 0, 100.0)
    rng = np.random.default_rng(7)
    with open(out, "wb") as f:
        f.write(header)
        f.write(params_section)
        f.write(b"\x00" * ((data_start - 1) * 512 - f.tell()))
        base = rng.uniform(-1000, 1000, size=(markers, 3)).astype(np.float32)
        step = 2000
        for start in range(0, frames, step):
            n = min(step, frames - start)
            t = np.arange(start, start + n, dtype=np.float32)[:, None, None]
            xyz = base[None, :, :] + 300.0 * np.sin(t / 50.0 + base[None, :, :] / 300.0)
            block = np.empty((n, markers, 4), dtype="<f4")
            block[:, :, :3] = xyz
            block[:, :, 3] = 256.0  # residual 1 step, no camera mask
            block[rng.random((n, markers)) < 0.01, 3] = -1.0
            f.write(block.tobytes())


main()
