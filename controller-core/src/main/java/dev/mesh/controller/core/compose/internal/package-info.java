/** How composition works inside: per-node composers, shared module parts, resolutions, the mesh digest. Not API. */
package dev.mesh.controller.core.compose.internal;
