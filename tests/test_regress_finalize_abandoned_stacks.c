/* Units the program never freed at ABT_finalize (ready in a pool no
 * scheduler runs, terminated and never freed, ready in the pool of a
 * cancelled ES) die with the runtime: the stacks they hold are unmapped
 * too, so many init/finalize cycles that leave such units keep the number
 * of mappings bounded (each used to keep two per eager stack for good,
 * until the process ran out of mappings). Their key tables go as well
 * (checked by LeakSanitizer in the sanitizer build). */
#include "bb_test.h"

static int count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, c;
    if (!f)
        return -1;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static ABT_key key;
static int value;

static void set_key(void *arg)
{
    (void)arg;
    ABT_self_set_specific(key, &value);
}

static void one_cycle(int round)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(NULL, &key));
    ABT_xstream primary, es;
    ABT_pool main_pool, idle_pool, es_pool;
    CHECK_OK(ABT_self_get_xstream(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle_pool));
    ABT_thread_attr big;
    CHECK_OK(ABT_thread_attr_create(&big));
    CHECK_OK(ABT_thread_attr_set_stacksize(big, 256 * 1024)); /* another size: mapped apart */
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_thread_create(idle_pool, set_key, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_OK(ABT_thread_create(idle_pool, set_key, NULL, big, NULL));
    }
    ABT_thread done, done_big;
    CHECK_OK(ABT_thread_create(main_pool, set_key, NULL, ABT_THREAD_ATTR_NULL, &done));
    CHECK_OK(ABT_thread_create(main_pool, set_key, NULL, big, &done_big));
    CHECK_OK(ABT_thread_join(done)); /* terminated, never freed */
    CHECK_OK(ABT_thread_join(done_big));
    if (round % 2) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));
        CHECK_OK(ABT_xstream_cancel(es));
        CHECK_OK(ABT_xstream_join(es));
        CHECK_OK(ABT_thread_create(es_pool, set_key, NULL, ABT_THREAD_ATTR_NULL, NULL));
    }
    CHECK_OK(ABT_thread_attr_free(&big));
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(60);
    setenv("ABT_THREAD_TECHNIQUE", "full", 1); /* a stack from creation on */
    int rounds = BB_TEST_SIZE(300, 40);
    for (int i = 0; i < 4; i++)
        one_cycle(i); /* the process's own mappings settle (malloc arenas) */
    int before = count_maps();
    for (int i = 0; i < rounds; i++)
        one_cycle(i);
    int after = count_maps();
    printf("mappings: %d before, %d after %d cycles\n", before, after, rounds);
    CHECK(after - before < 40); /* was about 20 per cycle */
    BB_TEST_END();
}
