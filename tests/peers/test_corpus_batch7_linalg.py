"""Corpus of public functions, seventh batch, dense linear algebra and clustering: a
Gaussian elimination with partial pivoting that swaps rows with `A[j,:], A[k,:] =
A[k,:], A[j,:].copy()` under the traced test `if k != j` (k an argmax), one with column
pivoting that picks the column by `max` of (traced, int) tuples and swaps items with
chained subscripts `B[j][i], B[j][c] = B[j][c], B[j][i]` in loops over `np.arange` (kept
NumPy: no traced value flows into them), two Householder QRs (one writing column slices
`R[n:, i] = ...` and returning a list, one building each reflector with `np.block` and a
chained write `e[0][0] = 1`), an inverse power iteration `while abs(y2 - y1) > error`
that reads a global tolerance and `copy.deepcopy`s the traced estimate, a Jacobi
eigenvalue sweep whose `for` returns a list from inside the loop once the largest
off-diagonal item is small, and a k-means whose `while run_flag and (iter < lim_iter)`
averages each cluster with `np.mean(a[_class == i], axis=0)`. Edits: `np.`/`math.`
become `jnp.` where traced values flow; NumPy's random choice becomes a `jax.random`
key; float32 tolerances passed.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key

SYM = jnp.array([[7.0, 2.5, 2.0, 1.5], [2.5, 8.0, 2.5, 2.0],
                 [2.0, 2.5, 9.0, 2.5], [1.5, 2.0, 2.5, 10.0]])
SYM2 = jnp.array([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1],
                  [0.5, 0.2, 2.0, 0.3], [0.0, 0.1, 0.3, 1.0]])
GEN = jnp.array([[4.0, 1.0, 2.0, -3.0], [-3.0, 3.0, -1.0, 4.0],
                 [-1.0, 2.0, 5.0, 1.0], [5.0, 4.0, 3.0, -1.0]])
GEN2 = jnp.array([[1.0, -2.0, 3.0, -4.0], [2.0, 7.0, 1.0, 0.5],
                  [-6.0, 1.0, 0.0, 2.0], [0.5, 0.5, 8.0, 1.0]])


# --- kareenabhalla/research-codes: gauelim_pivot.py (gauelim_pivot), triang.py (backsub) --

def backsub(U,bs):
    n = bs.size
    xs = jnp.zeros(n)
    for i in reversed(range(n)):
        xs[i] = (bs[i] - U[i,i+1:]@xs[i+1:])/U[i,i]
    return xs


def gauelim_pivot(inA,inbs):
    A = jnp.copy(inA)
    bs = jnp.copy(inbs)
    n = bs.size

    for j in range(n-1):
        k = jnp.argmax(jnp.abs(A[j:,j])) + j
        if k != j:
            A[j,:], A[k,:] = A[k,:], A[j,:].copy()
            bs[j], bs[k] = bs[k], bs[j]

        for i in range(j+1,n):
            coeff = A[i,j]/A[j,j]
            A[i,j:] -= coeff*A[j,j:]
            bs[i] -= coeff*bs[j]

    xs = backsub(A,bs)
    return xs


def test_gaussian_elimination_row_swap_by_tuple_of_row_slices_at_a_traced_pivot():
    b = jnp.array([-16.0, 20.0, -4.0, -10.0])
    agree(gauelim_pivot, (GEN, b), (GEN2, -b), rtol=1e-4, atol=1e-4)
    agree_vmap(lambda A: gauelim_pivot(A, b), jnp.stack([GEN, GEN2, GEN.T]), rtol=1e-4,
               atol=1e-4)
    agree_grad(lambda b: jnp.sum(gauelim_pivot(GEN, b) ** 2), b, rtol=1e-3, atol=1e-3,
               reference=jax.grad(lambda b: jnp.sum(jnp.linalg.solve(GEN, b) ** 2))(b))


# --- lan496/computer_physics: chapter04/gaussian_elimination.py (gaussian_elimation) --------

def gaussian_elimation(A, b):
    N = b.size
    pivot = jnp.arange(N)
    B = jnp.hstack((A, b))

    for i in np.arange(N):
        max_elm_col = max([(abs(B[i][j]), j) for j in np.arange(i,N)])[1]
        for j in np.arange(N):
            B[j][i], B[j][max_elm_col] = B[j][max_elm_col], B[j][i]
        pivot[i], pivot[max_elm_col] = pivot[max_elm_col], pivot[i]

        for j in np.arange(i+1,N):
            B[j] -= B[i] * (B[j][i] / B[i][i])

    x = jnp.zeros(N)
    for i in np.arange(N-1,-1,-1):
        x[i] = B[i][N]
        for j in np.arange(i+1,N):
            x[i] -= B[i][j] * x[j]
        x[i] /= B[i][i]

    return x[pivot]


def test_gaussian_elimination_column_pivot_by_max_of_tuples_and_chained_swaps():
    b = jnp.array([[5.0], [12.0], [9.0], [1.0]])
    agree(gaussian_elimation, (GEN, b), (GEN2, -b), rtol=1e-4, atol=1e-4)


# --- TayssirDo/QR-decomposition: qr.py (qr_householder) --------------------------------------

def qr_householder(A):
    """ Compute QR decomposition of A using Householder reflection"""

    M = A.shape[0]
    N = A.shape[1]

    # set Q to the identity matrix
    Q = jnp.identity(M)

    # set R to zero matrix
    R = jnp.copy(A)

    for n in range(N):
        # vector to transform
        x = A[n:, n]
        k = x.shape[0]

        # compute ro=-sign(x0)||x||
        ro = -jnp.sign(x[0]) * jnp.linalg.norm(x)

        # compute the householder vector v
        e = jnp.zeros(k)
        e[0] = 1
        v = (1 / (x[0] - ro)) * (x - (ro * e))

        # apply v to each column of A to find R
        for i in range(N):
            R[n:, i] = R[n:, i] - (2 / (v@v)) * ((jnp.outer(v, v)) @ R[n:, i])

        # apply v to each column of Q
        for i in range(M):
            Q[n:, i] = Q[n:, i] - (2 / (v@v)) * ((jnp.outer(v, v)) @ Q[n:, i])

    return [Q.transpose(), R]


def test_householder_column_slice_writes_returning_a_list():
    agree(qr_householder, (SYM,), (GEN,), rtol=1e-4, atol=1e-4)


# --- rifqifarhansyah/EigenFace-Recognition: src/eigenface/QRDecomposition.py ----------------

def householder(y):
    n=y.shape[0]
    k=-jnp.sign(y[0])*jnp.sqrt(jnp.dot(y,y))
    e=jnp.zeros((1,n))
    e[0][0]=1
    u=y-k*e
    ut=jnp.transpose(u)
    H=jnp.identity(n)-2*(jnp.dot(ut,u)/jnp.dot(u,ut))
    return H

def qr_hh(a):
    n=a.shape[0]
    q=jnp.identity(n)
    for i in range(n-1):
        y=a[i:n,i]
        h_prime=householder(y)
        h=jnp.block([
            [jnp.identity(i),jnp.zeros((i,n-i))],
            [jnp.zeros((n-i,i)),h_prime]
        ])
        ht=jnp.transpose(h)
        q=jnp.dot(q,ht)
        a=jnp.dot(h,a)
    return q,a


def test_householder_chained_item_write_and_block_matrices():
    agree(qr_hh, (SYM,), (GEN,), rtol=1e-4, atol=1e-4)


# --- tiantian0347/Tian: code/Numerial-linear-algebra/part4/Inverse.py (power) ---------------

error = 1e-5


def power(a):
    k=0
    n,n=a.shape
    x=jnp.ones(n)/jnp.sqrt(n)
    y1,y2=0,1
    l=0.1
    e=jnp.identity(n)
    while abs(y2-y1)>error:
        y1=copy.deepcopy(y2)
        t=jnp.matmul(jnp.linalg.inv(a-l*e),x)
        x=t/jnp.linalg.norm(t,ord=2)
        y2=jnp.matmul(x,jnp.matmul(a,x))
        k+=1
    return y2,x


def test_inverse_iteration_deepcopy_of_a_traced_estimate_and_a_global_tolerance():
    agree(power, (jnp.diag(jnp.array([1.0, 3.0, 5.0])),),
          (jnp.array([[2.0, 0.3, 0.0], [0.3, 4.0, 0.1], [0.0, 0.1, 6.0]]),), rtol=1e-3, atol=1e-3)


# --- bspark05/CEE283: jacobi_eigenvalue.py (maxelem, rotate, jacobi_eig) ---------------------

def maxelem(matrix):
    #Return (amax, ith, jth), the value and indices of the off-diagonal element in 2D array matrix
    n = len(matrix)
    amax = 0.0
    for i in range(n-1):
        for j in range(i+1,n):
            if abs(matrix[i,j]) >= amax:
                amax = abs(matrix[i,j])
                ith = i
                jth = j
    return amax,ith,jth

def rotate(matrix, trans, ith, jth):
    #Rotate input matrix matrix in place to make matrix[ith,jth] = 0, and update the transformation matrix trans

    n = len(matrix)
    aDiff = matrix[jth,jth] - matrix[ith,ith]
    if abs(matrix[ith,jth]) < abs(aDiff)*1.0e-36:
        t = matrix[ith,jth]/aDiff
    else:
        phi = aDiff/(2.0*matrix[ith,jth])
        t = 1.0/(abs(phi) + jnp.sqrt(phi**2 + 1.0))
        if phi < 0.0:
            t = -t
    c = 1.0/jnp.sqrt(t**2 + 1.0); s = t*c
    tau = s/(1.0 + c)
    temp = matrix[ith,jth]
    matrix[ith,jth] = 0.0
    matrix[ith,ith] = matrix[ith,ith] - t*temp
    matrix[jth,jth] = matrix[jth,jth] + t*temp
    # Case of i < ith
    for i in range(ith):
        temp = matrix[i,ith]
        matrix[i,ith] = temp - s*(matrix[i,jth] + tau*temp)
        matrix[i,jth] = matrix[i,jth] + s*(temp - tau*matrix[i,jth])
    # Case of ith < i < jth
    for i in range(ith+1,jth):
        temp = matrix[ith,i]
        matrix[ith,i] = temp - s*(matrix[i,jth] + tau*matrix[ith,i])
        matrix[i,jth] = matrix[i,jth] + s*(temp - tau*matrix[i,jth])
    # Case of i > jth
    for i in range(jth+1,n):
        temp = matrix[ith,i]
        matrix[ith,i] = temp - s*(matrix[jth,i] + tau*temp)
        matrix[jth,i] = matrix[jth,i] + s*(temp - tau*matrix[jth,i])
    # Update transformation matrix
    for i in range(n):
        temp = trans[i,ith]
        trans[i,ith] = temp - s*(trans[i,jth] + tau*trans[i,ith])
        trans[i,jth] = trans[i,jth] + s*(temp - tau*trans[i,jth])


def jacobi_eig(matrix, tol=1.0e-9): # Jacobi method

    n = len(matrix)
    # Set limit on number of rotations
    nbrot_max = 5*(n**2)
    # Initialize transformation matrix
    trans = jnp.identity(n)*1.0
    # Jacobi rotation loop
    for i in range(nbrot_max):
        amax, ith, jth = maxelem(matrix)
        if amax < tol:
            [eig_val_cov, eig_vec_cov] = jnp.diagonal(matrix),trans
            idx = eig_val_cov.argsort()[::-1]
            eig_val_cov = eig_val_cov[idx]
            eig_vec_cov = eig_vec_cov[:,idx]
            return [eig_val_cov, eig_vec_cov]
        rotate(matrix, trans, ith,jth)

    print("Jacobi method did not converge")


# (Was a strict xfail, a named error: 'return' bound to the list the loop gave on one
# path and None on the other; the function's result is now chosen as a value.)
def test_jacobi_list_returned_from_inside_the_rotation_loop():
    agree(lambda m: jacobi_eig(m, 1e-4)[0], (SYM2,), (SYM2 + jnp.diag(jnp.arange(4.0)),),
          rtol=1e-4, atol=1e-4)


# --- GuanchengZhou/2023-2024XJTUMachineLearningCourseHomework: kmeans/kmeans.py (k_means) ----

def k_means(a, key, k=3, lim_iter=100):
    n = len(a)

    # init
    center_ids = jax.random.choice(key, n, (k,))
    centers = jnp.array([a[i] for i in center_ids])
    print(centers)
    run_flag = True
    iter = 0

    while run_flag and (iter<lim_iter):
        print(centers)
        iter += 1
        delta = (jnp.repeat(jnp.expand_dims(a, axis=1), k, axis=1)-centers)
        dis = jnp.einsum('ijk,ijk->ij', delta, delta)
        _class = jnp.argmin(dis, axis=1)
        print('class', _class)
        new_centers = []
        for i in range(k):
            new_centers.append(jnp.mean(a[_class==i], axis=0))
        new_centers = jnp.array(new_centers)
        if (new_centers == centers).all():
            run_flag = False
        else:
            run_flag = True
        centers = jnp.array(new_centers)
    return centers


POINTS = jnp.array([[1.0, 2.0], [1.5, 1.8], [5.0, 8.0], [8.0, 8.0], [1.0, 0.6], [9.0, 11.0],
                    [8.0, 2.0], [10.0, 2.0], [9.0, 3.0]])


def test_kmeans_while_flag_and_count_with_masked_means():
    agree(lambda a, k: k_means(a, k, 3, 10), (POINTS, key(0)), (POINTS[::-1], key(3)))
