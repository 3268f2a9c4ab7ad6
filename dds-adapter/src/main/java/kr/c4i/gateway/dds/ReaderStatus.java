package kr.c4i.gateway.dds;

/**
 * What a reader knows about its writers and the samples it missed. Counts are cumulative since creation.
 *
 * @param matchedWriters writers matched now
 * @param samplesLost samples the middleware knows were lost before reaching this reader (gaps on BEST_EFFORT)
 * @param samplesRejected samples the reader refused, e.g. for resource limits
 * @param undecodable samples received intact but dropped because they did not decode (bad UTF-8, a value the
 *        codec refused)
 */
public record ReaderStatus(int matchedWriters, long samplesLost, long samplesRejected, long undecodable) {
}
