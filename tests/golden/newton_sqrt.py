def newton_sqrt(a, tolerance=1e-06):
    x = a
    did_break = False
    def loop_body(_, x, did_break):
        next_x = 0.5 * (x + a / x)
        def if_true(did_break):
            did_break = True
            return did_break
        did_break = ag.if_stmt(jnp.abs(next_x - x) < tolerance, if_true, None, (did_break,), names=('did_break',))
        def if_true_1(x):
            x = next_x
            return x
        x = ag.if_stmt(ag.not_(did_break), if_true_1, None, (x,), names=('x',))
        return (x, did_break)
    def loop_test(x, did_break):
        return ag.not_(did_break)
    x, did_break = ag.for_stmt(ag.range(50), loop_body, (x, did_break), names=('x', 'did_break'), extra_test=loop_test)
    return x
