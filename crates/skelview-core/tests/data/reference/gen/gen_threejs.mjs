// Reference global joint positions for BVH files, computed with three.js BVHLoader (npm `three`).
//
// Usage: node gen_threejs.mjs OUTDIR file1.bvh [file2.bvh ...]
//        The script must sit in a directory tree that has node_modules/three
//        (ESM bare imports resolve relative to the script file), e.g.
//        mkdir w && cd w && npm install three@0.187.0 && cp .../gen_threejs.mjs . && node gen_threejs.mjs ...
//
// Writes OUTDIR/<stem>.threejs.csv (`joint,frame,x,y,z`) for frames 0, 1, 50 and
// the last motion row present in the file (deduplicated, out-of-range dropped).
//
// * The file text is read with fs and passed to new BVHLoader().parse(text).
// * Pose for frame k: the clip's tracks are applied directly, no interpolation:
//   for every track `<bone>.position` / `<bone>.quaternion`, values[k*3..k*3+3] /
//   values[k*4..k*4+4] are copied into bone.position / bone.quaternion
//   (tracks are matched to bones by order, and the names are checked).
//   Track times are also checked to be k*frameTime so index k == keyframe k.
//   Then root.updateMatrixWorld(true) and bone.getWorldPosition().
// * End sites: BVHLoader creates a Bone named 'ENDSITE' (child of the joint whose
//   block contains it, positioned at its OFFSET, no track). Written as `<parent>/EndSite`.
// * Frames: header != rows present: BVHLoader reads exactly `Frames:` rows
//   (extra rows ignored; missing rows -> TypeError on lines.shift().trim()).
//   In that case the loader is fed the text with the `Frames:` line corrected
//   to the number of rows present (nothing else changed); reported on stderr.
// * Additionally (stderr only) the pose is re-evaluated with the regular
//   AnimationMixer path (mixer.setTime(k*frameTime)) and its max deviation from
//   the direct-keyframe pose is reported, to expose binding/interpolation issues.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';

// BVHLoader's console.error/warn would go to stdout/stderr; keep them on stderr.
console.warn = (...a) => process.stderr.write('[three warn] ' + a.join(' ') + '\n');
console.error = (...a) => process.stderr.write('[three error] ' + a.join(' ') + '\n');

function countRows(text) {
  const lines = text.split(/\r\n|\r|\n/);
  let state = 0, declared = null, rows = 0, frameTime = null;
  for (const ln of lines) {
    const s = ln.trim();
    if (state === 0) { if (s === 'MOTION') state = 1; }
    else if (state === 1) {
      if (s.startsWith('Frames:')) declared = parseInt(s.split(/\s+/)[1]);
      else if (s.startsWith('Frame Time')) { frameTime = parseFloat(s.split(/\s+/)[2]); state = 2; }
    } else if (s.length) rows++;
  }
  return { declared, rows, frameTime };
}

const fmt = (v) => {
  // emulate C printf %.9g
  if (v === 0) return (Object.is(v, -0) ? '-0' : '0');
  if (!isFinite(v)) return String(v);
  let s;
  let e = parseInt(v.toExponential(8).split('e')[1]);
  if (e < -4 || e >= 9) {
    s = v.toExponential(8); // d.dddddddde±x
    let [m, ex] = s.split('e');
    if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
    const sign = ex[0] === '-' ? '-' : '+';
    let digits = ex.replace(/^[+-]/, '');
    if (digits.length < 2) digits = '0' + digits;
    return m + 'e' + sign + digits;
  }
  s = v.toFixed(Math.max(0, 8 - e));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
};

const outdir = process.argv[2];
fs.mkdirSync(outdir, { recursive: true });

