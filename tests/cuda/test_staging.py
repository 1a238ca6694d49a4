"""Large pageable copies through pinned staging buffers (csrc/cuda/staging.c, over the pool of csrc/abi/workqueue.c): on the fake
driver in CI (forced on with CUJIT_STAGING_THREADS, since this machine has few CPUs), and on a
real GPU, where the data must arrive intact."""
import os
import subprocess
import sys

import pytest

from cujit import cuda

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("threads", ["2", "3"])
def test_staged_copies_on_fake_driver(run_checks_on_fake_driver, threads):
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": threads,
                                   "CUJIT_NUM_THREADS": threads})  # the pool's size caps it


LOOP = "check_copies_in_a_loop_under_load"


@pytest.mark.parametrize("run", range(2))
def test_staged_copies_in_a_loop(run_checks_on_fake_driver, run):
    # a worker used to touch a job on the caller's stack after the copy returned (segfault or
    # heap corruption in most 1.5-second loops with 8 threads on 2 CPUs)
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": "8", "CUJIT_NUM_THREADS": "8",
                                   "STAGING_CHECKS": LOOP,
                                   "STAGING_LOOP_SECONDS": "1.5"})


@pytest.mark.slow
@pytest.mark.parametrize("threads,loaders", [("3", "2"), ("8", "2")])
def test_staged_copies_in_a_loop_longer(run_checks_on_fake_driver, threads, loaders):
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": threads, "STAGING_CHECKS": LOOP,
                                   "STAGING_LOOP_SECONDS": "3", "STAGING_LOADERS": loaders})


def test_staging_off_takes_the_driver_path(run_checks_on_fake_driver):
    run_checks_on_fake_driver(os.path.join(HERE, "staging_checks.py"), memory=1 << 30,
                              env={"CUJIT_STAGING_THREADS": "0"})


@pytest.mark.gpu
def test_staged_copies_on_the_gpu():
    if cuda.get_current_device().name == "Fake GPU":
        pytest.skip("needs a real GPU")
    root = os.path.dirname(os.path.dirname(HERE))
    env = {k: v for k, v in os.environ.items() if k != "CUJIT_CUDA_DRIVER"}
    env["PYTHONPATH"] = os.path.join(root, "pkg")
    r = subprocess.run([sys.executable, os.path.join(HERE, "staging_checks.py")], cwd=root,
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-4000:] + r.stderr[-4000:]
