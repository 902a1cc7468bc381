#!/usr/bin/env python3
"""A second FBX reader, independent of ufbx, for one corpus file: the Blender 2.79 FBX 6.1
ASCII sausage (ufbx_blender_279_sausage_6100_ascii.fbx). Reads its Model properties, its
parent links and its four takes' key lists with plain text parsing, evaluates the linear keys
at each frame time and composes T * R * S down the hierarchy (Euler XYZ, R = Rz Ry Rx; the
file has no pivots, offsets or pre/post-rotations, which this script checks). Prints CSV
take,frame,joint,x,y,z in metres (UnitScaleFactor 1 = cm, Y up) for frames 0, 1, the middle
and the last of every take. Run once; its output is kept as
crates/skelview-core/tests/data/fbx/blender_279_sausage_positions.csv:

    python3 crates/skelview-core/tests/data/fbx/sausage_reference.py ../shared/corpus/fbx/ufbx_blender_279_sausage_6100_ascii.fbx
"""
import math
import re
import sys

KTIME = 46186158000
FPS = 24.0

text = open(sys.argv[1], encoding="utf-8").read()
objects = text[text.index("\nObjects:"):text.index("\nRelations:")]
takes_text = text[text.index("\nTakes:"):]

def vec(s):
    return [float(x) for x in s.split(",")]

# Static properties of the four skeleton models.
models = {}
for m in re.finditer(r'Model: "Model::(\w+)", "Limb" \{(.*?)\n\t\}', objects, re.S):
    props = dict(re.findall(r'Property: "([^"]+)", "[^"]*", "[^"]*",(.*)', m.group(2)))
    for zero in ["RotationOffset", "RotationPivot", "ScalingOffset", "ScalingPivot", "PreRotation", "PostRotation"]:
        assert vec(props[zero]) == [0, 0, 0], (m.group(1), zero)
    assert props["RotationOrder"].strip() == "0"
    models[m.group(1)] = {
        "T": vec(props["Lcl Translation"]),
        "R": vec(props["Lcl Rotation"]),
        "S": vec(props["Lcl Scaling"]),
    }
parent = dict(re.findall(r'Connect: "OO", "Model::(\w+)", "Model::(\w+)"', text))
order = ["Skeleton", "Bottom", "Middle", "Top"]
assert all(m in models for m in order) and parent["Skeleton"] == "Scene"

def channel_value(block, default, t):
    keys = re.search(r"Key: \s*(.*?)\n\s*Color:", block, re.S)
    if keys is None:
        return default
    parts = [p.strip() for p in keys.group(1).replace("\n", "").split(",") if p.strip()]
    triples = [(int(parts[i]), float(parts[i + 1]), parts[i + 2]) for i in range(0, len(parts), 3)]
    assert all(flag == "L" for _, _, flag in triples), "only linear keys are handled"
    if t <= triples[0][0]:
        return triples[0][1]
    if t >= triples[-1][0]:
        return triples[-1][1]
    for (t0, v0, _), (t1, v1, _) in zip(triples, triples[1:]):
        if t0 <= t <= t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)

def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]

def local(tr, rot, sc):
    rx, ry, rz = (math.radians(a) for a in rot)
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    Rx = [[1, 0, 0], [0, cx, -sx], [0, sx, cx]]
    Ry = [[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]]
    Rz = [[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]
    mul3 = lambda a, b: [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    r = mul3(Rz, mul3(Ry, Rx))
    return [[r[i][0] * sc[0], r[i][1] * sc[1], r[i][2] * sc[2], tr[i]] for i in range(3)] + [[0, 0, 0, 1]]

print("take,frame,joint,x,y,z")
for take in re.finditer(r'\tTake: "([^"]+)" \{(.*?)\n\t\}', takes_text, re.S):
    name, body = take.group(1), take.group(2)
    begin, end = (int(x) for x in re.search(r"LocalTime: (-?\d+),(-?\d+)", body).groups())
    blocks = {m.group(1): m.group(2) for m in re.finditer(r'\t\tModel: "Model::(\w+)" \{(.*?)\n\t\t\}', body, re.S)}
    frames = round((end - begin) / KTIME * FPS) + 1
    for f in sorted({0, 1, frames // 2, frames - 1}):
        t = min(begin + round(f * KTIME / FPS), end)
        world = {}
        for joint in order:
            values = {}
            for comp in "TRS":
                v = list(models[joint][comp])
                block = blocks.get(joint)
                if block:
                    c = re.search(r'Channel: "%s" \{(.*?)\n\t\t\t\t\}' % comp, block, re.S)
                    if c:
                        for k, axis in enumerate("XYZ"):
                            a = re.search(r'Channel: "%s" \{(.*?)\n\t\t\t\t\t\}' % axis, c.group(1), re.S)
                            if a:
                                default = float(re.search(r"Default: (\S+)", a.group(1)).group(1))
                                v[k] = channel_value(a.group(1), default, t)
                values[comp] = v
            m = local(values["T"], values["R"], values["S"])
            p = parent[joint]
            world[joint] = matmul(world[p], m) if p in world else m
            x, y, z = (world[joint][i][3] / 100.0 for i in range(3))
            print(f"{name},{f},{joint},{x:.9f},{y:.9f},{z:.9f}")
