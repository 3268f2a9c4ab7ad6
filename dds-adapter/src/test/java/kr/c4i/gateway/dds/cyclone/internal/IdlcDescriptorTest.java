package kr.c4i.gateway.dds.cyclone.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.Prerequisites;
import kr.c4i.gateway.dds.transport.KmtfTypes;

/**
 * The Java-built topic descriptors must be what Debian's idlc generates for {@code src/main/idl/kmtf.idl}, so a
 * Cyclone upgrade (or an edit of only one side) cannot silently change the wire. The generated C is read twice:
 * as text (ops with symbolic opcodes resolved from the installed {@code dds_opcodes.h}, member order, m_nops,
 * m_flagset, type name), and compiled with gcc into a probe that prints the numbers the text leaves to the
 * compiler (offsets, m_size, m_align).
 */
class IdlcDescriptorTest {

    static final Path IDL = Path.of("src/main/idl/kmtf.idl");
    static final Path OPCODES_HEADER = Path.of("/usr/include/dds/ddsc/dds_opcodes.h");

    @TempDir
    static Path out;

    static String generated;

    @BeforeAll
    static void runIdlc() throws Exception {
        Prerequisites.require(Prerequisites.onPath("idlc"),
                "idlc, whose output the descriptors are checked against (apt-get install cyclonedds-tools)");
        Prerequisites.require(Files.isRegularFile(OPCODES_HEADER),
                OPCODES_HEADER + ", the opcodes of idlc's output (apt-get install cyclonedds-dev)");
        // -t: no XTypes type information, like the Java-built descriptors (endpoints match on the type name).
        Result idlc = run(out, "idlc", "-t", "-o", out.toString(), IDL.toAbsolutePath().toString());
        assertThat(idlc.exit()).as(idlc.output()).isZero();
        generated = Files.readString(out.resolve("kmtf.c"));
    }

    @Test
    void messageOpsMatchIdlcWordForWord() throws IOException {
        compareText(KmtfTypes.MESSAGE, "kmtf_KmtfMessage");
    }

    @Test
    void receiptOpsMatchIdlcWordForWord() throws IOException {
        compareText(KmtfTypes.RECEIPT, "kmtf_KmtfReceipt");
    }

