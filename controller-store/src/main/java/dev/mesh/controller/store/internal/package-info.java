/**
 * How the store does its work; not API. The jOOQ classes generated from the migrations are in
 * {@code internal.schema.<database>}.
 */
package dev.mesh.controller.store.internal;
