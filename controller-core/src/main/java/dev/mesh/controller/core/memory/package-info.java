/**
 * In-memory implementations of core's ports, for offline tests and benchmarks. Not exported by the
 * module: a controller never runs on them. Each passes the same contract test as the real adapter.
 */
package dev.mesh.controller.core.memory;
