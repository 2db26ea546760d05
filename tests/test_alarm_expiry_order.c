/* Timed waits end in the order of their deadlines: the alarm thread keeps
 * the armed deadlines in a heap and always ends the earliest due one first.
 *
 * N ULTs on the primary ES each wait on an eventual of their own with a
 * deadline T + 1 s + k * 25 ms (k a permutation, so the heap sees them in a
 * scrambled order; some share a second, some do not). Once all are blocked,
 * a few of the eventuals are set, so that those waits end early and leave
 * the heap from the middle. The others time out, and since they are woken
 * into one FIFO pool of one ES, they run in the order the alarm thread ended
 * them: that must be their deadlines' order. (A round in which arming took
 * so long that the first deadline passed before all were armed checks less.) */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

enum { N = 24 };
static ABT_eventual ev[N];
static struct timespec dl[N];
static int ret[N], seq_of[N];
static atomic_int seq;

static void waiter(void *arg)
{
    int i = (int)(intptr_t)arg;
    ret[i] = ABT_eventual_timedwait(ev[i], NULL, &dl[i]);
    if (ret[i] == ABT_ERR_COND_TIMEDOUT)
        seq_of[i] = atomic_fetch_add(&seq, 1);
}

static int before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool = bb_test_main_pool();
    unsigned seed = 12345;
    int checked = 0;
    /* A pattern where a removal from the middle moves the heap's last
     * element up past its new parent (found by simulating the heap). */
    static const int fixed_perm[N] = {7,  3, 1,  12, 20, 4, 2,  21, 11, 18, 15, 10,
                                      0,  8, 17, 23, 22, 5, 9,  13, 16, 19, 14, 6};
    static const int fixed_removed[] = {20, 23, 9, 22, 0, 13};
    for (int round = 0; round < 5; round++) {
        int perm[N];
        for (int i = 0; i < N; i++)
            perm[i] = round == 4 ? fixed_perm[i] : i;
        for (int i = N - 1; round < 4 && i > 0; i--) { /* a fixed shuffle */
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 8) % (unsigned)(i + 1));
            int x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        struct timespec first = bb_test_timespec_add_ns(now, 1000 * 1000000LL);
        atomic_store(&seq, 0);
        ABT_thread t[N];
        for (int i = 0; i < N; i++) {
            CHECK_OK(ABT_eventual_create(0, &ev[i]));
            dl[i] = bb_test_timespec_add_ns(now, (1000 + 25LL * perm[i]) * 1000000);
            ret[i] = seq_of[i] = -1;
            CHECK_OK(ABT_thread_create(pool, waiter, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
        }
        for (int i = 0; i < N; i++) {
            ABT_thread_state s = ABT_THREAD_STATE_READY;
            while (s != ABT_THREAD_STATE_BLOCKED && s != ABT_THREAD_STATE_TERMINATED) {
                ABT_thread_yield();
                CHECK_OK(ABT_thread_get_state(t[i], &s));
            }
        }
        struct timespec armed;
        clock_gettime(CLOCK_REALTIME, &armed);
        int in_time = before(armed, first);
        /* A few leave the heap early, from wherever they sit in it. */
        if (round == 4) {
            for (int k = 0; k < (int)(sizeof(fixed_removed) / sizeof(int)); k++)
                CHECK_OK(ABT_eventual_set(ev[fixed_removed[k]], NULL, 0));
        } else {
            for (int i = round % 3; i < N; i += 5)
                CHECK_OK(ABT_eventual_set(ev[i], NULL, 0));
        }
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        if (in_time) {
            checked++;
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    if (seq_of[i] < 0 || seq_of[j] < 0 || !before(dl[i], dl[j]))
                        continue;
                    if (seq_of[i] > seq_of[j])
                        BB_FAIL_AT("round %d: deadline +%ld ms ended after +%ld ms", round,
                                   25L * perm[i], 25L * perm[j]);
                }
            }
        }
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_eventual_free(&ev[i]));
    }
    if (!checked)
        printf("every round armed too late to check the order\n");
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
