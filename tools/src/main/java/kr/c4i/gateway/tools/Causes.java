package kr.c4i.gateway.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A failure and its causes, outermost first, each once: how the tools find what went wrong under the layers a
 * node's Spring context wraps around it, even in a chain that loops.
 */
public final class Causes {

    private Causes() {
    }

    public static List<Throwable> of(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }
}
