package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import kr.c4i.gateway.dds.IdlStrings;
import kr.c4i.gateway.dds.Member;
import kr.c4i.gateway.dds.MemberKind;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.TypeLayout;

/**
 * Reads one sample lent by {@code dds_take}, copying every value onto the Java heap, so nothing refers to lent
 * memory after the loan is returned. One instance per sample.
 */
final class NativeSampleDecoder implements SampleDecoder {

    /** Longest string accepted from the wire; longer ones are treated as corrupt. */
    static final int MAX_STRING_BYTES = 1 << 20;

    private final MemorySegment sample;
    private final TypeLayout layout;
    private final String typeName;
    private int index;

    NativeSampleDecoder(MemorySegment sample, TypeLayout layout, String typeName) {
        this.sample = sample.reinterpret(layout.size());
        this.layout = layout;
        this.typeName = typeName;
    }

    void finish() {
        if (this.index != this.layout.members().size()) {
            throw new IllegalStateException("The codec of " + this.typeName + " decoded " + this.index + " of "
                    + this.layout.members().size() + " members");
        }
    }

    @Override
    public int int32() {
        return this.sample.get(JAVA_INT, next(MemberKind.INT32));
    }

    @Override
    public int uint32() {
        return this.sample.get(JAVA_INT, next(MemberKind.UINT32));
    }

    @Override
    public long int64() {
        return this.sample.get(JAVA_LONG, next(MemberKind.INT64));
    }

    @Override
    public long uint64() {
        return this.sample.get(JAVA_LONG, next(MemberKind.UINT64));
    }

    @Override
    public int enumerator() {
        Member member = this.layout.members().get(this.index);
        int value = this.sample.get(JAVA_INT, next(MemberKind.ENUM));
        if (value < 0 || value >= member.enumerators().size()) {
            throw new IllegalArgumentException(name(member) + ": enumerator " + Integer.toUnsignedString(value)
                    + " is out of range");
        }
        return value;
    }

    @Override
    public String string() {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.STRING);
        return readString(this.sample.get(ADDRESS, offset), name(member));
    }

    @Override
    public byte[] octets() {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.OCTET_SEQUENCE);
        int length = this.sample.get(JAVA_INT, offset + DdscLayouts.SEQUENCE_LENGTH);
        MemorySegment buffer = this.sample.get(ADDRESS, offset + DdscLayouts.SEQUENCE_BUFFER);
        if (length == 0) {
            return new byte[0];
        }
        if (length < 0 || buffer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name(member) + ": corrupt sequence of length "
                    + Integer.toUnsignedString(length));
        }
        return buffer.reinterpret(length).toArray(JAVA_BYTE);
    }

    @Override
    public List<String> strings() {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.STRING_SEQUENCE);
        int length = this.sample.get(JAVA_INT, offset + DdscLayouts.SEQUENCE_LENGTH);
        MemorySegment buffer = this.sample.get(ADDRESS, offset + DdscLayouts.SEQUENCE_BUFFER);
        if (length == 0) {
            return List.of();
        }
        if (length < 0 || buffer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name(member) + ": corrupt sequence of length "
                    + Integer.toUnsignedString(length));
        }
        MemorySegment pointers = buffer.reinterpret(ADDRESS.byteSize() * length);
        List<String> values = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            values.add(readString(pointers.getAtIndex(ADDRESS, i), name(member) + "[" + i + "]"));
        }
        return values;
    }

    private static String readString(MemorySegment pointer, String what) {
        if (pointer.equals(MemorySegment.NULL)) {
            return "";
        }
        MemorySegment text = pointer.reinterpret(MAX_STRING_BYTES + 1L);
        int length = 0;
        while (text.get(JAVA_BYTE, length) != 0) {
            if (++length > MAX_STRING_BYTES) {
                throw new IllegalArgumentException(what + " is longer than " + MAX_STRING_BYTES + " bytes");
            }
        }
        return IdlStrings.decode(text.asSlice(0, length).toArray(JAVA_BYTE), what);
    }

    private long next(MemberKind kind) {
        List<Member> members = this.layout.members();
        if (this.index >= members.size()) {
            throw new IllegalStateException("The codec of " + this.typeName + " decodes more than its "
                    + members.size() + " members");
        }
        Member member = members.get(this.index);
        if (member.kind() != kind) {
            throw new IllegalStateException("The codec of " + this.typeName + " decodes " + kind + " for member "
                    + member.name() + ", declared " + member.kind());
        }
        return this.layout.offset(this.index++);
    }

    private String name(Member member) {
        return "Member " + member.name() + " of " + this.typeName;
    }
}
