/**
 * The heart of the controller, offline: the mesh model (nodes, modules, assignments), who holds
 * which seat, composition of every node's declaration and planning. Storage and transports reach
 * it only through the ports it defines, so all of it runs in unit tests with no database and no
 * broker.
 */
package dev.mesh.controller.core;
