/**
 * One tournament run for both runners: which games to start next under a concurrency limit, each finished
 * game counted once, rounds paired as the format needs them, and when and why the run stops. The local
 * runner drives it from its journal, the scheduler from Kafka; plain Java, no framework and no protobuf.
 */
package dev.taikai.tournament.run;
