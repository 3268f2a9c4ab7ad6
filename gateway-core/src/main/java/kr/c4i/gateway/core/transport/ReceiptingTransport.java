package kr.c4i.gateway.core.transport;

/**
 * A transport whose {@link #send} cannot store messages durably on its first hop (DDS keeps them
 * only in the writer's memory). It reports end-to-end receipts instead: the sender keeps each
 * message until every destination has receipted it and republishes what stays unreceipted, so a
 * sender killed mid-stream resends on restart and nothing is lost.
 */
public interface ReceiptingTransport extends Transport {

    /** Registers the handler for receipts from receiving nodes; call before {@link #subscribe}. */
    void onReceipts(ReceiptHandler handler);
}
