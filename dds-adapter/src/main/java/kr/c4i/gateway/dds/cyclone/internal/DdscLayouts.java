package kr.c4i.gateway.dds.cyclone.internal;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;

/**
 * The C structs and constants of Cyclone DDS 0.10.2 (x86_64, LP64) that cross the boundary. LayoutProbeTest checks
 * every size and offset here against the installed headers with the C compiler.
 */
public final class DdscLayouts {

    /** {@code dds_topic_descriptor_t}: 96 bytes. */
    public static final StructLayout TOPIC_DESCRIPTOR = structLayout(
            JAVA_INT.withName("m_size"),
            JAVA_INT.withName("m_align"),
            JAVA_INT.withName("m_flagset"),
            JAVA_INT.withName("m_nkeys"),
            ADDRESS.withName("m_typename"),
            ADDRESS.withName("m_keys"),
            JAVA_INT.withName("m_nops"),
            paddingLayout(4),
            ADDRESS.withName("m_ops"),
            ADDRESS.withName("m_meta"),
            structLayout(ADDRESS.withName("data"), JAVA_INT.withName("sz"), paddingLayout(4))
                    .withName("type_information"),
            structLayout(ADDRESS.withName("data"), JAVA_INT.withName("sz"), paddingLayout(4))
                    .withName("type_mapping"),
            JAVA_INT.withName("restrict_data_representation"),
            paddingLayout(4));

    /** {@code dds_sample_info_t}: 64 bytes; only {@code valid_data} is read. */
    public static final StructLayout SAMPLE_INFO = structLayout(
            JAVA_INT.withName("sample_state"),
            JAVA_INT.withName("view_state"),
            JAVA_INT.withName("instance_state"),
            JAVA_BOOLEAN.withName("valid_data"),
            paddingLayout(3),
            JAVA_LONG.withName("source_timestamp"),
            JAVA_LONG.withName("instance_handle"),
            JAVA_LONG.withName("publication_handle"),
            JAVA_INT.withName("disposed_generation_count"),
            JAVA_INT.withName("no_writers_generation_count"),
            JAVA_INT.withName("sample_rank"),
            JAVA_INT.withName("generation_rank"),
            JAVA_INT.withName("absolute_generation_rank"),
            paddingLayout(4));

    /** {@code dds_sequence_t} and every generated {@code dds_sequence_<T>}: 24 bytes. */
    public static final StructLayout SEQUENCE = structLayout(
            JAVA_INT.withName("_maximum"),
            JAVA_INT.withName("_length"),
            ADDRESS.withName("_buffer"),
            JAVA_BOOLEAN.withName("_release"),
            paddingLayout(7));

    /** {@code dds_publication_matched_status_t} and {@code dds_subscription_matched_status_t}: 24 bytes. */
    public static final StructLayout MATCHED_STATUS = structLayout(
            JAVA_INT.withName("total_count"),
            JAVA_INT.withName("total_count_change"),
            JAVA_INT.withName("current_count"),
            JAVA_INT.withName("current_count_change"),
            JAVA_LONG.withName("last_handle"));

    /** {@code dds_sample_lost_status_t}: 8 bytes. */
    public static final StructLayout SAMPLE_LOST_STATUS = structLayout(
            JAVA_INT.withName("total_count"),
            JAVA_INT.withName("total_count_change"));

    /** {@code dds_sample_rejected_status_t}: 24 bytes. */
    public static final StructLayout SAMPLE_REJECTED_STATUS = structLayout(
            JAVA_INT.withName("total_count"),
            JAVA_INT.withName("total_count_change"),
            JAVA_INT.withName("last_reason"),
            paddingLayout(4),
            JAVA_LONG.withName("last_instance_handle"));

    public static final long SAMPLE_INFO_VALID_DATA = offset(SAMPLE_INFO, "valid_data");
    public static final long SAMPLE_INFO_PUBLICATION_HANDLE = offset(SAMPLE_INFO, "publication_handle");

