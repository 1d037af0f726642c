def squash(x):
    """Seed 003: `while tf.reduce_sum(x) > 1: x = tf.tanh(x)`."""
    def loop_test(x):
        return jnp.sum(x) > 1
    def loop_body(x):
        x = jnp.tanh(x)
        return x
    x = ag.while_stmt(loop_test, loop_body, (x,), names=('x',))
    return x
