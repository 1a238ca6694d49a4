/* module_inits.h: one line per subsystem's init function, `int fn(PyObject *module)`.
 * Included twice by module.c: once for the prototypes, once (with CJ_SUBSYSTEM defined) for
 * the table. Add a line here to register a subsystem. */
#ifndef CJ_SUBSYSTEM
#define CJ_SUBSYSTEM(fn) int fn(PyObject *module);
#define CJ_MODULE_INITS_PROTOTYPES
#endif
CJ_SUBSYSTEM(cj_types_init)
CJ_SUBSYSTEM(cj_driver_init)
CJ_SUBSYSTEM(cj_context_init)
CJ_SUBSYSTEM(cj_memory_init)
CJ_SUBSYSTEM(cj_managed_init)
CJ_SUBSYSTEM(cj_stream_init)
CJ_SUBSYSTEM(cj_event_init)
CJ_SUBSYSTEM(cj_cai_init)
CJ_SUBSYSTEM(cj_devicearray_init)
CJ_SUBSYSTEM(cj_devicearray_copy_init)
CJ_SUBSYSTEM(cj_dlpack_init)
CJ_SUBSYSTEM(cj_ipc_init)
CJ_SUBSYSTEM(cj_xoroshiro_init)
CJ_SUBSYSTEM(cj_frontend_init)
CJ_SUBSYSTEM(cj_excinfo_init)
CJ_SUBSYSTEM(cj_nrt_python_init)
CJ_SUBSYSTEM(cj_typed_list_init)
CJ_SUBSYSTEM(cj_typed_dict_init)
CJ_SUBSYSTEM(cj_generator_init)
CJ_SUBSYSTEM(cj_threading_python_init)
CJ_SUBSYSTEM(cj_threads_init)
CJ_SUBSYSTEM(cj_dispatcher_init)
CJ_SUBSYSTEM(cj_ufunc_init)
CJ_SUBSYSTEM(cj_cpu_init)
CJ_SUBSYSTEM(cj_ub_audit_init)
CJ_SUBSYSTEM(cj_nvvm_init)
CJ_SUBSYSTEM(cj_cuda_typing_init)
CJ_SUBSYSTEM(cj_extensions_init)
CJ_SUBSYSTEM(cj_extension_types_init)
CJ_SUBSYSTEM(cj_irbuilder_init)
CJ_SUBSYSTEM(cj_lowering_hooks_init)
CJ_SUBSYSTEM(cj_cuda_libdevice_init)
CJ_SUBSYSTEM(cj_cuda_init)
CJ_SUBSYSTEM(cj_cuda_exception_init)
CJ_SUBSYSTEM(cj_kernel_init)
CJ_SUBSYSTEM(cj_nvrtc_init)
CJ_SUBSYSTEM(cj_nvjitlink_init)
CJ_SUBSYSTEM(cj_ufunc_cuda_init)
#ifdef CJ_MODULE_INITS_PROTOTYPES
#undef CJ_SUBSYSTEM
#undef CJ_MODULE_INITS_PROTOTYPES
#endif
