package dev.taikai.referee;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.rules.Termination;
import dev.taikai.rules.Variant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The proto contract mirrors the rules core's closed lists one to one, so a record never carries an
 * ending or a variant that one side cannot name.
 */
class TerminationContractTest {
    @Test
    void protoTerminationsMirrorTheRulesCore() {
        assertEquals(
                Arrays.stream(Termination.values())
                        .map(t -> "TERMINATION_" + t.name())
                        .toList(),
                namedValues(dev.taikai.proto.common.v1.Termination.values()));
    }

    @Test
    void protoVariantsAreTheRulesVariants() {
        assertEquals(
                Variant.all().stream()
                        .map(v -> "VARIANT_" + v.name().toUpperCase(Locale.ROOT))
                        .toList(),
                namedValues(dev.taikai.proto.common.v1.Variant.values()));
    }

    /** The values of a generated proto enum without the zero value and protobuf's UNRECOGNIZED. */
    private static List<String> namedValues(Enum<?>[] values) {
        return Arrays.stream(values)
                .map(Enum::name)
                .filter(name -> !name.endsWith("_UNSPECIFIED") && !name.equals("UNRECOGNIZED"))
                .toList();
    }
}
