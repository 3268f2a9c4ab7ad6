package kr.c4i.gateway.dds;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A keyless, {@code @final} IDL struct described in Java, with the codec that maps it to a Java type. Bindings
 * derive their wire description from the members (Cyclone: the topic descriptor and its serializer ops), so the
 * member list must match the IDL that other vendors compile, member for member.
 *
 * <pre>{@code
 * DataType<Ping> PING = DataType.<Ping>builder("demo::Ping")
 *         .string("text").uint64("seq")
 *         .build(new SampleCodec<>() { ... });
 * }</pre>
 *
 * @param <T> the Java type of a sample
 */
public final class DataType<T> {

    private static final Pattern SCOPED_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*(::[A-Za-z][A-Za-z0-9_]*)*");

    private final String name;
    private final List<Member> members;
    private final SampleCodec<T> codec;

    private DataType(String name, List<Member> members, SampleCodec<T> codec) {
        this.name = name;
        this.members = List.copyOf(members);
        this.codec = codec;
    }

    /**
     * @param name the fully scoped IDL name, e.g. {@code kmtf::KmtfMessage}; it is what remote endpoints match on
     */
    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    /** The fully scoped IDL type name. */
    public String name() {
        return this.name;
    }

    /** The members in declaration order. */
    public List<Member> members() {
        return this.members;
    }

    public SampleCodec<T> codec() {
        return this.codec;
    }

    @Override
    public String toString() {
        return "DataType[" + this.name + ", " + this.members.size() + " members]";
    }

    /** Collects members in declaration order. */
    public static final class Builder<T> {

        private final String name;
        private final List<Member> members = new ArrayList<>();
        private final Set<String> names = new HashSet<>();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!SCOPED_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("Invalid IDL type name '" + name + "': use module::Name");
            }
            this.name = name;
        }

        public Builder<T> int32(String member) {
            return add(member, MemberKind.INT32, List.of());
        }

        public Builder<T> uint32(String member) {
            return add(member, MemberKind.UINT32, List.of());
        }

        public Builder<T> int64(String member) {
            return add(member, MemberKind.INT64, List.of());
        }

        public Builder<T> uint64(String member) {
            return add(member, MemberKind.UINT64, List.of());
        }

        public Builder<T> enumeration(String member, List<String> enumerators) {
            return add(member, MemberKind.ENUM, enumerators);
        }

        public Builder<T> string(String member) {
            return add(member, MemberKind.STRING, List.of());
        }

        public Builder<T> octets(String member) {
            return add(member, MemberKind.OCTET_SEQUENCE, List.of());
        }

        public Builder<T> strings(String member) {
            return add(member, MemberKind.STRING_SEQUENCE, List.of());
        }

        public DataType<T> build(SampleCodec<T> codec) {
            Objects.requireNonNull(codec, "codec");
            if (this.members.isEmpty()) {
                throw new IllegalArgumentException("Type " + this.name + " has no members");
            }
            return new DataType<>(this.name, this.members, codec);
        }

        private Builder<T> add(String member, MemberKind kind, List<String> enumerators) {
            if (!this.names.add(member)) {
                throw new IllegalArgumentException("Type " + this.name + " declares member " + member + " twice");
            }
            this.members.add(new Member(member, kind, enumerators));
            return this;
        }
    }
}
