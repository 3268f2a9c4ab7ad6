package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.List;

import kr.c4i.gateway.dds.IdlStrings;
import kr.c4i.gateway.dds.Member;
import kr.c4i.gateway.dds.MemberKind;
import kr.c4i.gateway.dds.SampleEncoder;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.TypeLayout;

/**
 * Builds one sample in the C layout idlc would generate, in memory of the caller's allocator: the participant's
 * write scratch or a per-call arena. Strings and sequence buffers come from the same allocator; {@code dds_write}
 * serialises before it returns, so the memory may be reused then. The memory need not be zeroed: every member, the
 * whole of every sequence header and each string's terminating NUL are written.
 */
final class NativeSampleEncoder implements SampleEncoder {

    private final SegmentAllocator allocator;
    private final MemorySegment sample;
    private final TypeLayout layout;
    private final String typeName;
    private int index;

    NativeSampleEncoder(SegmentAllocator allocator, TypeLayout layout, String typeName) {
        this.allocator = allocator;
        this.layout = layout;
        this.typeName = typeName;
        this.sample = allocator.allocate(layout.size(), layout.align());
    }

    MemorySegment finish() {
        if (this.index != this.layout.members().size()) {
            throw new IllegalStateException("The codec of " + this.typeName + " encoded " + this.index + " of "
                    + this.layout.members().size() + " members");
        }
        return this.sample;
    }

    @Override
    public void int32(int value) {
        this.sample.set(JAVA_INT, next(MemberKind.INT32), value);
    }

    @Override
    public void uint32(int value) {
        this.sample.set(JAVA_INT, next(MemberKind.UINT32), value);
    }

    @Override
    public void int64(long value) {
        this.sample.set(JAVA_LONG, next(MemberKind.INT64), value);
    }

    @Override
    public void uint64(long value) {
        this.sample.set(JAVA_LONG, next(MemberKind.UINT64), value);
    }

    @Override
    public void enumerator(int ordinal) {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.ENUM);
        if (ordinal < 0 || ordinal >= member.enumerators().size()) {
            throw new IllegalArgumentException(name(member) + ": enumerator " + ordinal + " is out of range 0.."
                    + (member.enumerators().size() - 1));
        }
        this.sample.set(JAVA_INT, offset, ordinal);
    }

    @Override
    public void string(String value) {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.STRING);
        this.sample.set(ADDRESS, offset, cString(value, name(member)));
    }

    @Override
    public void octets(byte[] value) {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.OCTET_SEQUENCE);
        if (value == null) {
            throw new IllegalArgumentException(name(member) + " is null");
        }
        MemorySegment buffer = MemorySegment.NULL;
        if (value.length > 0) {
            // Copied from the array directly: allocateFrom(byte[]) would wrap it in a heap segment first.
            buffer = this.allocator.allocate(value.length);
            MemorySegment.copy(value, 0, buffer, JAVA_BYTE, 0, value.length);
        }
        sequence(offset, value.length, buffer);
    }

    @Override
    public void strings(List<String> value) {
        Member member = this.layout.members().get(this.index);
        long offset = next(MemberKind.STRING_SEQUENCE);
        if (value == null) {
            throw new IllegalArgumentException(name(member) + " is null");
        }
        MemorySegment buffer = MemorySegment.NULL;
        if (!value.isEmpty()) {
            buffer = this.allocator.allocate(ADDRESS, value.size());
            for (int i = 0; i < value.size(); i++) {
                buffer.setAtIndex(ADDRESS, i, cString(value.get(i), name(member) + "[" + i + "]"));
            }
        }
        sequence(offset, value.size(), buffer);
    }

    private void sequence(long offset, int length, MemorySegment buffer) {
        this.sample.set(JAVA_INT, offset + DdscLayouts.SEQUENCE_MAXIMUM, length);
        this.sample.set(JAVA_INT, offset + DdscLayouts.SEQUENCE_LENGTH, length);
        this.sample.set(ADDRESS, offset + DdscLayouts.SEQUENCE_BUFFER, buffer);
        // The buffer belongs to the allocator, never to Cyclone.
        this.sample.set(JAVA_BOOLEAN, offset + DdscLayouts.SEQUENCE_RELEASE, false);
    }

    private MemorySegment cString(String value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        byte[] bytes = IdlStrings.encode(value, what);
        MemorySegment segment = this.allocator.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, segment, JAVA_BYTE, 0, bytes.length);
        segment.set(JAVA_BYTE, bytes.length, (byte) 0);
        return segment;
    }

    private long next(MemberKind kind) {
        List<Member> members = this.layout.members();
        if (this.index >= members.size()) {
            throw new IllegalStateException("The codec of " + this.typeName + " encodes more than its "
                    + members.size() + " members");
        }
        Member member = members.get(this.index);
        if (member.kind() != kind) {
            throw new IllegalStateException("The codec of " + this.typeName + " encodes " + kind + " for member "
                    + member.name() + ", declared " + member.kind());
        }
        return this.layout.offset(this.index++);
    }

    private String name(Member member) {
        return "Member " + member.name() + " of " + this.typeName;
    }
}
