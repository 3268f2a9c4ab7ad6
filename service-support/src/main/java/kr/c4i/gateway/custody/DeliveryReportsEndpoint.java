package kr.c4i.gateway.custody;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

import kr.c4i.gateway.core.NodeId;

/**
 * {@code /actuator/reports/<node>?after=<id>&limit=<n>}: the fates of a node's messages that this node or gateway
 * knows ({@link DeliveryReports}): a site's gateway its own steps and those the sites further on forwarded to it, a
 * node what it did with the messages the node sent it; for the node's bridge to write as delivery reports into its
 * interface database. The answer's {@code next} is the cursor to ask after next. On the management listener, behind
 * its credential.
 */
@WebEndpoint(id = "reports")
public final class DeliveryReportsEndpoint {

    /** How many reports an answer holds unless the caller asks for fewer. */
    static final int DEFAULT_LIMIT = 500;

    private final DeliveryReports reports;

    public DeliveryReportsEndpoint(DeliveryReports reports) {
        this.reports = reports;
    }

    @ReadOperation
    public WebEndpointResponse<Object> reports(@Selector String node, @Nullable Long after, @Nullable Integer limit) {
        if (!NodeId.isValid(node)) {
            return error(node, "'" + node + "' is not a node id", WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        long from = after == null ? 0 : after;
        int most = limit == null ? DEFAULT_LIMIT : limit;
        if (from < 0 || most < 1 || most > DeliveryReports.MAX_LIMIT) {
            return error(node, "after must be 0 or more and limit 1 to " + DeliveryReports.MAX_LIMIT,
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        try {
            List<DeliveryReports.Report> found = reports.after(NodeId.of(node), from, most);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("node", node);
            answer.put("after", from);
            answer.put("next", found.isEmpty() ? from : found.getLast().id());
            answer.put("reports", found);
            return new WebEndpointResponse<>(answer);
        }
        catch (SQLException ex) {
            return error(node, "Unable to read the custody log: " + ex.getMessage(),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }

    private static WebEndpointResponse<Object> error(String node, String message, int status) {
        return new WebEndpointResponse<>(Map.of("node", node, "error", message), status);
    }
}
