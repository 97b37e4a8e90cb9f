// Drives `hyper mcp` with the official MCP TypeScript SDK client, as an editor would.
//
//   npm install --prefix scripts
//   node scripts/mcp-official-client.mjs [command [args...]]    (default: hyper mcp)
//
// Run it from inside a repository (or set HYPER_REPO_DIR). It connects, lists the
// tools and calls `providers`, then prints one JSON object on stdout: what the client
// was told at initialize, the tool names, and the `providers` result. The SDK client
// itself checks the result's structuredContent against the tool's outputSchema, so a
// result that breaks its published schema fails here.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command = "hyper", ...rest] = process.argv.slice(2);
const args = process.argv.length > 2 ? rest : ["mcp"];

const transport = new StdioClientTransport({ command, args, env: process.env, cwd: process.cwd(), stderr: "inherit" });
const client = new Client({ name: "hyper-official-client-check", version: "0.0.0" });

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const providers = await client.callTool({ name: "providers", arguments: {} });
  process.stdout.write(
    JSON.stringify({
      server: client.getServerVersion(),
      capabilities: client.getServerCapabilities(),
      instructions: client.getInstructions() ?? null,
      tools: tools.map((tool) => tool.name),
      providers,
    }) + "\n",
  );
} catch (fault) {
  process.stderr.write(`mcp-official-client: ${fault?.message ?? fault}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
