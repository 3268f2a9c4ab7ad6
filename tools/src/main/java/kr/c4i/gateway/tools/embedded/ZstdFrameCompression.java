package kr.c4i.gateway.tools.embedded;

import java.util.Arrays;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;

import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.frame.FrameFormatException;

/**
 * zstd with a dictionary, as a frame compression, for {@code wan-bytes} to measure against the gateway's Deflate:
 * magic-less frames without dictionary id or checksum (the WAN frame has its own), the content size kept so a
 * receiver can bound what it restores.
 */
final class ZstdFrameCompression implements FrameCompression {

    private final int id;
    private final String name;
    /** A context per thread, each with the dictionary digested once for all. */
    private final ThreadLocal<ZstdCompressCtx> compressor;
    private final ThreadLocal<ZstdDecompressCtx> decompressor;

    ZstdFrameCompression(int id, String name, byte[] dictionary, int level) {
        this.id = id;
        this.name = name;
        ZstdDictCompress compressDictionary = new ZstdDictCompress(dictionary, level);
        ZstdDictDecompress decompressDictionary = new ZstdDictDecompress(dictionary);
        this.compressor = ThreadLocal.withInitial(() -> new ZstdCompressCtx().setLevel(level).setMagicless(true)
                .setDictID(false).setChecksum(false).setContentSize(true).loadDict(compressDictionary));
        this.decompressor = ThreadLocal.withInitial(
                () -> new ZstdDecompressCtx().setMagicless(true).loadDict(decompressDictionary));
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] compress(byte[] block, int length) {
        byte[] out = new byte[(int) Zstd.compressBound(length)];
        int size = compressor.get().compressByteArray(out, 0, out.length, block, 0, length);
        return Arrays.copyOf(out, size);
    }

    @Override
    public byte[] decompress(byte[] frame, int offset, int length, int maxLength)
            throws FrameFormatException {
        long size = Zstd.getFrameContentSize(frame, offset, length, true);
        if (size < 0 || size > maxLength) {
            throw new FrameFormatException("Invalid frame: zstd block of unknown size or over " + maxLength + " bytes");
        }
        byte[] out = new byte[(int) size];
        try {
            int restored = decompressor.get().decompressByteArray(out, 0, out.length, frame, offset, length);
            if (restored != size) {
                throw new FrameFormatException("Invalid frame: zstd block restored to " + restored + " bytes, not "
                        + size);
            }
            return out;
        }
        catch (ZstdException ex) {
            throw new FrameFormatException("Invalid frame: corrupt zstd block (" + ex.getMessage() + ")", ex);
        }
    }
}
