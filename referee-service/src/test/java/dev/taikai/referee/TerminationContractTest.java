package dev.taikai.referee;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.rules.Termination;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The proto contract mirrors the rules core's closed list of game endings one to one, so a record
 * never carries an ending one side cannot name.
 */
class TerminationContractTest {
    @Test
    void protoTerminationsMirrorTheRulesCore() {
        List<String> rules = Arrays.stream(Termination.values())
                .map(t -> "TERMINATION_" + t.name())
                .toList();
        List<String> proto = Arrays.stream(dev.taikai.proto.common.v1.Termination.values())
                .filter(t -> t != dev.taikai.proto.common.v1.Termination.UNRECOGNIZED
                        && t != dev.taikai.proto.common.v1.Termination.TERMINATION_UNSPECIFIED)
                .map(Enum::name)
                .toList();
        assertEquals(rules, proto);
    }

    @Test
    void protoVariantsAreTheRulesVariants() {
        List<String> rules = dev.taikai.rules.Variant.all().stream()
                .map(v -> "VARIANT_" + v.name().toUpperCase(java.util.Locale.ROOT))
                .toList();
        List<String> proto = Arrays.stream(dev.taikai.proto.common.v1.Variant.values())
                .filter(v -> v != dev.taikai.proto.common.v1.Variant.UNRECOGNIZED
                        && v != dev.taikai.proto.common.v1.Variant.VARIANT_UNSPECIFIED)
                .map(Enum::name)
                .toList();
        assertEquals(rules, proto);
    }
}
