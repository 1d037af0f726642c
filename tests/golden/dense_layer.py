def dense_layer(x, w, b):
    return ag.call(add, jnp.matmul(x, w), b)
