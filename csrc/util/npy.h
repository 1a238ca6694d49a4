/* npy.h: the NumPy C API for every file; module.c alone defines CJ_NUMPY_MAIN and imports it. */
#ifndef CJ_NPY_H
#define CJ_NPY_H
#define PY_ARRAY_UNIQUE_SYMBOL cj_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL cj_UFUNC_API
#ifndef CJ_NUMPY_MAIN
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#endif
#include <Python.h>
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>
#include <numpy/arrayscalars.h>
#endif
