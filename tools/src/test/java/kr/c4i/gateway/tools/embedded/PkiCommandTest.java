package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.pki.SiteDirectory;

class PkiCommandTest {

    @TempDir
    Path dir;

    @Test
    void createsTheAuthorityOnceAndIssuesEachHolderWithItsHosts() throws Exception {
        CliDriver.Result first = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "a",
                "--holder", "s1-gw=gw.s1.example,10.77.0.1");
        CliDriver.Result second = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "b");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).contains("(created)", "identity of s1-gw");
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(second.out()).contains("(kept)");
        SiteDirectory site = SiteDirectory.open(dir);
        assertThat(site.holders()).containsExactly("a", "b", "s1-gw");
        X509Certificate gateway = site.identity("s1-gw").certificate();
        gateway.verify(site.authority().certificate().getPublicKey());
        site.identity("a").certificate().verify(site.authority().certificate().getPublicKey());
        assertThat(gateway.getSubjectAlternativeNames()).extracting(name -> (Object) name.get(1))
                .containsExactly("gw.s1.example", "10.77.0.1");
    }

    @Test
    void anotherSitesDirectoryAndABadHolderAreUsageErrors() {
        CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1");

        CliDriver.Result otherSite = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s2", "--holder", "a");
        CliDriver.Result badAddress = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder",
                "a=10.0.0.999");
        CliDriver.Result badName = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "a/b");

        assertThat(otherSite.exitCode()).as(otherSite.toString()).isEqualTo(2);
        assertThat(otherSite.err()).contains("site 's1', not 's2'");
        assertThat(badAddress.exitCode()).as(badAddress.toString()).isEqualTo(2);
        assertThat(badAddress.err()).contains("10.0.0.999");
        assertThat(badName.exitCode()).as(badName.toString()).isEqualTo(2);
        assertThat(badName.err()).contains("'a/b'");
        CliDriver.Result noDays = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "a",
                "--validity-days", "0");
        assertThat(noDays.exitCode()).as(noDays.toString()).isEqualTo(2);
        assertThat(noDays.err()).contains("--validity-days", "out of range");
        assertThat(SiteDirectory.open(dir).holders()).isEmpty();
    }

    @Test
    void withADdsDomainWritesSignedDdsSecurityForTheSubscribersKeepingIdentitiesAlreadyIssued() throws Exception {
        CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "a");
        X509Certificate issuedBefore = SiteDirectory.open(dir).identity("a").certificate();

        CliDriver.Result r = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--dds-domain", "7",
                "--subscribe", "a=*", "--subscribe", "b=category:" + KmtfCatalogue.loadDefault().types().getFirst()
                        .category().label());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        SiteDirectory site = SiteDirectory.open(dir);
        assertThat(site.identity("a").certificate()).isEqualTo(issuedBefore);
        assertThat(site.holders()).containsExactly("a", "b");
        String permissions = openSslVerified(dir.resolve(DdsSecurityFiles.PERMISSIONS));
        assertThat(permissions).contains("CN=a,OU=s1,O=c4i-gateway", "CN=b,OU=s1,O=c4i-gateway", "<id>7</id>");
        assertThat(openSslVerified(dir.resolve(DdsSecurityFiles.GOVERNANCE))).contains("<id>7</id>");

        CliDriver.Result badPattern = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--dds-domain",
                "7", "--subscribe", "a=NOSUCHTYPE");
        CliDriver.Result noNodes = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--dds-domain", "7");
        assertThat(badPattern.exitCode()).as(badPattern.toString()).isEqualTo(2);
        assertThat(badPattern.err()).contains("NOSUCHTYPE");
        assertThat(noNodes.exitCode()).as(noNodes.toString()).isEqualTo(2);
        assertThat(noNodes.err()).contains("--subscribe");
        CliDriver.Result badDomain = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "c",
                "--dds-domain", "231", "--subscribe", "a=*");
        CliDriver.Result blankNode = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--holder", "c",
                "--dds-domain", "7", "--subscribe", "=*");
        assertThat(badDomain.exitCode()).as(badDomain.toString()).isEqualTo(2);
        assertThat(badDomain.err()).contains("--dds-domain must be 0..230", "was 231");
        assertThat(blankNode.exitCode()).as(blankNode.toString()).isEqualTo(2);
        assertThat(blankNode.err()).contains("--subscribe");
        // Checked before anything is written: c was not issued.
        assertThat(SiteDirectory.open(dir).holders()).containsExactly("a", "b");
    }

    @Test
    void withAGatewayGrantsItTheRemoteNodesAsOriginsAndTheirSubscriptionsToRead() throws Exception {
        CliDriver.Result r = CliDriver.run("pki", "--dir", dir.toString(), "--site", "s1", "--dds-domain", "7",
                "--subscribe", "a=*", "--gateway", "gw-s1", "--remote", "c=SITREP", "--remote", "d=SPOTREP");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("DDS grant of gateway gw-s1: as itself and [c, d]");
        // The gateway has a DDS identity of the site; the remote nodes have none here.
        assertThat(SiteDirectory.open(dir).holders()).containsExactly("a", "gw-s1");
        String permissions = openSslVerified(dir.resolve(DdsSecurityFiles.PERMISSIONS));
        String grant = permissions.substring(permissions.indexOf("<grant name=\"gw-s1\">"));
        assertThat(grant).contains("CN=gw-s1,OU=s1,O=c4i-gateway",
                "<partition>from.c</partition><partition>from.d</partition><partition>from.gw-s1</partition>",
                "<partition>receipt.c.*</partition>",
                // What it reads: what c and d subscribe to, not everything a subscribes to.
                "<topics><topic>kmtf/operations/SITREP</topic><topic>kmtf/operations/SPOTREP</topic></topics>");
    }

    @Test
    void aGatewayGrantWithoutItsRemoteNodesOrDomainOrNamedLikeANodeIsAUsageErrorBeforeAnythingIsWritten() {
        String[] base = {"pki", "--dir", dir.toString(), "--site", "s1", "--holder", "x"};
        CliDriver.Result noDomain = CliDriver.run(concat(base, "--gateway", "gw-s1", "--remote", "c=*"));
        CliDriver.Result noRemotes = CliDriver.run(concat(base, "--dds-domain", "7", "--subscribe", "a=*",
                "--gateway", "gw-s1"));
        CliDriver.Result noGateway = CliDriver.run(concat(base, "--dds-domain", "7", "--subscribe", "a=*",
                "--remote", "c=*"));
        CliDriver.Result localAndRemote = CliDriver.run(concat(base, "--dds-domain", "7", "--subscribe", "a=*",
                "--gateway", "gw-s1", "--remote", "a=*"));
        CliDriver.Result gatewayIsANode = CliDriver.run(concat(base, "--dds-domain", "7", "--subscribe", "a=*",
                "--gateway", "a", "--remote", "c=*"));
        CliDriver.Result badRemote = CliDriver.run(concat(base, "--dds-domain", "7", "--subscribe", "a=*",
                "--gateway", "gw-s1", "--remote", "c=NOSUCHTYPE"));

        assertUsageError(noDomain, "need --dds-domain");
        assertUsageError(noRemotes, "--gateway gw-s1 needs the nodes at other sites");
        assertUsageError(noGateway, "give the --gateway");
        assertUsageError(localAndRemote, "[a] cannot be both");
        assertUsageError(gatewayIsANode, "--gateway a is a node");
        assertUsageError(badRemote, "NOSUCHTYPE");
        assertThat(dir.resolve("authority")).doesNotExist();
    }

    private static void assertUsageError(CliDriver.Result result, String message) {
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.err()).as(result.toString()).contains(message);
    }

    private static String[] concat(String[] first, String... second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    private String openSslVerified(Path signed) throws Exception {
        Process process = new ProcessBuilder("openssl", "smime", "-verify", "-text", "-in", signed.toString(),
                "-CAfile", dir.resolve("authority").resolve("ca.crt").toString()).redirectErrorStream(false).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(errors).isZero();
        return text;
    }
}
