package kr.c4i.gateway.dds.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfReceiptSample;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A participant in its own JVM that writes raw samples, as an intruder or a misbehaving node would: Cyclone 0.10's
 * access control holds one identity's permissions per domain and process, and refuses an unsecured participant in a
 * domain whose plugins are loaded, so each actor of {@link DdsSecurityTest} needs its own process.
 *
 * <p>Arguments: domain id, security directory or {@code -} for none, the node whose certificate to use,
 * {@code message} or {@code receipt}, the writer's partition, then samples: {@code id@origin} for messages,
 * {@code id@origin@receiver} for receipts (of the type {@link DdsTransportTest#reliableType(int)} picks). Prints
 * {@code REFUSED <exception>} if the writer cannot be created, else {@code WROTE <n>} once written; answers every
 * line on its standard input with {@code MATCHED <readers>}; exits when its standard input closes. The system
 * property {@value #IDENTITY_CA} names another identity CA than the directory's, for a certificate of one authority
 * with documents another signed.
 */
public final class SecurityPeerMain {

    static final String IDENTITY_CA = "kr.c4i.gateway.test.dds-identity-ca";

    private SecurityPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        int domainId = Integer.parseInt(args[0]);
        ParticipantSettings.Builder settings = TestNetwork.loopback(domainId).toBuilder().writeBatch(true);
        if (!args[1].equals("-")) {
            ParticipantSettings.Security security = DdsSecurityFiles.security(Path.of(args[1]), NodeId.of(args[2]));
            String identityCa = System.getProperty(IDENTITY_CA);
            if (identityCa != null) {
                security = new ParticipantSettings.Security(security.identityCertificate(), security.privateKey(),
                        Path.of(identityCa), security.permissionsCa(), security.governance(), security.permissions());
            }
            settings.security(security);
        }
        boolean receipts = args[3].equals("receipt");
        List<String> partitions = List.of(args[4]);
        MessageType type = DdsTransportTest.reliableType(10);
        try (DomainParticipant participant = DomainParticipant.create(settings.build())) {
            DataWriter<?> writer;
            try {
                if (receipts) {
                    Topic<KmtfReceiptSample> topic = participant.createTopic(
                            DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, KmtfTypes.RECEIPT);
                    DataWriter<KmtfReceiptSample> w = participant.createWriter(topic,
                            TopicQos.receipts(NodeId.of("unused"), Duration.ofSeconds(5)).withPartitions(partitions));
                    for (int i = 5; i < args.length; i++) {
                        String[] spec = args[i].split("@");
                        w.write(new KmtfReceiptSample(spec[2], spec[1], List.of(spec[0])));
                    }
                    writer = w;
                }
                else {
                    Topic<KmtfMessageSample> topic = participant.createTopic(type.topicName(), KmtfTypes.MESSAGE);
                    DataWriter<KmtfMessageSample> w = participant.createWriter(topic,
                            TopicQos.writer(type, Duration.ofSeconds(5)).withPartitions(partitions));
                    for (int i = 5; i < args.length; i++) {
                        String[] spec = args[i].split("@");
                        w.write(new KmtfMessageSample(spec[0], spec[1], type.id(), Precedence.ROUTINE,
                                "UNCLASSIFIED", 0, i, 0,
                                ("MSGID/" + type.id() + "//").getBytes(StandardCharsets.UTF_8)));
                    }
                    writer = w;
                }
                writer.flush();
                System.out.println("WROTE " + (args.length - 5));
            }
            catch (DdsException ex) {
                writer = null;
                System.out.println("REFUSED " + ex.getClass().getSimpleName());
            }
            System.out.flush();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (stdin.readLine() != null) {
                System.out.println("MATCHED " + (writer == null ? 0 : writer.status().matchedReaders()));
                System.out.flush();
            }
        }
    }
}
