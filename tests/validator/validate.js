// Runs the Khronos glTF Validator (npm gltf-validator) on each file given; prints the
// counts and every error and warning; exits 1 when any file has an error or a warning.
// `npm install` in this folder fetches the validator (.ci/run does it).
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
(async () => {
  let bad = 0;
  for (const f of process.argv.slice(2)) {
    const data = new Uint8Array(fs.readFileSync(f));
    const report = await validator.validateBytes(data, {
      uri: f,
      externalResourceFunction: (uri) => new Promise((ok, no) => {
        try { ok(new Uint8Array(fs.readFileSync(path.resolve(path.dirname(f), decodeURIComponent(uri))))); } catch (e) { no(e.toString()); }
      }),
    });
    const i = report.issues;
    console.log(`${f}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    for (const m of i.messages) if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (i.numErrors || i.numWarnings) bad++;
  }
  process.exit(bad ? 1 : 0);
})();
