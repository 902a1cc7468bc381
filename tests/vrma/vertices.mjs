// Poses a glTF file's meshes with three.js (the reference player: GLTFLoader, an
// AnimationMixer, then each mesh's morph targets and skin as three.js applies them) and
// prints, as JSON, every drawn primitive's world-space vertices at the times given:
//   node vertices.mjs FILE.glb ANIMATION|#N|- T1 T2 ...   (-: the first animation, if any)
// Meshes come in the glTF's order (node, then primitive), as skelview numbers them.
import { readFileSync } from "node:fs";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

globalThis.self ??= globalThis;
// Buffers in data URIs are fetched; three.js reports their progress with the browser's event.
globalThis.ProgressEvent ??= class extends Event {
  constructor(type, init) {
    super(type);
    Object.assign(this, init);
  }
};
console.warn = console.error = (...args) => process.stderr.write(args.join(" ") + "\n");

const [path, animationName, ...times] = process.argv.slice(2);
const bytes = readFileSync(path);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(buffer, "", resolve, reject));
const associations = gltf.parser.associations;

// Each drawn primitive with its node (the object itself, or the group a multi-primitive
// mesh becomes) and its primitive's number.
const meshes = [];
gltf.scene.traverse((o) => {
  if (!o.isMesh) return;
  const own = associations.get(o) ?? {};
  const node = own.nodes ?? associations.get(o.parent)?.nodes;
  meshes.push({ object: o, node, primitive: own.primitives ?? 0 });
});
meshes.sort((a, b) => a.node - b.node || a.primitive - b.primitive);

const mixer = new THREE.AnimationMixer(gltf.scene);
// "-": the first animation, where there is one.
// "#N": the Nth animation (unnamed ones have no other name).
const clip =
  animationName === "-"
    ? gltf.animations[0]
    : animationName.startsWith("#")
      ? gltf.animations[Number(animationName.slice(1))]
      : gltf.animations.find((a) => a.name === animationName);
if (animationName !== "-" && !clip) throw new Error(`no animation ${animationName}`);
if (clip) {
  // Played once and held at its end: a looping action wraps its last time to the first pose.
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
}
const out = { meshes: meshes.map((m) => ({ name: m.object.name, node: m.node, vertices: m.object.geometry.attributes.position.count })), frames: [] };
const v = new THREE.Vector3();
for (const t of times.map(Number)) {
  mixer.setTime(t);
  gltf.scene.updateMatrixWorld(true);
  const frame = [];
  for (const { object } of meshes) {
    if (object.isSkinnedMesh) object.skeleton.update();
    const n = object.geometry.attributes.position.count;
    const positions = new Array(n * 3);
    for (let i = 0; i < n; i++) {
      object.getVertexPosition(i, v);
      v.applyMatrix4(object.matrixWorld);
      positions[3 * i] = v.x;
      positions[3 * i + 1] = v.y;
      positions[3 * i + 2] = v.z;
    }
    frame.push(positions);
  }
  out.frames.push({ time: t, meshes: frame });
}
console.log(JSON.stringify(out));