for (const file of process.argv.slice(3)) {
  const stem = path.basename(file).replace(/\.bvh$/i, '');
  let text = fs.readFileSync(file, 'utf8');
  const { declared, rows, frameTime } = countRows(text);
  if (declared !== rows) {
    process.stderr.write(`${stem}: Frames: ${declared} but ${rows} rows present; feeding BVHLoader text with Frames: ${rows}\n`);
    text = text.replace(/Frames:[ \t]*\d+/, `Frames: ${rows}`);
  }
  let result;
  try {
    result = new BVHLoader().parse(text);
  } catch (e) {
    process.stderr.write(`${stem}: BVHLoader FAILED: ${e}\n`);
    continue;
  }
  const { skeleton, clip } = result;
  const bones = skeleton.bones;
  const root = bones[0];
  const order = [];
  (function walk(b) { order.push(b); b.children.forEach(walk); })(root);
  // BVHLoader: end-site bones are named 'ENDSITE', have no children and no tracks
  const isEnd = (b) => b.name === 'ENDSITE' && b.children.length === 0;
  const nonEnd = order.filter((b) => !isEnd(b));
  const rest = order.map((b) => [b.position.clone(), b.quaternion.clone()]);
  if (clip.tracks.length !== 2 * nonEnd.length) throw new Error(`${stem}: track count mismatch`);
  const posTracks = [], quatTracks = [];
  for (let i = 0; i < nonEnd.length; i++) {
    const tp = clip.tracks[2 * i], tq = clip.tracks[2 * i + 1];
    if (tp.name !== nonEnd[i].name + '.position' || tq.name !== nonEnd[i].name + '.quaternion')
      throw new Error(`${stem}: track/bone mismatch at ${i}: ${tp.name} ${tq.name} vs ${nonEnd[i].name}`);
    posTracks.push(tp); quatTracks.push(tq);
  }
  const nFrames = posTracks[0].times.length;
  // check keyframe times: times[k] == float32(k*frameTime)
  for (let k = 0; k < nFrames; k++) {
    if (posTracks[0].times[k] !== Math.fround(k * frameTime)) throw new Error(`${stem}: time mismatch at ${k}`);
  }
  const frames = [...new Set([0, 1, 50, rows - 1])].filter((f) => f >= 0 && f < nFrames).sort((a, b) => a - b);

  const label = (b) => (isEnd(b) ? b.parent.name + '/EndSite' : b.name);

  const lines = ['joint,frame,x,y,z'];
  const raw = ['joint,frame,x,y,z'];
  const v = new THREE.Vector3();
  const direct = new Map();
  for (const k of frames) {
    for (let i = 0; i < nonEnd.length; i++) {
      nonEnd[i].position.fromArray(posTracks[i].values, 3 * k);
      nonEnd[i].quaternion.fromArray(quatTracks[i].values, 4 * k);
    }
    root.updateMatrixWorld(true);
    const pos = [];
    for (const b of order) {
      b.getWorldPosition(v);
      pos.push(v.toArray());
      lines.push(`${label(b)},${k},${fmt(v.x)},${fmt(v.y)},${fmt(v.z)}`);
      raw.push(`${label(b)},${k},${v.x},${v.y},${v.z}`);
    }
    direct.set(k, pos);
  }
  fs.writeFileSync(path.join(outdir, stem + '.threejs.csv'), lines.join('\n') + '\n');
  if (process.env.RAW_DIR) fs.writeFileSync(path.join(process.env.RAW_DIR, stem + '.threejs.raw.csv'), raw.join('\n') + '\n');

  // --- cross-check: regular AnimationMixer path (stderr report only)
  // A fresh mixer per frame, created while the bones are in the loader's rest pose:
  // PropertyMixer only writes a value to the scene graph when it differs from the
  // last value it applied (initially: the state captured at bind time), so reusing
  // one mixer after moving the bones by hand would give false deviations.
  // LoopOnce + clampWhenFinished: with the default LoopRepeat, t == clip.duration
  // (the last keyframe) wraps to t = 0, i.e. frame 0 would be shown instead.
  const mixDev = (tfun) => {
    let m = 0;
    for (const k of frames) {
      order.forEach((b, i) => { b.position.copy(rest[i][0]); b.quaternion.copy(rest[i][1]); });
      const mixer = new THREE.AnimationMixer(root);
      const action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(tfun(k));
      root.updateMatrixWorld(true);
      const pos = direct.get(k);
      order.forEach((b, i) => {
        b.getWorldPosition(v);
        m = Math.max(m, Math.abs(v.x - pos[i][0]), Math.abs(v.y - pos[i][1]), Math.abs(v.z - pos[i][2]));
      });
      mixer.stopAllAction();
      mixer.uncacheRoot(root);
    }
    return m;
  };
  const maxd = mixDev((k) => k * frameTime);
  const maxd32 = mixDev((k) => posTracks[0].times[k]);
  process.stderr.write(`${stem}: ${nFrames} frames, wrote frames [${frames}] ; AnimationMixer(LoopOnce) vs direct keyframes: setTime(k*frameTime) max|d|=${maxd}, setTime(times[k]) max|d|=${maxd32}\n`);
}
