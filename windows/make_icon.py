"""Draws assets/skelview.svg (a rounded square, bones as round-capped lines, joints as discs)
into assets/skelview.ico: PNG images at 16-256 px, for the Windows program and installer.
The drawing is this script's own (no SVG renderer here); run it again after changing the SVG.
Usage: python3 windows/make_icon.py"""

import struct
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BACKGROUND = (0x22, 0x26, 0x2F)
BONE = (0xC8, 0xCC, 0xD8)
JOINT = (0xF2, 0x9E, 0x33)
BONES = [((32, 18), (32, 36)), ((32, 22), (20, 30)), ((32, 22), (44, 16)), ((32, 36), (24, 52)), ((32, 36), (41, 51))]
JOINTS = [(32, 12, 5)] + [(x, y, 2.6) for x, y in [(32, 22), (20, 30), (44, 16), (32, 36), (24, 52), (41, 51)]]


def coverage(size: int, inside) -> np.ndarray:
    """Fraction of each pixel inside, from 4x4 samples, in the SVG's 64-unit box."""
    n = 4
    s = (np.arange(size * n) + 0.5) / (size * n) * 64
    x, y = np.meshgrid(s, s)
    return inside(x, y).reshape(size, n, size, n).mean(axis=(1, 3))


def rounded_square(x, y):
    d = np.maximum(np.abs(x - 32) - (30 - 12), 0) ** 2 + np.maximum(np.abs(y - 32) - (30 - 12), 0) ** 2
    return d <= 12**2


def segment(a, b, width):
    (ax, ay), (bx, by) = a, b

    def inside(x, y):
        dx, dy = bx - ax, by - ay
        t = np.clip(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy), 0, 1)
        return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= (width / 2) ** 2

    return inside


def draw(size: int) -> np.ndarray:
    rgba = np.zeros((size, size, 4))
    for inside, color in [(rounded_square, BACKGROUND)] + [(segment(a, b, 3.2), BONE) for a, b in BONES] + [
        ((lambda cx, cy, r: lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r)(*j), JOINT) for j in JOINTS
    ]:
        c = coverage(size, inside)[..., None]
        rgba[..., :3] = rgba[..., :3] * (1 - c) + np.array(color) / 255 * c
        rgba[..., 3:] = rgba[..., 3:] * (1 - c) + c
    # Colours were blended as if opaque: un-premultiply where partly covered.
    a = np.maximum(rgba[..., 3:], 1e-6)
    rgba[..., :3] = np.where(rgba[..., 3:] > 0, rgba[..., :3] / a * np.minimum(a, 1), 0)
    return (np.clip(rgba, 0, 1) * 255 + 0.5).astype(np.uint8)


def png(img: np.ndarray) -> bytes:
    h, w, _ = img.shape
    raw = b"".join(b"\0" + img[r].tobytes() for r in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> None:
    sizes = [16, 24, 32, 48, 64, 256]
    images = [png(draw(s)) for s in sizes]
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for s, data in zip(sizes, images):
        entries += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    (ROOT / "assets/skelview.ico").write_bytes(header + entries + b"".join(images))
    (ROOT / "target").mkdir(exist_ok=True)
    (ROOT / "target/skelview-icon-256.png").write_bytes(images[-1])


if __name__ == "__main__":
    main()
