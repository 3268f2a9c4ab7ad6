package kr.c4i.gateway.dds.cyclone.internal;

import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_ADR;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_FLAG_SGN;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_FLAG_SZ_SHIFT;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_RTS;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_SUBTYPE_SHIFT;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_TYPE_SHIFT;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_1BY;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_4BY;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_8BY;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_ENU;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_SEQ;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.DDS_OP_VAL_STR;
import static kr.c4i.gateway.dds.cyclone.internal.DdscLayouts.TOPIC_DESCRIPTOR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.Member;
import kr.c4i.gateway.dds.MemberKind;

/**
 * How Cyclone sees a {@link DataType}: the C struct idlc would generate for it (member offsets, size, alignment,
 * x86_64 rules) and the serializer program ({@code m_ops}) idlc would emit for a keyless {@code @final} struct.
 * IdlcDescriptorTest compares both with idlc's output for {@code src/main/idl/kmtf.idl}.
 */
public final class TypeLayout {

    /** {@code DDS_TOPIC_FIXED_SIZE}: set by idlc when a type has no strings or sequences. */
    static final int DDS_TOPIC_FIXED_SIZE = 1 << 4;

    private static final VarHandle M_SIZE = field("m_size");
    private static final VarHandle M_ALIGN = field("m_align");
    private static final VarHandle M_FLAGSET = field("m_flagset");
    private static final VarHandle M_NKEYS = field("m_nkeys");
    private static final VarHandle M_TYPENAME = field("m_typename");
    private static final VarHandle M_KEYS = field("m_keys");
    private static final VarHandle M_NOPS = field("m_nops");
    private static final VarHandle M_OPS = field("m_ops");
    private static final VarHandle M_META = field("m_meta");

    private final String typeName;
    private final List<Member> members;
    private final long[] offsets;
    private final long size;
    private final long align;
    private final int[] ops;
    private final int nops;
    private final int flagset;

    private TypeLayout(DataType<?> type) {
        this.typeName = type.name();
        this.members = type.members();
        this.offsets = new long[this.members.size()];
        long offset = 0;
        long maxAlign = 1;
        boolean fixedSize = true;
        int[] program = new int[this.members.size() * 3 + 1];
        int words = 0;
        for (int i = 0; i < this.members.size(); i++) {
            Member member = this.members.get(i);
            long memberSize = sizeOf(member.kind());
            long memberAlign = memberSize == 24 ? 8 : memberSize;
            offset = align(offset, memberAlign);
            this.offsets[i] = offset;
            offset += memberSize;
            maxAlign = Math.max(maxAlign, memberAlign);
            fixedSize &= member.kind() != MemberKind.STRING && member.kind() != MemberKind.OCTET_SEQUENCE
                    && member.kind() != MemberKind.STRING_SEQUENCE;
            program[words++] = opcode(member.kind());
            program[words++] = Math.toIntExact(this.offsets[i]);
            if (member.kind() == MemberKind.ENUM) {
                program[words++] = member.enumerators().size() - 1;
            }
        }
        program[words++] = DDS_OP_RTS;
        this.ops = java.util.Arrays.copyOf(program, words);
        this.nops = this.members.size() + 1;
        this.size = align(offset, maxAlign);
        this.align = maxAlign;
        this.flagset = fixedSize ? DDS_TOPIC_FIXED_SIZE : 0;
    }

    public static TypeLayout of(DataType<?> type) {
        return new TypeLayout(type);
    }

    /** {@code sizeof} the generated C struct. */
    public long size() {
        return this.size;
    }

    /** {@code dds_alignof} the generated C struct. */
    public long align() {
        return this.align;
    }

    public long offset(int member) {
        return this.offsets[member];
    }

    public List<Member> members() {
        return this.members;
    }

    /** The serializer program, one int per 32-bit word, ending with {@code DDS_OP_RTS}. */
    public int[] ops() {
        return this.ops.clone();
    }

