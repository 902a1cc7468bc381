// Plays a VRM animation on a VRM avatar with three-vrm (the reference player) and prints, as
// JSON, each humanoid bone's world position on the avatar at the times given:
//   node play.mjs AVATAR.vrm ANIMATION.vrma T1 T2 ...
import { readFileSync } from "node:fs";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { VRMLoaderPlugin, VRMUtils } from "@pixiv/three-vrm";
import { VRMAnimationLoaderPlugin, createVRMAnimationClip } from "@pixiv/three-vrm-animation";

const [avatarPath, animationPath, ...times] = process.argv.slice(2);

// Node has no images: a real avatar's textures fail to load (GLTFLoader goes on without
// them), as long as the loader finds the browser's `self`. Its complaints go to stderr.
globalThis.self ??= globalThis;
console.warn = console.error = (...args) => process.stderr.write(args.join(" ") + "\n");

function load(path) {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => loader.parse(buffer, "", resolve, reject));
}

const vrm = (await load(avatarPath)).userData.vrm;
// A VRM 0.x avatar faces -Z; players turn it to face +Z as VRM 1.0 avatars do (three-vrm's
// examples call this), and play VRM animations in that turned frame.
if (vrm.meta?.metaVersion === "0") VRMUtils.rotateVRM0(vrm);
const animation = (await load(animationPath)).userData.vrmAnimations[0];
const clip = createVRMAnimationClip(animation, vrm);
const mixer = new THREE.AnimationMixer(vrm.scene);
mixer.clipAction(clip).play();
const out = { duration: clip.duration, frames: [] };
for (const t of times.map(Number)) {
  mixer.setTime(t);
  vrm.update(0);
  vrm.scene.updateMatrixWorld(true);
  const bones = {};
  for (const name of Object.keys(vrm.humanoid.humanBones)) {
    const node = vrm.humanoid.getRawBoneNode(name);
    if (node) bones[name] = node.getWorldPosition(new THREE.Vector3()).toArray();
  }
  out.frames.push({ time: t, bones });
}
console.log(JSON.stringify(out));
