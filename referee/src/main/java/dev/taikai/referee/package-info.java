/**
 * The referee's plain-Java core: {@code game} plays one game authoritatively (clocks, legality through
 * {@code dev.taikai.rules}, adjudication, records); {@code messages} turns assignments and records into
 * the protobuf messages of the contracts. The local runner and the referee service both build on it.
 */
package dev.taikai.referee;
