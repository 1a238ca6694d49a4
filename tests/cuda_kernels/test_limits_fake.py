"""Limits of the launch paths under the fake driver (limits_checks.py)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def test_arrays_beyond_maxdim_on_the_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "limits_checks.py"))
