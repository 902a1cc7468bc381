// Writes a small VRM 1.0 avatar (no mesh: the humanoid's nodes, in a T-pose facing +Z, with
// proportions unlike any capture's) to the path given: the character the VRMA test plays on.
import { writeFileSync } from "node:fs";

// [bone, parent bone, offset from the parent in metres]
const bones = [
  ["hips", null, [0, 1.02, 0]],
  ["spine", "hips", [0, 0.1, 0]],
  ["chest", "spine", [0, 0.14, 0.01]],
  ["upperChest", "chest", [0, 0.12, 0]],
  ["neck", "upperChest", [0, 0.16, -0.01]],
  ["head", "neck", [0, 0.1, 0.01]],
  ["leftUpperLeg", "hips", [0.1, -0.06, 0]],
  ["leftLowerLeg", "leftUpperLeg", [0, -0.46, 0.01]],
  ["leftFoot", "leftLowerLeg", [0, -0.44, -0.02]],
  ["leftToes", "leftFoot", [0, -0.05, 0.14]],
  ["rightUpperLeg", "hips", [-0.1, -0.06, 0]],
  ["rightLowerLeg", "rightUpperLeg", [0, -0.46, 0.01]],
  ["rightFoot", "rightLowerLeg", [0, -0.44, -0.02]],
  ["rightToes", "rightFoot", [0, -0.05, 0.14]],
  ["leftShoulder", "upperChest", [0.03, 0.12, 0]],
  ["leftUpperArm", "leftShoulder", [0.13, 0, 0]],
  ["leftLowerArm", "leftUpperArm", [0.3, 0, 0]],
  ["leftHand", "leftLowerArm", [0.26, 0, 0]],
  ["rightShoulder", "upperChest", [-0.03, 0.12, 0]],
  ["rightUpperArm", "rightShoulder", [-0.13, 0, 0]],
  ["rightLowerArm", "rightUpperArm", [-0.3, 0, 0]],
  ["rightHand", "rightLowerArm", [-0.26, 0, 0]],
];
const index = new Map(bones.map(([b], i) => [b, i]));
const nodes = bones.map(([bone, , t]) => ({ name: `J_${bone}`, translation: t, children: [] }));
bones.forEach(([bone, parent]) => parent && nodes[index.get(parent)].children.push(index.get(bone)));
nodes.forEach((n) => n.children.length || delete n.children);
const json = {
  asset: { version: "2.0", generator: "skelview test avatar" },
  extensionsUsed: ["VRMC_vrm"],
  scene: 0,
  scenes: [{ nodes: [0] }],
  nodes,
  extensions: {
    VRMC_vrm: {
      specVersion: "1.0",
      meta: { name: "skelview test avatar", authors: ["skelview"], licenseUrl: "https://vrm.dev/licenses/1.0/" },
      humanoid: { humanBones: Object.fromEntries(bones.map(([b], i) => [b, { node: i }])) },
    },
  },
};
let text = Buffer.from(JSON.stringify(json));
text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
const header = Buffer.alloc(20);
header.write("glTF", 0);
header.writeUInt32LE(2, 4);
header.writeUInt32LE(20 + text.length, 8);
header.writeUInt32LE(text.length, 12);
header.write("JSON", 16);
writeFileSync(process.argv[2], Buffer.concat([header, text]));
