def collatz_steps(a):
    """Seed 003 `next_collatz`, iterated to 1."""
    steps = 0
    def loop_test(a, steps):
        return a > 1
    def loop_body(a, steps):
        def if_true(a):
            a = a // 2
            return a
        def if_false(a):
            a = 3 * a + 1
            return a
        a = ag.if_stmt(a % 2 == 0, if_true, if_false, (a,), names=('a',))
        steps += 1
        return (a, steps)
    a, steps = ag.while_stmt(loop_test, loop_body, (a, steps), names=('a', 'steps'))
    return steps
