/**
 * Test fixtures shared by the modules' tests. The fake USI engines (real programs with failure
 * switches: crash on go, stall, illegal move, floods) arrive with the engine-worker issue.
 */
package dev.taikai.testkit;
