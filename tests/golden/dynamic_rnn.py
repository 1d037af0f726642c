def dynamic_rnn(rnn_cell, input_data, initial_state):
    """Seed 003 `dynamic_rnn`: accumulate states in a list, stack them after the loop."""
    state = initial_state
    states = []
    def loop_body(x, state, states):
        state = ag.call(rnn_cell, x, state)
        states.append(state)
        return (state, states)
    state, states = ag.for_stmt(input_data, loop_body, (state, states), names=('state', 'states'))
    return jnp.stack(states)
