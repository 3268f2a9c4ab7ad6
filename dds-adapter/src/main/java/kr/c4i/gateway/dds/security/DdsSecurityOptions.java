package kr.c4i.gateway.dds.security;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * DDS Security as an operator configures a participant, the same for a node and for a WAN gateway's LAN side: a
 * site's PKI directory as {@link DdsSecurityFiles#write} lays it out, any of whose files may be given on its own
 * instead, or, explicitly, none ({@code plain}). Fail-closed like broker TLS: with neither, no participant is made.
 * Problems are named as the settings {@code security.directory}, {@code security.plain},
 * {@code security.identityCertificate} and so on, which a service maps to its own property prefix.
 *
 * @param directory the site's DDS Security set, from which each file left unset is taken
 * @param identityCertificate the participant's certificate (PEM)
 * @param privateKey its private key (PEM)
 * @param identityCa the CA every participant's certificate must chain to (PEM)
 * @param permissionsCa the CA that signed the governance and permissions documents (PEM)
 * @param governance the signed governance document
 * @param permissions the signed permissions document
 * @param plain true to join without DDS Security: any participant of the domain may then read and write every topic
 */
public record DdsSecurityOptions(@Nullable Path directory, @Nullable Path identityCertificate,
        @Nullable Path privateKey, @Nullable Path identityCa, @Nullable Path permissionsCa, @Nullable Path governance,
        @Nullable Path permissions, boolean plain) {

    /**
     * The participant's security as {@code participant} (whose identity the directory holds under its id), or
     * {@code null} when {@code plain} asks for none.
     *
     * @throws InvalidSettingsException naming {@code security.directory} and {@code security.plain} when neither
     *         security nor plain DDS is configured, {@code security.plain} when both are, or a file that is neither
     *         set nor found through {@code directory}
     */
    public ParticipantSettings.@Nullable Security settings(NodeId participant) {
        boolean files = this.directory != null || this.identityCertificate != null || this.privateKey != null
                || this.identityCa != null || this.permissionsCa != null || this.governance != null
                || this.permissions != null;
        if (this.plain && files) {
            throw InvalidSettingsException.of("security.plain", "security.plain is true but DDS Security files are "
                    + "set too: remove one or the other");
        }
        if (this.plain) {
            return null;
        }
        if (this.directory == null && this.identityCertificate == null) {
            throw new InvalidSettingsException("DDS needs its security chosen: ", List.of(
                    new Problem("security.directory", "DDS runs under DDS Security unless plain DDS is asked for: "
                            + "set security.directory to the site's PKI directory (or security.identity-certificate "
                            + "and the other files)"),
                    new Problem("security.plain", "or set security.plain=true to join without it, where any "
                            + "participant of the domain can read and write every topic")));
        }
        ParticipantSettings.@Nullable Security inDirectory = this.directory == null ? null
                : DdsSecurityFiles.security(this.directory, participant);
        return new ParticipantSettings.Security(
                file("identityCertificate", this.identityCertificate, inDirectory, d -> d.identityCertificate()),
                file("privateKey", this.privateKey, inDirectory, d -> d.privateKey()),
                file("identityCa", this.identityCa, inDirectory, d -> d.identityCa()),
                file("permissionsCa", this.permissionsCa, inDirectory, d -> d.permissionsCa()),
                file("governance", this.governance, inDirectory, d -> d.governance()),
                file("permissions", this.permissions, inDirectory, d -> d.permissions()));
    }

    private static Path file(String name, @Nullable Path set, ParticipantSettings.@Nullable Security inDirectory,
            Function<ParticipantSettings.Security, Path> fromDirectory) {
        if (set != null) {
            return set;
        }
        if (inDirectory == null) {
            throw InvalidSettingsException.of("security." + name, "DDS Security needs security." + name
                    + " when no security directory is set");
        }
        return fromDirectory.apply(inDirectory);
    }
}
