package kr.c4i.gateway.wan.schedule;

import java.time.Duration;

/** A nanosecond clock that moves only when the test says. */
final class FakeNanoClock implements NanoClock {

    private long now = 1_000_000_000L;

    @Override
    public long nanoTime() {
        return this.now;
    }

    void advance(long nanos) {
        this.now += nanos;
    }

    void advance(Duration duration) {
        advance(duration.toNanos());
    }
}
