package kr.c4i.gateway.dds.cyclone;

import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.DdsBinding;
import kr.c4i.gateway.dds.spi.ParticipantDriver;

/**
 * Eclipse Cyclone DDS 0.10 through {@code java.lang.foreign}, registered for {@link java.util.ServiceLoader}. See
 * the package documentation for requirements and library loading.
 */
public final class CycloneBinding implements DdsBinding {

    public static final String NAME = "cyclone";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ParticipantDriver createParticipant(ParticipantSettings settings) {
        Ddsc ddsc = Ddsc.load(settings.vendor().library());
        String config = CycloneConfig.build(settings, System.getenv(CycloneConfig.CYCLONEDDS_URI));
        return new CycloneParticipant(ddsc, settings.domainId(), config, settings.security() != null);
    }
}
