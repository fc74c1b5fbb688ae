/**
 * Unmodifiable collections whose copies share their parts, so that an incremental planner hands each plan
 * the whole mesh's declarations and inputs without copying them. Imports nothing of the core: the model's
 * records take them as they are. Not API.
 */
package dev.mesh.controller.core.internal.collect;
