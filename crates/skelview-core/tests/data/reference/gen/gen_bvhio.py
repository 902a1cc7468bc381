#!/usr/bin/env python3
"""Reference global joint positions for BVH files, computed with bvhio (PyPI).

Usage: python gen_bvhio.py OUTDIR file1.bvh [file2.bvh ...]

Writes OUTDIR/<stem>.bvhio.csv with header `joint,frame,x,y,z` and rows for
frames 0, 1, 50 and the last motion row present in the file (deduplicated,
out-of-range dropped).

* Joint positions: bvhio.readAsHierarchy-equivalent pipeline
  (readAsBvh -> convertBvhToHierarchy -> loadRestPose), then
  root.loadPose(frame, recursive=True) and joint.PositionWorld.
* End sites: bvhio parses an `End Site` OFFSET into BvhJoint.EndSite but does
  not turn it into a joint. Before conversion we add, for every End Site that
  was actually present in the file, a channel-less child BvhJoint named
  `<parent>/EndSite` with Offset = EndSite and identity keyframes (exactly what
  bvhio's own _deserializeMotion produces for a joint without channels). Its
  PositionWorld is therefore computed by bvhio's own transform code.
* If the `Frames:` header disagrees with the number of motion rows present,
  bvhio reads exactly `Frames:` rows (fewer -> the extra rows are ignored;
  more -> parseLine loops forever at EOF). In that case bvhio is fed a
  temporary copy whose `Frames:` line is corrected to the number of rows
  present; nothing else is changed. This is reported on stderr.
* Values are written with %.9g; bvhio computes in float32 (PyGLM vec3/quat/mat4).
"""
import os
import re
import sys
import tempfile

import glm
from SpatialTransform import Pose

import bvhio
from bvhio.lib import Parser
from bvhio.lib.bvh import BvhJoint

# --- record which BvhJoint.EndSite values really came from an `End Site` block
_real_endsites = set()
_orig_deserializeEndSite = Parser._deserializeEndSite


def _tagging_deserializeEndSite(file, line):
    v = _orig_deserializeEndSite(file, line)
    _real_endsites.add(id(v))
    return v


Parser._deserializeEndSite = _tagging_deserializeEndSite


def count_rows(path):
    """(declared Frames:, number of non-empty motion rows after `Frame Time:`)."""
    with open(path, 'r') as f:
        lines = f.read().splitlines()
    declared = None
    rows = 0
    state = 0
    for ln in lines:
        s = ln.strip()
        if state == 0:
            if s == 'MOTION':
                state = 1
        elif state == 1:
            if s.startswith('Frames:'):
                declared = int(s.split()[1])
            elif s.startswith('Frame Time'):
                state = 2
        else:
            if s:
                rows += 1
    return declared, rows


def add_endsite_children(j, nframes):
    for c in j.Children:
        add_endsite_children(c, nframes)
    if id(j.EndSite) in _real_endsites:
        es = BvhJoint(j.Name + '/EndSite', j.EndSite)
        es.Channels = []
        es.Keyframes = [Pose(glm.vec3(es.Offset), glm.quat()) for _ in range(nframes)]
        j.Children.append(es)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for path in sys.argv[2:]:
        stem = os.path.splitext(os.path.basename(path))[0]
        declared, rows = count_rows(path)
        src = path
        tmp = None
        if declared != rows:
            print(f'{stem}: Frames: {declared} but {rows} rows present; '
                  f'feeding bvhio a copy with Frames: {rows}', file=sys.stderr)
            with open(path, 'r') as f:
                text = f.read()
            text = re.sub(r'Frames:[ \t]*\d+', f'Frames: {rows}', text, count=1)
            fd, tmp = tempfile.mkstemp(suffix='.bvh')
            with os.fdopen(fd, 'w') as f:
                f.write(text)
            src = tmp
        try:
            bvh = bvhio.readAsBvh(src, loadKeyFrames=True)
        except Exception as e:  # record and skip
            print(f'{stem}: bvhio FAILED: {e!r}', file=sys.stderr)
            continue
        finally:
            if tmp:
                os.unlink(tmp)
        n = bvh.FrameCount
        add_endsite_children(bvh.Root, n)
        root = Parser.convertBvhToHierarchy(bvh.Root).loadRestPose(recursive=True)
        frames = sorted({f for f in (0, 1, 50, rows - 1) if 0 <= f < n})
        out = os.path.join(outdir, stem + '.bvhio.csv')
        with open(out, 'w') as f:
            f.write('joint,frame,x,y,z\n')
            for fr in frames:
                root.loadPose(fr, recursive=True)
                for j, _, _ in root.layout():
                    p = j.PositionWorld
                    f.write('%s,%d,%.9g,%.9g,%.9g\n' % (j.Name, fr, p.x, p.y, p.z))
        print(f'{stem}: {n} frames, wrote frames {frames} -> {out}', file=sys.stderr)


if __name__ == '__main__':
    main()
