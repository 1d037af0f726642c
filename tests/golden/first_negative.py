def first_negative(xs):
    retval = ag.Undefined('return')
    did_return = False
    def loop_body(item, retval, did_return):
        i, x = item
        def if_true(retval, did_return):
            retval = i
            did_return = True
            return (retval, did_return)
        retval, did_return = ag.if_stmt(x < 0, if_true, None, (retval, did_return), names=('retval', 'did_return'))
        return (retval, did_return)
    def loop_test(retval, did_return):
        return ag.not_(did_return)
    retval, did_return = ag.for_stmt(ag.enumerate(xs), loop_body, (retval, did_return), names=('retval', 'did_return'), extra_test=loop_test)
    return ag.if_exp(did_return, lambda: retval, lambda: -1)
