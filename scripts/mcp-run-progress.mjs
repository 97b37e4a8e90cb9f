// Runs a Procedure through `hyper mcp` with the official MCP TypeScript SDK client, three ways:
// with a progress token, without one, and cancelled at its first Step boundary.
//
//   npm install --prefix scripts
//   node scripts/mcp-run-progress.mjs <procedure> [--release <file>] [command [args...]]
//                                                                 (default command: hyper mcp)
//
// Run it from inside a repository (or set HYPER_REPO_DIR). It prints one JSON object:
//
//   watched    the `run` call made with an `onprogress` handler — the SDK sends a
//              `_meta.progressToken` — and every notification it received: one per Step,
//              `progress` the Step's position, `total` the Run's Step count, `message` its name;
//   unwatched  the same call with no handler: no token, so no notifications at all;
//   cancelled  a third call aborted as soon as its first notification arrives. The SDK sends
//              `notifications/cancelled`; the server lets the Step in flight finish, starts no
//              further Step, closes the Run's entry `failed`, and never answers the request —
//              so the call rejects here with the abort. For a first Step that waits on a file,
//              `--release <file>` names it: it is removed just before this call (so the Step
//              is still in flight when the cancel arrives) and created again right after.
//
// After the cancelled call it calls `providers`, which the server answers only once the
// drained Run has finished (calls take turns), so the entry is closed before the client goes.
import { rmSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const argv = process.argv.slice(2);
const procedure = argv.shift();
let release = null;
if (argv[0] === "--release") {
  argv.shift();
  release = argv.shift();
}
const [command = "hyper", ...rest] = argv;
const args = argv.length > 0 ? rest : ["mcp"];
if (!procedure) {
  process.stderr.write("usage: mcp-run-progress.mjs <procedure> [--release <file>] [command [args...]]\n");
  process.exit(2);
}

const transport = new StdioClientTransport({ command, args, env: process.env, cwd: process.cwd(), stderr: "inherit" });
const client = new Client({ name: "hyper-run-progress", version: "0.0.0" });

const text = (result) => result.content.map((part) => part.text).join("\n");

try {
  await client.connect(transport);

  const seen = [];
  const watched = await client.callTool({ name: "run", arguments: { procedure } }, undefined, {
    onprogress: (note) => seen.push(note),
  });

  const unwatched = await client.callTool({ name: "run", arguments: { procedure } });

  if (release) rmSync(release, { force: true });
  const stopper = new AbortController();
  const heard = [];
  let error = null;
  try {
    await client.callTool({ name: "run", arguments: { procedure } }, undefined, {
      signal: stopper.signal,
      onprogress: (note) => {
        heard.push(note);
        if (heard.length === 1) {
          stopper.abort("stopped by mcp-run-progress");
          if (release) writeFileSync(release, "");
        }
      },
    });
  } catch (fault) {
    error = String(fault?.message ?? fault);
  }
  await client.callTool({ name: "providers", arguments: {} });

  process.stdout.write(
    JSON.stringify({
      watched: { progress: seen, text: text(watched), outcome: watched.structuredContent?.outcome ?? null },
      unwatched: { text: text(unwatched), outcome: unwatched.structuredContent?.outcome ?? null },
      cancelled: { progress: heard, error },
    }) + "\n",
  );
} catch (fault) {
  process.stderr.write(`mcp-run-progress: ${fault?.message ?? fault}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
