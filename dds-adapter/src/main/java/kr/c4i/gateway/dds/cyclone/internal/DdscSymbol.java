package kr.c4i.gateway.dds.cyclone.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;

/**
 * The one list of every libddsc function this binding calls, with its C signature. All are bound when the library
 * loads, so a missing or renamed symbol fails at start-up with its name, never at the first use. Signatures follow
 * Cyclone DDS 0.10.2 ({@code dds/dds.h}, {@code dds_public_qos.h}, {@code dds_public_status.h},
 * {@code ddsrt/retcode.h}) on LP64: {@code dds_entity_t}, {@code dds_return_t} and {@code dds_domainid_t} are 32
 * bits, {@code dds_duration_t} 64, {@code size_t} and {@code dds_attach_t} (intptr_t) 64.
 */
public enum DdscSymbol {

    // dds_entity_t dds_create_domain(dds_domainid_t domain, const char *config)
    CREATE_DOMAIN("dds_create_domain", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_entity_t dds_create_participant(dds_domainid_t, const dds_qos_t *, const dds_listener_t *)
    CREATE_PARTICIPANT("dds_create_participant", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
    // dds_entity_t dds_create_topic(dds_entity_t pp, const dds_topic_descriptor_t *, const char *name, qos, listener)
    CREATE_TOPIC("dds_create_topic", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    // dds_entity_t dds_create_writer(dds_entity_t pp_or_pub, dds_entity_t topic, qos, listener)
    CREATE_WRITER("dds_create_writer", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
    // dds_entity_t dds_create_reader(dds_entity_t pp_or_sub, dds_entity_t topic, qos, listener)
    CREATE_READER("dds_create_reader", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
    // dds_entity_t dds_create_waitset(dds_entity_t participant)
    CREATE_WAITSET("dds_create_waitset", FunctionDescriptor.of(JAVA_INT, JAVA_INT)),
    // dds_entity_t dds_create_readcondition(dds_entity_t reader, uint32_t mask)
    CREATE_READCONDITION("dds_create_readcondition", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)),
    // dds_return_t dds_delete(dds_entity_t)
    DELETE("dds_delete", FunctionDescriptor.of(JAVA_INT, JAVA_INT)),
    // dds_return_t dds_get_domainid(dds_entity_t, dds_domainid_t *)
    GET_DOMAINID("dds_get_domainid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_return_t dds_get_guid(dds_entity_t, dds_guid_t *): 16 bytes, each of its four words big-endian
    GET_GUID("dds_get_guid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_return_t dds_write(dds_entity_t writer, const void *data)
    WRITE("dds_write", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // void dds_write_flush(dds_entity_t writer): sends what Internal/WriteBatch queued in the writer; no result
    WRITE_FLUSH("dds_write_flush", FunctionDescriptor.ofVoid(JAVA_INT)),
    // dds_return_t dds_take(dds_entity_t, void **buf, dds_sample_info_t *si, size_t bufsz, uint32_t maxs)
    TAKE("dds_take", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT)),
    // dds_return_t dds_return_loan(dds_entity_t, void **buf, int32_t bufsz)
    RETURN_LOAN("dds_return_loan", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)),
    // dds_return_t dds_waitset_attach(dds_entity_t ws, dds_entity_t e, dds_attach_t x)
    WAITSET_ATTACH("dds_waitset_attach", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG)),
    // dds_return_t dds_waitset_wait(dds_entity_t ws, dds_attach_t *xs, size_t nxs, dds_duration_t reltimeout)
    WAITSET_WAIT("dds_waitset_wait", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG)),
    // dds_return_t dds_waitset_set_trigger(dds_entity_t ws, bool trigger)
    WAITSET_SET_TRIGGER("dds_waitset_set_trigger", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_BOOLEAN)),
    // dds_return_t dds_get_publication_matched_status(dds_entity_t writer, dds_publication_matched_status_t *)
    GET_PUBLICATION_MATCHED_STATUS("dds_get_publication_matched_status",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_return_t dds_get_subscription_matched_status(dds_entity_t reader, dds_subscription_matched_status_t *)
    GET_SUBSCRIPTION_MATCHED_STATUS("dds_get_subscription_matched_status",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_return_t dds_get_sample_lost_status(dds_entity_t reader, dds_sample_lost_status_t *)
    GET_SAMPLE_LOST_STATUS("dds_get_sample_lost_status", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // dds_return_t dds_get_sample_rejected_status(dds_entity_t reader, dds_sample_rejected_status_t *)
    GET_SAMPLE_REJECTED_STATUS("dds_get_sample_rejected_status", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // const char *dds_strretcode(dds_return_t)
    STRRETCODE("dds_strretcode", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
    // dds_qos_t *dds_create_qos(void)
    CREATE_QOS("dds_create_qos", FunctionDescriptor.of(ADDRESS)),
    // void dds_delete_qos(dds_qos_t *)
    DELETE_QOS("dds_delete_qos", FunctionDescriptor.ofVoid(ADDRESS)),
    // void dds_qset_reliability(dds_qos_t *, dds_reliability_kind_t, dds_duration_t max_blocking_time)
    QSET_RELIABILITY("dds_qset_reliability", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG)),
    // void dds_qset_history(dds_qos_t *, dds_history_kind_t, int32_t depth)
    QSET_HISTORY("dds_qset_history", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT)),
    // void dds_qset_durability(dds_qos_t *, dds_durability_kind_t)
    QSET_DURABILITY("dds_qset_durability", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
    // void dds_qset_durability_service(dds_qos_t *, dds_duration_t cleanup_delay, dds_history_kind_t, int32_t depth,
    //                                  int32_t max_samples, int32_t max_instances, int32_t max_samples_per_instance)
    QSET_DURABILITY_SERVICE("dds_qset_durability_service",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT)),
    // void dds_qset_deadline(dds_qos_t *, dds_duration_t)
    QSET_DEADLINE("dds_qset_deadline", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG)),
    // void dds_qset_lifespan(dds_qos_t *, dds_duration_t)
    QSET_LIFESPAN("dds_qset_lifespan", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG)),
    // void dds_qset_partition(dds_qos_t *, uint32_t n, const char **ps)
    QSET_PARTITION("dds_qset_partition", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS)),
    // void dds_qset_transport_priority(dds_qos_t *, int32_t)
    QSET_TRANSPORT_PRIORITY("dds_qset_transport_priority", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
    // void dds_qset_resource_limits(dds_qos_t *, int32_t max_samples, int32_t max_instances, int32_t per_instance)
    QSET_RESOURCE_LIMITS("dds_qset_resource_limits", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT)),
    // void dds_qset_userdata(dds_qos_t *, const void *value, size_t sz)
    QSET_USERDATA("dds_qset_userdata", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG)),
    // dds_return_t dds_set_qos(dds_entity_t, const dds_qos_t *): on a participant, a changed USER_DATA is announced
    SET_QOS("dds_set_qos", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    // bool dds_qget_partition(const dds_qos_t *, uint32_t *n, char ***ps): ps and each name are dds_free'd
    QGET_PARTITION("dds_qget_partition", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS, ADDRESS)),
    // dds_builtintopic_endpoint_t *dds_get_matched_publication_data(dds_entity_t reader, dds_instance_handle_t ih)
    GET_MATCHED_PUBLICATION_DATA("dds_get_matched_publication_data",
            FunctionDescriptor.of(ADDRESS, JAVA_INT, JAVA_LONG)),
    // void dds_builtintopic_free_endpoint(dds_builtintopic_endpoint_t *)
    BUILTINTOPIC_FREE_ENDPOINT("dds_builtintopic_free_endpoint", FunctionDescriptor.ofVoid(ADDRESS)),
    // void dds_set_log_sink(dds_log_write_fn_t callback, void *userdata): NULL restores the default (stderr)
    SET_LOG_SINK("dds_set_log_sink", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
    // void dds_set_trace_sink(dds_log_write_fn_t callback, void *userdata): NULL restores the default (the domain's
    // Tracing/OutputFile)
    SET_TRACE_SINK("dds_set_trace_sink", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)),
    // void dds_free(void *)
    FREE("dds_free", FunctionDescriptor.ofVoid(ADDRESS));

    private final String symbol;
    private final FunctionDescriptor descriptor;

    DdscSymbol(String symbol, FunctionDescriptor descriptor) {
        this.symbol = symbol;
        this.descriptor = descriptor;
    }

    public String symbol() {
        return this.symbol;
    }

    public FunctionDescriptor descriptor() {
        return this.descriptor;
    }
}
