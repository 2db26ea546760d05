/*
 * The Argobots paper's hello world: four execution streams, each with a
 * tasklet that prints its message. Build against any Argobots:
 *   cc hello_world.c $(pkg-config --cflags --libs argobots)
 */
#include <abt.h>
#include <stdio.h>
#include <stdlib.h>

#define NUM_XSTREAMS 4

static void hello(void *arg)
{
    int rank;
    ABT_self_get_xstream_rank(&rank);
    printf("Hello world from tasklet %d on ES %d\n", (int)(size_t)arg, rank);
}

static void check(int ret, const char *what)
{
    if (ret != ABT_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, ret);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    ABT_xstream xstreams[NUM_XSTREAMS];
    ABT_task tasks[NUM_XSTREAMS];

    check(ABT_init(argc, argv), "ABT_init");
    check(ABT_xstream_self(&xstreams[0]), "ABT_xstream_self");
    for (int i = 1; i < NUM_XSTREAMS; i++)
        check(ABT_xstream_create(ABT_SCHED_NULL, &xstreams[i]), "ABT_xstream_create");

    for (int i = 0; i < NUM_XSTREAMS; i++) {
        ABT_pool pool;
        check(ABT_xstream_get_main_pools(xstreams[i], 1, &pool), "get_main_pools");
        check(ABT_task_create(pool, hello, (void *)(size_t)i, &tasks[i]), "ABT_task_create");
    }
    for (int i = 0; i < NUM_XSTREAMS; i++)
        check(ABT_task_free(&tasks[i]), "ABT_task_free");
    for (int i = 1; i < NUM_XSTREAMS; i++)
        check(ABT_xstream_free(&xstreams[i]), "ABT_xstream_free");
    check(ABT_finalize(), "ABT_finalize");
    return 0;
}
