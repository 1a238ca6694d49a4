"""The C launch path against a fake libcuda (tests/cuda/fake_libcuda.c + fake_launch.c): the
parameters cuLaunchKernel receives, NumPy copies, eager conversions, the debug exception
record, configurations and per-signature resources. No GPU needed."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def test_launch_path_on_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "launch_checks.py"))
