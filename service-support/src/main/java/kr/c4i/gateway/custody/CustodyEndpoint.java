package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * {@code /actuator/custody/<message id>}: what this node's or gateway's custody log knows of a message, every step and
 * its last known position ({@link CustodyTrail}); a message it has not seen answers so, with whose database was asked.
 * A message id with {@code /} in it is the rest of the path. On the management listener, behind its credential.
 */
@WebEndpoint(id = "custody")
public final class CustodyEndpoint {

    private final DataSource dataSource;

    public CustodyEndpoint(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @ReadOperation
    public WebEndpointResponse<Object> trail(@Selector(match = Match.ALL_REMAINING) String[] messageId) {
        String id = String.join("/", messageId);
        try (Connection c = dataSource.getConnection()) {
            return new WebEndpointResponse<>(CustodyTrail.of(id, List.of(CustodyLogReader.read(c, id))));
        }
        catch (SQLException ex) {
            return new WebEndpointResponse<>(Map.of("messageId", id, "error", "Unable to read the custody log: "
                    + ex.getMessage()), WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }
}
