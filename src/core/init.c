/*
 * ABT_init / ABT_finalize: bring the runtime up and down.
 *
 * Init is reference counted: only the first call builds anything, only the
 * last finalize tears it down, and a new init afterwards starts afresh (IDs
 * restart at zero, the environment is read again). The thread that makes the
 * first call becomes the primary ES, and its current code the primary ULT.
 */
#include <sched.h>
#include <stdlib.h>

#include "bb_mem.h"
#include "bb_overflow.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sanitizer.h"
#include "bb_sched.h"
#include "bb_tool.h"
#include "bb_wait.h"
#include "bb_xstream.h"

struct bb_runtime bb_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Serializes ABT_init and ABT_finalize; bb_rt.lock guards the ES table. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* The last ABT_finalize holds init_lock while it tears the runtime down, and
 * meanwhile runs user code: the units left in the pools (and their tool and
 * future callbacks), the free callbacks of schedulers and pools, the primary
 * ULT's key destructors. A call to ABT_init or ABT_finalize from there would
 * wait for init_lock for ever (the tear-down waits for that code, or is that
 * very thread). So while `tearing_down` is set, a caller that is that code -
 * the finalizing thread itself, or any ES of the dying runtime - gets
 * ABT_ERR_UNINITIALIZED at once: the last ABT_finalize has already undone
 * the last ABT_init, and no new runtime can start before it returns. Other
 * threads (external ones) just wait for the lock, as before. */
static uint32_t tearing_down; /* atomic; set under init_lock */
static pthread_t finalizer_thread;

static bool is_inside_tear_down(void)
{
    return bb_load_acquire(&tearing_down) &&
           (bb_self_xstream() || pthread_equal(pthread_self(), finalizer_thread));
}

/* Takes init_lock, unless the caller is code the tear-down runs (false).
 * An ES's thread polls: the tear-down may begin while it waits. */
static bool lock_init(void)
{
    if (!bb_self_xstream() && !is_inside_tear_down()) {
        pthread_mutex_lock(&init_lock);
        return true;
    }
    while (pthread_mutex_trylock(&init_lock) != 0) {
        if (is_inside_tear_down())
            return false;
        sched_yield();
    }
    return true;
}

static void attach_primary_ult(bb_xstream *es, bb_unit *primary)
{
    primary->pool = es->main_sched->pools[0];
    primary->parent = es->sched_unit;
    primary->xstream = es;
    bb_store_relaxed(&es->current, primary);
    bb_rt.primary_ult = primary;
}

static void release_globals(void)
{
    free(bb_rt.xstreams);
    bb_rt.xstreams = NULL;
    bb_rt.xstreams_cap = 0;
    bb_rt.num_xstreams = 0;
    bb_rt.primary_xstream = NULL;
    bb_rt.primary_ult = NULL;
    bb_unit_map_clear();
    bb_mem_fini();
    bb_config_free(&bb_rt.config);
}

static int bring_up(void)
{
    int err = bb_config_read_env(&bb_rt.config);
    if (err != ABT_SUCCESS) {
        bb_config_free(&bb_rt.config);
        return err;
    }
    bb_rt.next_unit_id = 0;
    bb_rt.next_pool_id = 0;
    /* Before the primary ES is made: its scheduler's stack depends on
     * whether a tool watches switches (make_sched_unit). */
    bb_fiber_tools_detect();
    err = bb_mem_init();
    if (err != ABT_SUCCESS) {
        release_globals();
        return err;
    }
    bb_unit *primary = bb_unit_alloc_primary();
    if (!primary) {
        release_globals();
        return ABT_ERR_MEM;
    }
    bb_xstream_watch_threads(true);
    bb_xstream *es;
    err = bb_xstream_create_primary(&es);
    if (err != ABT_SUCCESS) {
        bb_xstream_watch_threads(false);
        bb_unit_release(primary);
        release_globals();
        return err;
    }
    bb_xstream_set_self(es);
    bb_rt.primary_xstream = es;
    attach_primary_ult(es, primary);
    bb_xstream_apply_binding(es); /* needs bb_tls_xstream: binds this thread */
    bb_overflow_install();
    bb_overflow_thread_enter();
    if (bb_rt.config.print_config)
        bb_config_print(&bb_rt.config, stdout);
    bb_store_release(&bb_rt.up, 1u);
    bb_shortcuts_update();
    return ABT_SUCCESS;
}

int ABT_init(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!lock_init())
        return ABT_ERR_UNINITIALIZED;
    int err = ABT_SUCCESS;
    if (bb_rt.init_count == 0)
        err = bring_up();
    if (err == ABT_SUCCESS)
        bb_rt.init_count++;
    pthread_mutex_unlock(&init_lock);
    return err;
}

static int check_finalizer(void)
{
    bb_xstream *es = bb_self_xstream();
    if (!es || !es->is_primary)
        return ABT_ERR_INV_XSTREAM;
    if (!(es->current->flags & BB_UNIT_PRIMARY))
        return ABT_ERR_INV_THREAD;
    return ABT_SUCCESS;
}

static void tear_down(void)
{
    bb_xstream *es = bb_rt.primary_xstream;
    bb_unit *primary = bb_rt.primary_ult;

    bb_xstream_join_secondaries();
    bb_xstream_stop_primary(es);
    /* No unit runs any more, but a wait's alarm may still put one back in
     * its pool: no pool goes before the alarm thread has stopped. */
    bb_alarm_shutdown();
    bb_xstream_free_secondaries();
    bb_xstream_free_primary(es);
    bb_xstream_watch_threads(false);
    bb_mem_for_each_unit(bb_wait_abandon); /* before the stacks go (bb_wait.h) */
    bb_store_release(&bb_rt.up, 0u);
    bb_shortcuts_update();
    bb_xstream_set_self(NULL);
    bb_overflow_thread_leave();
    bb_overflow_uninstall();
    bb_tool_reset();
    bb_unit_release(primary);
    bb_xstream_restore_primary_binding();
    release_globals();
}

int ABT_finalize(void)
{
    if (!lock_init())
        return ABT_ERR_UNINITIALIZED;
    int err = ABT_SUCCESS;
    if (bb_rt.init_count == 0)
        err = ABT_ERR_UNINITIALIZED;
    else if (bb_rt.init_count > 1)
        bb_rt.init_count--;
    else if ((err = check_finalizer()) == ABT_SUCCESS) {
        finalizer_thread = pthread_self();
        bb_store_release(&tearing_down, 1u);
        tear_down();
        bb_rt.init_count = 0;
        bb_store_release(&tearing_down, 0u);
    }
    pthread_mutex_unlock(&init_lock);
    return err;
}

int ABT_initialized(void)
{
    return bb_is_up() ? ABT_SUCCESS : ABT_ERR_UNINITIALIZED;
}
