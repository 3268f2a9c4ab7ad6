// Interop peer for kmtf::KmtfMessage on eProsima Fast DDS 2.9 (Debian libfastrtps-dev), built by the Java interop
// tests from src/main/idl/kmtf.idl with fastddsgen (kmtf.h/.cxx and kmtfPubSubTypes.h/.cxx are generated, never
// checked in) and g++.
//
//   kmtf_peer pub|sub TOPIC reliable|best_effort COUNT TIMEOUT_MS DOMAIN [ORIGIN]
//
// The participant is created from the XML profile "kmtf_interop_loopback" of the file named by
// FASTRTPS_DEFAULT_PROFILES_FILE (see ../fastdds-loopback.xml): UDPv4 on 127.0.0.1 only, unicast discovery.
// Same stdout line protocol and sample content as ../cyclone/kmtf_peer.c (see ../README.md).
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/publisher/qos/DataWriterQos.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/subscriber/qos/DataReaderQos.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "kmtfPubSubTypes.h"

using namespace eprosima::fastdds::dds;
using Clock = std::chrono::steady_clock;

namespace {

const char* const PROFILE = "kmtf_interop_loopback";
const char* const CLASSIFICATIONS[] = {"UNCLASSIFIED", "II급 비밀", ""};
constexpr uint32_t MAX_BODY = 1201;
// A BEST_EFFORT writer stays this long after its last write before it is deleted: a Cyclone reader takes
// discovery and user data on different sockets and threads, and dropped the last samples still queued on the data
// socket once it had processed the writer's disposal (see ../README.md).
constexpr std::chrono::milliseconds LINGER(500);

Clock::time_point deadline;

std::chrono::nanoseconds remaining()
{
    auto left = deadline - Clock::now();
    return left.count() > 0 ? std::chrono::duration_cast<std::chrono::nanoseconds>(left) : std::chrono::nanoseconds(0);
}

eprosima::fastrtps::Duration_t remaining_duration()
{
    auto ns = remaining().count();
    return eprosima::fastrtps::Duration_t(static_cast<int32_t>(ns / 1000000000), static_cast<uint32_t>(ns % 1000000000));
}

void line(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vprintf(fmt, ap);
    va_end(ap);
    std::putchar('\n');
    std::fflush(stdout);
}

[[noreturn]] void fail(const char* what)
{
    line("ERROR\t%s", what);
    std::exit(1);
}

uint32_t crc32(const std::vector<uint8_t>& data)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint8_t b : data)
    {
        crc ^= b;
        for (int bit = 0; bit < 8; bit++)
        {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

// Sample i (1-based) of the deterministic sequence every peer and the Java test agree on.
kmtf::KmtfMessage make(const std::string& origin, uint32_t i)
{
    char id[128];
    std::snprintf(id, sizeof id, "%s-%06" PRIu32, origin.c_str(), i);
    kmtf::KmtfMessage m;
    m.message_id(id);
    m.origin(origin);
    m.message_type("SITREP");
    m.precedence(static_cast<kmtf::Precedence>(i % 4));
    m.classification(CLASSIFICATIONS[i % 3]);
    m.created_at_ns(INT64_C(1700000000000000000) + static_cast<int64_t>(i) * 1000003);
    m.seq(i);
    m.sent_at_ns(m.created_at_ns() + 250000 + i);
    uint32_t length = (i * 97u) % MAX_BODY;
    std::vector<uint8_t> body(length);
    for (uint32_t k = 0; k < length; k++)
    {
        body[k] = static_cast<uint8_t>(i * 31u + k * 7u);
    }
    m.body(std::move(body));
    // The hop trace's text: none, the origin's hop, or that and a site's.
    char trace[256] = "";
    if (i % 3 == 1)
    {
        std::snprintf(trace, sizeof trace, "node %s sent +%" PRIu32 "ms", origin.c_str(), i % 10);
    }
    else if (i % 3 == 2)
    {
        std::snprintf(trace, sizeof trace, "node %s sent +%" PRIu32 "ms; site s%" PRIu32 " relayed +%" PRIu32 "ms",
                origin.c_str(), i % 10, i % 4, i * 3);
    }
    m.trace(trace);
    // The trace context: none for every fourth, else sample i's trace and parent ids, sampled when i is odd.
    char traceparent[56] = "";
    if (i % 4 != 0)
    {
        std::snprintf(traceparent, sizeof traceparent, "00-4bf92f3577b34da6a3ce929d%08" PRIx32 "-%016" PRIx32
                "-%02" PRIx32, i, i, i % 2);
    }
    m.traceparent(traceparent);
    return m;
}

template<typename StatusFn>
bool await_matched(StatusFn current)
{
    int32_t n;
    while ((n = current()) == 0)
    {
        if (remaining().count() == 0)
        {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    line("MATCHED\t%d", n);
    return true;
}

bool await_go()
{
    char buf[64];
    for (;;)
    {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(remaining()).count();
        if (left == 0)
        {
            return false;
        }
        pollfd pfd{STDIN_FILENO, POLLIN, 0};
        int r = poll(&pfd, 1, static_cast<int>(left + 1));
        if (r < 0 && errno == EINTR)
        {
            continue;
        }
        if (r <= 0 || std::fgets(buf, sizeof buf, stdin) == nullptr)
        {
            return false;
        }
        if (std::strncmp(buf, "GO", 2) == 0)
        {
            return true;
        }
    }
}

int publish(DataWriter* writer, const std::string& origin, uint32_t count, bool reliable)
{
    bool ok = await_matched([writer] {
        PublicationMatchedStatus st;
        writer->get_publication_matched_status(st);
        return st.current_count;
    });
    if (!ok || !await_go())
    {
        line("TIMEOUT\t0");
        return 2;
    }
    uint32_t written = 0;
    for (uint32_t i = 1; i <= count; i++)
    {
        kmtf::KmtfMessage m = make(origin, i);
        if (!writer->write(&m))
        {
            line("ERROR\twrite of sample %" PRIu32 " failed", i);
            return 1;
        }
        written++;
    }
    line("WRITTEN\t%" PRIu32, written);
    if (reliable)
    {
        ReturnCode_t rc = writer->wait_for_acknowledgments(remaining_duration());
        if (rc != ReturnCode_t::RETCODE_OK)
        {
            line("ACK_TIMEOUT");
            line("TIMEOUT\t%" PRIu32, written);
            return 2;
        }
        line("ACKED");
    }
    else
    {
        // See LINGER.
        std::this_thread::sleep_for(LINGER);
    }
    line("DONE\t%" PRIu32, written);
    return 0;
}

int subscribe(DataReader* reader, uint32_t count)
{
    bool ok = await_matched([reader] {
        SubscriptionMatchedStatus st;
        reader->get_subscription_matched_status(st);
        return st.current_count;
    });
    if (!ok)
    {
        line("TIMEOUT\t0");
        return 2;
    }
    uint32_t received = 0;
    kmtf::KmtfMessage m;
    SampleInfo info;
    while (received < count && remaining().count() > 0)
    {
        if (reader->take_next_sample(&m, &info) != ReturnCode_t::RETCODE_OK)
        {
            reader->wait_for_unread_message(remaining_duration());
            continue;
        }
        if (!info.valid_data)
        {
            continue;
        }
        line("SAMPLE\t%s\t%s\t%s\t%u\t%s\t%" PRId64 "\t%" PRIu64 "\t%" PRId64 "\t%zu\t%08" PRIx32 "\t%s\t%s",
                m.message_id().c_str(), m.origin().c_str(), m.message_type().c_str(),
                static_cast<unsigned>(m.precedence()), m.classification().c_str(), m.created_at_ns(), m.seq(),
                m.sent_at_ns(), m.body().size(), crc32(m.body()), m.trace().c_str(),
                m.traceparent().c_str());
        received++;
    }
    line("%s\t%" PRIu32, received >= count ? "DONE" : "TIMEOUT", received);
    return received >= count ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 7 || (std::strcmp(argv[1], "pub") != 0 && std::strcmp(argv[1], "sub") != 0)
            || (std::strcmp(argv[3], "reliable") != 0 && std::strcmp(argv[3], "best_effort") != 0))
    {
        std::fprintf(stderr, "usage: %s pub|sub TOPIC reliable|best_effort COUNT TIMEOUT_MS DOMAIN [ORIGIN]\n",
                argv[0]);
        return 64;
    }
    bool pub = std::strcmp(argv[1], "pub") == 0;
    std::string topic_name = argv[2];
    bool reliable = std::strcmp(argv[3], "reliable") == 0;
    uint32_t count = static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10));
    long long timeout_ms = std::strtoll(argv[5], nullptr, 10);
    DomainId_t domain = static_cast<DomainId_t>(std::strtoul(argv[6], nullptr, 10));
    std::string origin = argc > 7 ? argv[7] : "fastdds-cpp";
    deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);

    DomainParticipantFactory* factory = DomainParticipantFactory::get_instance();
    DomainParticipant* participant = factory->create_participant_with_profile(domain, PROFILE);
    if (participant == nullptr)
    {
        fail("create_participant_with_profile kmtf_interop_loopback failed (is FASTRTPS_DEFAULT_PROFILES_FILE set?)");
    }
    TypeSupport type(new kmtf::KmtfMessagePubSubType());
    if (type.register_type(participant) != ReturnCode_t::RETCODE_OK)
    {
        fail("register_type");
    }
    Topic* topic = participant->create_topic(topic_name, type.get_type_name(), TOPIC_QOS_DEFAULT);
    if (topic == nullptr)
    {
        fail("create_topic");
    }
    int status;
    if (pub)
    {
        Publisher* publisher = participant->create_publisher(PUBLISHER_QOS_DEFAULT);
        DataWriterQos qos = DATAWRITER_QOS_DEFAULT;
        qos.reliability().kind = reliable ? RELIABLE_RELIABILITY_QOS : BEST_EFFORT_RELIABILITY_QOS;
        qos.reliability().max_blocking_time = eprosima::fastrtps::Duration_t(10, 0);
        qos.history().kind = KEEP_ALL_HISTORY_QOS;
        qos.durability().kind = VOLATILE_DURABILITY_QOS;
        // With the default period (3 s), wait_for_acknowledgments for 200 samples to the Java side took 3.1 s in
        // 2 of 6 runs (~0.1 s otherwise): a reliable reader acknowledges in reply to heartbeats.
        qos.reliable_writer_qos().times.heartbeatPeriod = eprosima::fastrtps::Duration_t(0, 100000000);
        DataWriter* writer = publisher == nullptr ? nullptr : publisher->create_datawriter(topic, qos);
        if (writer == nullptr)
        {
            fail("create_datawriter");
        }
        line("READY");
        status = publish(writer, origin, count, reliable);
    }
    else
    {
        Subscriber* subscriber = participant->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
        DataReaderQos qos = DATAREADER_QOS_DEFAULT;
        qos.reliability().kind = reliable ? RELIABLE_RELIABILITY_QOS : BEST_EFFORT_RELIABILITY_QOS;
        qos.history().kind = KEEP_ALL_HISTORY_QOS;
        qos.durability().kind = VOLATILE_DURABILITY_QOS;
        DataReader* reader = subscriber == nullptr ? nullptr : subscriber->create_datareader(topic, qos);
        if (reader == nullptr)
        {
            fail("create_datareader");
        }
        line("READY");
        status = subscribe(reader, count);
    }
    participant->delete_contained_entities();
    factory->delete_participant(participant);
    return status;
}
