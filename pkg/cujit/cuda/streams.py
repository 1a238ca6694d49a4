"""Streams and events (numba's cuda.stream(), cuda.event(), ...)."""
from .. import _core

Stream = _core.Stream
Event = _core.Event


def stream():
    """A new CUDA stream (blocking with respect to the legacy default stream, as numba's)."""
    return _core.stream_create()


def default_stream():
    """The default stream (handle 0: the legacy default stream in the driver API)."""
    return _core.stream_wrap(0)


def legacy_default_stream():
    return _core.stream_wrap(1)


def per_thread_default_stream():
    return _core.stream_wrap(2)


def external_stream(ptr):
    """Wraps a stream made elsewhere (a CUstream address); cujit never destroys it."""
    if isinstance(ptr, bool) or not isinstance(ptr, int):
        raise TypeError("external_stream needs the stream's address as an int")
    if ptr < 0:
        raise ValueError("a stream address is non-negative")
    return _core.stream_wrap(ptr)


def event(timing=True):
    """A CUDA event; with timing, elapsed_time() measures between two recorded events."""
    return _core.event_create(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events (both on the GPU timeline)."""
    return _core.event_elapsed_time(evtstart, evtend)
