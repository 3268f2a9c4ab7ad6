package kr.c4i.gateway.dds;

/**
 * A DDS call failed. There is one subclass per standard DDS return code (the {@code ReturnCode_t} of the DDS
 * specification, which every vendor reports), so callers can catch exactly the failures they can handle, such as
 * {@link Timeout} when a reliable writer's history stays full. The message names the native call and the
 * vendor's text for the code.
 */
public abstract sealed class DdsException extends RuntimeException {

    private final int code;
    private final String operation;

    private DdsException(int code, String operation, String detail) {
        super(operation + " failed: " + detail + " (DDS return code " + code + ")");
        this.code = code;
        this.operation = operation;
    }

    /**
     * The exception for a failed call, for bindings to throw.
     *
     * @param code the return code as the DDS specification numbers it (positive, 1 for ERROR); codes a vendor
     *        defines beyond the standard ones become {@link Other}
     * @param operation the name of the call that failed, e.g. {@code dds_create_topic}
     * @param detail the vendor's text for the code
     */
    public static DdsException of(int code, String operation, String detail) {
        return switch (code) {
            case 2 -> new Unsupported(operation, detail);
            case 3 -> new BadParameter(operation, detail);
            case 4 -> new PreconditionNotMet(operation, detail);
            case 5 -> new OutOfResources(operation, detail);
            case 6 -> new NotEnabled(operation, detail);
            case 7 -> new ImmutablePolicy(operation, detail);
            case 8 -> new InconsistentPolicy(operation, detail);
            case 9 -> new AlreadyDeleted(operation, detail);
            case 10 -> new Timeout(operation, detail);
            case 11 -> new NoData(operation, detail);
            case 12 -> new IllegalOperation(operation, detail);
            case 13 -> new NotAllowedBySecurity(operation, detail);
            case 1 -> new Unspecified(operation, detail);
            default -> new Other(code, operation, detail);
        };
    }

    /** The DDS return code (positive, as the specification numbers them). */
    public int code() {
        return this.code;
    }

    /** The native call that failed. */
    public String operation() {
        return this.operation;
    }

    /** DDS ERROR: a failure the vendor does not classify further. */
    public static final class Unspecified extends DdsException {
        Unspecified(String operation, String detail) {
            super(1, operation, detail);
        }
    }

    /** DDS UNSUPPORTED. */
    public static final class Unsupported extends DdsException {
        Unsupported(String operation, String detail) {
            super(2, operation, detail);
        }
    }

    /** DDS BAD_PARAMETER: an argument, a QoS value or a handle was not acceptable. */
    public static final class BadParameter extends DdsException {
        BadParameter(String operation, String detail) {
            super(3, operation, detail);
        }
    }

    /** DDS PRECONDITION_NOT_MET, e.g. creating a domain that already exists in this process. */
    public static final class PreconditionNotMet extends DdsException {
        PreconditionNotMet(String operation, String detail) {
            super(4, operation, detail);
        }
    }

    /** DDS OUT_OF_RESOURCES: a resource limit was reached. */
    public static final class OutOfResources extends DdsException {
        OutOfResources(String operation, String detail) {
            super(5, operation, detail);
        }
    }

    /** DDS NOT_ENABLED. */
    public static final class NotEnabled extends DdsException {
        NotEnabled(String operation, String detail) {
            super(6, operation, detail);
        }
    }

    /** DDS IMMUTABLE_POLICY. */
    public static final class ImmutablePolicy extends DdsException {
        ImmutablePolicy(String operation, String detail) {
            super(7, operation, detail);
        }
    }

    /** DDS INCONSISTENT_POLICY: QoS values contradict each other. */
    public static final class InconsistentPolicy extends DdsException {
        InconsistentPolicy(String operation, String detail) {
            super(8, operation, detail);
        }
    }

    /** DDS ALREADY_DELETED: the entity is gone, usually because its participant was closed. */
    public static final class AlreadyDeleted extends DdsException {
        AlreadyDeleted(String operation, String detail) {
            super(9, operation, detail);
        }
    }

    /** DDS TIMEOUT: a reliable writer's history stayed full for the QoS's maximum blocking time. */
    public static final class Timeout extends DdsException {
        Timeout(String operation, String detail) {
            super(10, operation, detail);
        }
    }

    /** DDS NO_DATA. */
    public static final class NoData extends DdsException {
        NoData(String operation, String detail) {
            super(11, operation, detail);
        }
    }

    /** DDS ILLEGAL_OPERATION: the call does not apply to this kind of entity or in this state. */
    public static final class IllegalOperation extends DdsException {
        IllegalOperation(String operation, String detail) {
            super(12, operation, detail);
        }
    }

    /** DDS NOT_ALLOWED_BY_SECURITY. */
    public static final class NotAllowedBySecurity extends DdsException {
        NotAllowedBySecurity(String operation, String detail) {
            super(13, operation, detail);
        }
    }

    /** A vendor-specific code beyond the standard ones; {@link #code()} keeps it. */
    public static final class Other extends DdsException {
        Other(int code, String operation, String detail) {
            super(code, operation, detail);
        }
    }
}
