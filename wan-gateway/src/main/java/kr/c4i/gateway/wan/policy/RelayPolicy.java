package kr.c4i.gateway.wan.policy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.kmtf.text.KmtfField;
import kr.c4i.gateway.kmtf.text.KmtfParseException;
import kr.c4i.gateway.kmtf.text.KmtfParser;
import kr.c4i.gateway.kmtf.text.KmtfSet;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.schedule.NanoClock;
import kr.c4i.gateway.wan.schedule.TokenBucket;
import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * Which messages are worth the WAN, per type: allow/deny rules (the first rule that matches a type decides, no match
 * means the default, allow unless configured), rate limits, supersede keys and expiry, resolved against the
 * catalogue when read (see {@link PolicyReader}). Only a deny rule drops a RELIABLE message, unless an entry says
 * {@code drop-reliable: true}. Thread-safe: rate limits are the only state.
 */
public final class RelayPolicy implements ExpiryRule {

    private static final KmtfParser PARSER = new KmtfParser();

    private final boolean defaultAllow;
    private final List<Rule> rules;
    private final Map<String, RateLimit> rateLimits;
    private final Map<String, SupersedeKey> supersedeKeys;
    private final Map<String, Duration> maxAgeByType;
    private final Map<Precedence, Duration> maxAgeBestEffort;
    private final Map<Precedence, Duration> maxAgeReliable;
    private final Set<String> bestEffortTypes;
    private final InstantSource clock;

    RelayPolicy(boolean defaultAllow, List<Rule> rules, Map<String, RateLimit> rateLimits,
            Map<String, SupersedeKey> supersedeKeys, Map<String, Duration> maxAgeByType,
            Map<Precedence, Duration> maxAgeBestEffort, Map<Precedence, Duration> maxAgeReliable,
            KmtfCatalogue catalogue, InstantSource clock) {
        this.defaultAllow = defaultAllow;
        this.rules = List.copyOf(rules);
        this.rateLimits = Map.copyOf(rateLimits);
        this.supersedeKeys = Map.copyOf(supersedeKeys);
        this.maxAgeByType = Map.copyOf(maxAgeByType);
        this.maxAgeBestEffort = Map.copyOf(maxAgeBestEffort);
        this.maxAgeReliable = Map.copyOf(maxAgeReliable);
        this.bestEffortTypes = catalogue.types().stream().filter((t) -> t.reliability() == Reliability.BEST_EFFORT)
            .map(MessageType::id).collect(Collectors.toUnmodifiableSet());
        this.clock = clock;
    }

    /** The policy without a file: everything is relayed, nothing limited, superseded or expired. */
    public static RelayPolicy allowAll(KmtfCatalogue catalogue) {
        return new RelayPolicy(true, List.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), catalogue,
                InstantSource.system());
    }

    /**
     * Reads a policy (YAML, see docs/wan-gateway.md "Policy").
     *
     * @param source where the text came from, for messages
     * @throws PolicyException naming the line and value of every problem
     */
    public static RelayPolicy read(String text, String source, KmtfCatalogue catalogue, NanoClock nanoClock,
            InstantSource clock) {
        return new PolicyReader(source, catalogue, nanoClock, clock).read(text);
    }

    /**
     * What to do with a message arriving for the WAN: in this order, a deny rule ({@code denied}), too old
     * ({@code expired}), over its rate limit ({@code rate-limited}); otherwise relay, with its supersede key if its
     * type has one.
     */
    public PolicyDecision decide(Envelope envelope, MessageType type) {
        String id = type.id();
        if (!allows(id)) {
            return PolicyDecision.drop(DropReason.DENIED);
        }
        if (olderThanMaxAge(id, envelope.precedence(), envelope.createdAt(), this.clock.instant())) {
            return PolicyDecision.drop(DropReason.EXPIRED);
        }
        RateLimit limit = this.rateLimits.get(id);
        if (limit != null && !limit.tryAcquire()) {
            return PolicyDecision.drop(DropReason.RATE_LIMITED);
        }
        SupersedeKey key = this.supersedeKeys.get(id);
        return PolicyDecision.relay((key != null) ? key.of(envelope) : null);
    }

    /** Whether the allow/deny rules let this type through. */
    public boolean allows(String typeId) {
        for (Rule rule : this.rules) {
            if (rule.types().contains(typeId)) {
                return rule.allow();
            }
        }
        return this.defaultAllow;
    }

    /** Whether a waiting copy has grown older than its type's or precedence's maximum age. */
    @Override
    public boolean expired(Waiting copy, Instant now) {
        return olderThanMaxAge(copy.kmtfType(), copy.precedence(), copy.createdAt(), now);
    }

    /** The maximum age of a message of this type and precedence, if it has one. */
    public Optional<Duration> maxAge(String typeId, Precedence precedence) {
        Duration byType = this.maxAgeByType.get(typeId);
        if (byType != null) {
            return Optional.of(byType);
        }
        Map<Precedence, Duration> byPrecedence = this.bestEffortTypes.contains(typeId) ? this.maxAgeBestEffort
                : this.maxAgeReliable;
        return Optional.ofNullable(byPrecedence.get(precedence));
    }

    private boolean olderThanMaxAge(String typeId, Precedence precedence, Instant createdAt, Instant now) {
        Optional<Duration> maxAge = maxAge(typeId, precedence);
        return maxAge.isPresent() && createdAt.plus(maxAge.get()).isBefore(now);
    }

    /**
     * One allow/deny rule.
     *
     * @param allow allow or deny
     * @param pattern as written, for messages
     * @param types the type ids it matches
     */
    record Rule(boolean allow, String pattern, Set<String> types) {
    }

    /** One rate limit, shared by every type its entry matches. */
    static final class RateLimit {

        private final TokenBucket bucket;

        RateLimit(TokenBucket bucket) {
            this.bucket = bucket;
        }

        synchronized boolean tryAcquire() {
            return this.bucket.tryTake(1);
        }
    }

    /**
     * What identifies "the same thing" for superseding: the type and origin node always, and the value of one field
     * (or the whole text of one set) if configured. A message in which that set is missing, or that does not
     * parse, gets no key and is never superseded.
     *
     * @param setName the set to read, or {@code null} for type and origin only
     * @param field the 1-based field of the set, or 0 for all its fields
     */
    record SupersedeKey(@Nullable String setName, int field) {

        @Nullable String of(Envelope envelope) {
            String base = envelope.kmtfType() + "|" + envelope.origin();
            if (this.setName == null) {
                return base;
            }
            Optional<KmtfSet> set;
            try {
                set = PARSER.parse(envelope.text()).set(this.setName);
            }
            catch (KmtfParseException ex) {
                return null;
            }
            Optional<String> value = (this.field == 0)
                    ? set.map((s) -> s.fields().stream().map(KmtfField::raw).collect(Collectors.joining("/")))
                    : set.flatMap((s) -> s.field(this.field)).map(KmtfField::value);
            return value.map((v) -> base + "|" + v).orElse(null);
        }
    }
}
