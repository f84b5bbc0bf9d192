/**
 * Engine worker: the engine catalog, the USI driver for engine subprocesses and their limits (plain
 * Java core), and later the gRPC engine-session server (thin adapter). Built by the engine-worker
 * issue; empty until then.
 */
package dev.taikai.engineworker;
