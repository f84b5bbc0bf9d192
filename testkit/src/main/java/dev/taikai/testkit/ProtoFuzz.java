package dev.taikai.testkit;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Random;

/** Mutates protobuf messages through their descriptors: odd numbers, odd strings, unknown enum values. */
public final class ProtoFuzz {
    private static final List<String> STRINGS = List.of(
            "",
            " ",
            "\\u0000",
            "../../etc/passwd",
            "/bin/sh -c 'kill -9 -1'",
            "é漢字🀄",
            "x".repeat(10_000),
            "startpos",
            "taikai-1",
            "4k/5/5/5/K4 b - 1",
            "rbsgk/4p/5/P4/KGSBR b - 1");
    private static final long[] NUMBERS = {
        0, 1, -1, 2, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 1_000_000_000, Long.MAX_VALUE, Long.MIN_VALUE
    };

    private ProtoFuzz() {}

    @SuppressWarnings("unchecked")
    public static <M extends Message> M mutate(M message, Random random) {
        Message.Builder builder = message.toBuilder();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            mutateOne(builder, random, 0);
        }
        return (M) builder.build();
    }

    private static void mutateOne(Message.Builder builder, Random random, int depth) {
        List<FieldDescriptor> fields = builder.getDescriptorForType().getFields();
        if (fields.isEmpty()) {
            return; // an empty message: nothing to change
        }
        FieldDescriptor field = fields.get(random.nextInt(fields.size()));
        if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth < 3) {
            if (field.isRepeated()) {
                if (builder.getRepeatedFieldCount(field) > 0 && random.nextBoolean()) {
                    Message.Builder element = ((Message) builder.getRepeatedField(
                                    field, random.nextInt(builder.getRepeatedFieldCount(field))))
                            .toBuilder();
                    mutateOne(element, random, depth + 1);
                    builder.addRepeatedField(field, element.build());
                } else {
                    builder.clearField(field);
                }
            } else if (random.nextInt(4) == 0) {
                builder.clearField(field);
            } else {
                mutateOne(builder.getFieldBuilder(field), random, depth + 1);
            }
            return;
        }
        if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            return;
        }
        Object value = value(field, random);
        if (field.isRepeated()) {
            if (random.nextInt(5) == 0) {
                builder.clearField(field);
            } else {
                builder.addRepeatedField(field, value);
            }
        } else {
            builder.setField(field, value);
        }
    }

    private static Object value(FieldDescriptor field, Random random) {
        long number = NUMBERS[random.nextInt(NUMBERS.length)];
        return switch (field.getJavaType()) {
            case INT -> (int) number;
            case LONG -> number;
            case FLOAT -> (float) (random.nextGaussian() * 1e6);
            case DOUBLE -> random.nextInt(3) == 0 ? Double.NaN : random.nextGaussian() * 1e6;
            case BOOLEAN -> random.nextBoolean();
            case STRING -> STRINGS.get(random.nextInt(STRINGS.size()));
            case BYTE_STRING ->
                com.google.protobuf.ByteString.copyFromUtf8(STRINGS.get(random.nextInt(STRINGS.size())));
            case ENUM -> {
                var values = field.getEnumType().getValues();
                yield random.nextInt(4) == 0
                        ? field.getEnumType().findValueByNumberCreatingIfUnknown(99)
                        : values.get(random.nextInt(values.size()));
            }
            case MESSAGE -> throw new IllegalStateException("messages are mutated field by field");
        };
    }
}
