/*
 * Interop peer for kmtf::KmtfMessage on Eclipse Cyclone DDS's C API, built by the Java interop tests from
 * src/main/idl/kmtf.idl with idlc (kmtf.c/kmtf.h are generated, never checked in) and gcc.
 *
 *   kmtf_peer pub|sub TOPIC reliable|best_effort COUNT TIMEOUT_MS DOMAIN [ORIGIN]
 *
 * Discovery and interfaces come from CYCLONEDDS_URI (see ../cyclonedds-loopback.xml). Line protocol on stdout,
 * one flushed line per event, tab-separated (see ../README.md):
 *   READY                     entities exist
 *   MATCHED <n>               the writer/reader has matched n remote endpoints
 *   sub: SAMPLE <message_id> <origin> <message_type> <precedence> <classification> <created_at_ns> <seq>
 *               <sent_at_ns> <body length> <CRC-32 of body, 8 hex digits> <trace> <traceparent>
 *   pub: waits for a line "GO" on stdin after MATCHED, writes COUNT samples (content: ../README.md),
 *        prints WRITTEN <n>, and for reliable ACKED or ACK_TIMEOUT after dds_wait_for_acks (best effort: waits
 *        500 ms instead).
 *   DONE <n> (exit 0) or TIMEOUT <n> (exit 2); ERROR <text> (exit 1).
 * Everything is bounded by TIMEOUT_MS from the start.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dds/dds.h"
#include "kmtf.h"

static const char *const CLASSIFICATIONS[] = {"UNCLASSIFIED", "II급 비밀", ""};
#define MAX_BODY 1201u
/* A BEST_EFFORT writer stays this long after its last write before it is deleted: a Cyclone reader takes discovery
   and user data on different sockets and threads, and dropped the last samples still queued on the data socket
   once it had processed the writer's disposal (see ../README.md). */
#define LINGER DDS_MSECS(500)

static int64_t deadline_ns;

static int64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t remaining_ns(void)
{
  int64_t left = deadline_ns - now_ns();
  return left > 0 ? left : 0;
}

static void line(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

static void fail(const char *what, dds_return_t rc)
{
  line("ERROR\t%s: %s", what, dds_strretcode(rc));
  exit(1);
}

static uint32_t crc32(const uint8_t *data, uint32_t length)
{
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < length; i++) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; bit++)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* Sample i (1-based) of the deterministic sequence every peer and the Java test agree on. */
static void fill(kmtf_KmtfMessage *m, const char *origin, uint32_t i, char *id, size_t id_size, uint8_t *body,
                 char *trace, size_t trace_size, char *traceparent, size_t traceparent_size)
{
  snprintf(id, id_size, "%s-%06" PRIu32, origin, i);
  m->message_id = id;
  m->origin = (char *) origin;
  m->message_type = "SITREP";
  m->precedence = (kmtf_Precedence) (i % 4);
  m->classification = (char *) CLASSIFICATIONS[i % 3];
  m->created_at_ns = INT64_C(1700000000000000000) + (int64_t) i * 1000003;
  m->seq = i;
  m->sent_at_ns = m->created_at_ns + 250000 + i;
  uint32_t length = (i * 97u) % MAX_BODY;
  for (uint32_t k = 0; k < length; k++)
    body[k] = (uint8_t) (i * 31u + k * 7u);
  m->body._maximum = length;
  m->body._length = length;
  m->body._buffer = body;
  m->body._release = false;
  /* The hop trace's text: none, the origin's hop, or that and a site's. */
  if (i % 3 == 0)
    trace[0] = '\0';
  else if (i % 3 == 1)
    snprintf(trace, trace_size, "node %s sent +%" PRIu32 "ms", origin, i % 10);
  else
    snprintf(trace, trace_size, "node %s sent +%" PRIu32 "ms; site s%" PRIu32 " relayed +%" PRIu32 "ms", origin,
             i % 10, i % 4, i * 3);
  m->trace = trace;
  /* The trace context: none for every fourth, else sample i's trace and parent ids, sampled when i is odd. */
  if (i % 4 == 0)
    traceparent[0] = '\0';
  else
    snprintf(traceparent, traceparent_size, "00-4bf92f3577b34da6a3ce929d%08" PRIx32 "-%016" PRIx32 "-%02" PRIx32, i,
             i, i % 2);
  m->traceparent = traceparent;
}

static uint32_t matched(dds_entity_t entity, int writer)
{
  if (writer) {
    dds_publication_matched_status_t st;
    dds_return_t rc = dds_get_publication_matched_status(entity, &st);
    if (rc < 0)
      fail("dds_get_publication_matched_status", rc);
    return st.current_count;
  }
  dds_subscription_matched_status_t st;
  dds_return_t rc = dds_get_subscription_matched_status(entity, &st);
  if (rc < 0)
    fail("dds_get_subscription_matched_status", rc);
  return st.current_count;
}

static int await_matched(dds_entity_t entity, int writer)
{
  uint32_t n;
  while ((n = matched(entity, writer)) == 0) {
    if (remaining_ns() == 0)
      return 0;
    dds_sleepfor(DDS_MSECS(5));
  }
  line("MATCHED\t%" PRIu32, n);
  return 1;
}

static int await_go(void)
{
  char buf[64];
  for (;;) {
    int64_t left = remaining_ns();
    if (left == 0)
      return 0;
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    int r = poll(&pfd, 1, (int) (left / 1000000 + 1));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return 0;
    if (fgets(buf, sizeof buf, stdin) == NULL)
      return 0;
    if (strncmp(buf, "GO", 2) == 0)
      return 1;
  }
}

