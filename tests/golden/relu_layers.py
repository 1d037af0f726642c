def relu_layers(x, weights):
    def loop_body(w, x):
        x = jax.nn.relu(x @ w)
        return x
    x = ag.for_stmt(weights, loop_body, (x,), names=('x',))
    return x
