package kr.c4i.gateway.dds.cyclone;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;

/**
 * DDS Security for a Cyclone participant: the domain configuration's {@code <Security>} section for the builtin
 * plugins, which Debian's {@code libddsc0debian} ships beside libddsc ({@code libdds_security_auth}, {@code _ac},
 * {@code _crypto}; Cyclone finds them by their plain names). Cyclone 0.10 loads the plugins per domain and its
 * access control keeps one participant's permissions per plugin instance ({@code ACCESS_CONTROL_USE_ONE_PERMISSION}),
 * so one process holds one secured identity per domain: a second node with another identity in the same process
 * would silently act under the first one's permissions. Putting the identity into the domain's configuration makes
 * {@link DomainRegistry} refuse that instead (one configuration per domain and process).
 *
 * <p>Cyclone reports why a secured participant cannot be created (an unreadable certificate, a document whose
 * signature does not verify, a subject without a grant) only in its log and returns a bare error, so the lines the
 * creating thread logs meanwhile ({@link CycloneLog#capture}) become the exception's message. It reports remote
 * participants it refuses only in its log too, partly in the discovery category, so a secured domain traces that
 * category for its {@link HandshakeWatch}.
 */
final class CycloneSecurity {

    /** Added to whatever categories the configuration traces already; the file is never written to. */
    static final String TRACING = "<Tracing><Category>discovery</Category><OutputFile>stderr</OutputFile></Tracing>";

    private CycloneSecurity() {
    }

    /**
     * The domain configuration's {@code <Security>} section for these settings, after a {@code <Tracing>} section
     * that adds the discovery category, all of whose lines go to {@link CycloneLog}, none to a file. Measured with
     * the 270-type catalogue: about 1,500 lines when a node opens and 4,300 when a peer joins (20 to 45 ms in the
     * sink each time, within the noise of the node's CPU time), none while nothing joins or leaves; empty for none.
     *
     * @throws kr.c4i.gateway.core.transport.InvalidSettingsException naming a security file that is missing
     */
    static String section(ParticipantSettings.@Nullable Security security) {
        if (security == null) {
            return "";
        }
        security.checkFiles();
        return TRACING + "<Security><Authentication>" + library("dds_security_auth", "authentication")
                + element("IdentityCA", security.identityCa())
                + element("IdentityCertificate", security.identityCertificate())
                + element("PrivateKey", security.privateKey())
                + "</Authentication><AccessControl>" + library("dds_security_ac", "access_control")
                + element("PermissionsCA", security.permissionsCa())
                + element("Governance", security.governance())
                + element("Permissions", security.permissions())
                + "</AccessControl><Cryptographic>" + library("dds_security_crypto", "crypto")
                + "</Cryptographic></Security>";
    }

    private static String library(String library, String function) {
        return "<Library path=\"" + library + "\" initFunction=\"init_" + function
                + "\" finalizeFunction=\"finalize_" + function + "\"/>";
    }

    private static String element(String name, Path file) {
        // Cyclone takes "file:" followed by a path; a URI from Path.toUri() would percent-encode it.
        return "<" + name + ">" + CycloneConfig.escape("file:" + file.toAbsolutePath()) + "</" + name + ">";
    }

    /**
     * Creates a secured participant with what its thread logs captured.
     *
     * @throws DdsException.NotAllowedBySecurity carrying Cyclone's logged reason if it refused
     */
    static int createParticipant(Ddsc ddsc, int domainId) {
        int result;
        String reason;
        try (CycloneLog.Capture capture = CycloneLog.capture()) {
            result = ddsc.createParticipant(domainId, MemorySegment.NULL);
            reason = capture.text();
        }
        if (result >= 0) {
            return result;
        }
        throw DdsException.of(13, "dds_create_participant (DDS Security)",
                reason.isEmpty() ? ddsc.strretcode(result) : reason);
    }
}
