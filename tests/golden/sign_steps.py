def sign_steps(x):
    def if_true():
        y = x * x
        return y
    def if_false():
        y = -x // 2
        return y
    y = ag.if_stmt(jnp.sum(x) > 0, if_true, if_false, names=('y',))
    return y
