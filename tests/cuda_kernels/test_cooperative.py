"""Cooperative groups (cuda.cg), cuda.syncwarp and cuda.nanosleep: the grid barrier's PTX
through ptxas, typing errors, and on the GPU numba-cuda's own example (each row of a matrix
computed from the previous one, the whole grid synced between rows). The launch side
(cuLaunchCooperativeKernel, the grid-size check, max_cooperative_grid_blocks) is checked on
the fake driver (launch_checks.py)."""
import re

import numpy as np
import pytest

import cujit
from cujit import cuda, int32, uint32


def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows, cols = M.shape
    for row in range(1, rows):
        opposite = cols - col - 1
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()


def warp_and_block(out, mask):
    i = cuda.grid(1)
    b = cuda.cg.this_thread_block()
    out[i] = i
    b.sync()
    partner = out[i ^ 1]  # read by every lane of the warp before any writes
    cuda.syncwarp()
    cuda.syncwarp(mask)
    cuda.nanosleep(uint32(10))
    out[i] += partner


def grid_sync_in_device_function(a):
    sync_twice(a)


@cuda.jit(device=True)
def sync_twice(a):
    g = cuda.cg.this_grid()
    a[cuda.grid(1)] += 1
    r = g.sync()
    a[cuda.grid(1)] += r
    cuda.cg.this_grid().sync()


def test_grid_sync_ptx_assembles(assemble):
    ptx, _ = cuda.compile_ptx(sequential_rows, (int32[:, ::1],))
    assert ".global .align 4 .u32 cj_grid_barrier" in ptx
    assert "atom.global.add.u32" in ptx and "ld.volatile.global.u32" in ptx
    assert ptx.count("bar.sync") >= 2 and "membar.gl" in ptx
    assemble(ptx)


def test_block_warp_sync_and_nanosleep_ptx(assemble):
    ptx, _ = cuda.compile_ptx(warp_and_block, (int32[:], int32))
    assert "cj_grid_barrier" not in ptx  # a block's sync is bar.sync: a plain launch
    assert "bar.warp.sync \t-1;" in ptx  # the default mask: the whole warp
    assert "nanosleep.u32" in ptx
    assemble(ptx)


def test_grid_sync_in_a_device_function_marks_the_kernel(assemble):
    ptx, _ = cuda.compile_ptx(grid_sync_in_device_function, (int32[:],))
    assert "cj_grid_barrier" in ptx
    assemble(ptx)


@pytest.mark.parametrize("body, words", [
    ("cuda.cg.this_grid(1)", "cuda.cg.this_grid() takes no arguments"),
    ("cuda.cg.this_grid().sync(1)", "GridGroup.sync() takes no arguments"),
    ("cuda.cg.this_thread_block().sync(a)", "ThreadBlock.sync() takes no arguments"),
    ("cuda.syncwarp(1.5)", "cuda.syncwarp() takes an optional integer mask"),
    ("cuda.nanosleep()", "cuda.nanosleep() takes the nanoseconds as one integer"),
    ("cuda.cg.this_grid().wait()", "Unknown attribute 'wait' of cuda.cg.grid_group"),
])
def test_typing_errors(body, words, nvvm):
    ns = {"cuda": cuda}
    exec(f"def k(a):\n    {body}\n", ns)
    with pytest.raises(cujit.errors.TypingError, match=re.escape(words)):
        cuda.compile_ptx(ns["k"], (int32[:],))


def test_cooperative_groups_are_not_for_the_cpu():
    def f(a):
        cuda.cg.this_grid().sync()
    with pytest.raises(cujit.errors.UnsupportedError, match="only be used in CUDA kernels"):
        cujit.njit(f)(np.zeros(3))


def test_host_calls_raise():
    with pytest.raises(RuntimeError, match="inside a kernel"):
        cuda.cg.this_grid()
    with pytest.raises(RuntimeError, match="inside a kernel"):
        cuda.syncwarp()


# ---- on the GPU ----

def rows_reference(M):
    M = M.copy()
    for row in range(1, M.shape[0]):
        M[row] = M[row - 1, ::-1] + 1
    return M


@pytest.mark.gpu
def test_sequential_rows_on_the_gpu():
    kernel = cuda.jit(sequential_rows)
    blockdim = 128
    M = np.arange(64 * 1024, dtype=np.int32).reshape(64, 1024)
    for _ in range(3):  # the barrier word carries over between launches
        d = cuda.to_device(M)
        kernel[1024 // blockdim, blockdim](d)
        assert np.array_equal(d.copy_to_host(), rows_reference(M))
    most = kernel.max_cooperative_grid_blocks(blockdim)
    assert most >= 1024 // blockdim
    with pytest.raises(ValueError, match="max_cooperative_grid_blocks"):
        kernel[most + 1, blockdim](cuda.to_device(np.zeros((2, (most + 1) * blockdim),
                                                           np.int32)))


@pytest.mark.gpu
def test_grid_sync_from_a_device_function_on_the_gpu():
    kernel = cuda.jit(grid_sync_in_device_function)
    a = cuda.to_device(np.zeros(256 * 8, np.int32))
    kernel[8, 256](a)
    assert np.all(a.copy_to_host() == 1)  # sync() returns 0, as numba-cuda's


@pytest.mark.gpu
def test_block_and_warp_sync_on_the_gpu():
    kernel = cuda.jit(warp_and_block)
    out = cuda.to_device(np.zeros(256, np.int32))
    kernel[2, 128](out, np.int32(-1))
    i = np.arange(256)
    assert np.array_equal(out.copy_to_host(), i + (i ^ 1))