static int publish(dds_entity_t writer, const char *origin, uint32_t count, int reliable)
{
  if (!await_matched(writer, 1) || !await_go()) {
    line("TIMEOUT\t0");
    return 2;
  }
  static uint8_t body[MAX_BODY];
  char id[128];
  char trace[256];
  char traceparent[56];
  uint32_t written = 0;
  for (uint32_t i = 1; i <= count; i++) {
    kmtf_KmtfMessage m;
    fill(&m, origin, i, id, sizeof id, body, trace, sizeof trace, traceparent, sizeof traceparent);
    dds_return_t rc = dds_write(writer, &m);
    if (rc < 0)
      fail("dds_write", rc);
    written++;
  }
  line("WRITTEN\t%" PRIu32, written);
  if (reliable) {
    dds_return_t rc = dds_wait_for_acks(writer, remaining_ns());
    if (rc == DDS_RETCODE_TIMEOUT) {
      line("ACK_TIMEOUT");
      line("TIMEOUT\t%" PRIu32, written);
      return 2;
    }
    if (rc < 0)
      fail("dds_wait_for_acks", rc);
    line("ACKED");
  } else {
    dds_sleepfor(LINGER);
  }
  line("DONE\t%" PRIu32, written);
  return 0;
}

static int subscribe(dds_entity_t participant, dds_entity_t reader, uint32_t count)
{
  if (!await_matched(reader, 0)) {
    line("TIMEOUT\t0");
    return 2;
  }
  dds_entity_t ws = dds_create_waitset(participant);
  dds_entity_t rd = dds_create_readcondition(reader, DDS_ANY_STATE);
  if (ws < 0 || rd < 0)
    fail("dds_create_waitset/readcondition", ws < 0 ? ws : rd);
  dds_return_t rc = dds_waitset_attach(ws, rd, 0);
  if (rc < 0)
    fail("dds_waitset_attach", rc);
  uint32_t received = 0;
  enum { BATCH = 64 };
  while (received < count) {
    int64_t left = remaining_ns();
    if (left == 0)
      break;
    rc = dds_waitset_wait(ws, NULL, 0, left);
    if (rc < 0)
      fail("dds_waitset_wait", rc);
    void *samples[BATCH] = {NULL};
    dds_sample_info_t infos[BATCH];
    int32_t n = dds_take(reader, samples, infos, BATCH, BATCH);
    if (n < 0)
      fail("dds_take", n);
    for (int32_t j = 0; j < n; j++) {
      if (!infos[j].valid_data)
        continue;
      const kmtf_KmtfMessage *m = samples[j];
      line("SAMPLE\t%s\t%s\t%s\t%d\t%s\t%" PRId64 "\t%" PRIu64 "\t%" PRId64 "\t%" PRIu32 "\t%08" PRIx32 "\t%s\t%s",
           m->message_id, m->origin, m->message_type, (int) m->precedence, m->classification, m->created_at_ns,
           m->seq, m->sent_at_ns, m->body._length, crc32(m->body._buffer, m->body._length), m->trace,
           m->traceparent);
      received++;
    }
    if (n > 0)
      dds_return_loan(reader, samples, n);
  }
  line("%s\t%" PRIu32, received >= count ? "DONE" : "TIMEOUT", received);
  return received >= count ? 0 : 2;
}

int main(int argc, char **argv)
{
  if (argc < 7 || (strcmp(argv[1], "pub") != 0 && strcmp(argv[1], "sub") != 0) ||
      (strcmp(argv[3], "reliable") != 0 && strcmp(argv[3], "best_effort") != 0)) {
    fprintf(stderr, "usage: %s pub|sub TOPIC reliable|best_effort COUNT TIMEOUT_MS DOMAIN [ORIGIN]\n", argv[0]);
    return 64;
  }
  int pub = strcmp(argv[1], "pub") == 0;
  const char *topic_name = argv[2];
  int reliable = strcmp(argv[3], "reliable") == 0;
  uint32_t count = (uint32_t) strtoul(argv[4], NULL, 10);
  int64_t timeout_ms = strtoll(argv[5], NULL, 10);
  dds_domainid_t domain = (dds_domainid_t) strtoul(argv[6], NULL, 10);
  const char *origin = argc > 7 ? argv[7] : "cyclone-c";
  deadline_ns = now_ns() + timeout_ms * 1000000;

  dds_entity_t participant = dds_create_participant(domain, NULL, NULL);
  if (participant < 0)
    fail("dds_create_participant", participant);
  dds_entity_t topic = dds_create_topic(participant, &kmtf_KmtfMessage_desc, topic_name, NULL, NULL);
  if (topic < 0)
    fail("dds_create_topic", topic);
  dds_qos_t *qos = dds_create_qos();
  if (reliable)
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(10));
  else
    dds_qset_reliability(qos, DDS_RELIABILITY_BEST_EFFORT, 0);
  dds_qset_history(qos, DDS_HISTORY_KEEP_ALL, 0);
  dds_qset_durability(qos, DDS_DURABILITY_VOLATILE);
  dds_entity_t endpoint = pub ? dds_create_writer(participant, topic, qos, NULL)
                              : dds_create_reader(participant, topic, qos, NULL);
  dds_delete_qos(qos);
  if (endpoint < 0)
    fail(pub ? "dds_create_writer" : "dds_create_reader", endpoint);
  line("READY");
  int status = pub ? publish(endpoint, origin, count, reliable) : subscribe(participant, endpoint, count);
  dds_delete(participant);
  return status;
}
