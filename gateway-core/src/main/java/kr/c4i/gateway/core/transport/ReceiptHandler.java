package kr.c4i.gateway.core.transport;

import java.util.List;

import kr.c4i.gateway.core.NodeId;

/** Told which messages a receiving node has made durable in its inbox. */
@FunctionalInterface
public interface ReceiptHandler {

    void receipted(NodeId receiver, List<String> messageIds);
}