    @Test
    void compiledDescriptorsHaveTheSameNumbersAsTheJavaBuiltOnes() throws Exception {
        Prerequisites.require(Prerequisites.onPath("gcc"),
                "gcc, which offsets, m_size and m_align need (apt-get install gcc)");
        StringBuilder probe = new StringBuilder("#include <stdio.h>\n#include \"kmtf.c\"\n");
        probe.append("static void dump(const char *n, const dds_topic_descriptor_t *d, const uint32_t *ops, size_t w) {\n")
                .append("  printf(\"%s size %u\\n%s align %u\\n%s flagset %u\\n%s nkeys %u\\n%s nops %u\\n%s words %zu\\n\",")
                .append(" n, d->m_size, n, d->m_align, n, d->m_flagset, n, d->m_nkeys, n, d->m_nops, n, w);\n")
                .append("  for (size_t i = 0; i < w; i++) printf(\"%s op%zu %u\\n\", n, i, ops[i]);\n}\n")
                .append("int main(void) {\n")
                .append("  dump(\"kmtf_KmtfMessage\", &kmtf_KmtfMessage_desc, kmtf_KmtfMessage_ops,")
                .append(" sizeof kmtf_KmtfMessage_ops / sizeof kmtf_KmtfMessage_ops[0]);\n")
                .append("  dump(\"kmtf_KmtfReceipt\", &kmtf_KmtfReceipt_desc, kmtf_KmtfReceipt_ops,")
                .append(" sizeof kmtf_KmtfReceipt_ops / sizeof kmtf_KmtfReceipt_ops[0]);\n  return 0;\n}\n");
        Map<String, Long> values = compileAndRun(out, "descriptor_probe", probe.toString());
        for (var entry : Map.of("kmtf_KmtfMessage", KmtfTypes.MESSAGE, "kmtf_KmtfReceipt", KmtfTypes.RECEIPT)
                .entrySet()) {
            String n = entry.getKey();
            TypeLayout layout = TypeLayout.of(entry.getValue());
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment descriptor = layout.descriptor(arena);
                assertThat((long) descriptor.get(ValueLayout.JAVA_INT, 0)).as(n + " m_size")
                        .isEqualTo(values.get(n + " size"));
                assertThat((long) descriptor.get(ValueLayout.JAVA_INT, 4)).as(n + " m_align")
                        .isEqualTo(values.get(n + " align"));
                assertThat((long) descriptor.get(ValueLayout.JAVA_INT, 8)).as(n + " m_flagset")
                        .isEqualTo(values.get(n + " flagset"));
                assertThat((long) descriptor.get(ValueLayout.JAVA_INT, 12)).as(n + " m_nkeys")
                        .isEqualTo(values.get(n + " nkeys"));
                assertThat((long) descriptor.get(ValueLayout.JAVA_INT, 32)).as(n + " m_nops")
                        .isEqualTo(values.get(n + " nops"));
                assertThat(descriptor.get(ValueLayout.ADDRESS, 16).reinterpret(64).getString(0)).as(n + " name")
                        .isEqualTo(entry.getValue().name());
                int[] javaOps = descriptor.get(ValueLayout.ADDRESS, 40)
                        .reinterpret(layout.ops().length * 4L).toArray(ValueLayout.JAVA_INT);
                assertThat((long) javaOps.length).as(n + " words").isEqualTo(values.get(n + " words"));
                for (int i = 0; i < javaOps.length; i++) {
                    assertThat(Integer.toUnsignedLong(javaOps[i])).as(n + " op" + i)
                            .isEqualTo(values.get(n + " op" + i));
                }
            }
        }
    }

    private static void compareText(DataType<?> type, String cName) throws IOException {
        Map<String, Long> symbols = HeaderSymbols.parse(Files.readString(OPCODES_HEADER));
        Matcher ops = Pattern.compile("static const uint32_t " + cName + "_ops \\[\\] =\\s*\\{(.*?)\\};",
                Pattern.DOTALL).matcher(generated);
        assertThat(ops.find()).as("ops array of " + cName + " in idlc output").isTrue();
        String body = ops.group(1).replaceAll("/\\*.*?\\*/", "");
        List<String> words = splitTopLevel(body);
        TypeLayout layout = TypeLayout.of(type);
        int[] javaOps = layout.ops();
        assertThat(javaOps).as(cName + " word count").hasSize(words.size());
        Pattern offsetof = Pattern.compile("offsetof \\(" + cName + ", (\\w+)\\)");
        List<String> memberNames = type.members().stream().map(m -> m.name()).toList();
        List<String> idlcMemberOrder = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            Matcher member = offsetof.matcher(words.get(i));
            if (member.matches()) {
                idlcMemberOrder.add(member.group(1));
                assertThat((long) javaOps[i]).as(cName + " word " + i + " (" + words.get(i) + ")")
                        .isEqualTo(layout.offset(memberNames.indexOf(member.group(1))));
            }
            else {
                assertThat(Integer.toUnsignedLong(javaOps[i])).as(cName + " word " + i + " (" + words.get(i) + ")")
                        .isEqualTo(HeaderSymbols.evaluate(words.get(i), symbols));
            }
        }
        assertThat(idlcMemberOrder).as(cName + " members").isEqualTo(memberNames);
        String descriptor = generated.substring(generated.indexOf("const dds_topic_descriptor_t " + cName + "_desc"));
        assertThat(field(descriptor, "m_typename")).isEqualTo("\"" + type.name() + "\"");
        assertThat(HeaderSymbols.evaluate(field(descriptor, "m_nops"), symbols)).isEqualTo(layout.nops());
        assertThat(HeaderSymbols.evaluate(field(descriptor, "m_flagset"), symbols)).isEqualTo(layout.flagset());
        assertThat(HeaderSymbols.evaluate(field(descriptor, "m_nkeys"), symbols)).isZero();
    }

    /** Splits an initializer list at commas outside parentheses ({@code offsetof (T, m)} is one word). */
    private static List<String> splitTopLevel(String body) {
        List<String> words = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= body.length(); i++) {
            char c = i < body.length() ? body.charAt(i) : ',';
            if (c == '(') {
                depth++;
            }
            else if (c == ')') {
                depth--;
            }
            else if (c == ',' && depth == 0) {
                String word = body.substring(start, Math.min(i, body.length())).strip();
                if (!word.isEmpty()) {
                    words.add(word);
                }
                start = i + 1;
            }
        }
        return words;
    }

    private static String field(String descriptor, String name) {
        Matcher m = Pattern.compile("\\." + name + " = ([^,\\n]+),?\\n").matcher(descriptor);
        assertThat(m.find()).as(name).isTrue();
        return m.group(1).strip();
    }

    static Map<String, Long> compileAndRun(Path dir, String name, String source) throws Exception {
        Path c = dir.resolve(name + ".c");
        Files.writeString(c, source);
        Result gcc = run(dir, "gcc", "-std=c11", "-I", dir.toString(), "-o", dir.resolve(name).toString(),
                c.toString());
        assertThat(gcc.exit()).as(gcc.output()).isZero();
        Result probe = run(dir, dir.resolve(name).toString());
        assertThat(probe.exit()).as(probe.output()).isZero();
        Map<String, Long> values = new HashMap<>();
        for (String line : probe.output().split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).strip()));
            }
        }
        return values;
    }

    record Result(int exit, String output) {
    }

    static Result run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 60 s");
        }
        return new Result(process.exitValue(), output);
    }
}
