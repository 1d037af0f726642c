def rnn_step(x, state):
    return jnp.tanh(x + state)
