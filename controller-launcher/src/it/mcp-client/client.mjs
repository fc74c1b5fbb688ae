// RealMcpClientIT's client: the official MCP TypeScript SDK (@modelcontextprotocol/sdk) driving
// `mesh-controller serve --dev` over Streamable HTTP, as any MCP host would.
//
//   node client.mjs URL TOKEN_FILE MESH_FILE [--node NAME]
//
// Connects with the bearer token of TOKEN_FILE, initializes, lists the tools, pushes the modules
// the mesh file names (paths relative to it), makes its assignments (every one to NAME with
// --node, for a controller that knows only its own node), calls nodes, plan and status, and makes
// two calls that must fail: an unknown tool and the assignment of a module that does not exist.
// Prints one JSON summary on stdout; any failure of the steps above is one line on stderr and
// exit code 1 (2 for a wrong command line).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const USAGE = 'usage: node client.mjs URL TOKEN_FILE MESH_FILE [--node NAME]';

function parseArguments(argv) {
  const positional = [];
  let node = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--node' && i + 1 < argv.length) {
      node = argv[++i];
    } else {
      positional.push(argv[i]);
    }
  }
  if (positional.length !== 3) {
    console.error(USAGE);
    process.exit(2);
  }
  const [url, tokenFile, meshFile] = positional;
  return { url, tokenFile, meshFile, node };
}

/** Calls a tool that must succeed; its structured result. */
async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  }
  if (result.structuredContent === undefined) {
    throw new Error(`${name} answered without structuredContent`);
  }
  const text = result.content?.find((part) => part.type === 'text')?.text;
  if (text === undefined || JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) {
    throw new Error(`${name}: the text content is not the structured content as JSON`);
  }
  return result.structuredContent;
}

/** Calls a tool that must fail; what the client saw: the error result, or what the SDK threw. */
async function failing(client, name, args) {
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, structuredContent: result.structuredContent ?? null };
  } catch (error) {
    return { thrown: { name: error.constructor.name, code: error.code ?? null, message: error.message } };
  }
}

async function main() {
  const { url, tokenFile, meshFile, node } = parseArguments(process.argv.slice(2));
  const token = readFileSync(tokenFile, 'utf8').trim();
  const mesh = JSON.parse(readFileSync(meshFile, 'utf8'));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'mesh-controller-real-client-it', version: '1.0.0' });
  await client.connect(transport);
  try {
    const summary = {
      sdk: JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version,
      protocolVersion: transport.protocolVersion ?? null,
      server: client.getServerVersion() ?? null,
      capabilities: client.getServerCapabilities() ?? null,
    };
    const tools = (await client.listTools()).tools;
    summary.tools = tools.map((tool) => tool.name);

    summary.pushed = [];
    for (const entry of mesh.modules) {
      const manifest = typeof entry === 'string'
        ? JSON.parse(readFileSync(resolve(dirname(meshFile), entry), 'utf8'))
        : entry;
      summary.pushed.push(await call(client, 'push', { manifest }));
    }

    summary.assigned = [];
    const done = new Set();
    for (const assignment of mesh.assignments) {
      const target = { module: assignment.module, node: node ?? assignment.node };
      const key = `${target.module}@${target.node}`;
      if (!done.has(key)) {
        done.add(key);
        summary.assigned.push({ ...target, ...(await call(client, 'assign', target)) });
      }
    }

    summary.nodes = (await call(client, 'nodes')).nodes.map((n) => n.name);
    const plan = await call(client, 'plan');
    summary.plan = { summary: plan.plan.summary, problems: plan.problems.length, textLines: plan.text.split('\n').length };
    summary.status = await call(client, 'status');
    summary.failures = {
      unknownTool: await failing(client, 'no-such-verb', {}),
      assignUnknownModule: await failing(client, 'assign', { module: 'no-such-module', node: node ?? 'local' }),
    };
    summary.statusAfterFailures = await call(client, 'status');
    process.stdout.write(JSON.stringify(summary) + '\n');
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(`client.mjs: ${error.stack ?? error}`);
  process.exit(1);
});
