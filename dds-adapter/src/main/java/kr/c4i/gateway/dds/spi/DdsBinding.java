package kr.c4i.gateway.dds.spi;

import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * A DDS implementation behind the project's API, found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/kr.c4i.gateway.dds.spi.DdsBinding}. It needs a public no-argument constructor, must be
 * cheap to construct, and should load native code only in {@link #createParticipant}.
 */
public interface DdsBinding {

    /** A short lower-case name that {@link ParticipantSettings#binding()} selects, e.g. {@code cyclone}. */
    String name();

    /**
     * Joins the domain.
     *
     * @throws IllegalStateException if the vendor's library cannot be loaded, naming what was tried
     * @throws kr.c4i.gateway.dds.DdsException if the vendor rejects the configuration
     */
    ParticipantDriver createParticipant(ParticipantSettings settings);
}
