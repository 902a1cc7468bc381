// Loads a VRM avatar with three-vrm (the reference VRM loader) and prints, as JSON, what a
// VRM player finds in it: meta, each humanoid bone's node name, each expression's morph and
// material binds (counted by the primitives they reach), how many meshes an expression at
// full weight changes, and, playing the file's first glTF animation with an AnimationMixer,
// each humanoid bone's world position at the times given:
//   node avatar_out.mjs AVATAR.vrm T1 T2 ...
import { readFileSync } from "node:fs";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { VRMLoaderPlugin } from "@pixiv/three-vrm";

globalThis.self ??= globalThis;
console.warn = console.error = (...args) => process.stderr.write(args.join(" ") + "\n");

const [path, ...times] = process.argv.slice(2);
const loader = new GLTFLoader();
loader.register((parser) => new VRMLoaderPlugin(parser));
const bytes = readFileSync(path);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => loader.parse(buffer, "", resolve, reject));
const vrm = gltf.userData.vrm;
if (!vrm) throw new Error(`${path}: three-vrm found no VRM`);

const meta = vrm.meta;
const out = {
  meta: {
    version: meta.metaVersion,
    name: meta.name ?? meta.title,
    authors: meta.authors ?? [meta.author],
    licence: meta.licenseUrl ?? meta.licenseName,
  },
  bones: {},
  expressions: {},
  frames: [],
};
for (const [bone, b] of Object.entries(vrm.humanoid.humanBones)) if (b?.node) out.bones[bone] = b.node.name;

// Morph influences summed over every mesh: an expression that changes them reaches meshes.
const influences = () => {
  let sum = 0;
  gltf.scene.traverse((o) => o.morphTargetInfluences?.forEach((w) => (sum += Math.abs(w))));
  return sum;
};
for (const e of vrm.expressionManager?.expressions ?? []) {
  const primitives = e._binds.reduce((n, b) => n + (b.primitives?.length ?? 0), 0);
  vrm.expressionManager.setValue(e.expressionName, 0);
  vrm.update(0);
  const before = influences();
  vrm.expressionManager.setValue(e.expressionName, 1);
  vrm.update(0);
  const changes = influences() - before > 1e-6;
  vrm.expressionManager.setValue(e.expressionName, 0);
  vrm.update(0);
  out.expressions[e.expressionName] = { binds: e._binds.length, primitives, changes };
}

if (times.length) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(gltf.animations[0]);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
  for (const t of times.map(Number)) {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    const bones = {};
    for (const [bone, b] of Object.entries(vrm.humanoid.humanBones)) {
      if (b?.node) bones[bone] = b.node.getWorldPosition(new THREE.Vector3()).toArray();
    }
    out.frames.push({ time: t, bones });
  }
}
console.log(JSON.stringify(out));
