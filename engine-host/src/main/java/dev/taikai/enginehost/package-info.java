/**
 * The engine worker's plain-Java core: the engine catalog, the USI driver for engine subprocesses and
 * their limits ({@code usi}), the slots a worker lends out ({@code host}) and the session messages
 * ({@code messages}). The local runner and the engine-worker service both build on it.
 */
package dev.taikai.enginehost;
