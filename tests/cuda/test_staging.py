"""Large pageable copies through pinned staging buffers (csrc/runtime/staging.c): on the fake
driver in CI (forced on with CUJIT_STAGING_THREADS, since this machine has few CPUs), and on a
real GPU, where the data must arrive intact."""
import os

import numpy as np
import pytest

from cujit import cuda

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("threads", ["2", "3"])
def test_staged_copies_on_fake_driver(run_checks_on_fake_driver, threads):
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": threads})


def test_staging_off_takes_the_driver_path(run_checks_on_fake_driver):
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": "0"})


@pytest.mark.gpu
def test_staged_copies_on_the_gpu():
    if cuda.get_current_device().name == "Fake GPU":
        pytest.skip("needs a real GPU")
    rng = np.random.default_rng(7)
    for nbytes in ((64 << 20) + 123, 16 << 20, (200 << 20) + 1):
        host = rng.integers(0, 255, nbytes, dtype=np.uint8)
        d = cuda.to_device(host)
        back = d.copy_to_host()
        assert np.array_equal(back, host)
        out = np.empty_like(host)
        d.copy_to_host(out)
        assert np.array_equal(out, host)
    pinned = cuda.pinned_array(32 << 20, np.uint8)  # pinned: the driver's direct DMA
    pinned[:] = 3
    assert np.array_equal(cuda.to_device(pinned).copy_to_host(), pinned)


@pytest.mark.gpu
def test_large_copies_from_eight_threads_at_once():
    if cuda.get_current_device().name == "Fake GPU":
        pytest.skip("needs a real GPU")
    import threading
    errors = []

    def work(seed):
        try:
            host = np.random.default_rng(seed).integers(0, 255, (24 << 20) + seed,
                                                         dtype=np.uint8)
            for _ in range(3):  # one thread holds the buffers; the others take the driver's path
                d = cuda.to_device(host)
                assert np.array_equal(d.copy_to_host(), host)
        except Exception as exc:  # reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
