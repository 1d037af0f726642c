"""Corpus of public functions, second batch, IIR filters kept as objects: a chain of
second-order sections (each an object whose two buffers start as the int 0 and hold
floats after the first sample), and a biquad whose previous samples are class attributes
until the first sample sets them on the instance, collecting its output in a list. Edits:
`np.array` becomes `jnp.array`; the biquad's base class `Module` (not in the index) and
its dynamic-coefficient branch dropped; drivers feeding samples are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap

SOS = jnp.array([[0.2, 0.4, 0.2, 1.0, -0.5, 0.2], [1.0, -1.0, 0.0, 1.0, -0.3, 0.0]])
SAMPLES = jnp.sin(jnp.linspace(0.0, 6.0, 24))


# --- Saweenbarra/DSP_Assignment3: IIR2Filter, IIRFilter (int buffers become floats) -------

class IIR2Filter:
    def __init__(self,_firCoeff,_iirCoeff):
        self.firCoeff = _firCoeff
        self.iirCoeff = _iirCoeff
        self.buffer1 = 0
        self.buffer2 = 0

    def filter(self,v):
        inp=0.0
        out=0.0
        inp=v
        out=(self.firCoeff[1]*self.buffer1)
        inp=inp-(self.iirCoeff[1]*self.buffer1)
        out=out+(self.firCoeff[2]*self.buffer2)
        inp=inp-(self.iirCoeff[2]*self.buffer2)
        out=out+inp*self.firCoeff[0]
        self.buffer2=self.buffer1
        self.buffer1=inp
        return out


class IIRFilter:
    def __init__(self, sos):
        self.IIR2filters = []
        for row in sos:
            self.IIR2filters.append(IIR2Filter(row[:3],row[3:]))

    def filter(self,v):
        intermediateOutput = v
        for f in self.IIR2filters:
            intermediateOutput = f.filter(intermediateOutput)
        return intermediateOutput


def run_chain(sos, samples):
    chain = IIRFilter(sos)
    out = []
    for v in samples:
        out.append(chain.filter(v))
    return jnp.stack(out)


def test_sos_chain_int_buffers_become_floats():
    agree(run_chain, (SOS, SAMPLES), (SOS[::-1], SAMPLES[::-1]))
    agree_vmap(run_chain, jnp.stack([SOS, SOS * 0.5]), SAMPLES, in_axes=(0, None))
    agree_grad(lambda s: jnp.sum(run_chain(SOS, s) ** 2), SAMPLES)


# --- Dolpic/Synthesizer: Biquad.get (class attributes, then the instance's) --------------

class Biquad:
    x_prev = 0
    x_prev_prev = 0
    y_prev = 0
    y_prev_prev = 0

    def __init__(self, c):
        self.c = c

    def get(self, input):
        result = []

        c = self.c
        for i, x in enumerate(input):
            val = c[0][i]*x + c[1][i]*self.x_prev + c[2][i]*self.x_prev_prev - c[3][i]*self.y_prev - c[4][i]*self.y_prev_prev
            result.append(val)
            self.x_prev_prev = self.x_prev
            self.x_prev = x
            self.y_prev_prev = self.y_prev
            self.y_prev = val
        return jnp.array(result)


def run_biquad(coefficients, samples):
    b = Biquad([coefficients[k] * jnp.ones(samples.shape[0]) for k in range(5)])
    first = b.get(samples[:12])
    second = b.get(samples[12:])     # the state carries over from the first block
    return first, second, b.y_prev


COEFFS = jnp.array([0.2, 0.4, 0.2, -0.5, 0.2])


def test_biquad_class_attributes_then_instance_state():
    agree(run_biquad, (COEFFS, SAMPLES), (COEFFS * 0.5, SAMPLES[::-1]))
    agree_grad(lambda c: jnp.sum(run_biquad(c, SAMPLES)[1]), COEFFS)