    /**
     * {@code dds_builtintopic_endpoint_t}: key and participant_key (GUIDs, 16 bytes each), the participant's
     * instance handle, topic and type name, QoS; only the QoS is read.
     */
    public static final StructLayout BUILTINTOPIC_ENDPOINT = structLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("key"),
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("participant_key"),
            JAVA_LONG.withName("participant_instance_handle"),
            ADDRESS.withName("topic_name"),
            ADDRESS.withName("type_name"),
            ADDRESS.withName("qos"));
    /**
     * {@code dds_log_data_t}: one log line and where it came from; {@code priority}, {@code message}, {@code size}
     * and {@code hdrsize} are read. Cyclone 0.10.2 never fills in {@code domid}: the domain id is only in the line's
     * header, the {@code hdrsize} bytes before {@code message}.
     */
    public static final StructLayout LOG_DATA = structLayout(
            JAVA_INT.withName("priority"),
            JAVA_INT.withName("domid"),
            ADDRESS.withName("file"),
            JAVA_INT.withName("line"),
            paddingLayout(4),
            ADDRESS.withName("function"),
            ADDRESS.withName("message"),
            JAVA_LONG.withName("size"),
            JAVA_LONG.withName("hdrsize"));
    public static final long LOG_DATA_PRIORITY = offset(LOG_DATA, "priority");
    public static final long LOG_DATA_MESSAGE = offset(LOG_DATA, "message");
    public static final long LOG_DATA_SIZE = offset(LOG_DATA, "size");
    public static final long LOG_DATA_HDRSIZE = offset(LOG_DATA, "hdrsize");
    public static final long BUILTINTOPIC_ENDPOINT_QOS = offset(BUILTINTOPIC_ENDPOINT, "qos");
    public static final long SEQUENCE_MAXIMUM = offset(SEQUENCE, "_maximum");
    public static final long SEQUENCE_LENGTH = offset(SEQUENCE, "_length");
    public static final long SEQUENCE_BUFFER = offset(SEQUENCE, "_buffer");
    public static final long SEQUENCE_RELEASE = offset(SEQUENCE, "_release");
    public static final long MATCHED_TOTAL_COUNT = offset(MATCHED_STATUS, "total_count");
    public static final long MATCHED_CURRENT_COUNT = offset(MATCHED_STATUS, "current_count");
    public static final long SAMPLE_LOST_TOTAL_COUNT = offset(SAMPLE_LOST_STATUS, "total_count");
    public static final long SAMPLE_REJECTED_TOTAL_COUNT = offset(SAMPLE_REJECTED_STATUS, "total_count");

    // dds_stream_opcode, dds_stream_typecode and flags from dds/ddsc/dds_opcodes.h
    public static final int DDS_OP_RTS = 0x00 << 24;
    public static final int DDS_OP_ADR = 0x01 << 24;
    public static final int DDS_OP_VAL_1BY = 0x01;
    public static final int DDS_OP_VAL_4BY = 0x03;
    public static final int DDS_OP_VAL_8BY = 0x04;
    public static final int DDS_OP_VAL_STR = 0x05;
    public static final int DDS_OP_VAL_SEQ = 0x07;
    public static final int DDS_OP_VAL_ENU = 0x0c;
    public static final int DDS_OP_TYPE_SHIFT = 16;
    public static final int DDS_OP_SUBTYPE_SHIFT = 8;
    public static final int DDS_OP_FLAG_SGN = 1 << 2;
    public static final int DDS_OP_FLAG_SZ_SHIFT = 6;

    // dds_public_qosdefs.h
    public static final int DDS_RELIABILITY_BEST_EFFORT = 0;
    public static final int DDS_RELIABILITY_RELIABLE = 1;
    public static final int DDS_HISTORY_KEEP_LAST = 0;
    public static final int DDS_HISTORY_KEEP_ALL = 1;
    public static final int DDS_DURABILITY_VOLATILE = 0;
    public static final int DDS_DURABILITY_TRANSIENT_LOCAL = 1;
    public static final int DDS_DURABILITY_TRANSIENT = 2;
    public static final int DDS_DURABILITY_PERSISTENT = 3;
    /** {@code DDS_LENGTH_UNLIMITED} for resource limits. */
    public static final int DDS_LENGTH_UNLIMITED = -1;
    /** {@code DDS_INFINITY}: the largest {@code dds_duration_t}. */
    public static final long DDS_INFINITY = Long.MAX_VALUE;

    /**
     * Read-condition mask for "any sample not yet read": {@code DDS_NOT_READ_SAMPLE_STATE | DDS_ANY_VIEW_STATE |
     * DDS_ANY_INSTANCE_STATE} (sample states 1|2, view 4|8, instance 16|32|64).
     */
    public static final int READ_CONDITION_NOT_READ = 0x7E;

    private DdscLayouts() {
    }

    private static long offset(StructLayout layout, String name) {
        return layout.byteOffset(PathElement.groupElement(name));
    }
}