    /** {@code m_nops}: instructions (one per member plus RTS), not words. */
    public int nops() {
        return this.nops;
    }

    public int flagset() {
        return this.flagset;
    }

    /**
     * Writes a {@code dds_topic_descriptor_t}, with its type name and ops, into {@code arena}. Cyclone 0.10.2
     * copies what it needs in {@code dds_create_topic}, but the descriptor is still allocated in an arena that
     * lives as long as the participant, so a binding for a Cyclone that keeps the pointers stays correct.
     * Type information and type mapping stay empty: endpoints match on the type name, as with vendors that do not
     * send XTypes type objects.
     */
    public MemorySegment descriptor(Arena arena) {
        MemorySegment descriptor = arena.allocate(TOPIC_DESCRIPTOR);
        MemorySegment opsSegment = arena.allocateFrom(ValueLayout.JAVA_INT, this.ops);
        M_SIZE.set(descriptor, 0L, Math.toIntExact(this.size));
        M_ALIGN.set(descriptor, 0L, Math.toIntExact(this.align));
        M_FLAGSET.set(descriptor, 0L, this.flagset);
        M_NKEYS.set(descriptor, 0L, 0);
        M_TYPENAME.set(descriptor, 0L, arena.allocateFrom(this.typeName));
        M_KEYS.set(descriptor, 0L, MemorySegment.NULL);
        M_NOPS.set(descriptor, 0L, this.nops);
        M_OPS.set(descriptor, 0L, opsSegment);
        M_META.set(descriptor, 0L, arena.allocateFrom(""));
        return descriptor;
    }

    @Override
    public String toString() {
        return "TypeLayout[" + this.typeName + ", size " + this.size + ", align " + this.align + "]";
    }

    static long sizeOf(MemberKind kind) {
        return switch (kind) {
            case INT32, UINT32, ENUM -> 4;
            case INT64, UINT64, STRING -> 8;
            case OCTET_SEQUENCE, STRING_SEQUENCE -> DdscLayouts.SEQUENCE.byteSize();
        };
    }

    private static int opcode(MemberKind kind) {
        return switch (kind) {
            case INT32 -> DDS_OP_ADR | DDS_OP_VAL_4BY << DDS_OP_TYPE_SHIFT | DDS_OP_FLAG_SGN;
            case UINT32 -> DDS_OP_ADR | DDS_OP_VAL_4BY << DDS_OP_TYPE_SHIFT;
            case INT64 -> DDS_OP_ADR | DDS_OP_VAL_8BY << DDS_OP_TYPE_SHIFT | DDS_OP_FLAG_SGN;
            case UINT64 -> DDS_OP_ADR | DDS_OP_VAL_8BY << DDS_OP_TYPE_SHIFT;
            // Size flag 2 = 1 << 2 = 4-byte enum, as idlc 0.10 emits for a plain IDL enum.
            case ENUM -> DDS_OP_ADR | DDS_OP_VAL_ENU << DDS_OP_TYPE_SHIFT | 2 << DDS_OP_FLAG_SZ_SHIFT;
            case STRING -> DDS_OP_ADR | DDS_OP_VAL_STR << DDS_OP_TYPE_SHIFT;
            case OCTET_SEQUENCE -> DDS_OP_ADR | DDS_OP_VAL_SEQ << DDS_OP_TYPE_SHIFT
                    | DDS_OP_VAL_1BY << DDS_OP_SUBTYPE_SHIFT;
            case STRING_SEQUENCE -> DDS_OP_ADR | DDS_OP_VAL_SEQ << DDS_OP_TYPE_SHIFT
                    | DDS_OP_VAL_STR << DDS_OP_SUBTYPE_SHIFT;
        };
    }

    private static long align(long offset, long alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }

    private static VarHandle field(String name) {
        return TOPIC_DESCRIPTOR.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement(name));
    }
}
