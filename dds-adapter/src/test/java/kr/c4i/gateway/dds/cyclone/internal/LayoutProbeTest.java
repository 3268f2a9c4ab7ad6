package kr.c4i.gateway.dds.cyclone.internal;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.dds.Prerequisites;

/**
 * Every struct size, field offset and constant in {@link DdscLayouts} against the installed Cyclone headers,
 * printed by a probe compiled with gcc: a different libddsc/header version fails here, not on the wire.
 */
class LayoutProbeTest {

    static final Path DDS_HEADER = Path.of("/usr/include/dds/dds.h");

    @TempDir
    Path dir;

    private final Map<String, Long> javaValues = new LinkedHashMap<>();

    @Test
    void layoutsAndConstantsMatchTheInstalledHeaders() throws Exception {
        Prerequisites.require(Prerequisites.onPath("gcc"), "gcc, which compiles the probe (apt-get install gcc)");
        Prerequisites.require(Files.isRegularFile(DDS_HEADER),
                DDS_HEADER + ", which the probe includes (apt-get install cyclonedds-dev)");
        Map<String, String> expressions = new LinkedHashMap<>();
        struct(expressions, "dds_topic_descriptor_t", DdscLayouts.TOPIC_DESCRIPTOR, List.of("m_size", "m_align",
                "m_flagset", "m_nkeys", "m_typename", "m_keys", "m_nops", "m_ops", "m_meta", "type_information",
                "type_mapping", "restrict_data_representation"));
        struct(expressions, "dds_sample_info_t", DdscLayouts.SAMPLE_INFO, List.of("sample_state", "view_state",
                "instance_state", "valid_data", "source_timestamp", "instance_handle", "publication_handle"));
        struct(expressions, "dds_sequence_t", DdscLayouts.SEQUENCE, List.of("_maximum", "_length", "_buffer",
                "_release"));
        struct(expressions, "dds_publication_matched_status_t", DdscLayouts.MATCHED_STATUS, List.of("total_count",
                "current_count"));
        struct(expressions, "dds_subscription_matched_status_t", DdscLayouts.MATCHED_STATUS, List.of("total_count",
                "current_count"));
        struct(expressions, "dds_sample_lost_status_t", DdscLayouts.SAMPLE_LOST_STATUS, List.of("total_count"));
        struct(expressions, "dds_sample_rejected_status_t", DdscLayouts.SAMPLE_REJECTED_STATUS,
                List.of("total_count"));
        struct(expressions, "dds_log_data_t", DdscLayouts.LOG_DATA, List.of("priority", "domid", "file", "line",
                "function", "message", "size", "hdrsize"));
        struct(expressions, "dds_builtintopic_endpoint_t", DdscLayouts.BUILTINTOPIC_ENDPOINT, List.of("key",
                "participant_key", "participant_instance_handle", "topic_name", "type_name", "qos"));
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("DDS_RELIABILITY_RELIABLE", (long) DdscLayouts.DDS_RELIABILITY_RELIABLE);
        expected.put("DDS_RELIABILITY_BEST_EFFORT", (long) DdscLayouts.DDS_RELIABILITY_BEST_EFFORT);
        expected.put("DDS_HISTORY_KEEP_ALL", (long) DdscLayouts.DDS_HISTORY_KEEP_ALL);
        expected.put("DDS_HISTORY_KEEP_LAST", (long) DdscLayouts.DDS_HISTORY_KEEP_LAST);
        expected.put("DDS_DURABILITY_VOLATILE", (long) DdscLayouts.DDS_DURABILITY_VOLATILE);
        expected.put("DDS_DURABILITY_TRANSIENT_LOCAL", (long) DdscLayouts.DDS_DURABILITY_TRANSIENT_LOCAL);
        expected.put("DDS_DURABILITY_TRANSIENT", (long) DdscLayouts.DDS_DURABILITY_TRANSIENT);
        expected.put("DDS_DURABILITY_PERSISTENT", (long) DdscLayouts.DDS_DURABILITY_PERSISTENT);
        expected.put("DDS_LENGTH_UNLIMITED", (long) DdscLayouts.DDS_LENGTH_UNLIMITED);
        expected.put("DDS_INFINITY", DdscLayouts.DDS_INFINITY);
        expected.put("DDS_NOT_READ_SAMPLE_STATE | DDS_ANY_VIEW_STATE | DDS_ANY_INSTANCE_STATE",
                (long) DdscLayouts.READ_CONDITION_NOT_READ);
        expected.put("DDS_OP_ADR", (long) DdscLayouts.DDS_OP_ADR);
        expected.put("DDS_OP_RTS", (long) DdscLayouts.DDS_OP_RTS);
        expected.put("DDS_OP_FLAG_SGN", (long) DdscLayouts.DDS_OP_FLAG_SGN);
        expected.put("DDS_OP_FLAG_SZ_SHIFT", (long) DdscLayouts.DDS_OP_FLAG_SZ_SHIFT);
        expected.put("DDS_TOPIC_FIXED_SIZE", (long) TypeLayout.DDS_TOPIC_FIXED_SIZE);
        expected.put("DDS_RETCODE_TIMEOUT", -10L);
        expected.put("DDS_RETCODE_BAD_PARAMETER", -3L);
        expected.put("DDS_RETCODE_NOT_ALLOWED_BY_SECURITY", -13L);
        expected.forEach((name, value) -> expressions.put(name, "(long long) (" + name + ")"));

        StringBuilder probe = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n#include <dds/dds.h>\n")
                .append("#include <dds/ddsc/dds_opcodes.h>\nint main(void) {\n");
        expressions.forEach((key, expression) -> probe.append("  printf(\"%s %lld\\n\", \"").append(key)
                .append("\", (long long) (").append(expression).append("));\n"));
        probe.append("  return 0;\n}\n");
        Map<String, Long> actual = IdlcDescriptorTest.compileAndRun(this.dir, "layout_probe", probe.toString());

        expected.forEach((name, value) -> assertThat(actual.get(name)).as(name).isEqualTo(value));
        this.javaValues.forEach((key, value) -> assertThat(actual.get(key)).as(key).isEqualTo(value));
    }

    private void struct(Map<String, String> expressions, String cType, StructLayout layout, List<String> fields) {
        expressions.put("sizeof " + cType, "sizeof (" + cType + ")");
        this.javaValues.put("sizeof " + cType, layout.byteSize());
        for (String field : fields) {
            String key = "offsetof " + cType + "." + field;
            expressions.put(key, "offsetof (" + cType + ", " + field + ")");
            this.javaValues.put(key, layout.byteOffset(groupElement(field)));
        }
    }
}
