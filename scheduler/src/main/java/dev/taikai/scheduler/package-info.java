/**
 * Scheduler: tournament formats, openings, pairing plans, ratings and statistics (plain-Java cores),
 * and later its Kafka, gRPC and HTTP adapters. Built by the single-machine and distributed issues;
 * empty until then.
 */
package dev.taikai.scheduler;
