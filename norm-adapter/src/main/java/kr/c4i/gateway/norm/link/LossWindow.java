package kr.c4i.gateway.norm.link;

/**
 * The loss of one peer's packets on their way here, over its last {@value #SIZE} objects that carry NORM info: the
 * object's info goes first, once, in a packet of its own with no parity, and an info that comes after the object's
 * data was lost on the first pass and repaired (see {@link LossReport}); and over the last {@value #RECENT} of them, so
 * loss that starts shows soon. Used on the link's event thread only.
 */
final class LossWindow {

    static final int SIZE = 200;
    /**
     * Samples an estimate needs before it is shown and parity on every frame follows it: at 30% loss, 20 give 10% to
     * 50% 39 times in 40. Urgent frames' parity follows the samples' upper bound from the first one.
     */
    static final int MIN_SAMPLES = 20;

    /**
     * The last samples that can raise the parity on their own: loss that starts (a jammer, a fade) shows in them
     * after some 15 s at 128 kbit/s, where the whole window took a minute and more to reach the next step.
     */
    static final int RECENT = 32;

    private final boolean[] lost = new boolean[SIZE];
    private int next;
    private int samples;
    private int lostCount;

    /** One object's info arrived after its data ({@code late}) or before it. */
    void record(boolean late) {
        if (this.samples == SIZE) {
            this.lostCount -= this.lost[this.next] ? 1 : 0;
        }
        else {
            this.samples++;
        }
        this.lost[this.next] = late;
        this.lostCount += late ? 1 : 0;
        this.next = (this.next + 1) % SIZE;
    }

    /** Objects the window holds. */
    int samples() {
        return this.samples;
    }

    /** Of those, the ones whose info was lost. */
    int lost() {
        return this.lostCount;
    }

    /** Of the last {@value #RECENT} samples (fewer until there are that many), the ones whose info was lost. */
    int recentLost() {
        int lostRecently = 0;
        for (int i = 1; i <= recentSamples(); i++) {
            lostRecently += this.lost[Math.floorMod(this.next - i, SIZE)] ? 1 : 0;
        }
        return lostRecently;
    }

    int recentSamples() {
        return Math.min(this.samples, RECENT);
    }
}
