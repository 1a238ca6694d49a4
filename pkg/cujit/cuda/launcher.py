"""The launch itself: argument typing, module loading and cuLaunchKernel.

Needs the CUDA runtime (driver table, DeviceNDArray, streams: issue 3)."""


def launch(config, args):
    raise NotImplementedError("launching cujit.cuda kernels needs the CUDA runtime (driver "
                              "table and DeviceNDArray), which this build does not have yet")
