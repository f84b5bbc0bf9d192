package dev.taikai.enginehost.messages;

import dev.taikai.enginehost.session.Score;
import dev.taikai.rules.Variant;

/**
 * The mappers of the {@code taikai.common.v1} contracts (proto/.../common/v1), which every service's
 * messages share: variants and scores here; the common game types in the referee's {@code GameMessages}.
 */
public final class CommonMessages {
    private CommonMessages() {}

    public static dev.taikai.proto.common.v1.Score toProto(Score score) {
        var builder = dev.taikai.proto.common.v1.Score.newBuilder();
        if (score.mate()) {
            builder.setMate(score.value());
        } else {
            builder.setCp(score.value());
        }
        builder.setBound(
                switch (score.bound()) {
                    case EXACT -> dev.taikai.proto.common.v1.Score.Bound.BOUND_EXACT;
                    case LOWER -> dev.taikai.proto.common.v1.Score.Bound.BOUND_LOWER;
                    case UPPER -> dev.taikai.proto.common.v1.Score.Bound.BOUND_UPPER;
                });
        return builder.build();
    }

    public static Score score(dev.taikai.proto.common.v1.Score score) {
        Score.Bound bound = switch (score.getBound()) {
            case BOUND_LOWER -> Score.Bound.LOWER;
            case BOUND_UPPER -> Score.Bound.UPPER;
            default -> Score.Bound.EXACT;
        };
        return new Score(score.hasMate(), score.hasMate() ? score.getMate() : score.getCp(), bound);
    }

    public static Variant variant(dev.taikai.proto.common.v1.Variant variant) {
        return switch (variant) {
            case VARIANT_MINISHOGI -> Variant.MINISHOGI;
            case VARIANT_KYOTOSHOGI -> Variant.KYOTOSHOGI;
            default -> throw new IllegalArgumentException("variant is missing or unknown");
        };
    }

    public static dev.taikai.proto.common.v1.Variant toProto(Variant variant) {
        return variant == Variant.MINISHOGI
                ? dev.taikai.proto.common.v1.Variant.VARIANT_MINISHOGI
                : dev.taikai.proto.common.v1.Variant.VARIANT_KYOTOSHOGI;
    }
}
