"""cujit.config: CUJIT_<NAME>, else numba's NUMBA_<NAME> for the settings numba has."""
import pytest

from cujit import caching, config


def test_cujit_name_then_numba_name(monkeypatch):
    monkeypatch.delenv("CUJIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/tmp/from-numba")
    assert config.env("CACHE_DIR") == "/tmp/from-numba"
    assert config.env_name("CACHE_DIR") == "NUMBA_CACHE_DIR"
    monkeypatch.setenv("CUJIT_CACHE_DIR", "/tmp/from-cujit")
    assert config.env("CACHE_DIR") == "/tmp/from-cujit"
    assert config.env_name("CACHE_DIR") == "CUJIT_CACHE_DIR"


def test_only_numbas_own_settings_fall_back(monkeypatch):
    monkeypatch.delenv("CUJIT_UB_CHECK", raising=False)
    monkeypatch.setenv("NUMBA_UB_CHECK", "1")  # numba has no such setting
    assert config.env("UB_CHECK", "dflt") == "dflt"
    monkeypatch.setenv("CUJIT_UB_CHECK", "")  # empty is not set
    assert config.env("UB_CHECK") is None


def test_numba_cache_dir_moves_the_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("CUJIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))

    def f(x):
        return x
    assert caching.cache_dir(f) == str(tmp_path)


@pytest.mark.parametrize("name", sorted(config.NUMBA_NAMES))
def test_every_fallback_is_a_real_numba_setting(name):
    numba_config = pytest.importorskip("numba.core.config")
    with open(numba_config.__file__) as f:
        assert f'"NUMBA_{name}"' in f.read(), name  # numba reads that variable
