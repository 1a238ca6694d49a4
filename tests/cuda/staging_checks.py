"""Large pageable copies through csrc/runtime/staging.c (pinned buffers, threaded memcpy): the
bytes arrive intact for sizes around the chunk size, on a stream, from 8 threads at once (one
holds the buffers, the others take the driver's path), and in a forked child (fake driver
only: CUDA does not survive fork). Invoked by test_staging.py in a subprocess, under the fake
libcuda with CUJIT_STAGING_THREADS set, and on a real GPU."""
import os
import threading
import time

import numpy as np

from cujit import cuda

MB = 1 << 20


def roundtrip(nbytes, seed):
    host = np.random.default_rng(seed).integers(0, 255, nbytes, dtype=np.uint8)
    d = cuda.to_device(host)
    back = d.copy_to_host()
    assert np.array_equal(back, host), nbytes
    out = np.empty_like(host)
    d.copy_to_host(out)
    assert np.array_equal(out, host)
    d2 = cuda.device_array_like(d)
    d2.copy_to_device(host[::-1].copy())
    assert np.array_equal(d2.copy_to_host(), host[::-1])


def check_sizes_around_the_chunks():
    for nbytes in (16 * MB - 1, 16 * MB, 16 * MB + 12345, 24 * MB, 40 * MB + 7):
        roundtrip(nbytes, nbytes)


def check_streams():
    s = cuda.stream()
    host = np.arange(5 * MB, dtype=np.float32)  # 20 MB
    d = cuda.to_device(host, stream=s)
    back = d.copy_to_host(stream=s)
    s.synchronize()
    assert np.array_equal(back, host)


def check_pinned_memory_goes_straight_to_the_driver():
    pinned = cuda.pinned_array(32 * MB, np.uint8)
    pinned[:] = 3
    assert np.array_equal(cuda.to_device(pinned).copy_to_host(), pinned)


def check_many_threads_at_once():
    errors = []

    def work(i):
        try:
            roundtrip(17 * MB + i, i)
        except Exception as exc:  # reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def check_copies_in_a_loop_under_load():
    """Many two-chunk copies back to back, optionally with other threads busy: a worker that
    took a job late must not touch it after the copy returned (it lived on the caller's
    stack). STAGING_LOOP_SECONDS sets how long (default: a few copies), STAGING_LOADERS how
    many threads compete for the CPUs (default none: the copy threads outnumber CI's CPUs)."""
    seconds = float(os.environ.get("STAGING_LOOP_SECONDS", "0"))
    host = np.random.default_rng(7).integers(0, 255, 16 * MB + 1, dtype=np.uint8)
    out = np.empty_like(host)
    d = cuda.to_device(host)
    stop = threading.Event()

    def load():  # numpy drops the GIL: these compete with the copy workers for the CPUs
        a = np.random.default_rng(1).random(1 << 18)
        while not stop.is_set():
            np.sort(a)
    loaders = [threading.Thread(target=load) for _ in range(int(os.environ.get("STAGING_LOADERS", "0")))]
    for t in loaders:
        t.start()
    try:
        end, copies = time.monotonic() + seconds, 0
        while copies < 3 or time.monotonic() < end:
            d.copy_to_device(host)
            d.copy_to_host(out)
            copies += 1
    finally:
        stop.set()
        for t in loaders:
            t.join()
    assert np.array_equal(out, host)


def check_forked_child():
    if not os.environ.get("CUJIT_CUDA_DRIVER"):
        return
    roundtrip(20 * MB, 1)  # the workers run in the parent
    pid = os.fork()
    if pid == 0:
        try:
            roundtrip(20 * MB, 2)
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0


if __name__ == "__main__":
    only = os.environ.get("STAGING_CHECKS")  # one check's name, or all of them
    for name, fn in list(globals().items()):
        if name.startswith("check_") and only in (None, name):
            fn()
            print(name, "ok")
    print("ALL OK")
