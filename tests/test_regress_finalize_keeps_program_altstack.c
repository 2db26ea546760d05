/* Regression: ABT_finalize must leave alone an alternate signal stack that
 * the program set on its thread after ABT_init.
 *
 * ABT_init gives the primary ES's thread an alternate signal stack of
 * bobbin's when it has none (for the report of a stack overflow), and
 * ABT_finalize takes it back. If the program had meanwhile set its own
 * (sigaltstack), ABT_finalize disabled that one: the program's SA_ONSTACK
 * handlers then ran on the ordinary stack. One set before ABT_init was,
 * and is, kept throughout. */
#include "bb_test.h"

static char program_stack[65536];

static int altstack_is_programs(void)
{
    stack_t s;
    CHECK_EQ(sigaltstack(NULL, &s), 0);
    return !(s.ss_flags & SS_DISABLE) && s.ss_sp == program_stack;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    for (int cycle = 0; cycle < 2; cycle++) {
        stack_t off = {.ss_flags = SS_DISABLE};
        CHECK_EQ(sigaltstack(&off, NULL), 0);
        CHECK_OK(ABT_init(0, NULL));
        stack_t mine = {.ss_sp = program_stack, .ss_size = sizeof(program_stack), .ss_flags = 0};
        CHECK_EQ(sigaltstack(&mine, NULL), 0);
        CHECK_OK(ABT_finalize());
        CHECK(altstack_is_programs()); /* was disabled */
    }
    /* Set before ABT_init: kept as it was. */
    CHECK_OK(ABT_init(0, NULL));
    CHECK(altstack_is_programs());
    CHECK_OK(ABT_finalize());
    CHECK(altstack_is_programs());
    BB_TEST_END();
}
