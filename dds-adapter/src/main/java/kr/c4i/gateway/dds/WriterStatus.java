package kr.c4i.gateway.dds;

/**
 * What a writer knows about its readers.
 *
 * @param matchedReaders readers matched now
 * @param totalMatchedReaders readers ever matched
 */
public record WriterStatus(int matchedReaders, int totalMatchedReaders) {
}
