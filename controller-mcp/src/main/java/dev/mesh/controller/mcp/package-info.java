/**
 * The verbs as MCP tools (docs/mcp.md): {@link dev.mesh.controller.mcp.McpDispatcher}, the one
 * dispatcher of JSON-RPC messages behind every transport.
 */
package dev.mesh.controller.mcp;
