/*
 * A disk slower to sync than this machine's, for measuring what sync time costs the bridge: preloaded into a process
 * (and so into what it starts, such as the embedded PostgreSQL servers), it delays every fsync() and fdatasync() by
 * SLOW_SYNC_US microseconds before the real call; with SLOW_SYNC_LOG set to a directory, each process writes there at
 * its exit how many syncs it made. The JVM's FileChannel.force() reaches these through libc, as PostgreSQL's
 * wal_sync_method=fdatasync does. Writes opened with O_SYNC or O_DSYNC are not delayed.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/slow_sync.so tools/slow-sync/slow_sync.c -ldl
 *   SLOW_SYNC_US=5000 LD_PRELOAD=/tmp/slow_sync.so bin/gateway demo
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long syncs;

static void wait_as_a_slow_disk(void) {
    static long delay_us = -1;
    if (delay_us < 0) {
        const char *value = getenv("SLOW_SYNC_US");
        delay_us = value ? atol(value) : 0;
    }
    if (delay_us > 0) {
        usleep((useconds_t) delay_us);
    }
    atomic_fetch_add(&syncs, 1);
}

/* The real call once it has waited; *real is resolved at the first call. */
static int synced(int fd, const char *name, int (**real)(int)) {
    if (!*real) {
        *real = (int (*)(int)) dlsym(RTLD_NEXT, name);
    }
    wait_as_a_slow_disk();
    return (*real)(fd);
}

int fsync(int fd) {
    static int (*real)(int);
    return synced(fd, "fsync", &real);
}

int fdatasync(int fd) {
    static int (*real)(int);
    return synced(fd, "fdatasync", &real);
}

__attribute__((destructor)) static void report(void) {
    const char *dir = getenv("SLOW_SYNC_LOG");
    if (!dir || atomic_load(&syncs) == 0) {
        return;
    }
    char path[4096], name[256] = "?";
    FILE *comm = fopen("/proc/self/cmdline", "r");
    if (comm) {
        size_t n = fread(name, 1, sizeof name - 1, comm);
        name[n] = 0;
        fclose(comm);
    }
    snprintf(path, sizeof path, "%s/%d", dir, (int) getpid());
    FILE *out = fopen(path, "w");
    if (out) {
        fprintf(out, "%ld %s\n", atomic_load(&syncs), name);
        fclose(out);
    }
}
