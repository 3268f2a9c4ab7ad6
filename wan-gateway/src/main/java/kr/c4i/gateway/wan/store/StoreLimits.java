package kr.c4i.gateway.wan.store;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * How much the store holds, and how full it may be before each precedence is refused. The tiers make the lowest
 * precedence refused first, so the last room is kept for the urgent: with the defaults, ROUTINE is refused once the
 * store would pass {@value #DEFAULT_ROUTINE_PERCENT}% of the bound, PRIORITY {@value #DEFAULT_PRIORITY_PERCENT}%,
 * IMMEDIATE {@value #DEFAULT_IMMEDIATE_PERCENT}%, FLASH {@value #DEFAULT_FLASH_PERCENT}%. A stored copy is never
 * evicted to make room (it is under custody); a refused copy stays with the sender, which tries again.
 * <p>
 * The {@code DEFAULT_*} constants are the one statement of the default tiers: the {@code @DefaultValue}s of
 * {@code gateway.wan.store.*} (WanProperties.Store) are made from them.
 *
 * @param maxBytes the bound: bytes of all stored copies together, across all routes (each copy counts its body and
 *        an estimate of its headers)
 * @param routinePercent how full, in percent of the bound, the store may become with a ROUTINE copy
 * @param priorityPercent how full the store may become with a PRIORITY copy
 * @param immediatePercent how full the store may become with an IMMEDIATE copy
 * @param flashPercent how full the store may become with a FLASH copy
 */
public record StoreLimits(long maxBytes, int routinePercent, int priorityPercent, int immediatePercent,
        int flashPercent) {

    public static final int DEFAULT_ROUTINE_PERCENT = 85;
    public static final int DEFAULT_PRIORITY_PERCENT = 90;
    public static final int DEFAULT_IMMEDIATE_PERCENT = 95;
    public static final int DEFAULT_FLASH_PERCENT = 100;

    public StoreLimits {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("The store's bound must be positive, not " + maxBytes + " bytes");
        }
        check("routinePercent", routinePercent);
        check("priorityPercent", priorityPercent);
        check("immediatePercent", immediatePercent);
        check("flashPercent", flashPercent);
        if (routinePercent > priorityPercent || priorityPercent > immediatePercent
                || immediatePercent > flashPercent) {
            throw new IllegalArgumentException("The store's tiers must not give a lower precedence more room than a "
                    + "higher one: routine " + routinePercent + "% <= priority " + priorityPercent
                    + "% <= immediate " + immediatePercent + "% <= flash " + flashPercent + "%");
        }
    }

    /** The default tiers under this bound. */
    public static StoreLimits of(long maxBytes) {
        return new StoreLimits(maxBytes, DEFAULT_ROUTINE_PERCENT, DEFAULT_PRIORITY_PERCENT,
                DEFAULT_IMMEDIATE_PERCENT, DEFAULT_FLASH_PERCENT);
    }

    /** The bytes all stored copies may reach together when the store takes a copy of this precedence. */
    public long limit(Precedence precedence) {
        int percent = switch (precedence) {
            case FLASH -> flashPercent;
            case IMMEDIATE -> immediatePercent;
            case PRIORITY -> priorityPercent;
            case ROUTINE -> routinePercent;
        };
        // Exact for any bound, without overflowing maxBytes * percent.
        return maxBytes / 100 * percent + maxBytes % 100 * percent / 100;
    }

    private static void check(String name, int percent) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("The store's " + name + " must be 1 to 100, not " + percent);
        }
    }
}
