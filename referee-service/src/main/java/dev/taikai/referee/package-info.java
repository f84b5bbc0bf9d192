/**
 * Referee: the authoritative game loop (clocks, legality through {@code dev.taikai.rules},
 * adjudication, records) as a plain-Java core, and later its Kafka and gRPC adapters. Built by the
 * single-machine and distributed issues; empty until then.
 */
package dev.taikai.referee;
