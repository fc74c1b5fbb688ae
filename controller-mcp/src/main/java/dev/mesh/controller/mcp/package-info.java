/**
 * The verbs as MCP tools (docs/mcp.md): {@link dev.mesh.controller.mcp.McpDispatcher}, the one
 * dispatcher of JSON-RPC messages behind every transport; {@link dev.mesh.controller.mcp.McpHttpServer},
 * Streamable HTTP on loopback with a bearer token ({@link dev.mesh.controller.mcp.BearerToken});
 * {@link dev.mesh.controller.mcp.McpClient}, its client; and {@link dev.mesh.controller.mcp.StdioBridge},
 * the stdio transport that forwards to a running controller.
 */
package dev.mesh.controller.mcp;
