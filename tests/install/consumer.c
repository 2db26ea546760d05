/*
 * A program built against an installed bobbin, the way an Argobots user
 * builds one: only <abt.h> and -labt. It creates an execution stream, runs
 * a ULT and a tasklet in its pool, joins them and checks that both ran.
 * Prints "consumer ok" and exits 0 on success.
 */
#include <abt.h>
#include <stdio.h>

static void add_one(void *arg)
{
    ++*(int *)arg;
}

#define TRY(call)                                                           \
    do {                                                                    \
        int err_ = (call);                                                  \
        if (err_ != ABT_SUCCESS) {                                          \
            fprintf(stderr, "consumer: %s failed: %d\n", #call, err_);      \
            return 1;                                                       \
        }                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    int ran = 0;
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread ult;
    ABT_task task;
    TRY(ABT_init(argc, argv));
    TRY(ABT_xstream_create(ABT_SCHED_NULL, &es));
    TRY(ABT_xstream_get_main_pools(es, 1, &pool));
    TRY(ABT_thread_create(pool, add_one, &ran, ABT_THREAD_ATTR_NULL, &ult));
    TRY(ABT_task_create(pool, add_one, &ran, &task));
    TRY(ABT_thread_free(&ult));
    TRY(ABT_task_free(&task));
    TRY(ABT_xstream_join(es));
    TRY(ABT_xstream_free(&es));
    TRY(ABT_finalize());
    if (ran != 2) {
        fprintf(stderr, "consumer: %d of 2 units ran\n", ran);
        return 1;
    }
    printf("consumer ok\n");
    return 0;
}
