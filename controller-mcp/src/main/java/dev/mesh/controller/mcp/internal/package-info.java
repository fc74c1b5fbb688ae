/** The JSON-RPC codec, the handshake and the transports' helpers; not API. */
package dev.mesh.controller.mcp.internal;
